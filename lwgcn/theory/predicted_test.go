package theory_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/figures"
	"github.com/lwgcn/toolkit/lwgcn/synth"
	"github.com/lwgcn/toolkit/lwgcn/theory"
)

// On a homophilous graph with strong features the GCN mean separates classes
// 0 and 1 well and the theorems' prediction from the estimated mu, sigma is
// close to the measured ratio (the graph has near-uniform heterophily, the
// assumption of the closed forms; the degrees vary, which the closed forms
// ignore, so only agreement within a factor is asserted).
func TestPredictedVsMeasured(t *testing.T) {
	cfg := synth.DefaultCSBMConfig()
	cfg.Name, cfg.NumNodes, cfg.NumClasses, cfg.Homophily, cfg.AverageDegree = "csbm", 1500, 3, 0.8, 10
	cfg.HeterophilyWeights = nil // uniform: the theorems' assumption (i)
	cfg.FeatureSeparation, cfg.ContextSeparation = 2, 0
	cfg.Splits = synth.SplitOptions{NumSplits: 1}
	c, err := synth.GenerateCSBM(cfg, rand.New(rand.NewPCG(1, 0)))
	if err != nil {
		t.Fatal(err)
	}
	g := c.Graph
	d, err := theory.PredictedVsMeasured(g, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("predicted GCN %.3f measured %.3f; label-wise predicted %.3f (a_%d) measured %.3f (a_%d)", d.PredictedGCN, d.MeasuredGCN, d.PredictedLW, d.BestLW, d.MeasuredLW, d.BestMeasuredLW)
	if !(d.MeasuredGCN > 1) || !(d.PredictedGCN > 1) {
		t.Errorf("GCN ratios predicted %v, measured %v: want both > 1 at h = 0.8", d.PredictedGCN, d.MeasuredGCN)
	}
	if r := d.PredictedGCN / d.MeasuredGCN; r < 0.5 || r > 2 {
		t.Errorf("GCN ratio predicted %v vs measured %v: off by more than a factor 2", d.PredictedGCN, d.MeasuredGCN)
	}
	if d.BestLW < 0 || d.BestMeasuredLW < 0 || math.IsNaN(d.MeasuredLW) {
		t.Errorf("label-wise: %+v", d)
	}
	if !strings.Contains(figures.PredictionTable(d).Markdown(), "GCN mean (Theorem 1)") {
		t.Error("table lacks the GCN row")
	}
	if _, err := theory.PredictedVsMeasured(g, 1, 1); err == nil || err.Error() != "theory: classes 1 and 1 of a 3-class graph" {
		t.Errorf("same class: %v", err)
	}
}
