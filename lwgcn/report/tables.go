package report

import (
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/lwgcn/toolkit/lwgcn/experiments"
	"github.com/lwgcn/toolkit/lwgcn/paper"
	"github.com/lwgcn/toolkit/lwgcn/plot"
	"github.com/lwgcn/toolkit/lwgcn/results"
)

// Summary aggregates the runs of one method on one dataset (one
// configuration: the one of the most recent run).
type Summary struct {
	Acc, ValAcc results.Stat
	// Weight is the selection weight of f_C (N = 0 without selection).
	Weight     results.Stat
	MsPerEpoch float64
	Metrics    map[string]results.Stat
	Runs       []results.Run
	// Latest is the provenance of the latest run, LatestCPU that of the
	// latest run not on an accelerator (zero when there is none).
	Latest, LatestCPU results.Provenance
}

// Summaries groups runs into method -> dataset summaries.
func Summaries(runs []results.Run) map[string]map[string]*Summary {
	type key struct{ method, dataset string }
	latestCfg := map[key]string{}
	latestDate := map[key]string{}
	for _, r := range runs {
		k := key{r.Model, r.Dataset}
		if r.Provenance.Date >= latestDate[k] {
			latestDate[k], latestCfg[k] = r.Provenance.Date, r.Options["config"]
		}
	}
	out := map[string]map[string]*Summary{}
	for _, r := range runs {
		k := key{r.Model, r.Dataset}
		if r.Options["config"] != latestCfg[k] {
			continue
		}
		if out[r.Model] == nil {
			out[r.Model] = map[string]*Summary{}
		}
		s := out[r.Model][r.Dataset]
		if s == nil {
			s = &Summary{}
			out[r.Model][r.Dataset] = s
		}
		s.Runs = append(s.Runs, r)
		if r.Provenance.Date >= s.Latest.Date {
			s.Latest = r.Provenance
		}
		if !r.Provenance.OnAccelerator() && r.Provenance.Date >= s.LatestCPU.Date {
			s.LatestCPU = r.Provenance
		}
	}
	for _, byDS := range out {
		for _, s := range byDS {
			var acc, val, w, ms []float64
			metrics := map[string][]float64{}
			for _, r := range s.Runs {
				acc, val, ms = append(acc, 100*r.TestAcc), append(val, 100*r.ValAcc), append(ms, r.MsPerEpoch)
				if r.SelectionWeight != nil {
					w = append(w, *r.SelectionWeight)
				}
				for k, v := range r.Metrics {
					metrics[k] = append(metrics[k], v)
				}
			}
			s.Acc, s.ValAcc, s.Weight = results.MeanStd(acc), results.MeanStd(val), results.MeanStd(w)
			if len(w) == 0 {
				s.Weight = results.Stat{}
			}
			s.MsPerEpoch = results.MeanStd(ms).Mean
			s.Metrics = map[string]results.Stat{}
			for k, v := range metrics {
				s.Metrics[k] = results.MeanStd(v)
			}
		}
	}
	return out
}

