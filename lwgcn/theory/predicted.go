package theory

import (
	"fmt"
	"math"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/homophily"
)

// Prediction compares, for classes I and J of a graph, Theorems 1 and 2's
// closed forms with the Fisher ratios measured on the graph, both along
// the direction between the two classes' mean features (one dimension, as
// the theorems): the closed forms take the realised homophily and average
// degree and mu_ik, sigma_ik estimated from the graph's edges.
type Prediction struct {
	I, J   int
	H      float64
	Degree int
	// Params are the theorems' assumptions estimated from the graph.
	Params Params
	// PredictedGCN and MeasuredGCN are the pooled Fisher ratios of the mean
	// aggregation; PredictedLW and MeasuredLW those of the best label-wise
	// block a_k (BestLW, BestMeasuredLW its class).
	PredictedGCN, MeasuredGCN float64
	PredictedLW, MeasuredLW   float64
	BestLW, BestMeasuredLW    int
}

// PredictedVsMeasured is the Prediction for classes i and j of g
// (features and labels needed).
func PredictedVsMeasured(g *graph.Graph, i, j int) (Prediction, error) {
	c := g.NumClasses()
	if i == j || i < 0 || j < 0 || i >= c || j >= c {
		return Prediction{}, fmt.Errorf("theory: classes %d and %d of a %d-class graph", i, j, c)
	}
	f, labels := g.Features(), g.Labels()
	if f == nil || labels == nil {
		return Prediction{}, fmt.Errorf("theory: graph %q needs features and labels", g.Name())
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
		return Prediction{}, fmt.Errorf("theory: graph %q has no node of class %d or %d", g.Name(), i, j)
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
		return Prediction{}, err
	}
	d := Prediction{I: i, J: j, H: h, Degree: max(1, int(math.Round(g.AverageDegree())))}
	if d.Params, err = NewParams(d.Degree, h, mu, sigma); err != nil {
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
			a := 0.0 // the paper's zero embedding when v has no class-k neighbour, as in LabelWise
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
