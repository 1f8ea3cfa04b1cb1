package report

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/lwgcn/toolkit/lwgcn/experiments"
	"github.com/lwgcn/toolkit/lwgcn/figures"
	"github.com/lwgcn/toolkit/lwgcn/results"
)

// SweepCurve is one method's accuracy against h at one degree.
type SweepCurve struct {
	Method string
	Degree float64
	H      []float64
	Acc    []results.Stat // test accuracy in %
}

// latestSweepRuns returns the runs of base that SweepCurves averages: at
// each point (method, h, degree), those of the configuration of its most
// recent run (a point re-run with other settings drops the older runs).
func latestSweepRuns(runs []results.Run, base string) []results.Run {
	latest := map[string]string{}
	for _, r := range runs {
		if r.Dataset != base {
			continue
		}
		k := r.Model + r.Options["point"]
		if r.Provenance.Date >= latest[k+"date"] {
			latest[k+"date"], latest[k] = r.Provenance.Date, r.Options["config"]
		}
	}
	var out []results.Run
	for _, r := range runs {
		if r.Dataset == base && r.Options["config"] == latest[r.Model+r.Options["point"]] {
			out = append(out, r)
		}
	}
	return out
}

// SweepCurves groups sweep runs (of one base) into curves, sorted by degree
// then method; each point keeps the configuration of its most recent run.
func SweepCurves(runs []results.Run, base string) []SweepCurve {
	type key struct {
		method string
		d      float64
	}
	acc := map[key]map[float64][]float64{}
	for _, r := range latestSweepRuns(runs, base) {
		k := key{r.Model, r.Params["degree"]}
		if acc[k] == nil {
			acc[k] = map[float64][]float64{}
		}
		h := math.Round(r.Params["h"]*100) / 100
		acc[k][h] = append(acc[k][h], 100*r.TestAcc)
	}
	var out []SweepCurve
	for k, byH := range acc {
		c := SweepCurve{Method: k.method, Degree: k.d}
		for h := range byH {
			c.H = append(c.H, h)
		}
		sort.Float64s(c.H)
		for _, h := range c.H {
			c.Acc = append(c.Acc, results.MeanStd(byH[h]))
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Degree != out[j].Degree {
			return out[i].Degree < out[j].Degree
		}
		return out[i].Method < out[j].Method
	})
	return out
}

