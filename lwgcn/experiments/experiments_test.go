package experiments

import (
	"context"
	"errors"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/internal/dstest"
	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/paper"
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
	s := Summaries(runs)["fake-resume"]["texas"]
	if s.Acc.N != 10 || math.Abs(s.Acc.Mean-54.5) > 1e-9 {
		t.Errorf("summary %+v, want 10 runs with mean 54.5", s.Acc)
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

// A depth cell with fewer runs than the protocol says how many it has.
func TestDepthPartial(t *testing.T) {
	for _, c := range []struct {
		dataset string
		n       int
		want    string
	}{{"squirrel", 1, " (1 of 10 runs)"}, {"squirrel", 10, ""}, {"cora", 2, " (2 of 3 runs)"}, {"cora", 3, ""}} {
		if got := depthPartial(c.dataset, c.n); got != c.want {
			t.Errorf("depthPartial(%s, %d) = %q, want %q", c.dataset, c.n, got, c.want)
		}
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

// Summaries keep only the configuration of the most recent run.
func TestSummariesUseLatestConfig(t *testing.T) {
	mk := func(cfg, date string, acc float64) results.Run {
		return results.Run{Model: "m", Dataset: "d", TestAcc: acc, Options: map[string]string{"config": cfg},
			Provenance: results.Provenance{Date: date}}
	}
	s := Summaries([]results.Run{mk("old", "2026-01-01T00:00:00Z", 0.1), mk("new", "2026-02-01T00:00:00Z", 0.8),
		mk("new", "2026-02-02T00:00:00Z", 0.6)})["m"]["d"]
	if s.Acc.N != 2 || math.Abs(s.Acc.Mean-70) > 1e-9 || math.Abs(s.Acc.Std-10) > 1e-9 {
		t.Errorf("summary %+v, want the two new runs: 70 ± 10", s.Acc)
	}
}

func TestVerdict(t *testing.T) {
	s := &Summary{Acc: results.Stat{Mean: 84.0, Std: 1, N: 3}}
	if v := Verdict(s, paper.Result{Mean: 84.3, Std: 0.3}, 0); !strings.HasPrefix(v, "no (-0.3") && !strings.HasPrefix(v, "yes (-0.3") {
		t.Errorf("verdict %q", v)
	}
	if v := Verdict(s, paper.Result{Mean: 86.2, Std: 5.8}, 0); !strings.HasPrefix(v, "yes (-2.2") {
		t.Errorf("verdict %q", v)
	}
	if v := Verdict(s, paper.Result{Mean: 72.3, Std: 0.4}, 1); !strings.HasPrefix(v, "no (+11.7") {
		t.Errorf("verdict with tolerance %q", v)
	}
}

func TestGridBestUsesValidation(t *testing.T) {
	runs := []results.Run{
		{Dataset: "d", Model: "m", ValAcc: 0.7, TestAcc: 0.9, Params: map[string]float64{"hidden": 32, "weight_decay": 5e-4}},
		{Dataset: "d", Model: "m", ValAcc: 0.8, TestAcc: 0.6, Params: map[string]float64{"hidden": 64, "weight_decay": 5e-4}},
	}
	best := GridBest(GridCells(runs)["d/m"])
	if best.Hidden != 64 {
		t.Errorf("selected hidden %d, want 64 (higher validation accuracy, lower test)", best.Hidden)
	}
	if md := GridMarkdown(runs); !strings.Contains(md, "**val 80.0 / test 60.0**") {
		t.Errorf("markdown does not mark the selection:\n%s", md)
	}
}

// Partial cells are listed against the protocol's run count: 10 splits for
// Geom-GCN graphs, 3 seeds for Planetoid ones.
func TestPartialRuns(t *testing.T) {
	var runs []results.Run
	add := func(dataset string, n int) {
		for i := range n {
			runs = append(runs, results.Run{Model: "gcn", Dataset: dataset, Split: i, TestAcc: 0.5,
				Options: map[string]string{"config": "c"}})
		}
	}
	add("texas", 3)
	add("chameleon", 10)
	add("cora", 3)
	got := partialRuns(Summaries(runs), []string{"gcn"}, []string{"texas", "chameleon", "cora"})
	if !strings.Contains(got, "GCN on Texas (3 of 10)") || strings.Contains(got, "Chameleon") || strings.Contains(got, "Cora") {
		t.Errorf("partialRuns = %q, want only Texas (3 of 10)", got)
	}
	if s := partialRuns(Summaries(runs), []string{"gcn"}, []string{"chameleon", "cora"}); s != "" {
		t.Errorf("complete cells listed: %q", s)
	}
}

func TestSweepRunsNote(t *testing.T) {
	mk := func(model string, h float64, epochs int) results.Run {
		return results.Run{Model: model, Dataset: "chameleon", Epochs: epochs,
			Params: map[string]float64{"h": h, "degree": 20}}
	}
	runs := []results.Run{mk("gcn", 0, 200), mk("gcn", 0, 200), mk("gcn", 0.5, 200), mk("gcn", 0.5, 200)}
	if got := sweepRunsNote(runs, "chameleon", 20); got != "2 runs per point, 200 epochs" {
		t.Errorf("note %q", got)
	}
	runs = append(runs, mk("mlp", 0, 80))
	if got := sweepRunsNote(runs, "chameleon", 20); got != "1-2 runs per point, 80-200 epochs" {
		t.Errorf("note %q", got)
	}
	// GCN at h = 0.5 re-run later with 400 epochs (another configuration):
	// the table averages those three runs only, and the note says so.
	at := func(model string, h float64, epochs int, config, date string) results.Run {
		r := mk(model, h, epochs)
		r.Options = map[string]string{"config": config, "point": "h=" + strconv.FormatFloat(h, 'f', 2, 64) + ",d=20"}
		r.Provenance.Date = date
		return r
	}
	const older, newer = "2026-11-20T12:00:00Z", "2026-11-25T12:00:00Z"
	runs = []results.Run{at("gcn", 0, 200, "old", older), at("gcn", 0, 200, "old", older),
		at("gcn", 0.5, 200, "old", older), at("gcn", 0.5, 200, "old", older)}
	for range 3 {
		runs = append(runs, at("gcn", 0.5, 400, "new", newer))
	}
	if got := sweepRunsNote(runs, "chameleon", 20); got != "2-3 runs per point, 200-400 epochs" {
		t.Errorf("note %q, want the 2 old runs at h = 0 and the 3 new at h = 0.5", got)
	}
	for _, c := range SweepCurves(runs, "chameleon") {
		if len(c.H) != 2 || c.Acc[0].N != 2 || c.Acc[1].N != 3 {
			t.Errorf("GCN curve %+v: want h = 0 and 0.5, the latter from the 3 newer runs", c)
		}
	}
}

// TestBudgetNote: a dataset whose goal is unmet gets a line when its part's
// fastest case exceeds PyTorch ms / goal, with that budget; a met goal or a
// part within budget gets none.
func TestBudgetNote(t *testing.T) {
	suite := &benchSuite{}
	add := func(name, graph string, ms float64) {
		suite.Cases = append(suite.Cases, benchCase{Name: name, Graph: graph, MsEpoch: ms})
	}
	add("gcnii-64", "cora", 300)
	add("labelwise-h256", "squirrel", 200)
	add("labelwise-h256", "squirrel", 110) // the other fusion setting: fastest counts
	rows := []results.EpochBench{{Dataset: "cora", MsPerEpoch: 400}, {Dataset: "squirrel", MsPerEpoch: 300}}
	note := budgetNote(rows, suite)
	// Cora: 512 ms / 5 = 102.4 ms budget < 300 ms.
	if !strings.Contains(note, "Cora: the goal leaves 102.4 ms for the epoch; gcnii-64 alone") ||
		!strings.Contains(note, "takes 300.0 ms") {
		t.Errorf("no Cora line in:\n%s", note)
	}
	// Squirrel: budget 1156 / 10 = 115.6 ms, fastest case 110 ms: within budget.
	if strings.Contains(note, "Squirrel") {
		t.Errorf("Squirrel's part is within its budget, yet:\n%s", note)
	}
	// Cora's goal met (512 / 100 = 5.12x >= 5x): no note at all.
	if n := budgetNote([]results.EpochBench{{Dataset: "cora", MsPerEpoch: 100}}, suite); n != "" {
		t.Errorf("goal met, yet a note:\n%s", n)
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
