package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/internal/dstest"
	"github.com/lwgcn/toolkit/lwgcn/datasets"
)

// childResult takes a -child process's last line as its result and hands
// back what libraries printed before it.
func TestChildResult(t *testing.T) {
	for _, c := range []struct{ out, result, other string }{
		{"{\"runs\":1}\n", "{\"runs\":1}", ""},
		{"{\"runs\":1}", "{\"runs\":1}", ""},
		{"Go backend: parallelism set to 2\n{\"runs\":1}\n", "{\"runs\":1}", "Go backend: parallelism set to 2\n"},
		{"a\nb\n{}\n\n", "{}", "a\nb\n"},
		{"", "", ""},
	} {
		result, other := childResult([]byte(c.out))
		if string(result) != c.result || string(other) != c.other {
			t.Errorf("childResult(%q) = %q, %q; want %q, %q", c.out, result, other, c.result, c.other)
		}
	}
}

// A Go backend configured with parallelism=N prints a line on standard
// output in every block's process; bench-batched still reads the blocks'
// results and passes the line on to standard error.
func TestBenchBatchedWithBackendOutput(t *testing.T) {
	out := filepath.Join(t.TempDir(), "bench-batched.json")
	ctx, cancel := context.WithTimeout(context.Background(), cliTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, lwgcnBinary(t), "bench-batched", "-model", "mlp", "-datasets", "texas", "-procs", "1",
		"-blocks", "1", "-runs", "2", "-benchtime", "100ms", "-mirror", dstest.SharedDir(t), "-cache", t.TempDir(), "-out", out)
	cmd.Env = append(os.Environ(), "GOMLX_BACKEND=go:parallelism=2")
	var e bytes.Buffer
	cmd.Stderr = &e
	if err := cmd.Run(); err != nil {
		t.Fatalf("lwgcn bench-batched: %v; stderr:\n%s", err, e.String())
	}
	if !strings.Contains(e.String(), "Go backend: parallelism set to 2") || !strings.Contains(e.String(), "block 1 alone") {
		t.Errorf("stderr lacks the backend's line or the block timings:\n%s", e.String())
	}
	if b, err := os.ReadFile(out); err != nil || !bytes.Contains(b, []byte(`"alone_ms_per_split_epoch"`)) {
		t.Errorf("%s: %v\n%s", out, err, b)
	}
}

// `bench-batched -model gcn` times the GCN that training runs: the zoo's, on
// the symmetrised graph (Texas's loaded edges are directed).
func TestBenchBatchedGCNIsTheTrainedOne(t *testing.T) {
	g := datasets.Standard(dstest.Load(t, "texas"))
	if g.IsSymmetric() {
		t.Fatal("Texas's loaded edges are symmetric: the test needs a directed graph")
	}
	_, mg, h, _, err := benchZooModel("gcn", g, "texas")
	if err != nil {
		t.Fatal(err)
	}
	want := g.ToUndirected()
	if !mg.IsSymmetric() || mg.NumEdges() != want.NumEdges() || h.Hidden != 64 || h.Dropout != 0.5 {
		t.Fatalf("timed GCN: symmetric %v, %d edges (training's %d), hidden %d, dropout %v", mg.IsSymmetric(),
			mg.NumEdges(), want.NumEdges(), h.Hidden, h.Dropout)
	}
}
