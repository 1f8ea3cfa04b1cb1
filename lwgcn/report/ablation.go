package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lwgcn/toolkit/lwgcn/experiments"
	"github.com/lwgcn/toolkit/lwgcn/labelwise"
	"github.com/lwgcn/toolkit/lwgcn/paper"
	"github.com/lwgcn/toolkit/lwgcn/results"
)

// ablationGridFile holds the validation grids behind labelwise.AblationNotes
// (results/lwgcn-g-grid.json, `lwgcn train -model lwgcn-g` runs).
const ablationGridFile = "lwgcn-g-grid"

// Table3Notes explains the LW-GCN variants' cells of Table 3 (runs
// summarised by Summaries) more than twice the paper's std from its
// number: from the runs where f_G decides, else by the measured notes of
// labelwise.AblationNotes. docs/RESULTS.md and notebook 05 show them under
// the table.
func Table3Notes(sums map[string]map[string]*Summary, datasets []string) string {
	return fgDominatedNotes(sums, paper.Table3, []fgDominated{{"lwgcn-p", `LW-GCN\P`, "gcnii", "GCNII"},
		{"lwgcn-gcn", "LW-GCN_GCN", "gcn", "GCN"}, {"lwgcn", "LW-GCN", "gcnii", "GCNII"}}, datasets, 2) +
		ablationNotes(sums, paper.Table3, datasets, 2)
}

// ablationNotes lists labelwise.AblationNotes for the cells more than stds
// of the paper's std from its number (a note whose cell came within is not
// shown).
func ablationNotes(sums map[string]map[string]*Summary, ref map[string]map[string]paper.Result, datasets []string,
	stds float64) string {
	var b strings.Builder
	for _, m := range sortedKeys(labelwise.AblationNotes) {
		for _, d := range datasets {
			note, ok := labelwise.AblationNotes[m][d]
			p, okP := ref[m][d]
			s := sums[m][d]
			if !ok || !okP || s == nil || withinStds(s.Acc.Mean, p, stds) {
				continue
			}
			fmt.Fprintf(&b, "- %s on %s (%.1f ± %.1f against the paper's %.1f ± %.1f): %s\n", experiments.MethodTitle(m),
				experiments.DatasetTitle(d), s.Acc.Mean, s.Acc.Std, p.Mean, p.Std, note)
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return fmt.Sprintf("\nOther rows more than %g × the paper's std from its number, and what was measured:\n\n", stds) + b.String()
}

// AblationGrids renders the validation grids behind labelwise.AblationNotes
// (results/lwgcn-g-grid.json in dir), which the notes point to ("the grid
// below"): docs/RESULTS.md and notebook 05 show them under Table 3's notes.
// It is "" when dir holds no grid runs.
func AblationGrids(dir string) (string, error) {
	grid, err := openRuns(dir, ablationGridFile)
	if err != nil || len(grid) == 0 {
		return "", err
	}
	return ablationGrids(grid), nil
}

// ablationGrids renders the grid runs, per dataset and method, best
// validation first (the selected point in bold), with each run's f_C
// variant and settings.
func ablationGrids(runs []results.Run) string {
	byDM := map[string][]results.Run{}
	for _, r := range runs {
		byDM[r.Dataset+"/"+r.Model] = append(byDM[r.Dataset+"/"+r.Model], r)
	}
	var b strings.Builder
	for _, dm := range sortedKeys(byDM) {
		rs := byDM[dm]
		slices.SortStableFunc(rs, func(x, y results.Run) int {
			switch {
			case x.ValAcc > y.ValAcc:
				return -1
			case x.ValAcc < y.ValAcc:
				return 1
			}
			return 0
		})
		ds, m, _ := strings.Cut(dm, "/")
		fmt.Fprintf(&b, "\n%s on %s, a validation grid over f_C's settings (%s; split %d, seed %d each):\n\n",
			experiments.MethodTitle(m), experiments.DatasetTitle(ds), "results/"+ablationGridFile+".json", rs[0].Split, rs[0].Seed)
		b.WriteString("| f_C variant | hidden | dropout | weight decay | validation | test |\n|---|---:|---:|---:|---:|---:|\n")
		for i, r := range rs {
			v, t := fmt.Sprintf("%.1f", 100*r.ValAcc), fmt.Sprintf("%.1f", 100*r.TestAcc)
			if i == 0 {
				v, t = "**"+v+"**", "**"+t+"**"
			}
			variant := r.Options["variant"]
			if variant == "" {
				variant = "–"
			}
			fmt.Fprintf(&b, "| %s | %g | %g | %g | %s | %s |\n", variant, r.Params["hidden"], r.Params["dropout"],
				r.Params["weight_decay"], v, t)
		}
	}
	return b.String()
}
