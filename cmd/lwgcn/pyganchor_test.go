package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/results"
)

// TestPyGAnchorCommand joins two tools' lines into a results file, keeps
// the rows a later run does not replace, and names a missing input.
func TestPyGAnchorCommand(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, lines ...string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	lw := func(dataset string, ms string) string {
		return `{"tool": "lwgcn", "graphs": "real", "dataset": "` + dataset + `", "model": "gcn", "threads": 1, "ms": ` + ms + `, "blocks": 3, "commit": "abc", "machine": "m"}`
	}
	pyg := func(dataset, adj, x, ms string) string {
		return `{"tool": "pyg", "graphs": "real", "dataset": "` + dataset + `", "model": "gcn", "adj": "` + adj + `", "x": "` + x + `", "threads": 1, "ms_mean": ` + ms + `, "torch": "2.15.0", "pyg": "2.8.1"}`
	}
	out := filepath.Join(dir, "bench-pyg.json")
	status, stdout, stderr := runLwgcn(t, "pyg-anchor", "-pyg", write("p1.jsonl", pyg("texas", "edge_index", "dense", "9"), pyg("texas", "csr", "sparse", "5")),
		"-lwgcn", write("g1.jsonl", lw("texas", "2.5")), "-out", out)
	if status != 0 || !strings.Contains(stdout, "texas      gcn    1 thread(s): lwgcn     2.50 ms, PyG fastest     5.00 ms (csr, sparse features): PyG / lwgcn 2.00x") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", status, stdout, stderr)
	}
	status, _, stderr = runLwgcn(t, "pyg-anchor", "-pyg", write("p2.jsonl", pyg("cora", "csr", "dense", "30")),
		"-lwgcn", write("g2.jsonl", lw("cora", "20")), "-out", out)
	if status != 0 {
		t.Fatalf("second run: exit %d: %s", status, stderr)
	}
	rows, err := results.ReadPyGAnchor(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 {
		t.Fatalf("%d rows after two runs, want texas kept and cora added: %+v", len(rows), rows)
	}
	status, _, stderr = runLwgcn(t, "pyg-anchor", "-pyg", filepath.Join(dir, "none.jsonl"), "-lwgcn", filepath.Join(dir, "g1.jsonl"), "-out", out)
	if status != 1 || !strings.Contains(stderr, "none.jsonl") {
		t.Errorf("missing input: exit %d, stderr %q", status, stderr)
	}
	status, _, stderr = runLwgcn(t, "pyg-anchor", "extra")
	if status != 2 || !strings.Contains(stderr, `pyg-anchor: unexpected argument "extra"`) {
		t.Errorf("extra argument: exit %d, stderr %q", status, stderr)
	}
}
