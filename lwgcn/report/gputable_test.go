package report

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/paper"
	"github.com/lwgcn/toolkit/lwgcn/results"
)

// The GPU column's row for Texas from hand-made runs: 10 runs trained 10
// per computation at 3 ms per batch epoch (0.3 ms per split-epoch), the
// first carrying the batch's 3 compiled graphs, compile and wall time
// summed over the runs' shares; the CPU cell from table2.json beside it;
// a dataset without GPU runs says so; no file, no section.
func TestGPUTable2Section(t *testing.T) {
	dir := t.TempDir()
	if doc, err := GPUTable2Markdown(dir); err != nil || doc != "" {
		t.Fatalf("without results/table2-gpu.json: %q, %v; want no section", doc, err)
	}
	var gpu, cpu []results.Run
	for s := range 10 {
		r := handRun("table2", "texas", "lwgcn", s, "G", 2)
		r.TestAcc, r.MsPerEpoch, r.BatchRuns, r.CompileSecs = 0.9, 3, 10, 0.5
		compiles := 0
		if s == 0 {
			compiles = 3
		}
		r.Compiles = &compiles
		r.Provenance.Backend = "xla:xla_cuda_plugin.so,tf32=false"
		gpu = append(gpu, r)
		c := handRun("table2", "texas", "lwgcn", s, "A", 1)
		c.TestAcc = 0.8
		cpu = append(cpu, c)
	}
	writeResults(t, filepath.Join(dir, "table2-gpu.json"), []results.Session{{ID: "G", WallSecs: 30}}, gpu)
	writeResults(t, filepath.Join(dir, "table2.json"), []results.Session{{ID: "A", WallSecs: 10}}, cpu)
	doc, err := GPUTable2Markdown(dir)
	if err != nil {
		t.Fatal(err)
	}
	p := paper.Table2["lwgcn"]["texas"]
	for _, want := range []string{
		fmt.Sprintf("| Texas | 10 | 90.0 ± 0.0 | 80.0 ± 0.0 | %.1f ± %.1f | 10 | 3.00 | 0.30 | 5.0 | 3 | 20.0 |", p.Mean, p.Std),
		"| Chameleon | not run |",
		"Time-to-table: 10 runs on a GPU, another machine (xla:xla_cuda_plugin.so,tf32=false): 30 s of wall time in 1 session",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("GPU section lacks %q; it has:\n%s", want, doc)
		}
	}
}
