package report

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/experiments"
	"github.com/lwgcn/toolkit/lwgcn/results"
)

// The heterophily table shows test ROC-AUC in % on the two-class graphs (the
// runs' metric), accuracy on the filtered graphs (Table 2's runs), and the
// published rows.
func TestPlatonovSection(t *testing.T) {
	dir := t.TempDir()
	put := func(name, exp, ds, model string, split int, acc float64, metrics map[string]float64) {
		f, err := results.Open(filepath.Join(dir, name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		key := fmt.Sprintf("%s|%s|%s|split=%d", exp, ds, model, split)
		if err := f.Put(results.Run{Key: key, Experiment: exp, Dataset: ds, Model: model, Split: split, Seed: 15,
			TestAcc: acc, Metrics: metrics, Options: map[string]string{"config": "c"}}); err != nil {
			t.Fatal(err)
		}
	}
	// GCN on minesweeper: ROC-AUC 0.90 and 0.80 (mean 85.0, population std 5.0), accuracy 0.2 (not shown).
	put("platonov", "platonov", "minesweeper", "gcn", 0, 0.2, map[string]float64{experiments.MetricTestROCAUC: 0.90, experiments.MetricValROCAUC: 0.9})
	put("platonov", "platonov", "minesweeper", "gcn", 1, 0.2, map[string]float64{experiments.MetricTestROCAUC: 0.80, experiments.MetricValROCAUC: 0.9})
	put("table2", "table2", "chameleon_filtered", "gcn", 0, 0.40, nil)
	put("table2", "table2", "chameleon_filtered", "gcn", 1, 0.44, nil)
	doc, err := PlatonovMarkdown(dir)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(doc, "- Tolokers") {
		t.Errorf("a gap line for Tolokers, where nothing ran:\n%s", doc)
	}
	for _, want := range []string{
		// Two of the protocol's 10 splits: marked in the cell.
		"| GCN | 85.0 ± 5.0 (2 of 10 runs) | not run | 42.0 ± 2.0 (2 of 10 runs) | not run |",
		"| GAT-sep (Platonov et al.) | 93.9 ± 0.3 | 83.8 ± 0.4 | 39.3 ± 2.5 | 35.5 ± 3.1 |",
		"- Minesweeper (their best: GAT-sep, 93.9): GCN -8.9",
		"- Chameleon (filtered) (their best: GCN, 40.9): GCN +1.1",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("section lacks %q:\n%s", want, doc)
		}
	}
}
