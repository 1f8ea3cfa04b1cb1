package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/internal/dstest"
	"github.com/lwgcn/toolkit/lwgcn/results"
)

// `lwgcn reproduce` end to end (GCN on Texas, 1 run, 2 epochs, batch
// auto), twice into one results file: the first invocation's session adds
// the run it made (trained batched: GCN is batched by default), the
// resumed one adds nothing and records 0; `lwgcn results` prints the
// table's time-to-table from the first session only.
func TestReproduceRecordsSessions(t *testing.T) {
	bin := lwgcnBinary(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "table2.json")
	args := []string{"reproduce", "table2", "-datasets", "texas", "-methods", "gcn", "-max-runs", "1", "-epochs", "2",
		"-quiet", "-results", path, "-mirror", dstest.SharedDir(t), "-cache", t.TempDir()}
	for i := range 2 {
		ctx, cancel := context.WithTimeout(context.Background(), cliTimeout)
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Env = append(os.Environ(), "GOMLX_BACKEND=go")
		out, err := cmd.CombinedOutput()
		cancel()
		if err != nil {
			t.Fatalf("invocation %d: %v\n%s", i+1, err, out)
		}
	}
	f, err := results.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	ss, runs := f.Sessions(), f.Runs()
	if len(ss) != 2 || len(runs) != 1 {
		t.Fatalf("%d sessions, %d runs; want 2 and 1", len(ss), len(runs))
	}
	if ss[0].RunsAdded != 1 || ss[1].RunsAdded != 0 || ss[0].Command != "reproduce" || ss[0].Batch != "auto" ||
		!ss[0].Finished || runs[0].Session != ss[0].ID || runs[0].BatchRuns != 1 {
		t.Errorf("sessions %+v; run session %q, batch runs %d", ss, runs[0].Session, runs[0].BatchRuns)
	}
	ctx, cancel := context.WithTimeout(context.Background(), cliTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "results", "-dir", dir, "-out", "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	// (A load note may sit between the two parts when the machine is busy,
	// e.g. under the parallel test suite.)
	if !strings.Contains(string(out), "Time-to-table: ") || !strings.Contains(string(out), "of wall time in 1 session") ||
		!strings.Contains(string(out), "not complete (0 of 150 cells") {
		t.Errorf("lwgcn results lacks the time-to-table of the one session:\n%s", out)
	}
}

// Two reproduce invocations in parallel, each with its own results file
// (GCN on Texas, split 0 in one and split 1 in the other via -splits),
// merged into one: both runs and both sessions are there, and a reproduce
// of both splits on the merged file finds nothing left to train.
func TestMergeParallelInvocations(t *testing.T) {
	bin := lwgcnBinary(t)
	dir := t.TempDir()
	cache := t.TempDir()
	run := func(args ...string) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), cliTimeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Env = append(os.Environ(), "GOMLX_BACKEND=go")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("lwgcn %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	common := []string{"-datasets", "texas", "-epochs", "2", "-quiet", "-mirror", dstest.SharedDir(t), "-cache", cache}
	a, b, merged := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json"), filepath.Join(dir, "table2.json")
	if out := run(append([]string{"reproduce", "table2", "-methods", "gcn", "-splits", "0", "-results", a}, common...)...); !strings.Contains(out, "split 0 seed 15 [1/1]") {
		t.Errorf("-splits 0 did not train split 0 alone:\n%s", out)
	}
	if out := run(append([]string{"reproduce", "table2", "-methods", "gcn", "-splits", "1", "-results", b}, common...)...); !strings.Contains(out, "split 1 seed 15 [1/1]") {
		t.Errorf("-splits 1 did not train split 1 alone:\n%s", out)
	}
	out := run("merge", "-into", merged, a, b)
	if !strings.Contains(out, "b.json: 1 runs added, 0 replaced by later records (now 2 runs, 2 sessions)") {
		t.Errorf("merge output:\n%s", out)
	}
	f, err := results.Open(merged)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Runs()) != 2 || len(f.Sessions()) != 2 {
		t.Fatalf("merged: %d runs, %d sessions; want 2 and 2", len(f.Runs()), len(f.Sessions()))
	}
	run(append([]string{"reproduce", "table2", "-methods", "gcn", "-splits", "0-1", "-results", merged}, common...)...)
	if f, err = results.Open(merged); err != nil {
		t.Fatal(err)
	}
	if ss := f.Sessions(); len(f.Runs()) != 2 || len(ss) != 3 || ss[2].RunsAdded != 0 {
		t.Errorf("reproduce on the merged file: %d runs, sessions %+v; want 2 runs and a third session adding none", len(f.Runs()), ss)
	}
}
