package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/results"
)

// The rows of `lwgcn bench -backends` that came back in pieces (several
// calls on a lent GPU) merge as bench merges them: a later row replaces the
// row of the same dataset, case, backend and threads; the others stay.
func TestMergeBenchRows(t *testing.T) {
	dir := t.TempDir()
	write := func(name, rows string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(rows), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	row := func(ds, backend string, ms float64) string {
		return fmt.Sprintf(`{"dataset":%q,"case":"lwgcn-epoch","backend":%q,"gomaxprocs":2,"cpus":2,"ms_per_epoch":%g,"epochs_measured":5,"provenance":{}}`,
			ds, backend, ms)
	}
	a := write("a.json", "["+row("texas", "xla:cuda", 8)+","+row("texas", "go", 9)+"]")
	b := write("b.json", "["+row("texas", "xla:cuda", 1)+","+row("cora", "xla:cuda", 6)+"]")
	into := filepath.Join(dir, "bench-gpu.json")
	if status, _, stderr := runLwgcn(t, "merge", "-into", into, a, b); status != 0 {
		t.Fatalf("merge: exit %d: %s", status, stderr)
	}
	rows, err := results.ReadBackendBench(into)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, r := range rows {
		got[r.Dataset+"/"+r.Backend] = r.MsPerEpoch
	}
	want := map[string]float64{"texas/xla:cuda": 1, "texas/go": 9, "cora/xla:cuda": 6}
	if len(got) != len(want) {
		t.Fatalf("merged rows %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("merged rows %v, want %v", got, want)
		}
	}
	// Rows into a file of runs, and runs after rows, fail naming the files.
	runs := resultsFileWithOneRun(t, dir, "runs.json")
	status, _, stderr := runLwgcn(t, "merge", "-into", runs, a)
	if want := "holds bench rows, -into " + runs + " does not"; status != 1 || !strings.Contains(stderr, want) {
		t.Errorf("rows into runs: exit %d, stderr %q; want 1 with %q", status, stderr, want)
	}
	status, _, stderr = runLwgcn(t, "merge", "-into", filepath.Join(dir, "new.json"), a, runs)
	if want := runs + ": json: cannot unmarshal object"; status != 1 || !strings.Contains(stderr, want) {
		t.Errorf("runs after rows: exit %d, stderr %q; want 1 with %q", status, stderr, want)
	}
}
