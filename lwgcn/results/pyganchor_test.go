package results

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeLines(t *testing.T, name string, lines ...string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const (
	lwTexas  = `{"tool": "lwgcn", "graphs": "real", "dataset": "texas", "model": "gcn", "threads": 1, "ms": 2.5, "cpu_ms_per_epoch": 2.4, "blocks": 3, "commit": "abc", "backend": "go", "machine": "AMD EPYC (family 25 model 17)"}`
	pygSlow  = `{"tool": "pyg", "graphs": "real", "dataset": "texas", "model": "gcn", "adj": "edge_index", "x": "dense", "threads": 1, "ms_mean": 9, "ms_median": 8.5, "torch": "2.15.0", "pyg": "2.8.1"}`
	pygFast  = `{"tool": "pyg", "graphs": "real", "dataset": "texas", "model": "gcn", "adj": "csr", "x": "sparse", "threads": 1, "ms_mean": 4, "ms_median": 3.9, "torch": "2.15.0", "pyg": "2.8.1"}`
	pygRand  = `{"tool": "pyg", "graphs": "random", "dataset": "cora", "model": "gcn", "adj": "csr", "x": "dense", "threads": 2, "ms_mean": 7}`
	lwRandom = `{"tool": "lwgcn", "graphs": "random", "dataset": "cora", "model": "gcn", "threads": 2, "ms": 3}`
)

// TestJoinPyGAnchor joins the two tools' lines per dataset, model and
// threads, PyG's variants fastest first, random-graph lines left out.
func TestJoinPyGAnchor(t *testing.T) {
	pyg := writeLines(t, "pyg.jsonl", pygSlow, "", pygRand, pygFast)
	lw := writeLines(t, "go.jsonl", lwTexas, lwRandom)
	rows, err := JoinPyGAnchor(pyg, lw)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 {
		t.Fatalf("%d rows, want 1: %+v", len(rows), rows)
	}
	r := rows[0]
	if r.Dataset != "texas" || r.Model != "gcn" || r.Threads != 1 || r.LwgcnMs != 2.5 || r.Commit != "abc" || r.Torch != "2.15.0" {
		t.Errorf("row %+v", r)
	}
	if f := r.Fastest(); f.Adj != "csr" || f.X != "sparse" || f.Ms != 4 || len(r.PyG) != 2 {
		t.Errorf("fastest %+v of %+v, want csr/sparse at 4 ms", f, r.PyG)
	}
	if u, ok := r.Variant("edge_index", "dense"); !ok || u.Ms != 9 || u.MedianMs != 8.5 {
		t.Errorf("edge_index/dense: %+v, %v", u, ok)
	}
}

func TestJoinPyGAnchorErrors(t *testing.T) {
	lw := writeLines(t, "go.jsonl", lwTexas)
	for _, tc := range []struct {
		name      string
		pyg, lw   []string
		wantInErr string
	}{
		{"bad json", []string{pygFast, `{"tool": "pyg",`}, []string{lwTexas}, "pyg.jsonl:2: "},
		{"no lwgcn partner", []string{pygFast, strings.Replace(pygSlow, `"threads": 1`, `"threads": 2`, 1)}, []string{lwTexas},
			"pyg.jsonl:2: gcn texas at 2 threads has no lwgcn timing in "},
		{"no PyG timing", []string{pygFast}, []string{lwTexas, strings.Replace(lwTexas, `"gcn"`, `"gat"`, 1)}, "gat texas at 1 threads has no PyG timing"},
		{"duplicate variant", []string{pygFast, pygFast}, []string{lwTexas}, "pyg.jsonl:2: a second timing of gcn texas at 1 threads (csr, sparse features)"},
		{"zero ms", []string{strings.Replace(pygFast, `"ms_mean": 4`, `"ms_mean": 0`, 1)}, []string{lwTexas}, "pyg.jsonl:1: want a PyG timing"},
		{"lwgcn without ms", []string{pygFast}, []string{strings.Replace(lwTexas, `"ms": 2.5`, `"ms": 0`, 1)}, "go.jsonl:1: want an lwgcn timing"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := JoinPyGAnchor(writeLines(t, "pyg.jsonl", tc.pyg...), writeLines(t, "go.jsonl", tc.lw...))
			if err == nil || !strings.Contains(err.Error(), tc.wantInErr) {
				t.Errorf("err = %v, want it to contain %q", err, tc.wantInErr)
			}
		})
	}
	if _, err := JoinPyGAnchor(filepath.Join(t.TempDir(), "absent.jsonl"), lw); err == nil || !strings.Contains(err.Error(), "absent.jsonl") {
		t.Errorf("missing file: %v", err)
	}
}

// TestJoinPyGAnchorGPU: PyG's lines with a CUDA device join lwgcn's by
// dataset and model (the thread counts are the hosts'), recording the
// device and PyTorch's threads; two lwgcn timings of one cell are an error.
func TestJoinPyGAnchorGPU(t *testing.T) {
	gpu := func(line string) string {
		return strings.Replace(strings.Replace(line, `"threads": 1`, `"threads": 16`, 1), `"pyg": "2.8.1"`, `"pyg": "2.8.1", "device": "NVIDIA H200"`, 1)
	}
	lwGPU := strings.Replace(strings.Replace(lwTexas, `"threads": 1`, `"threads": 2`, 1), `"backend": "go"`, `"backend": "xla:xla_cuda_plugin.so"`, 1)
	rows, err := JoinPyGAnchor(writeLines(t, "pyg.jsonl", gpu(pygSlow), gpu(pygFast)), writeLines(t, "lw.jsonl", lwGPU))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 {
		t.Fatalf("%d rows, want 1: %+v", len(rows), rows)
	}
	r := rows[0]
	if r.Device != "NVIDIA H200" || r.Threads != 2 || r.PyGThreads != 16 || len(r.PyG) != 2 || r.Fastest().Ms != 4 {
		t.Errorf("row %+v, want device NVIDIA H200, lwgcn 2 threads, PyG 16, two variants", r)
	}
	// The same lines without a device are CPU timings: 16 threads has no partner.
	if _, err := JoinPyGAnchor(writeLines(t, "pyg.jsonl", strings.Replace(pygFast, `"threads": 1`, `"threads": 16`, 1)), writeLines(t, "lw.jsonl", lwGPU)); err == nil ||
		!strings.Contains(err.Error(), "at 16 threads has no lwgcn timing") {
		t.Errorf("CPU line at other threads: %v", err)
	}
	lw1 := strings.Replace(lwGPU, `"threads": 2`, `"threads": 1`, 1)
	if _, err := JoinPyGAnchor(writeLines(t, "pyg.jsonl", gpu(pygFast)), writeLines(t, "lw.jsonl", lwGPU, lw1)); err == nil ||
		!strings.Contains(err.Error(), "pyg.jsonl:1: gcn texas on NVIDIA H200: 2 lwgcn timings in ") {
		t.Errorf("two lwgcn timings: %v", err)
	}
}
