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

// DrawSynthetic is the view of Synthetic (without bases) for the values v.
func DrawSynthetic(v notebook.Values) (*notebook.View, error) {
	return drawSynthetic(v, func(v notebook.Values) (*graph.Graph, synth.Realised, error) { return Generate(v, nil) })
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
	disc, err := PredictedVsMeasured(g, 0, 1)
	if err != nil {
		return nil, err
	}
	return notebook.NewView().
		Note(fmt.Sprintf("%s; realised: %s", g, realised)).
		Table(figures.GraphStatsTable(g.Name()+": realised statistics and homophily", []*graph.Graph{g}, nil)).
		Plot(figures.CompatibilityHeatmap(g.Name()+": class compatibility matrix", compat, nil).Size(360, 320)).
		Plot(DegreeHistogram(g)).
		Table(disc.Table()), nil
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

// Discriminability compares, for classes I and J of a graph, Theorems 1 and
// 2's closed forms with the Fisher ratios measured on the graph, both along
// the direction between the two classes' mean features (one dimension, as
// the theorems): the closed forms take the realised homophily and average
// degree and mu_ik, sigma_ik estimated from the graph's edges.
type Discriminability struct {
	I, J   int
	H      float64
	Degree int
	// Params are the theorems' assumptions estimated from the graph.
	Params theory.Params
	// PredictedGCN and MeasuredGCN are the pooled Fisher ratios of the mean
	// aggregation; PredictedLW and MeasuredLW those of the best label-wise
	// block a_k (BestLW, BestMeasuredLW its class).
	PredictedGCN, MeasuredGCN float64
	PredictedLW, MeasuredLW   float64
	BestLW, BestMeasuredLW    int
}

// PredictedVsMeasured estimates Discriminability for classes i and j of g
// (features and labels needed).
func PredictedVsMeasured(g *graph.Graph, i, j int) (Discriminability, error) {
	c := g.NumClasses()
	if i == j || i < 0 || j < 0 || i >= c || j >= c {
		return Discriminability{}, fmt.Errorf("explore: classes %d and %d of a %d-class graph", i, j, c)
	}
	f, labels := g.Features(), g.Labels()
	if f == nil || labels == nil {
		return Discriminability{}, fmt.Errorf("explore: graph %q needs features and labels", g.Name())
	}
	n := g.NumNodes()
	// u: the direction from class j's mean feature to class i's.
	u := make([]float64, f.NumCols())
	count := make([]float64, c)
	for v := range n {
		y := labels[v]
		s := 1.0
		if int(y) == j {
			s = -1
		} else if int(y) != i {
			continue
		}
		count[y]++
		for k, x := range f.DenseRow(v) {
			u[k] += s * float64(x)
		}
	}
	if count[i] == 0 || count[j] == 0 {
		return Discriminability{}, fmt.Errorf("explore: graph %q has no node of class %d or %d", g.Name(), i, j)
	}
	norm := 0.0
	for k := range u {
		norm += u[k] * u[k]
	}
	if norm == 0 {
		norm = 1
	}
	proj := make([]float64, n)
	for v := range n {
		s := 0.0
		for k, x := range f.DenseRow(v) {
			s += u[k] * float64(x)
		}
		proj[v] = s / math.Sqrt(norm)
	}
	// mu_ik, sigma_ik from every edge (centre class i, neighbour class k).
	var sum, sq, cnt [][]float64
	for range c {
		sum, sq, cnt = append(sum, make([]float64, c)), append(sq, make([]float64, c)), append(cnt, make([]float64, c))
	}
	in := g.InCSR()
	for v := range n {
		yv := labels[v]
		for _, w := range in.Row(v) {
			k := labels[w]
			sum[yv][k] += proj[w]
			sq[yv][k] += proj[w] * proj[w]
			cnt[yv][k]++
		}
	}
	mu, sigma := make([][]float64, c), make([][]float64, c)
	for a := range c {
		mu[a], sigma[a] = make([]float64, c), make([]float64, c)
		for k := range c {
			if cnt[a][k] > 0 {
				mu[a][k] = sum[a][k] / cnt[a][k]
				sigma[a][k] = math.Sqrt(math.Max(0, sq[a][k]/cnt[a][k]-mu[a][k]*mu[a][k]))
			}
		}
	}
	h, err := homophily.EdgeHomophily(g)
	if err != nil {
		return Discriminability{}, err
	}
	d := Discriminability{I: i, J: j, H: h, Degree: max(1, int(math.Round(g.AverageDegree())))}
	if d.Params, err = theory.NewParams(d.Degree, h, mu, sigma); err != nil {
		return d, err
	}
	gcn, err := d.Params.GCN(i, j)
	if err != nil {
		return d, err
	}
	lw, err := d.Params.LabelWise(i, j)
	if err != nil {
		return d, err
	}
	d.PredictedGCN, d.PredictedLW, d.BestLW = gcn.Ratio, lw.BestPooledRatio, lw.BestPooled

	// Measured: the aggregated projections of classes i and j.
	var zi, zj []float64
	blocks := make([][2][]float64, c)
	for v := range n {
		yv := int(labels[v])
		if yv != i && yv != j {
			continue
		}
		row := in.Row(v)
		if len(row) == 0 {
			continue
		}
		total := 0.0
		bs, bn := make([]float64, c), make([]float64, c)
		for _, w := range row {
			total += proj[w]
			bs[labels[w]] += proj[w]
			bn[labels[w]]++
		}
		side := 0
		if yv == j {
			side = 1
		}
		if side == 0 {
			zi = append(zi, total/float64(len(row)))
		} else {
			zj = append(zj, total/float64(len(row)))
		}
		for k := range c {
			a := 0.0 // the paper's zero embedding when v has no class-k neighbour, as in theory.LabelWise
			if bn[k] > 0 {
				a = bs[k] / bn[k]
			}
			blocks[k][side] = append(blocks[k][side], a)
		}
	}
	d.MeasuredGCN = pooledRatio(zi, zj)
	d.MeasuredLW, d.BestMeasuredLW = math.NaN(), -1
	for k := range c {
		if r := pooledRatio(blocks[k][0], blocks[k][1]); !math.IsNaN(r) && (d.BestMeasuredLW < 0 || r > d.MeasuredLW) {
			d.MeasuredLW, d.BestMeasuredLW = r, k
		}
	}
	return d, nil
}

// pooledRatio is (mean a - mean b)^2 / ((var a + var b)/2), NaN with fewer
// than two values on a side.
func pooledRatio(a, b []float64) float64 {
	if len(a) < 2 || len(b) < 2 {
		return math.NaN()
	}
	ma, va := meanVar(a)
	mb, vb := meanVar(b)
	return (ma - mb) * (ma - mb) / ((va + vb) / 2)
}

func meanVar(x []float64) (mean, variance float64) {
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	for _, v := range x {
		variance += (v - mean) * (v - mean)
	}
	return mean, variance / float64(len(x))
}

// Table lists the predicted and measured ratios.
func (d Discriminability) Table() *plot.Table {
	t := plot.NewTable(fmt.Sprintf("Discriminability of classes %d and %d along their mean direction: the theorems (h = %.2f, d = %d, μ and σ from the graph) against the graph", d.I, d.J, d.H, d.Degree)).
		Header("aggregation", "predicted Δ²/pooled Var", "measured", "best block (predicted, measured)")
	t.Row(plot.Text("GCN mean (Theorem 1)"), plot.Num(d.PredictedGCN, 3), plot.Num(d.MeasuredGCN, 3), plot.Text("–"))
	t.Row(plot.Text("label-wise, best a_k (Theorem 2)"), plot.Num(d.PredictedLW, 3), plot.Num(d.MeasuredLW, 3),
		plot.Text(fmt.Sprintf("a_%d, a_%d", d.BestLW, d.BestMeasuredLW)))
	return t
}
