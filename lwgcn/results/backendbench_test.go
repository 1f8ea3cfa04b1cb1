package results

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBackendBenchMergeAndRead(t *testing.T) {
	goRow := BackendBench{Dataset: "texas", Case: CaseEpoch, Backend: "go", GOMAXPROCS: 2, CPUs: 2, MsPerEpoch: 20}
	xla2 := BackendBench{Dataset: "texas", Case: CaseEpoch, Backend: "xla:cpu", GOMAXPROCS: 1, CPUs: 2, MsPerEpoch: 30}
	go1 := BackendBench{Dataset: "texas", Case: CaseEpoch, Backend: "go", GOMAXPROCS: 1, CPUs: 1, MsPerEpoch: 25}
	// Threads: Go is limited by GOMAXPROCS, XLA by the CPUs (its own pool).
	if goRow.Threads() != 2 || xla2.Threads() != 2 || go1.Threads() != 1 {
		t.Fatalf("threads %d %d %d, want 2 2 1", goRow.Threads(), xla2.Threads(), go1.Threads())
	}
	newer := goRow
	newer.MsPerEpoch = 18
	merged := MergeBackendBench([]BackendBench{goRow, xla2}, []BackendBench{go1, newer})
	if len(merged) != 3 {
		t.Fatalf("merged %d rows, want 3: %+v", len(merged), merged)
	}
	// Sorted by threads then backend; the newer go/2-thread row replaced the old.
	if merged[0] != go1 || merged[1] != newer || merged[2] != xla2 {
		t.Fatalf("merged = %+v", merged)
	}

	dir := t.TempDir()
	path := filepath.Join(dir, "bench-backends.json")
	if rows, err := ReadBackendBench(path); err != nil || rows != nil {
		t.Fatalf("missing file: %v, %v; want no rows, no error", rows, err)
	}
	data, _ := json.Marshal(merged)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	rows, err := ReadBackendBench(path)
	if err != nil || len(rows) != 3 || rows[1].MsPerEpoch != 18 {
		t.Fatalf("read back %+v, %v", rows, err)
	}
	bad := []BackendBench{{Dataset: "texas", Case: "gcn", Backend: "go", GOMAXPROCS: 1, CPUs: 1}}
	data, _ = json.Marshal(bad)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadBackendBench(path); err == nil || !strings.Contains(err.Error(), "record 0 (texas/gcn/go/threads=1) has no positive ms_per_epoch and no error") {
		t.Fatalf("err = %v", err)
	}
}
