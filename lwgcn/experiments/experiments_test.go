package experiments

import (
	"context"
	"errors"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/internal/dstest"
	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/datasets"
	"github.com/lwgcn/toolkit/lwgcn/labelwise"
	"github.com/lwgcn/toolkit/lwgcn/results"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

// fakeMethod records its calls and can cancel the experiment after a number
// of runs, as a kill would.
type fakeMethod struct {
	calls  *[]int
	cancel func()
	after  int
}

func (f *fakeMethod) Config() string             { return "fake-v1" }
func (f *fakeMethod) Describe() string           { return "fake" }
func (f *fakeMethod) Params() map[string]float64 { return map[string]float64{"hidden": 8} }
func (f *fakeMethod) Run(ctx context.Context, split int, seed int64) (Outcome, error) {
	*f.calls = append(*f.calls, split)
	if f.after > 0 && len(*f.calls) == f.after {
		f.cancel()
	}
	return Outcome{TestAcc: 0.5 + 0.01*float64(split), ValAcc: 0.6, BestEpoch: 3, Epochs: 10}, nil
}

// RunBatch runs each run alone (the experiments' wiring only).
func (f *fakeMethod) RunBatch(ctx context.Context, runs []train.Run, size int) ([]Outcome, int, error) {
	return eachAlone(ctx, f, runs, size)
}

// eachAlone is a fake method's RunBatch: Run for each run.
func eachAlone(ctx context.Context, m Method, runs []train.Run, size int) ([]Outcome, int, error) {
	var outs []Outcome
	for _, r := range runs {
		o, err := m.Run(ctx, r.Split, r.Seed)
		if err != nil {
			return nil, 0, err
		}
		outs = append(outs, o)
	}
	return outs, size, nil
}

// A killed experiment resumes: the runs recorded before the kill are not
// redone, the others are, and the file ends with one record per run.
func TestRunResumesAfterKill(t *testing.T) {
	var calls []int
	var cancel context.CancelFunc
	killAfter := 4
	RegisterMethod("fake-resume", func(env Env) (Method, error) {
		return &fakeMethod{calls: &calls, cancel: func() { cancel() }, after: killAfter}, nil
	})
	b, info, err := backend.Shared()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "t.json")
	spec := Spec{Experiment: "test", ResultsPath: path, Datasets: []string{"texas"}, Methods: []string{"fake-resume"},
		DatasetOptions: dstest.Options(t)}
	var ctx context.Context
	ctx, cancel = context.WithCancel(context.Background())
	_, err = Run(ctx, b, info, spec)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("first run: err = %v, want context.Canceled", err)
	}
	f, _ := results.Open(path)
	if n := len(f.Runs()); n != 4 {
		t.Fatalf("after the kill %d runs recorded, want 4", n)
	}
	calls, killAfter = nil, 0
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	file, err := Run(ctx, b, info, spec)
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) != 6 || calls[0] != 4 {
		t.Errorf("resumed run trained splits %v, want 4..9", calls)
	}
	runs := file.Runs()
	if len(runs) != 10 {
		t.Fatalf("%d runs recorded, want 10", len(runs))
	}
	var tests []float64
	for _, r := range runs {
		tests = append(tests, 100*r.TestAcc)
	}
	if s := results.MeanStd(tests); s.N != 10 || math.Abs(s.Mean-54.5) > 1e-9 {
		t.Errorf("test accuracies %+v, want 10 runs with mean 54.5", s)
	}
	// Two sessions: the killed one (4 runs, ended by the cancellation) and
	// the resumed one (the other 6).
	ss := file.Sessions()
	if len(ss) != 2 || ss[0].RunsAdded != 4 || ss[0].Finished || !strings.Contains(ss[0].Error, "canceled") ||
		ss[1].RunsAdded != 6 || !ss[1].Finished {
		t.Errorf("sessions %+v", ss)
	}
}

// diskMethod checks, at each run, what the results file on disk and the log
// already hold.
type diskMethod struct {
	path   string
	log    *strings.Builder
	onDisk []int // runs in the file when each run starts
	logged []int // run lines in the log when each run starts
}

func (d *diskMethod) Config() string             { return "disk-v1" }
func (d *diskMethod) Describe() string           { return "disk" }
func (d *diskMethod) Params() map[string]float64 { return nil }
func (d *diskMethod) RunBatch(ctx context.Context, runs []train.Run, size int) ([]Outcome, int, error) {
	return eachAlone(ctx, d, runs, size)
}

