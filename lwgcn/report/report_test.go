package report

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/paper"
	"github.com/lwgcn/toolkit/lwgcn/results"
)

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

// A depth cell with fewer runs than the protocol says how many it has.
func TestDepthPartial(t *testing.T) {
	for _, c := range []struct {
		dataset string
		n       int
		want    string
	}{{"squirrel", 1, " (1 of 10 runs)"}, {"squirrel", 10, ""}, {"cora", 2, " (2 of 3 runs)"}, {"cora", 3, ""}} {
		if got := partialMark(c.dataset, c.n); got != c.want {
			t.Errorf("partialMark(%s, %d) = %q, want %q", c.dataset, c.n, got, c.want)
		}
	}
}
