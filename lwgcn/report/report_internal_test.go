package report

import (
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/paper"
	"github.com/lwgcn/toolkit/lwgcn/results"
)

// An LW-GCN row outside the paper's std whose weight of f_C is near 0 gets
// the note that sets its gap beside GCNII's (Pubmed: paper LW-GCN 80.4 ±
// 0.3, GCNII 80.2 ± 0.2); a row inside the std, or outside it with f_C
// weighing in, gets none.
func TestFGDominatedNotes(t *testing.T) {
	sum := func(acc, w float64) *Summary {
		return &Summary{Acc: results.Stat{Mean: acc, Std: 0.5, N: 3}, Weight: results.Stat{Mean: w, N: 3}}
	}
	sums := map[string]map[string]*Summary{
		"lwgcn": {"pubmed": sum(79.5, 0.010), "cora": sum(84.2, 0.001), "chameleon": sum(70.0, 0.9)},
		"gcnii": {"pubmed": sum(79.7, 0), "cora": sum(85.4, 0), "chameleon": sum(59.1, 0)},
	}
	lw := []fgDominated{{"lwgcn", "LW-GCN", "gcnii", "GCNII"}}
	ds := []string{"pubmed", "cora", "chameleon"}
	md := fgDominatedNotes(sums, paper.Table2, lw, ds, 1)
	// Ours -0.9 (79.5 - 80.4); GCNII's gap 79.7 - 80.2 = -0.5; the rest
	// (79.5 - 79.7) - (80.4 - 80.2) = -0.4, within our std 0.5.
	want := "- LW-GCN on Pubmed: the learned weight of f_C is 0.010, so LW-GCN predicts what its f_G (GCNII) does. Of its -0.9 " +
		"against the paper, -0.5 is GCNII's own gap (79.7 ± 0.5 against 80.2 ± 0.2) and -0.4 the difference in the margin " +
		"over GCNII (-0.2 here, +0.2 in the paper), within the std of our runs (0.5)."
	if !strings.Contains(md, want) {
		t.Errorf("notes lack Pubmed's:\n%s\nwant %q", md, want)
	}
	// Cora is within the paper's std (84.3 ± 0.3); Chameleon is outside it
	// (74.4 ± 1.4) but f_C weighs 0.9.
	if strings.Contains(md, "Cora") || strings.Contains(md, "Chameleon") || strings.Count(md, "\n- ") != 1 {
		t.Errorf("notes for rows within the std or with f_C weighing in:\n%s", md)
	}
	// Table 3's criterion, two paper stds: Pubmed's -0.9 is beyond 2 x 0.3.
	if got := fgDominatedNotes(sums, paper.Table2, lw, ds, 2); !strings.Contains(got, "more than 2 × the paper's std") ||
		!strings.Contains(got, "Pubmed") {
		t.Errorf("two-std criterion: %q", got)
	}
	delete(sums["gcnii"], "pubmed")
	if got := fgDominatedNotes(sums, paper.Table2, lw, ds, 1); got != "" {
		t.Errorf("a note without GCNII's row to compare with: %q", got)
	}
}

// A comparison table's footer names the latest CPU run and, when its runs
// span commits or machines, how many: the GPU runs are not counted.
func TestComparisonFooterSpread(t *testing.T) {
	var runs []results.Run
	for s := range 4 {
		r := handRun("table2", "texas", "gcn", s, "", 1)
		r.Provenance.Machine = "M"
		switch s {
		case 1:
			r.Provenance.Commit, r.Provenance.Date = "d", "2026-01-02T00:00:00Z"
		case 2:
			r.Provenance.Machine = "N"
		case 3:
			r.Provenance.Commit, r.Provenance.Backend, r.Provenance.Date = "g", "xla:xla_cuda_plugin.so", "2026-01-03T00:00:00Z"
		}
		runs = append(runs, r)
	}
	footer := func(runs []results.Run) string {
		doc := Comparison("", Summaries(runs), []string{"texas"}, []string{"gcn"}, paper.Table2).Markdown()
		return doc[strings.LastIndex(doc, "\n_"):]
	}
	if got, want := footer(runs), "commit d, backend go, 2026-01-02; M (the latest of 3 runs, recorded at 2 commits on 2 machines);"; !strings.Contains(got, want) {
		t.Errorf("footer %q lacks %q", got, want)
	}
	if got := footer(runs[:1]); strings.Contains(got, "the latest of") {
		t.Errorf("footer %q of runs from one commit and machine counts them", got)
	}
}