func (d *diskMethod) Run(ctx context.Context, split int, seed int64) (Outcome, error) {
	n := 0
	if f, err := results.Open(d.path); err == nil {
		n = len(f.Runs())
	}
	d.onDisk = append(d.onDisk, n)
	d.logged = append(d.logged, strings.Count(d.log.String(), "test texas disk-record split"))
	return Outcome{TestAcc: 0.5, ValAcc: 0.6, BestEpoch: 1, Epochs: 2}, nil
}

// Runs trained one at a time are written to the results file and logged as
// each finishes, not when the cell does: a process killed outright (no
// chance to save) keeps every run finished before the kill.
func TestRunRecordsEachRunWhenTrained(t *testing.T) {
	var log strings.Builder
	path := filepath.Join(t.TempDir(), "t.json")
	dm := &diskMethod{path: path, log: &log}
	RegisterMethod("disk-record", func(env Env) (Method, error) { return dm, nil })
	b, info, err := backend.Shared()
	if err != nil {
		t.Fatal(err)
	}
	spec := Spec{Experiment: "test", ResultsPath: path, Datasets: []string{"texas"}, Methods: []string{"disk-record"},
		MaxRuns: 4, Log: &log, DatasetOptions: dstest.Options(t)}
	if _, err := Run(context.Background(), b, info, spec); err != nil {
		t.Fatal(err)
	}
	if want := []int{0, 1, 2, 3}; !slices.Equal(dm.onDisk, want) || !slices.Equal(dm.logged, want) {
		t.Errorf("runs on disk %v and logged %v as each run started, want %v", dm.onDisk, dm.logged, want)
	}
}

func TestProtocol(t *testing.T) {
	if r := Protocol("cora", 1); len(r) != 3 || r[0].Seed != 10 || r[2].Seed != 12 || r[2].Split != 0 {
		t.Errorf("cora protocol %v", r)
	}
	if r := Protocol("texas", 10); len(r) != 10 || r[9].Split != 9 || r[9].Seed != 15 {
		t.Errorf("texas protocol %v", r)
	}
}

// WorkerShare splits runs between workers: every run goes to exactly one
// worker, in order, and the shares differ in size by at most one.
func TestWorkerShare(t *testing.T) {
	runs := Protocol("texas", 10)
	if got := WorkerShare(runs, 0, 1); len(got) != 10 {
		t.Fatalf("one worker keeps %d runs, want 10", len(got))
	}
	for _, n := range []int{2, 3, 4, 11} {
		seen := map[int]int{}
		sizes := []int{}
		for w := range n {
			share := WorkerShare(runs, w, n)
			sizes = append(sizes, len(share))
			for i, r := range share {
				seen[r.Split]++
				if i > 0 && r.Split <= share[i-1].Split {
					t.Errorf("%d workers, worker %d: runs out of order: %v", n, w, share)
				}
			}
		}
		for s := range 10 {
			if seen[s] != 1 {
				t.Errorf("%d workers: split %d runs %d times", n, s, seen[s])
			}
		}
		if slices.Max(sizes)-slices.Min(sizes) > 1 {
			t.Errorf("%d workers: share sizes %v", n, sizes)
		}
	}
	// Planetoid: the public split's three seeds are shared out too.
	if a, b := WorkerShare(Protocol("cora", 1), 0, 2), WorkerShare(Protocol("cora", 1), 1, 2); len(a) != 2 || len(b) != 1 ||
		a[0].Seed != 10 || b[0].Seed != 11 || a[1].Seed != 12 {
		t.Errorf("cora shares %v and %v", a, b)
	}
}

// A run's record names LW-GCN's f_C variant (the config hash alone does
// not say it); a baseline's record has the hash only.
func TestRunRecordNamesVariant(t *testing.T) {
	b, info, err := backend.Shared()
	if err != nil {
		t.Fatal(err)
	}
	env := Env{Backend: b, Info: info, Graph: datasets.Standard(dstest.Load(t, "texas")), Dataset: "texas"}
	for _, v := range []labelwise.Variant{labelwise.Dense, labelwise.Small} {
		e := env
		e.Override = Overrides{Settings: map[string]float64{"variant": float64(v)}}
		m, err := NewMethod("lwgcn-g", e)
		if err != nil {
			t.Fatal(err)
		}
		r := RunRecord("train", "texas", "lwgcn-g", m, train.Run{Seed: 10}, Outcome{}, 0, 0, info)
		if r.Options["variant"] != v.String() || r.Options["config"] == "" {
			t.Errorf("variant %s: options %v", v, r.Options)
		}
	}
	m, err := NewMethod("gcn", env)
	if err != nil {
		t.Fatal(err)
	}
	if r := RunRecord("train", "texas", "gcn", m, train.Run{Seed: 10}, Outcome{}, 0, 0, info); len(r.Options) != 1 {
		t.Errorf("gcn: options %v, want the config hash only", r.Options)
	}
}
