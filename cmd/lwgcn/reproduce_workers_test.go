package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/lwgcn/toolkit/internal/dstest"
	"github.com/lwgcn/toolkit/lwgcn/results"
)

// mustRunLwgcn runs the built command on the Go backend with args exactly
// as given (runLwgcn would add its own -results) and fails the test, with
// the output, when it does not succeed.
func mustRunLwgcn(t *testing.T, bin string, args ...string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "GOMLX_BACKEND=go")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("lwgcn %v: %v\n%s", args, err, out.String())
	}
}

// reproduce -procs 2 records the same runs with the same results as one
// process (runs alone: -batch 1), in two sessions (one per worker), and
// leaves no worker file. A worker file that an interrupted invocation left
// is merged in by the next one.
func TestReproduceProcsMatchesOneProcess(t *testing.T) {
	bin := lwgcnBinary(t)
	dir := t.TempDir()
	cache := t.TempDir()
	run := func(path string, extra ...string) {
		t.Helper()
		mustRunLwgcn(t, bin, append([]string{"reproduce", "table2", "-datasets", "texas,cora", "-methods", "mlp,gcn",
			"-epochs", "6", "-batch", "1", "-quiet", "-mirror", dstest.SharedDir(t), "-cache", cache, "-results", path},
			extra...)...)
	}
	one, two := filepath.Join(dir, "one.json"), filepath.Join(dir, "two.json")
	run(one)
	run(two, "-procs", "2")
	a, err := results.Open(one)
	if err != nil {
		t.Fatal(err)
	}
	b, err := results.Open(two)
	if err != nil {
		t.Fatal(err)
	}
	// Texas: 10 splits, Cora: 3 seeds of the public split; two methods.
	if len(a.Runs()) != 26 || len(b.Runs()) != 26 {
		t.Fatalf("%d runs in one process, %d in two, want 26", len(a.Runs()), len(b.Runs()))
	}
	for _, r := range a.Runs() {
		o, ok := b.Get(r.Key)
		if !ok || o.TestAcc != r.TestAcc || o.ValAcc != r.ValAcc || o.BestEpoch != r.BestEpoch {
			t.Errorf("%s: one process test %v val %v epoch %d; two: %+v (found %v)", r.Key, r.TestAcc, r.ValAcc,
				r.BestEpoch, o, ok)
		}
	}
	if n := len(b.Sessions()); n != 2 {
		t.Errorf("%d sessions from two workers, want 2", n)
	}
	left, _ := filepath.Glob(filepath.Join(dir, "*worker*"))
	if len(left) != 0 {
		t.Errorf("worker files left: %v", left)
	}

	// An interrupted invocation's worker file: merged by the next one, whose
	// workers then find every run recorded.
	three := filepath.Join(dir, "three.json")
	data, err := os.ReadFile(one)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(workerPath(three, 1, 2), data, 0o644); err != nil {
		t.Fatal(err)
	}
	run(three, "-procs", "2")
	c, err := results.Open(three)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Runs()) != 26 {
		t.Errorf("after a left worker file: %d runs, want 26", len(c.Runs()))
	}
	for _, s := range c.Sessions()[1:] {
		if s.RunsAdded != 0 {
			t.Errorf("a worker trained %d runs that the left worker file held", s.RunsAdded)
		}
	}
}

// sweep -procs 2 records the same runs with the same results as one
// process, MLP's copies at the later h included.
func TestSweepProcsMatchesOneProcess(t *testing.T) {
	bin := lwgcnBinary(t)
	dir, cache := t.TempDir(), t.TempDir()
	run := func(path string, extra ...string) *results.File {
		t.Helper()
		mustRunLwgcn(t, bin, append([]string{"sweep", "-base", "texas", "-degrees", "3", "-homophily", "0.2,0.8",
			"-methods", "mlp,gcn", "-epochs", "5", "-max-runs", "4", "-batch", "1", "-quiet", "-mirror", dstest.SharedDir(t),
			"-cache", cache, "-results", path}, extra...)...)
		f, err := results.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	a := run(filepath.Join(dir, "one.json"))
	b := run(filepath.Join(dir, "two.json"), "-procs", "2")
	// 2 h x 4 splits x 2 methods.
	if len(a.Runs()) != 16 || len(b.Runs()) != 16 {
		t.Fatalf("%d runs in one process, %d in two, want 16", len(a.Runs()), len(b.Runs()))
	}
	for _, r := range a.Runs() {
		if o, ok := b.Get(r.Key); !ok || o.TestAcc != r.TestAcc || o.BestEpoch != r.BestEpoch || o.Note != r.Note {
			t.Errorf("%s: one process %v (epoch %d, note %q); two: %+v (found %v)", r.Key, r.TestAcc, r.BestEpoch, r.Note, o, ok)
		}
	}
}
