package explore

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/notebook"
)

func TestSyntheticViewFollowsSliders(t *testing.T) {
	e := Synthetic(nil)
	if len(e.Actions) != 0 {
		t.Fatal("no train function should give no button")
	}
	v := valuesAt(t, e, map[string]float64{"nodes": 400, "classes": 3, "homophily": 0.8, "degree": 8})
	g, realised, err := Generate(v, nil)
	if err != nil {
		t.Fatal(err)
	}
	if g.NumNodes() != 400 || g.NumClasses() != 3 {
		t.Fatalf("graph %v", g)
	}
	if math.Abs(realised.H-0.8) > 0.05 || math.Abs(realised.AverageDegree-8) > 0.5 {
		t.Errorf("realised %s, want h 0.8, degree 8", realised)
	}
	view, err := e.Draw(v)
	if err != nil {
		t.Fatal(err)
	}
	if view.Len() != 5 {
		t.Fatalf("%d parts, want note, stats table, heatmap, histogram, discriminability", view.Len())
	}
	low, err := e.Draw(valuesAt(t, e, map[string]float64{"nodes": 400, "classes": 3, "homophily": 0.1, "degree": 8}))
	if err != nil {
		t.Fatal(err)
	}
	if low.HTMLBlock() == view.HTMLBlock() {
		t.Error("moving homophily did not change the view")
	}
}

func TestSyntheticTrainButton(t *testing.T) {
	var got *graph.Graph
	e := Synthetic(func(_ *notebook.Task, g *graph.Graph) (*notebook.View, error) {
		got = g
		return notebook.NewView().Note("trained"), nil
	})
	if len(e.Actions) != 1 || !e.Actions[0].Headless {
		t.Fatalf("actions %+v", e.Actions)
	}
	v := valuesAt(t, e, map[string]float64{"nodes": 300, "classes": 4})
	view, err := e.Actions[0].Run(notebook.NewTask(context.Background(), v))
	if err != nil || view.Len() != 1 {
		t.Fatalf("action: %v, %v", view, err)
	}
	if got == nil || got.NumNodes() != 300 || got.NumClasses() != 4 || len(got.Splits()) != 1 {
		t.Errorf("trained on %v", got)
	}
}

// Algorithm 2 on a base graph: the generator select picks it, the realised
// homophily and degree follow the sliders, nodes and classes are the base's.
func TestSyntheticOnBaseGraph(t *testing.T) {
	base, _, err := Generate(valuesAt(t, Synthetic(nil), map[string]float64{"nodes": 600, "classes": 4, "homophily": 0.5}), nil)
	if err != nil {
		t.Fatal(err)
	}
	e := Synthetic(nil, BaseGraph{Name: "base", Graph: base})
	if e.Controls[0].Name != "generator" || strings.Join(e.Controls[0].Options, "|") != "contextual SBM|Algorithm 2 on base" {
		t.Fatalf("generator control %+v", e.Controls[0])
	}
	v := valuesAt(t, e, map[string]float64{"generator": 1, "homophily": 0.1, "degree": 6, "nodes": 3000})
	g, realised, err := Generate(v, []BaseGraph{{Name: "base", Graph: base}})
	if err != nil {
		t.Fatal(err)
	}
	if g.NumNodes() != 600 || g.NumClasses() != 4 {
		t.Errorf("resampled graph %v, want the base's 600 nodes and 4 classes", g)
	}
	// The caption names only what Algorithm 2 uses (not the SBM's 3000 nodes).
	if got, want := v.String(), "generator = Algorithm 2 on base, homophily = 0.10, degree = 6"; got != want {
		t.Errorf("caption %q, want %q", got, want)
	}
	if math.Abs(realised.H-0.1) > 0.01 || math.Abs(realised.AverageDegree-6) > 0.1 {
		t.Errorf("realised %s, want h 0.1, degree 6", realised)
	}
	view, err := e.Draw(v)
	if err != nil || view.Len() != 5 {
		t.Fatalf("view %v, %v", view, err)
	}
}
