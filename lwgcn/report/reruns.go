package report

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/lwgcn/toolkit/lwgcn/experiments"
	"github.com/lwgcn/toolkit/lwgcn/results"
)

// rerunsFile holds runs of Tables 2 and 3 recorded again at a later commit
// with the same settings (`lwgcn reproduce table2 ... -results
// results/reruns.json`); the tables keep their first records, and this
// section says how far a rerun moves them.
const rerunsFile = "reruns"

// rerunsSection compares each rerun with the run of the same key (same
// experiment, dataset, model, settings, split and seed) in results/table2.json
// or results/table3.json: per cell, how many runs repeat their record's test
// accuracy exactly, and the two means.
func rerunsSection(dir string) (string, error) {
	reruns, err := openRuns(dir, rerunsFile)
	if err != nil || len(reruns) == 0 {
		return "", err
	}
	recorded := map[string]results.Run{}
	for _, name := range []string{"table2", "table3"} {
		runs, err := openRuns(dir, name)
		if err != nil {
			return "", err
		}
		for _, r := range runs {
			recorded[r.Key] = r
		}
	}
	type cell struct {
		dataset, model         string
		was, now               []float64
		same                   int
		wasCommits, nowCommits []string
	}
	var cells []*cell
	index := map[string]*cell{}
	unmatched := 0
	for _, r := range reruns {
		old, ok := recorded[r.Key]
		if !ok {
			unmatched++
			continue
		}
		k := r.Dataset + "/" + r.Model
		c := index[k]
		if c == nil {
			c = &cell{dataset: r.Dataset, model: r.Model}
			index[k] = c
			cells = append(cells, c)
		}
		c.was, c.now = append(c.was, old.TestAcc), append(c.now, r.TestAcc)
		if old.TestAcc == r.TestAcc {
			c.same++
		}
		c.wasCommits = addShort(c.wasCommits, old.Provenance.Commit)
		c.nowCommits = addShort(c.nowCommits, r.Provenance.Commit)
	}
	var b strings.Builder
	b.WriteString("## Reruns: the tables' cells recorded again at a later commit\n\n")
	b.WriteString("The tables keep each cell's first record. Code changes that reorder floating-point sums (kernels,\n")
	b.WriteString("forms of the sparse products) change a run's bits, and a run that selects its epoch on validation\n")
	b.WriteString("can then test differently. Cells rerun with the same settings, splits and seeds\n")
	fmt.Fprintf(&b, "(results/%s.json), run by run against the record:\n\n", rerunsFile)
	b.WriteString("| dataset | method | runs | same test accuracy | recorded | at | rerun | at | difference |\n")
	b.WriteString("|---|---|---:|---:|---:|---|---:|---|---:|\n")
	for _, c := range cells {
		was, now := results.MeanStd(c.was), results.MeanStd(c.now)
		diff := 100 * (now.Mean - was.Mean)
		if math.Abs(diff) < 0.05 {
			diff = 0 // no "-0.0"
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %.1f ± %.1f | %s | %.1f ± %.1f | %s | %+.1f |\n",
			experiments.DatasetTitle(c.dataset), experiments.MethodTitle(c.model), len(c.was), c.same,
			100*was.Mean, 100*was.Std, strings.Join(c.wasCommits, ", "), 100*now.Mean, 100*now.Std,
			strings.Join(c.nowCommits, ", "), diff)
	}
	if unmatched > 0 {
		fmt.Fprintf(&b, "\n%d reruns have no record of the same key in Tables 2 and 3 (other settings) and are left out.\n", unmatched)
	}
	return b.String(), nil
}

// addShort adds commit's first 7 characters to list unless present.
func addShort(list []string, commit string) []string {
	c := commit[:min(7, len(commit))]
	if c == "" || slices.Contains(list, c) {
		return list
	}
	return append(list, c)
}