// SweepLead is one line comparing LW-GCN\G with GCN and MLP at homophily h
// for every degree of a base's sweep (the paper: about 10 points ahead of
// GCN at h = 0.2 on Crocodile); "" when the sweep lacks those curves.
func SweepLead(runs []results.Run, base string, h float64) string {
	at := map[string]map[float64]results.Stat{}
	var degs []float64
	for _, c := range SweepCurves(runs, base) {
		for i, x := range c.H {
			if math.Abs(x-h) < 1e-9 {
				if at[c.Method] == nil {
					at[c.Method] = map[float64]results.Stat{}
				}
				at[c.Method][c.Degree] = c.Acc[i]
				if !slices.Contains(degs, c.Degree) {
					degs = append(degs, c.Degree)
				}
			}
		}
	}
	sort.Float64s(degs)
	var parts []string
	for _, d := range degs {
		g, okG := at["lwgcn-g"][d]
		gcn, okC := at["gcn"][d]
		if !okG || !okC {
			continue
		}
		part := fmt.Sprintf("d = %g: %+.1f over GCN", d, g.Mean-gcn.Mean)
		if mlp, ok := at["mlp"][d]; ok {
			part += fmt.Sprintf(", %+.1f over MLP", g.Mean-mlp.Mean)
		}
		parts = append(parts, part)
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf("LW-GCN\\G at h = %.1f (%s): %s.\n\n", h, experiments.DatasetTitle(base), strings.Join(parts, "; "))
}

// SweepMarkdown renders a sweep's curves as one table per degree: rows h,
// columns methods, test accuracy mean ± std.
func SweepMarkdown(runs []results.Run, base string) string {
	curves := SweepCurves(runs, base)
	byDeg := map[float64][]SweepCurve{}
	var degs []float64
	for _, c := range curves {
		if _, ok := byDeg[c.Degree]; !ok {
			degs = append(degs, c.Degree)
		}
		byDeg[c.Degree] = append(byDeg[c.Degree], c)
	}
	sort.Float64s(degs)
	var b strings.Builder
	for _, d := range degs {
		cs := byDeg[d]
		fmt.Fprintf(&b, "Average degree %g (base %s; %s):\n\n| h |", d, base, sweepRunsNote(runs, base, d))
		for _, c := range cs {
			fmt.Fprintf(&b, " %s |", experiments.MethodTitle(c.Method))
		}
		b.WriteString("\n|---:|" + strings.Repeat("---:|", len(cs)) + "\n")
		hs := map[float64]bool{}
		for _, c := range cs {
			for _, h := range c.H {
				hs[h] = true
			}
		}
		var hList []float64
		for h := range hs {
			hList = append(hList, h)
		}
		sort.Float64s(hList)
		for _, h := range hList {
			fmt.Fprintf(&b, "| %.1f |", h)
			for _, c := range cs {
				cell := " – |"
				for i, x := range c.H {
					if x == h {
						cell = fmt.Sprintf(" %.1f ± %.1f |", c.Acc[i].Mean, c.Acc[i].Std)
					}
				}
				b.WriteString(cell)
			}
			b.WriteString("\n")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// sweepRunsNote says how many runs each point averages and how many epochs
// they trained, e.g. "2 runs per point, 200 epochs" (the runs SweepCurves
// keeps).
func sweepRunsNote(runs []results.Run, base string, degree float64) string {
	perPoint := map[string]int{}
	minE, maxE := 0, 0
	for _, r := range latestSweepRuns(runs, base) {
		if r.Params["degree"] != degree {
			continue
		}
		perPoint[fmt.Sprintf("%s/%g", r.Model, r.Params["h"])]++
		if minE == 0 || r.Epochs < minE {
			minE = r.Epochs
		}
		maxE = max(maxE, r.Epochs)
	}
	lo, hi := 0, 0
	for _, n := range perPoint {
		if lo == 0 || n < lo {
			lo = n
		}
		hi = max(hi, n)
	}
	runsStr := fmt.Sprintf("%d runs per point", lo)
	if lo != hi {
		runsStr = fmt.Sprintf("%d-%d runs per point", lo, hi)
	}
	if minE == maxE {
		return fmt.Sprintf("%s, %d epochs", runsStr, minE)
	}
	return fmt.Sprintf("%s, %d-%d epochs", runsStr, minE, maxE)
}

func sweepSection(dir string) (string, error) {
	runs, err := openRuns(dir, "sweep")
	if err != nil || len(runs) == 0 {
		return "", err
	}
	bases := map[string]bool{}
	for _, r := range runs {
		bases[r.Dataset] = true
	}
	var b strings.Builder
	b.WriteString("## Synthetic homophily sweeps (Fig. 2 and the appendix figure)\n\n")
	b.WriteString("Graphs generated by the paper's Algorithm 2 (`synth.ResampleHomophily`: the base's nodes, features,\n")
	b.WriteString("labels and splits, edges resampled to the target homophily h and average degree d, realised values\n")
	b.WriteString("recorded with every run) and models trained on each (`lwgcn sweep`). The paper used Crocodile, whose\n")
	b.WriteString("features are not here; LW-GCN\\G is label-wise aggregation without model selection, as in the paper's\n")
	b.WriteString("appendix. The paper reports GCN worst near h = 1/C and LW-GCN\\G about 10 points ahead at h = 0.2.\n\n")
	sessions, err := openSessions(dir, "sweep")
	if err != nil {
		return "", err
	}
	for _, base := range sortedKeys(bases) {
		if base == experiments.BaseCSBM {
			b.WriteString("Contextual SBM base (`lwgcn sweep -base csbm -csbm-separation 1.15`: `synth.GenerateCSBM`, 3,000\n")
			b.WriteString("nodes, 5 classes, ring heterophily, context shifts; the class means set so that MLP reaches\n")
			b.WriteString("Crocodile's 65.8 %, where Chameleon's MLP reaches 47.7 %):\n\n")
		}
		b.WriteString(SweepMarkdown(runs, base))
		b.WriteString(SweepLead(runs, base, 0.2))
		b.WriteString(strings.Replace(SweepTimeToTable(sessions, runs, base), "Time-to-table:",
			"Time-to-table of the "+experiments.DatasetTitle(base)+" sweep:", 1))
		b.WriteString("\n")
		fmt.Fprintf(&b, "Runs of the %s sweep: %s.\n\n", experiments.DatasetTitle(base), figures.ProvenanceCounts(runsOf(runs, base)))
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// runsOf returns the runs on dataset.
func runsOf(runs []results.Run, dataset string) []results.Run {
	var out []results.Run
	for _, r := range runs {
		if r.Dataset == dataset {
			out = append(out, r)
		}
	}
	return out
}
