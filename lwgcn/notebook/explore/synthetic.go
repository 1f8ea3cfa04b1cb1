package explore

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/lwgcn/toolkit/lwgcn/figures"
	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/homophily"
	"github.com/lwgcn/toolkit/lwgcn/notebook"
	"github.com/lwgcn/toolkit/lwgcn/plot"
	"github.com/lwgcn/toolkit/lwgcn/synth"
	"github.com/lwgcn/toolkit/lwgcn/theory"
)

// TrainFunc trains models on g and returns their accuracies as a view; the
// synthetic explorer's button calls it with its task (progress bar, partial
// results, cancellation by Stop; nbtrain.Compare makes one). It lives
// outside this package so that the theorem notebooks do not link GoMLX.
type TrainFunc func(t *notebook.Task, g *graph.Graph) (*notebook.View, error)

// SyntheticSeed seeds every generated graph (graph i of a session uses stream 0:
// the same sliders always give the same graph).
const SyntheticSeed = 2022

// BaseGraph is a real graph Algorithm 2 (synth.ResampleHomophily) can resample.
type BaseGraph struct {
	Name  string
	Graph *graph.Graph
}

// CSBMGenerator is the generator option of the contextual SBM.
const CSBMGenerator = "contextual SBM"

// Synthetic explores synthetic graphs: contextual SBMs (synth.GenerateCSBM
// with uniform heterophily, the paper's assumption (i)) or, for each of
// bases, the paper's Algorithm 2 resampling that graph's edges. Sliders for
// the number of nodes and classes, the homophily, the average degree, the
// feature signal and the context shift (the last four for the SBM; Algorithm
// 2 keeps the base's nodes, classes and features) redraw the realised
// statistics, the compatibility heatmap, the degree histogram and Theorems 1
// and 2's predicted discriminability next to the measured one. When train is
// set, a button trains the models on the current graph (headless: once, at
// the defaults).
func Synthetic(train TrainFunc, bases ...BaseGraph) *notebook.Explorer {
	gens := []string{CSBMGenerator}
	for _, b := range bases {
		gens = append(gens, "Algorithm 2 on "+b.Name)
	}
	// Algorithm 2 keeps the base's nodes, classes and features: those
	// sliders apply to the SBM only.
	sbmOnly := func(v notebook.Values) bool { return len(bases) == 0 || v.Int("generator") == 0 }
	controls := []notebook.Control{
		notebook.Slider("nodes", 200, 3000, 100, notebook.IfQuick(500.0, 1000.0)).When(sbmOnly),
		notebook.Slider("classes", 2, 8, 1, 3).When(sbmOnly),
		notebook.Slider("homophily", 0, 1, 0.05, 0.2),
		notebook.Slider("degree", 2, 30, 1, 10),
		notebook.Slider("feature signal", 0, 3, 0.1, 1).When(sbmOnly),
		notebook.Slider("context", 0, 3, 0.25, 2).When(sbmOnly),
	}
	if len(bases) > 0 {
		controls = append([]notebook.Control{notebook.Select("generator", gens, 0)}, controls...)
	}
	gen := func(v notebook.Values) (*graph.Graph, synth.Realised, error) { return Generate(v, bases) }
	e := &notebook.Explorer{
		Title:    "Synthetic graphs, live: move the generator's parameters",
		Controls: controls,
		Draw:     func(v notebook.Values) (*notebook.View, error) { return drawSynthetic(v, gen) },
	}
	if train != nil {
		e.Actions = []notebook.Action{{
			Label:    "Train MLP, GCN, LW-GCN\\G",
			Headless: true,
			Run: func(t *notebook.Task) (*notebook.View, error) {
				g, _, err := gen(t.Values)
				if err != nil {
					return nil, err
				}
				return train(t, g)
			},
		}}
	}
	return e
}

// Generate is the graph of the values v: a contextual SBM (with one 48/32/20
// random split) or, when the "generator" control picks a base, Algorithm 2
// on it (the base's splits); both seeded with SyntheticSeed.
func Generate(v notebook.Values, bases []BaseGraph) (*graph.Graph, synth.Realised, error) {
	rng := rand.New(rand.NewPCG(SyntheticSeed, 0))
	if len(bases) > 0 {
		if i := v.Int("generator"); i > 0 {
			b := bases[i-1]
			return synth.ResampleHomophily(b.Graph, v.Float("homophily"), v.Float("degree"), rng)
		}
	}
	cfg := synth.DefaultCSBMConfig()
	cfg.Name = fmt.Sprintf("csbm-n%d-c%d-h%s-d%d", v.Int("nodes"), v.Int("classes"), strconv.FormatFloat(v.Float("homophily"), 'f', -1, 64), v.Int("degree"))
	cfg.NumNodes, cfg.NumClasses = v.Int("nodes"), v.Int("classes")
	cfg.Homophily, cfg.AverageDegree = v.Float("homophily"), v.Float("degree")
	cfg.HeterophilyWeights = nil // uniform: the theorems' assumption (i)
	cfg.FeatureSeparation, cfg.ContextSeparation = v.Float("feature signal"), v.Float("context")
	cfg.Splits = synth.SplitOptions{NumSplits: 1}
	c, err := synth.GenerateCSBM(cfg, rng)
	if err != nil {
		return nil, synth.Realised{}, err
	}
	return c.Graph, c.Realised, nil
}

func drawSynthetic(v notebook.Values, gen func(notebook.Values) (*graph.Graph, synth.Realised, error)) (*notebook.View, error) {
	g, realised, err := gen(v)
	if err != nil {
		return nil, err
	}
	compat, err := homophily.CompatibilityMatrix(g)
	if err != nil {
		return nil, err
	}
	disc, err := theory.PredictedVsMeasured(g, 0, 1)
	if err != nil {
		return nil, err
	}
	return notebook.NewView().
		Note(fmt.Sprintf("%s; realised: %s", g, realised)).
		Table(figures.GraphStatsTable(g.Name()+": realised statistics and homophily", []*graph.Graph{g}, nil)).
		Plot(figures.CompatibilityHeatmap(g.Name()+": class compatibility matrix", compat, nil).Size(360, 320)).
		Plot(DegreeHistogram(g)).
		Table(figures.PredictionTable(disc)), nil
}

// DegreeHistogram is the histogram of g's in-degrees.
func DegreeHistogram(g *graph.Graph) *plot.Histogram {
	deg := g.InDegrees()
	vals := make([]float64, len(deg))
	hi := 1.0
	for i, d := range deg {
		vals[i] = float64(d)
		hi = math.Max(hi, vals[i])
	}
	return plot.NewHistogram(fmt.Sprintf("%s: degree distribution (average %.1f)", g.Name(), g.AverageDegree())).
		Add("degree", vals).Bins(min(30, int(hi)+1)).Range(0, hi+1)
}
