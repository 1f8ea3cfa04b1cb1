package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/results"
)

func TestPyGAnchorSection(t *testing.T) {
	dir := t.TempDir()
	rows := []results.PyGAnchor{
		{Dataset: "cora", Model: "gcnii", Threads: 2, LwgcnMs: 50, Blocks: 3, Commit: "abc", Machine: "AMD EPYC (family 25 model 17)",
			Torch: "2.15.0", PyGVersion: "2.8.1", PyG: []results.PyGVariant{{Adj: "edge_index", X: "dense", Ms: 80}, {Adj: "csr", X: "sparse", Ms: 40}}},
		{Dataset: "texas", Model: "gcnii", Threads: 1, LwgcnMs: 10, Blocks: 3, Commit: "abc", Machine: "AMD EPYC (family 25 model 17)",
			Torch: "2.15.0", PyGVersion: "2.8.1", PyG: []results.PyGVariant{{Adj: "csr", X: "dense", Ms: 25}}},
	}
	writeJSONFile(t, dir, "bench-pyg.json", rows)
	got, err := PyGAnchorMarkdown(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		// Texas before Cora (Table 2's order); the fastest variant is the
		// lowest ms whatever the file's order; ratios are PyG / lwgcn.
		"| GCNII | Texas | 1 | 10.00 | 25.00 (csr, dense features) | 2.50x | – | – | yes |\n| GCNII | Cora | 2 | 50.00 | 40.00 (csr, sparse features) | 0.80x | 80.00 | 1.60x | no |",
		"lwgcn faster than PyG's fastest variant in 1 of 2 rows.",
		"_lwgcn: commit abc; PyG: torch 2.15.0, PyG 2.8.1; machine: AMD EPYC (family 25 model 17)_",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("section lacks %q:\n%s", want, got)
		}
	}
	// Another host's run: a table of its own after the first, with its
	// own count and footer.
	writeJSONFile(t, dir, "bench-pyg-intel.json", []results.PyGAnchor{
		{Dataset: "squirrel", Model: "gat", Threads: 1, LwgcnMs: 100, Blocks: 3, Commit: "def", Machine: "Intel(R) Xeon(R) Processor (family 6 model 207)",
			Torch: "2.15.0", PyGVersion: "2.8.1", PyG: []results.PyGVariant{{Adj: "csr", X: "sparse", Ms: 150}}},
	})
	got, err = PyGAnchorMarkdown(dir)
	if err != nil {
		t.Fatal(err)
	}
	first := strings.Index(got, "in 1 of 2 rows.")
	other := strings.Index(got, "The same comparison in another run (results/bench-pyg-intel.json; host in its footer):")
	if first < 0 || other < first {
		t.Fatalf("the other host's run is not after the first table:\n%s", got)
	}
	for _, want := range []string{
		"| GAT | Squirrel | 1 | 100.00 | 150.00 (csr, sparse features) | 1.50x | – | – | yes |",
		"lwgcn faster than PyG's fastest variant in 1 of 1 rows.",
		"_lwgcn: commit def; PyG: torch 2.15.0, PyG 2.8.1; machine: Intel(R) Xeon(R) Processor (family 6 model 207)_",
	} {
		if i := strings.Index(got, want); i < other {
			t.Errorf("the other host's table lacks %q:\n%s", want, got)
		}
	}
	// A GPU run (rows with a device): its own paragraph, the device, lwgcn's
	// backend and PyTorch's threads in its footer.
	writeJSONFile(t, dir, "bench-pyg-gpu.json", []results.PyGAnchor{
		{Dataset: "texas", Model: "gcn", Threads: 2, LwgcnMs: 0.71, Blocks: 1, Commit: "fed", Backend: "xla:xla_cuda_plugin.so,tf32=false",
			Machine: "Intel(R) Xeon(R) Processor (family 6 model 207)", Device: "NVIDIA H200", PyGThreads: 16,
			Torch: "2.11.0+cu130", PyGVersion: "2.8.0.post1", PyG: []results.PyGVariant{{Adj: "csr", X: "dense", Ms: 4.35}}},
	})
	got, err = PyGAnchorMarkdown(dir)
	if err != nil {
		t.Fatal(err)
	}
	gpu := strings.Index(got, "On a GPU (results/bench-pyg-gpu.json, xla/gpu-check.sh step 5)")
	if gpu < 0 || strings.Contains(got, "another run (results/bench-pyg-gpu.json") {
		t.Fatalf("the GPU run has no paragraph of its own:\n%s", got)
	}
	if cpu := strings.Index(got, "another run (results/bench-pyg-intel.json"); cpu < 0 || gpu < cpu {
		t.Errorf("the GPU run is not after the other CPU host's:\n%s", got)
	}
	for _, want := range []string{
		"| GCN | Texas | 2 | 0.71 | 4.35 (csr, dense features) | 6.13x | – | – | yes |",
		"; device: NVIDIA H200 (lwgcn xla:xla_cuda_plugin.so,tf32=false, PyTorch 16 host threads)_",
	} {
		if i := strings.Index(got, want); i < gpu {
			t.Errorf("the GPU table lacks %q:\n%s", want, got)
		}
	}
	if strings.Count(got, "; device: ") != 1 {
		t.Errorf("a CPU table names a device:\n%s", got)
	}
	if s, err := PyGAnchorMarkdown(t.TempDir()); s != "" || err != nil {
		t.Errorf("no file: %q, %v", s, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bench-pyg.json"), []byte(`[{"dataset": "cora", "model": "gcn", "threads": 1, "lwgcn_ms": 3}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := PyGAnchorMarkdown(dir); err == nil || !strings.Contains(err.Error(), "record 0 has no dataset, model, threads, lwgcn_ms or PyG timings") {
		t.Errorf("a row without PyG timings: %v", err)
	}
}
