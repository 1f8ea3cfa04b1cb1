package figures

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/homophily"
	"github.com/lwgcn/toolkit/lwgcn/synth"
	"github.com/lwgcn/toolkit/lwgcn/theory"
)

func TestProbe(t *testing.T) {
	var rows []ProbeRow
	for n, h := range []float64{0.1, 0.8} {
		cfg := synth.DefaultCSBMConfig()
		cfg.Name = fmt.Sprintf("csbm-%v", h)
		cfg.NumNodes, cfg.Homophily, cfg.NumFeatures = 300, h, 16
		cfg.Splits.NumSplits = 1
		g, err := synth.GenerateCSBM(cfg, rand.New(rand.NewPCG(1, uint64(n))))
		if err != nil {
			t.Fatal(err)
		}
		row, err := Probe(g.Graph, theory.DiscriminabilityOptions{Seed: 1, Classifier: theory.ClassifierOptions{Epochs: 50}}, n == 0)
		if err != nil {
			t.Fatal(err)
		}
		wantH, _ := homophily.EdgeHomophily(g.Graph)
		if row.H != wantH || row.Degree != g.Graph.AverageDegree() || row.Name != cfg.Name {
			t.Errorf("row %+v: want h %v degree %v name %q", row, wantH, g.Graph.AverageDegree(), cfg.Name)
		}
		if (row.Pseudo != nil) != (n == 0) || !row.Oracle.OracleLabels || (row.Pseudo != nil && row.Pseudo.OracleLabels) {
			t.Errorf("row %d: pseudo report %v, oracle flag %v", n, row.Pseudo != nil, row.Oracle.OracleLabels)
		}
		rows = append(rows, row)
	}
	md := ProbeTable("probe", rows).Markdown()
	want := fmt.Sprintf("| csbm-0.1 | %.3f | %.1f | %.3f |", rows[0].H, rows[0].Degree, rows[0].Oracle.Raw.Fisher.Mean)
	if !strings.Contains(md, want) || !strings.Contains(md, "label-wise (pseudo)") ||
		!strings.Contains(md, fmt.Sprintf("%.1f |", 100*rows[0].Pseudo.LabelWise.Logistic.Test)) {
		t.Errorf("ProbeTable lacks %q or the pseudo column:\n%s", want, md)
	}
	// The second row was probed without pseudo labels: its cell is missing.
	if lines := strings.Split(strings.TrimSpace(md), "\n"); !strings.HasSuffix(lines[len(lines)-1], "| – |") {
		t.Errorf("ProbeTable: last row should end with a missing pseudo cell:\n%s", md)
	}
	checkSVG(t, "ProbeFigure", ProbeFigure("probe", rows, 5).SVG(), "raw features x", "GCN mean z",
		"label-wise (true labels)", "label-wise (pseudo labels)", "1/C", "chance")
	if _, err := Probe(nil, theory.DiscriminabilityOptions{}, false); err == nil || !strings.Contains(err.Error(), "nil graph") {
		t.Errorf("nil graph: err = %v", err)
	}
}
