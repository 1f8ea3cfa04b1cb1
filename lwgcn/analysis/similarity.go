package analysis

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/lwgcn/toolkit/lwgcn/graph"
)

// unitRows reads the rows of x scaled to unit Euclidean norm (through
// 1/norm, 0 for rows of norm zero), sparse or dense as x is.
type unitRows struct {
	x     *graph.Features
	inv   []float64 // 1/norm (0 for zero rows)
	dense [][]float32
}

func newUnitRows(x *graph.Features) unitRows {
	u := unitRows{x: x, inv: make([]float64, x.NumRows())}
	if !x.IsSparse() {
		u.dense = make([][]float32, x.NumRows())
	}
	for v := range x.NumRows() {
		var s float64
		if u.dense != nil {
			u.dense[v] = x.DenseRow(v)
			for _, a := range u.dense[v] {
				s += float64(a) * float64(a)
			}
		} else {
			_, vals := x.SparseRow(v)
			for _, a := range vals {
				s += float64(a) * float64(a)
			}
		}
		if s > 0 {
			u.inv[v] = 1 / math.Sqrt(s)
		}
	}
	return u
}

func (u unitRows) zero(v int) bool { return u.inv[v] == 0 }

// addTo adds w times the unit row v to acc (length NumCols).
func (u unitRows) addTo(acc []float64, v int, w float64) {
	s := w * u.inv[v]
	if u.dense != nil {
		for c, a := range u.dense[v] {
			acc[c] += s * float64(a)
		}
		return
	}
	cols, vals := u.x.SparseRow(v)
	for k, c := range cols {
		acc[c] += s * float64(vals[k])
	}
}

// cosine of rows a and b (both non-zero).
func (u unitRows) cosine(a, b int) float64 {
	var dot float64
	if u.dense != nil {
		ra, rb := u.dense[a], u.dense[b]
		for c := range ra {
			dot += float64(ra[c]) * float64(rb[c])
		}
	} else {
		ca, va := u.x.SparseRow(a)
		cb, vb := u.x.SparseRow(b)
		i, j := 0, 0
		for i < len(ca) && j < len(cb) {
			switch {
			case ca[i] < cb[j]:
				i++
			case ca[i] > cb[j]:
				j++
			default:
				dot += float64(va[i]) * float64(vb[j])
				i++
				j++
			}
		}
	}
	return dot * u.inv[a] * u.inv[b]
}

// CenterRows subtracts every row's mean from it (a dense copy). Applied to
// log-probabilities log_softmax(z) = z - logsumexp(z) it gives z - mean(z):
// the last layer's logits up to their own row mean, because log-softmax only
// subtracts a per-row constant. Without centring, that constant dominates
// the cosine of log-probability rows (they are all negative).
func CenterRows(x *graph.Features) *graph.Features {
	d := x.ToDense()
	n, c := d.NumRows(), d.NumCols()
	out := make([]float32, 0, n*c)
	for v := range n {
		row := d.DenseRow(v)
		var s float64
		for _, a := range row {
			s += float64(a)
		}
		mean := s / float64(max(c, 1))
		for _, a := range row {
			out = append(out, float32(float64(a)-mean))
		}
	}
	f, err := graph.NewDenseFeatures(n, c, out)
	if err != nil {
		panic(err) // unreachable: the shape is d's
	}
	return f
}

// PairOptions select the node pairs of PairCosines.
type PairOptions struct {
	// Nodes are the nodes whose pairs are compared (nil: every labelled
	// node); unlabelled nodes are skipped.
	Nodes []int32
	// MaxPairs > 0 samples that many pairs uniformly (with replacement) when
	// there are more pairs than that; 0 takes every pair.
	MaxPairs int
	// Seed seeds the sampling.
	Seed uint64
}

// PairSimilarities are the cosine similarities of node pairs {u, v} (u != v)
// split by whether the two share a class.
type PairSimilarities struct {
	Intra, Inter []float64
	// ZeroRows counts the selected nodes whose row has norm zero (left out).
	ZeroRows int
	// Sampled says whether the pairs are a sample (PairOptions.MaxPairs).
	Sampled bool
}

