package report

import (
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/labelwise"
	"github.com/lwgcn/toolkit/lwgcn/paper"
	"github.com/lwgcn/toolkit/lwgcn/results"
)

// A variant's note shows while its cell is more than 2 × the paper's std
// away (LW-GCN\G on Cora: 70.8 against 75.3 ± 0.4) and not once it is
// within (Citeseer: 65.0 against 65.1 ± 0.5).
func TestAblationNotes(t *testing.T) {
	defer func(old map[string]map[string]string) { labelwise.AblationNotes = old }(labelwise.AblationNotes)
	labelwise.AblationNotes = map[string]map[string]string{"lwgcn-g": {"cora": "CORA-NOTE", "citeseer": "CITESEER-NOTE"}}
	var runs []results.Run
	for s, acc := range []float64{0.706, 0.710} {
		r := handRun("table3", "cora", "lwgcn-g", s, "A", 1)
		r.TestAcc = acc
		runs = append(runs, r)
	}
	r := handRun("table3", "citeseer", "lwgcn-g", 0, "A", 1)
	r.TestAcc = 0.650
	runs = append(runs, r)
	got := ablationNotes(Summaries(runs), paper.Table3, []string{"cora", "citeseer"}, 2)
	want := "- LW-GCN\\G on Cora (70.8 ± 0.2 against the paper's 75.3 ± 0.4): CORA-NOTE\n"
	if !strings.HasSuffix(got, want) || strings.Contains(got, "CITESEER-NOTE") {
		t.Errorf("notes:\n%s\nwant the Cora note only, ending\n%s", got, want)
	}
	if got := ablationNotes(Summaries(runs[2:]), paper.Table3, []string{"cora", "citeseer"}, 2); got != "" {
		t.Errorf("no cell far out, got notes:\n%s", got)
	}
}

// The grid lists its points best validation first, the selected one in
// bold, with f_C's variant ("–" where a record predates it).
func TestAblationGrids(t *testing.T) {
	point := func(variant string, hidden, val, test float64) results.Run {
		r := handRun("train", "cora", "lwgcn-g", 0, "A", 1)
		r.Seed, r.ValAcc, r.TestAcc = 10, val, test
		r.Params = map[string]float64{"hidden": hidden, "dropout": 0.6, "weight_decay": 1e-4}
		if variant != "" {
			r.Options["variant"] = variant
		}
		return r
	}
	got := ablationGrids([]results.Run{point("dense", 64, 0.648, 0.684), point("small", 64, 0.710, 0.713), point("", 256, 0.660, 0.678)})
	want := "| small | 64 | 0.6 | 0.0001 | **71.0** | **71.3** |\n" +
		"| – | 256 | 0.6 | 0.0001 | 66.0 | 67.8 |\n" +
		"| dense | 64 | 0.6 | 0.0001 | 64.8 | 68.4 |\n"
	if !strings.Contains(got, "LW-GCN\\G on Cora") || !strings.HasSuffix(got, want) {
		t.Errorf("grid:\n%s\nwant it to end\n%s", got, want)
	}
	// AblationGrids reads them from results/lwgcn-g-grid.json (what
	// notebook 05 shows); no file, no grids.
	dir := t.TempDir()
	writeJSONFile(t, dir, "lwgcn-g-grid.json", map[string]any{"version": 1, "runs": []results.Run{point("small", 64, 0.710, 0.713)}})
	if g, err := AblationGrids(dir); err != nil || !strings.Contains(g, "| small | 64 | 0.6 | 0.0001 | **71.0** | **71.3** |") {
		t.Errorf("AblationGrids: %v\n%s", err, g)
	}
	if g, err := AblationGrids(t.TempDir()); err != nil || g != "" {
		t.Errorf("AblationGrids without a grid file: %q, %v", g, err)
	}
}
