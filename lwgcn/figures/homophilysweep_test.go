package figures

import (
	"math"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/results"
	"github.com/lwgcn/toolkit/lwgcn/synth"
)

func TestSweepPoints(t *testing.T) {
	p := func(h, d, rh, rd float64) map[string]float64 {
		return map[string]float64{"h": h, "degree": d, "realised_h": rh, "realised_degree": rd}
	}
	runs := []results.Run{
		// An old configuration at the same point: dropped.
		run("chameleon", "gcn", 0, 0.10, "old", "2026-01-01T00:00:00Z", p(0.2, 5, 0.2, 5), nil),
		run("chameleon", "gcn", 0, 0.50, "new", "2026-01-02T00:00:00Z", p(0.2, 5, 0.201, 4.99), nil),
		run("chameleon", "gcn", 1, 0.70, "new", "2026-01-02T00:00:00Z", p(0.2, 5, 0.201, 4.99), nil),
		run("chameleon", "mlp", 0, 0.40, "m", "2026-01-02T00:00:00Z", p(0.2, 5, 0.201, 4.99), nil),
		run("chameleon", "gcn", 0, 0.80, "new", "2026-01-02T00:00:00Z", p(0.9, 10, 0.9, 10), nil),
		run("squirrel", "gcn", 0, 0.30, "x", "2026-01-02T00:00:00Z", p(0.2, 5, 0.2, 5), nil),
	}
	pts := SweepPoints(runs, "chameleon")
	if len(pts) != 3 {
		t.Fatalf("%d points, want 3: %+v", len(pts), pts)
	}
	// Sorted by degree, method, h: gcn d=5, mlp d=5, gcn d=10.
	g := pts[0]
	if g.Method != "gcn" || g.H != 0.2 || g.Degree != 5 || math.Abs(g.Acc.Mean-60) > 1e-9 || math.Abs(g.Acc.Std-10) > 1e-9 ||
		g.Acc.N != 2 || g.RealisedH != 0.201 || g.RealisedDegree != 4.99 {
		t.Errorf("gcn point %+v, want mean 60 std 10 over 2 runs", g)
	}
	if pts[1].Method != "mlp" || pts[2].Degree != 10 {
		t.Errorf("order: %+v", pts)
	}
	if b := SweepBases(runs); len(b) != 2 || b[0] != "chameleon" || b[1] != "squirrel" {
		t.Errorf("bases %v", b)
	}
	checkSVG(t, "SweepFigure", SweepFigure("sweep", pts, 5, strings.ToUpper).SVG(), "average degree 5", "average degree 10", "GCN", "MLP", "1/C")
	checkSVG(t, "RealisedFigure", RealisedFigure("realised", pts).SVG(), "target h", "d = 5", "d = 10", "realised = target")
}

func TestRealisedTable(t *testing.T) {
	md := RealisedTable("alg2", []synth.Realised{{TargetH: 0.3, H: 0.2994, TargetDegree: 5, AverageDegree: 4.998,
		UndirectedEdges: 500, Homophilic: 150, Heterophilic: 350, HomophilicAdded: 7}}).Markdown()
	if !strings.Contains(md, "| 0.30 | 0.2994 | 0.0006 | 5.0 | 4.998 | 500 | 150 | 350 | 7 | 0 |") {
		t.Errorf("RealisedTable:\n%s", md)
	}
}

func TestDepthFigure(t *testing.T) {
	curves := map[string]map[string]map[int]results.Stat{
		"texas":     {"lwgcn": {2: {Mean: 85, Std: 5, N: 10}, 4: {Mean: 84, Std: 6, N: 10}}, "gcn": {2: {Mean: 60, Std: 5, N: 10}}},
		"chameleon": {"lwgcn": {2: {Mean: 74, Std: 2, N: 10}}},
	}
	svg := DepthFigure("depth", curves, []string{"texas", "chameleon", "missing"}, strings.ToUpper, nil).SVG()
	checkSVG(t, "DepthFigure", svg, "TEXAS", "CHAMELEON", "lwgcn", "gcn", "layers")
	if strings.Contains(svg, "MISSING") {
		t.Error("panel for a dataset without curves")
	}
}

// A method recorded at some degrees only (GAT at d = 10) keeps every
// method's colour and marker the same in all panels, so the shared legend
// names each method once.
func TestSweepFigureLegendOncePerMethod(t *testing.T) {
	pt := func(m string, d float64) SweepPoint {
		return SweepPoint{Method: m, H: 0.2, Degree: d, Acc: results.Stat{Mean: 50, Std: 1, N: 10}}
	}
	pts := []SweepPoint{pt("gcn", 5), pt("mlp", 5), pt("gat", 10), pt("gcn", 10), pt("mlp", 10)}
	svg := SweepFigure("sweep", pts, 5, strings.ToUpper).SVG()
	for _, m := range []string{"GAT", "GCN", "MLP"} {
		if n := strings.Count(svg, ">"+m+"<"); n != 1 {
			t.Errorf("legend names %s %d times, want once", m, n)
		}
	}
}