// Mean returns the mean intra-class and inter-class similarity (NaN for an
// empty group).
func (p PairSimilarities) Mean() (intra, inter float64) {
	return mean(p.Intra), mean(p.Inter)
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// PairCosines computes the cosine similarity of the rows of x for node pairs
// of the same class (intra) and of different classes (inter): the paper's
// Fig. 4. labels has one entry per row (graph.Unlabeled is skipped).
func PairCosines(x *graph.Features, labels []int32, opts PairOptions) (PairSimilarities, error) {
	if x == nil {
		return PairSimilarities{}, fmt.Errorf("analysis: PairCosines: nil representation")
	}
	if len(labels) != x.NumRows() {
		return PairSimilarities{}, fmt.Errorf("analysis: PairCosines: %d labels for %d rows", len(labels), x.NumRows())
	}
	nodes := opts.Nodes
	if nodes == nil {
		for v := range labels {
			nodes = append(nodes, int32(v))
		}
	}
	u := newUnitRows(x)
	var out PairSimilarities
	var keep []int32
	for _, v := range nodes {
		if v < 0 || int(v) >= len(labels) {
			return PairSimilarities{}, fmt.Errorf("analysis: PairCosines: node %d outside [0,%d)", v, len(labels))
		}
		if labels[v] == graph.Unlabeled {
			continue
		}
		if u.zero(int(v)) {
			out.ZeroRows++
			continue
		}
		keep = append(keep, v)
	}
	n := len(keep)
	total := n * (n - 1) / 2
	add := func(a, b int32) {
		c := u.cosine(int(a), int(b))
		if labels[a] == labels[b] {
			out.Intra = append(out.Intra, c)
		} else {
			out.Inter = append(out.Inter, c)
		}
	}
	if opts.MaxPairs > 0 && total > opts.MaxPairs {
		out.Sampled = true
		rng := rand.New(rand.NewPCG(opts.Seed, 0x9a1c05))
		for range opts.MaxPairs {
			i := rng.IntN(n)
			j := rng.IntN(n - 1)
			if j >= i {
				j++
			}
			add(keep[i], keep[j])
		}
		return out, nil
	}
	for i := range n {
		for j := i + 1; j < n; j++ {
			add(keep[i], keep[j])
		}
	}
	return out, nil
}

// NeighbourOptions configure NeighbourClassSimilarity.
type NeighbourOptions struct {
	// Labels group the nodes (nil: the graph's labels), e.g. pseudo labels.
	Labels []int32
	// Multiset counts a neighbour once per edge to a class-i centre (so
	// neighbours of many centres weigh more); by default X_ik is a set, as
	// the paper writes it, and each node counts once.
	Multiset bool
}

// NeighbourSimilarity holds, for every neighbour class k, the C x C matrix
// of average cosine similarities between the features of class-k neighbours
// of class-i centres (X_ik) and of class-j centres (X_jk):
//
//	s(X_ik, X_jk) = 1/(|X_ik| |X_jk|) sum_{a in X_ik} sum_{b in X_jk} cos(x_a, x_b)
//	              = m_ik . m_jk,   m_ik = mean over X_ik of x_a/|x_a|,
//
// the appendix's equation computed through the mean unit vectors (exact, and
// O(|E| + C^2 F) instead of a sum over pairs). Pairs include a = b, as in
// the paper's double sum; SimDistinct leaves those out.
type NeighbourSimilarity struct {
	NumClasses int
	// Sim[k][i][j] = s(X_ik, X_jk); NaN when X_ik or X_jk is empty.
	Sim [][][]float64
	// SimDistinct[k][i][j] is the same average over the pairs of two
	// different nodes: a node in both X_ik and X_jk (always when i = j)
	// adds cos = 1 pairs with itself, which dominate when the average cosine
	// is small. NaN when no such pair exists.
	SimDistinct [][][]float64
	// Counts[i][k] = |X_ik| (edges, with Multiset).
	Counts [][]int
	// ZeroRows counts labelled nodes whose feature row has norm zero; they
	// belong to no X_ik.
	ZeroRows int
}

// NeighbourClassSimilarity computes the similarity matrices of g's node
// features. A neighbour of centre v is a source u of an edge u -> v (the
// nodes v aggregates over); call it on g.ToUndirected() for the undirected
// reading. Edges with an unlabelled end are skipped.
func NeighbourClassSimilarity(g *graph.Graph, opts NeighbourOptions) (*NeighbourSimilarity, error) {
	if g == nil {
		return nil, fmt.Errorf("analysis: NeighbourClassSimilarity: nil graph")
	}
	x := g.Features()
	if x == nil {
		return nil, fmt.Errorf("analysis: graph %q has no features", g.Name())
	}
	labels := opts.Labels
	numClasses := g.NumClasses()
	if labels == nil {
		labels = g.Labels()
	} else {
		if len(labels) != g.NumNodes() {
			return nil, fmt.Errorf("analysis: %d labels for the %d nodes of %q", len(labels), g.NumNodes(), g.Name())
		}
		for _, y := range labels {
			numClasses = max(numClasses, int(y)+1)
		}
	}
	if labels == nil {
		return nil, fmt.Errorf("analysis: graph %q has no labels", g.Name())
	}
	if numClasses < 1 {
		return nil, fmt.Errorf("analysis: graph %q has no classes", g.Name())
	}
	c, f := numClasses, x.NumCols()
	u := newUnitRows(x)
	res := &NeighbourSimilarity{NumClasses: c, Counts: make([][]int, c)}
	for i := range res.Counts {
		res.Counts[i] = make([]int, c)
	}
	for v, y := range labels {
		if y != graph.Unlabeled && u.zero(v) {
			res.ZeroRows++
		}
	}
	// weight[u*c+i]: how often (or whether) u is a neighbour of a class-i centre.
	weight := make([]int32, g.NumNodes()*c)
	src, dst := g.Src(), g.Dst()
	for e := range src {
		a, v := src[e], dst[e]
		ya, yv := labels[a], labels[v]
		if ya == graph.Unlabeled || yv == graph.Unlabeled || u.zero(int(a)) {
			continue
		}
		if ya < 0 || int(ya) >= c || yv < 0 || int(yv) >= c {
			return nil, fmt.Errorf("analysis: edge %d joins labels %d and %d outside [0,%d)", e, ya, yv, c)
		}
		k := int(a)*c + int(yv)
		if opts.Multiset || weight[k] == 0 {
			weight[k]++
		}
	}
	means := make([][]float64, c*c) // means[i*c+k] = m_ik
	for i := range means {
		means[i] = make([]float64, f)
	}
	for a, ya := range labels {
		if ya == graph.Unlabeled {
			continue
		}
		for i := range c {
			if w := weight[a*c+i]; w > 0 {
				u.addTo(means[i*c+int(ya)], a, float64(w))
				res.Counts[i][ya] += int(w)
			}
		}
	}
	for i := range c {
		for k := range c {
			if n := res.Counts[i][k]; n > 0 {
				for t := range means[i*c+k] {
					means[i*c+k][t] /= float64(n)
				}
			}
		}
	}
	// self[k][i][j] = sum over class-k nodes a of w_i(a) w_j(a): the number
	// of pairs (a, a), each of cosine 1.
	self := make([][][]float64, c)
	for k := range self {
		self[k] = make([][]float64, c)
		for i := range self[k] {
			self[k][i] = make([]float64, c)
		}
	}
	for a, ya := range labels {
		if ya == graph.Unlabeled {
			continue
		}
		w := weight[a*c : (a+1)*c]
		for i := range c {
			if w[i] == 0 {
				continue
			}
			for j := range c {
				self[ya][i][j] += float64(w[i]) * float64(w[j])
			}
		}
	}
	res.Sim, res.SimDistinct = make([][][]float64, c), make([][][]float64, c)
	for k := range c {
		res.Sim[k], res.SimDistinct[k] = make([][]float64, c), make([][]float64, c)
		for i := range c {
			res.Sim[k][i], res.SimDistinct[k][i] = make([]float64, c), make([]float64, c)
			for j := range c {
				ni, nj := float64(res.Counts[i][k]), float64(res.Counts[j][k])
				if ni == 0 || nj == 0 {
					res.Sim[k][i][j], res.SimDistinct[k][i][j] = math.NaN(), math.NaN()
					continue
				}
				var dot float64
				mi, mj := means[i*c+k], means[j*c+k]
				for t := range mi {
					dot += mi[t] * mj[t]
				}
				res.Sim[k][i][j] = dot
				pairs := ni*nj - self[k][i][j]
				if pairs <= 0 {
					res.SimDistinct[k][i][j] = math.NaN()
					continue
				}
				res.SimDistinct[k][i][j] = (ni*nj*dot - self[k][i][j]) / pairs
			}
		}
	}
	return res, nil
}

// Contrast summarises a similarity matrix: the mean of its diagonal
// (same-class centres) and the mean of its off-diagonal entries (different
// classes), NaN entries skipped. A diagonal above the off-diagonal means
// class-k neighbours look different next to centres of different classes
// (assumption (ii)).
func Contrast(m [][]float64) (diag, off float64) {
	var ds, os []float64
	for i := range m {
		for j, x := range m[i] {
			if math.IsNaN(x) {
				continue
			}
			if i == j {
				ds = append(ds, x)
			} else {
				os = append(os, x)
			}
		}
	}
	return mean(ds), mean(os)
}