// Comparison renders ours beside the paper: one column per dataset, for
// every method a row "ours" and a row "paper" (from paperTable; "–" where the
// paper has no number), plus, for methods with model selection, the weight of
// f_C. The best "ours" value per column is bold.
func Comparison(caption string, sums map[string]map[string]*Summary, datasets, methods []string,
	paperTable map[string]map[string]paper.Result) *plot.Table {
	t := plot.NewTable(caption)
	header := []string{"method", ""}
	for _, d := range datasets {
		header = append(header, experiments.DatasetTitle(d))
	}
	t.Header(header...)
	var oursRows []int
	row := 0
	// The footer names the machine of the CPU runs (runs on an
	// accelerator are listed apart, see acceleratorRuns), or the latest
	// run's when every run is on one.
	var latest, latestAny results.Provenance
	for _, m := range methods {
		cells := []plot.Cell{plot.Text(experiments.MethodTitle(m)), plot.Text("ours")}
		paperCells := []plot.Cell{plot.Text(""), plot.Text("paper")}
		var wOurs, wPaper []plot.Cell
		hasWeight := false
		for _, d := range datasets {
			s := sums[m][d]
			if s == nil {
				cells = append(cells, plot.Text("not run"))
				wOurs = append(wOurs, plot.Text(""))
			} else {
				cells = append(cells, plot.MeanStd(s.Acc.Mean, s.Acc.Std, 1))
				if s.Weight.N > 0 {
					hasWeight = true
					wOurs = append(wOurs, plot.Num(s.Weight.Mean, 3))
				} else {
					wOurs = append(wOurs, plot.Text(""))
				}
				if s.LatestCPU.Date > latest.Date {
					latest = s.LatestCPU
				}
				if s.Latest.Date > latestAny.Date {
					latestAny = s.Latest
				}
			}
			p, ok := paperTable[m][d]
			switch {
			case !ok:
				paperCells = append(paperCells, plot.Text("–"))
			case p.OOM:
				paperCells = append(paperCells, plot.Text("OOM"))
			default:
				paperCells = append(paperCells, plot.MeanStd(p.Mean, p.Std, 1))
			}
			if w, ok := paper.SelectionWeight[d]; ok && m == paper.LWGCN {
				wPaper = append(wPaper, plot.Num(w, 3))
			} else {
				wPaper = append(wPaper, plot.Text("–"))
			}
		}
		t.Row(cells...)
		oursRows = append(oursRows, row)
		t.Row(paperCells...)
		row += 2
		if hasWeight {
			t.Row(append([]plot.Cell{plot.Text(""), plot.Text("weight f_C (ours)")}, wOurs...)...)
			t.Row(append([]plot.Cell{plot.Text(""), plot.Text("weight f_C (paper)")}, wPaper...)...)
			row += 2
		}
	}
	if latest.Date == "" {
		latest = latestAny
	}
	if latest.Date != "" {
		d, _ := time.Parse(time.RFC3339, latest.Date)
		c := results.ShortHash(latest.Commit)
		if latest.Dirty {
			c += "+dirty"
		}
		t.Footer(plot.Provenance(c, latest.Backend, d) + "; " + latest.Machine + spreadNote(sums, methods, datasets) +
			"; accuracy in %, mean ± population std over runs")
	}
	return t
}

// spreadNote says, when the table's CPU runs were recorded at more than one
// commit or on more than one machine, that the footer's provenance is the
// latest of them: " (the latest of 1336 runs, recorded at 39 commits on 2
// machines)"; "" when one commit and machine recorded them all.
func spreadNote(sums map[string]map[string]*Summary, methods, datasets []string) string {
	n := 0
	commits, machines := map[string]bool{}, map[string]bool{}
	for _, m := range methods {
		for _, d := range datasets {
			if sums[m][d] == nil {
				continue
			}
			for _, r := range sums[m][d].Runs {
				if r.Provenance.OnAccelerator() {
					continue
				}
				n++
				commits[results.ShortHash(r.Provenance.Commit)] = true
				machines[r.Provenance.Machine] = true
			}
		}
	}
	if len(commits) <= 1 && len(machines) <= 1 {
		return ""
	}
	plural := func(k int, what string) string {
		if k == 1 {
			return "1 " + what
		}
		return fmt.Sprintf("%d %ss", k, what)
	}
	return fmt.Sprintf(" (the latest of %d runs, recorded at %s on %s)", n, plural(len(commits), "commit"), plural(len(machines), "machine"))
}

// withinStds reports whether our mean lies within stds of the paper's
// standard deviations from its number (the criterion with stds 2).
func withinStds(mean float64, p paper.Result, stds float64) bool {
	return math.Abs(mean-p.Mean) <= stds*p.Std
}

// Verdict compares our LW-GCN mean with the paper's: within one paper std
// (or within tolerance points when tolerance > 0).
func Verdict(s *Summary, p paper.Result, tolerance float64) string {
	if s == nil || p.OOM || p.Mean == 0 {
		return "–"
	}
	diff := s.Acc.Mean - p.Mean
	bound := p.Std
	what := "paper std"
	if tolerance > 0 {
		bound, what = tolerance, fmt.Sprintf("%.0f point", tolerance)
	}
	if math.Abs(diff) <= bound {
		return fmt.Sprintf("yes (%+.1f, within %s %.1f)", diff, what, bound)
	}
	return fmt.Sprintf("no (%+.1f, outside %s %.1f)", diff, what, bound)
}

// sortedKeys returns the keys of m, sorted.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// latestProvenance is the provenance of the most recent run.
func latestProvenance(runs []results.Run) results.Provenance {
	var latest results.Provenance
	for _, r := range runs {
		if r.Provenance.Date > latest.Date {
			latest = r.Provenance
		}
	}
	return latest
}
