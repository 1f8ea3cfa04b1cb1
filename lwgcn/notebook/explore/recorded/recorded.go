// Package recorded holds explorers over recorded results (results/*.json):
// selectors that switch the sweeps' and the ablation's figures without
// recomputing anything. It lives apart from lwgcn/notebook/explore because it
// uses lwgcn/experiments (and so GoMLX), which the theorem notebooks need not
// link.
package recorded

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/lwgcn/toolkit/lwgcn/datasets"
	"github.com/lwgcn/toolkit/lwgcn/experiments"
	"github.com/lwgcn/toolkit/lwgcn/figures"
	"github.com/lwgcn/toolkit/lwgcn/notebook"
	"github.com/lwgcn/toolkit/lwgcn/paper"
	"github.com/lwgcn/toolkit/lwgcn/plot"
	"github.com/lwgcn/toolkit/lwgcn/report"
	"github.com/lwgcn/toolkit/lwgcn/results"
	"github.com/lwgcn/toolkit/lwgcn/synth"
)

// All is the option that keeps every value of a selector.
const All = "all"

// numClasses is C of a sweep base (0 when unknown: no line at 1/C).
func numClasses(base string) int {
	if base == experiments.BaseCSBM {
		return synth.DefaultCSBMClasses
	}
	if d, ok := datasets.Lookup(base); ok {
		return d.NumClasses
	}
	return 0
}

// Sweeps selects, in the recorded homophily sweep runs, the base graph, the
// degree and the method whose accuracy-against-homophily and realised
// targets figures are drawn. It fails when runs hold no sweep.
func Sweeps(runs []results.Run) (*notebook.Explorer, error) {
	bases := figures.SweepBases(runs)
	if len(bases) == 0 {
		return nil, fmt.Errorf("recorded: no sweep runs (lwgcn sweep records them)")
	}
	degrees, methods := []string{All}, []string{All}
	for _, b := range bases {
		for _, p := range figures.SweepPoints(runs, b) {
			if d := strconv.FormatFloat(p.Degree, 'f', -1, 64); !slices.Contains(degrees, d) {
				degrees = append(degrees, d)
			}
			if !slices.Contains(methods, p.Method) {
				methods = append(methods, p.Method)
			}
		}
	}
	return &notebook.Explorer{
		Title: "Recorded sweeps: choose the base graph, the degree and the method",
		Controls: []notebook.Control{
			notebook.Select("base", bases, 0),
			notebook.Select("degree", degrees, 0),
			notebook.Select("method", methods, 0),
		},
		Draw: func(v notebook.Values) (*notebook.View, error) { return DrawSweep(runs, v) },
	}, nil
}

// DrawSweep is Sweeps' view for the values v.
func DrawSweep(runs []results.Run, v notebook.Values) (*notebook.View, error) {
	base, degree, method := v.Choice("base"), v.Choice("degree"), v.Choice("method")
	var pts []figures.SweepPoint
	for _, p := range figures.SweepPoints(runs, base) {
		if (degree == All || strconv.FormatFloat(p.Degree, 'f', -1, 64) == degree) && (method == All || p.Method == method) {
			pts = append(pts, p)
		}
	}
	if len(pts) == 0 {
		return nil, fmt.Errorf("no recorded point on %s with degree %s and method %s", base, degree, method)
	}
	what := experiments.DatasetTitle(base)
	if degree != All {
		what += ", d = " + degree
	}
	if method != All {
		what += ", " + experiments.MethodTitle(method)
	}
	return notebook.NewView().
		Plot(figures.SweepFigure("Recorded sweep on "+what+": test accuracy against homophily", pts, numClasses(base), experiments.MethodTitle)).
		Plot(figures.RealisedFigure(what+": realised against target homophily and degree", pts)), nil
}

// Ablation selects, in the recorded Table 3 runs, the dataset whose variants
// are compared (ours against the paper's, a bar chart) and the variant whose
// runs are listed split by split.
func Ablation(runs []results.Run) (*notebook.Explorer, error) {
	sums := report.Summaries(runs)
	var ds []string
	for _, d := range paper.Table3Datasets {
		for _, m := range paper.Table3Models {
			if sums[m] != nil && sums[m][d] != nil {
				ds = append(ds, d)
				break
			}
		}
	}
	var variants []string
	for _, m := range paper.Table3Models {
		if sums[m] != nil {
			variants = append(variants, m)
		}
	}
	if len(ds) == 0 {
		return nil, fmt.Errorf("recorded: no Table 3 runs (lwgcn reproduce table3 records them)")
	}
	return &notebook.Explorer{
		Title: "Recorded ablation (Table 3): choose the dataset and a variant",
		Controls: []notebook.Control{
			notebook.Select("dataset", ds, 0),
			notebook.Select("variant", variants, len(variants)-1),
		},
		Draw: func(v notebook.Values) (*notebook.View, error) { return DrawAblation(sums, v) },
	}, nil
}

// DrawAblation is Ablation's view for the values v, from the summaries of the runs.
func DrawAblation(sums map[string]map[string]*report.Summary, v notebook.Values) (*notebook.View, error) {
	d, variant := v.Choice("dataset"), v.Choice("variant")
	ours := plot.Series{Name: "ours (mean ± std)"}
	theirs := plot.Series{Name: "the paper's"}
	var groups []string
	for _, m := range paper.Table3Models {
		s := sums[m][d]
		if s == nil {
			continue
		}
		groups = append(groups, experiments.MethodTitle(m))
		ours.Y, ours.Err = append(ours.Y, s.Acc.Mean), append(ours.Err, s.Acc.Std)
		p, ok := paper.Table3[m][d]
		if !ok || p.OOM {
			p = paper.Result{Mean: math.NaN(), Std: math.NaN()}
		}
		theirs.Y, theirs.Err = append(theirs.Y, p.Mean), append(theirs.Err, p.Std)
	}
	fig := plot.NewBars(fmt.Sprintf("Ablation on %s: test accuracy (%%)", experiments.DatasetTitle(d))).
		Groups(groups...).Add(ours, theirs).YLabel("test accuracy (%)").Size(640, 320)
	view := notebook.NewView().Plot(fig)
	s := sums[variant][d]
	if s == nil {
		return view.Note(fmt.Sprintf("%s has no recorded runs on %s.", experiments.MethodTitle(variant), experiments.DatasetTitle(d))), nil
	}
	t := plot.NewTable(fmt.Sprintf("%s on %s: the recorded runs (%s)", experiments.MethodTitle(variant), experiments.DatasetTitle(d),
		s.Latest.Backend)).Header("split", "seed", "test acc (%)", "val acc (%)", "best epoch")
	for _, r := range s.Runs {
		t.Row(plot.Num(float64(r.Split), 0), plot.Num(float64(r.Seed), 0), plot.Num(100*r.TestAcc, 1), plot.Num(100*r.ValAcc, 1), plot.Num(float64(r.BestEpoch), 0))
	}
	return view.Table(t), nil
}
