package report

import (
	"fmt"
	"sort"
	"strings"

	"github.com/lwgcn/toolkit/lwgcn/experiments"
	"github.com/lwgcn/toolkit/lwgcn/results"
)

// DepthCurves groups depth runs into, per dataset and method, accuracy
// against the number of layers (Params "layers").
func DepthCurves(runs []results.Run) map[string]map[string]map[int]results.Stat {
	acc := map[string]map[string]map[int][]float64{}
	for _, r := range runs {
		if acc[r.Dataset] == nil {
			acc[r.Dataset] = map[string]map[int][]float64{}
		}
		if acc[r.Dataset][r.Model] == nil {
			acc[r.Dataset][r.Model] = map[int][]float64{}
		}
		l := int(r.Params["layers"])
		acc[r.Dataset][r.Model][l] = append(acc[r.Dataset][r.Model][l], 100*r.TestAcc)
	}
	out := map[string]map[string]map[int]results.Stat{}
	for d, byM := range acc {
		out[d] = map[string]map[int]results.Stat{}
		for m, byL := range byM {
			out[d][m] = map[int]results.Stat{}
			for l, xs := range byL {
				out[d][m][l] = results.MeanStd(xs)
			}
		}
	}
	return out
}

// GridCell is one (hidden, weight decay) configuration's mean accuracies.
type GridCell struct {
	Hidden      int
	WeightDecay float64
	Val, Test   results.Stat
}

// GridCells groups grid runs by dataset/method and configuration.
func GridCells(runs []results.Run) map[string][]GridCell {
	type key struct {
		dm     string
		hidden int
		wd     float64
	}
	vals := map[key][]float64{}
	tests := map[key][]float64{}
	for _, r := range runs {
		k := key{r.Dataset + "/" + r.Model, int(r.Params["hidden"]), r.Params["weight_decay"]}
		vals[k] = append(vals[k], 100*r.ValAcc)
		tests[k] = append(tests[k], 100*r.TestAcc)
	}
	out := map[string][]GridCell{}
	for k := range vals {
		out[k.dm] = append(out[k.dm], GridCell{Hidden: k.hidden, WeightDecay: k.wd,
			Val: results.MeanStd(vals[k]), Test: results.MeanStd(tests[k])})
	}
	for _, cells := range out {
		sort.Slice(cells, func(i, j int) bool {
			if cells[i].Hidden != cells[j].Hidden {
				return cells[i].Hidden < cells[j].Hidden
			}
			return cells[i].WeightDecay > cells[j].WeightDecay
		})
	}
	return out
}

// GridBest is the cell with the highest mean validation accuracy (the
// first, in grid order, on ties).
func GridBest(cells []GridCell) GridCell {
	best := cells[0]
	for _, c := range cells[1:] {
		if c.Val.Mean > best.Val.Mean {
			best = c
		}
	}
	return best
}

// GridMarkdown renders, per dataset and method, validation/test accuracy
// over the grid with the selected configuration marked.
func GridMarkdown(runs []results.Run) string {
	byDM := GridCells(runs)
	var b strings.Builder
	for _, dm := range sortedKeys(byDM) {
		cells := byDM[dm]
		best := GridBest(cells)
		ds, m, _ := strings.Cut(dm, "/")
		fmt.Fprintf(&b, "**%s on %s**: selected hidden %d, weight decay %g (validation %.1f %%), test %.1f ± %.1f %%.\n\n",
			experiments.MethodTitle(m), experiments.DatasetTitle(ds), best.Hidden, best.WeightDecay, best.Val.Mean, best.Test.Mean, best.Test.Std)
		wds := map[float64]bool{}
		hs := map[int]bool{}
		at := map[[2]float64]GridCell{}
		for _, c := range cells {
			wds[c.WeightDecay], hs[c.Hidden] = true, true
			at[[2]float64{float64(c.Hidden), c.WeightDecay}] = c
		}
		var wdList []float64
		for w := range wds {
			wdList = append(wdList, w)
		}
		sort.Sort(sort.Reverse(sort.Float64Slice(wdList)))
		var hList []int
		for h := range hs {
			hList = append(hList, h)
		}
		sort.Ints(hList)
		b.WriteString("| hidden \\ weight decay |")
		for _, w := range wdList {
			fmt.Fprintf(&b, " %g |", w)
		}
		b.WriteString("\n|---|" + strings.Repeat("---:|", len(wdList)) + "\n")
		for _, h := range hList {
			fmt.Fprintf(&b, "| %d |", h)
			for _, w := range wdList {
				c, ok := at[[2]float64{float64(h), w}]
				switch {
				case !ok:
					b.WriteString(" – |")
				case c.Hidden == best.Hidden && c.WeightDecay == best.WeightDecay:
					fmt.Fprintf(&b, " **val %.1f / test %.1f** |", c.Val.Mean, c.Test.Mean)
				default:
					fmt.Fprintf(&b, " val %.1f / test %.1f |", c.Val.Mean, c.Test.Mean)
				}
			}
			b.WriteString("\n")
		}
		b.WriteString("\n")
	}
	return b.String()
}
