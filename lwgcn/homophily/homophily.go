package homophily

import (
	"errors"
	"fmt"
	"math"

	"github.com/lwgcn/toolkit/lwgcn/graph"
)

var (
	// ErrNoLabels: the graph has no labels.
	ErrNoLabels = errors.New("graph has no labels")
	// ErrNoEdges: no edge has two labeled endpoints.
	ErrNoEdges = errors.New("no edge joins two labeled nodes")
	// ErrOneClass: the measure's normaliser vanishes because only one class
	// takes part.
	ErrOneClass = errors.New("only one class takes part, the measure's normaliser is zero")
)

// labeledEdges calls fn for every edge whose endpoints are both labeled and
// returns how many there were.
func labeledEdges(g *graph.Graph, fn func(ySrc, yDst int32)) (int, error) {
	y := g.Labels()
	if y == nil {
		return 0, fmt.Errorf("graph %q: %w", g.Name(), ErrNoLabels)
	}
	src, dst := g.Src(), g.Dst()
	n := 0
	for e := range src {
		a, b := y[src[e]], y[dst[e]]
		if a < 0 || b < 0 {
			continue
		}
		fn(a, b)
		n++
	}
	if n == 0 {
		return 0, fmt.Errorf("graph %q: %w", g.Name(), ErrNoEdges)
	}
	return n, nil
}

// EdgeHomophily is the fraction of labeled edges whose endpoints share a
// class: h = |{(u,v) in E : y_u = y_v}| / |E| (Definition 1 of the paper).
func EdgeHomophily(g *graph.Graph) (float64, error) {
	same := 0
	n, err := labeledEdges(g, func(a, b int32) {
		if a == b {
			same++
		}
	})
	if err != nil {
		return 0, fmt.Errorf("edge homophily: %w", err)
	}
	return float64(same) / float64(n), nil
}

// NodeHomophily is the mean over centres v of the fraction of v's labeled
// in-neighbours that share v's class (Pei et al. 2020). Centres without a
// labeled in-neighbour are left out of the mean, where the formula is 0/0;
// PyTorch Geometric's homophily(method="node") counts them as 0 instead, which
// lowers the value on graphs with isolated nodes.
func NodeHomophily(g *graph.Graph) (float64, error) {
	y := g.Labels()
	if y == nil {
		return 0, fmt.Errorf("node homophily: graph %q: %w", g.Name(), ErrNoLabels)
	}
	same := make([]int32, g.NumNodes())
	total := make([]int32, g.NumNodes())
	src, dst := g.Src(), g.Dst()
	for e := range src {
		a, b := y[src[e]], y[dst[e]]
		if a < 0 || b < 0 {
			continue
		}
		total[dst[e]]++
		if a == b {
			same[dst[e]]++
		}
	}
	sum, count := 0.0, 0
	for v := range total {
		if total[v] > 0 {
			sum += float64(same[v]) / float64(total[v])
			count++
		}
	}
	if count == 0 {
		return 0, fmt.Errorf("node homophily: graph %q: %w", g.Name(), ErrNoEdges)
	}
	return sum / float64(count), nil
}

// Compatibility is the class compatibility matrix: Counts[k][l] is the number
// of labeled edges from a class-l neighbour into a class-k centre, and
// Fractions[k][l] = Counts[k][l] / sum_l Counts[k][l], the share of class-k
// centres' neighbours that are in class l. A class whose centres have no
// labeled in-edge has a zero row and is listed in EmptyRows.
type Compatibility struct {
	Counts    [][]int64
	Fractions [][]float64
	EmptyRows []int
}

// CompatibilityMatrix computes the C x C compatibility matrix.
func CompatibilityMatrix(g *graph.Graph) (*Compatibility, error) {
	c := g.NumClasses()
	counts := make([][]int64, c)
	for k := range counts {
		counts[k] = make([]int64, c)
	}
	if _, err := labeledEdges(g, func(a, b int32) { counts[b][a]++ }); err != nil {
		return nil, fmt.Errorf("compatibility matrix: %w", err)
	}
	m := &Compatibility{Counts: counts, Fractions: make([][]float64, c)}
	for k := range counts {
		m.Fractions[k] = make([]float64, c)
		var row int64
		for _, n := range counts[k] {
			row += n
		}
		if row == 0 {
			m.EmptyRows = append(m.EmptyRows, k)
			continue
		}
		for l, n := range counts[k] {
			m.Fractions[k][l] = float64(n) / float64(row)
		}
	}
	return m, nil
}

// ClassInsensitiveHomophily is Lim et al.'s (2021) measure
//
//	h_ci = 1/(C-1) * sum_k max(0, h_k - |C_k|/n),
//
// where h_k is the fraction of the in-neighbours of class-k centres that are
// in class k (row k of the compatibility matrix), |C_k| the number of class-k
// nodes and n the number of labeled nodes. A class whose nodes have no labeled
// in-edge has no h_k (0/0, NaN in LINKX's code) and contributes 0: it gives no
// evidence of homophily. C is the graph's number of classes; C < 2 is an error.
func ClassInsensitiveHomophily(g *graph.Graph) (float64, error) {
	c := g.NumClasses()
	if c < 2 {
		return 0, fmt.Errorf("class-insensitive homophily: graph %q has %d class(es): %w", g.Name(), c, ErrOneClass)
	}
	m, err := CompatibilityMatrix(g)
	if err != nil {
		return 0, fmt.Errorf("class-insensitive homophily: %w", err)
	}
	sizes := g.ClassCounts()
	n := 0
	for _, s := range sizes {
		n += s
	}
	empty := make(map[int]bool)
	for _, k := range m.EmptyRows {
		empty[k] = true
	}
	sum := 0.0
	for k := 0; k < c; k++ {
		if empty[k] {
			continue
		}
		sum += math.Max(0, m.Fractions[k][k]-float64(sizes[k])/float64(n))
	}
	return sum / float64(c-1), nil
}

// endpointClassShares returns, for labeled edges, the share of edge endpoints
// in each class (p̄_k = D_k / 2|E| for an undirected graph, D_k the total
// degree of class k) and the symmetrised joint class distribution of an edge's
// two endpoints.
func endpointClassShares(g *graph.Graph) (shares []float64, joint [][]float64, edgeH float64, err error) {
	c := g.NumClasses()
	counts := make([][]float64, c)
	for k := range counts {
		counts[k] = make([]float64, c)
	}
	same := 0
	n, err := labeledEdges(g, func(a, b int32) {
		counts[a][b]++
		counts[b][a]++
		if a == b {
			same++
		}
	})
	if err != nil {
		return nil, nil, 0, err
	}
	shares = make([]float64, c)
	for k := range counts {
		for l := range counts[k] {
			counts[k][l] /= float64(2 * n)
			shares[k] += counts[k][l]
		}
	}
	return shares, counts, float64(same) / float64(n), nil
}

// AdjustedHomophily is Platonov et al.'s (2023) edge homophily corrected for
// the expected value under random wiring with the same class degrees:
//
//	h_adj = (h_edge - sum_k p̄_k^2) / (1 - sum_k p̄_k^2),
//
// with p̄_k the share of edge endpoints in class k. It is 0 in expectation for
// random graphs, negative for heterophilic ones. Undefined (error) when every
// labeled endpoint is in one class.
func AdjustedHomophily(g *graph.Graph) (float64, error) {
	shares, _, h, err := endpointClassShares(g)
	if err != nil {
		return 0, fmt.Errorf("adjusted homophily: %w", err)
	}
	sq := 0.0
	for _, p := range shares {
		sq += p * p
	}
	if 1-sq < 1e-12 {
		return 0, fmt.Errorf("adjusted homophily: graph %q: %w", g.Name(), ErrOneClass)
	}
	return (h - sq) / (1 - sq), nil
}

// LabelInformativeness is Platonov et al.'s (2023) LI: how much the class of
// one endpoint of a random edge tells about the other,
//
//	LI = I(y_ξ; y_η) / H(y_ξ) = 2 - H(y_ξ, y_η) / H(y_ξ),
//
// over the symmetrised joint distribution of edge endpoint classes (each edge
// counted in both directions). 1 when neighbours' classes are determined by
// the centre's, 0 when independent. Undefined (error) when H(y_ξ) = 0, i.e.
// every labeled endpoint is in one class.
func LabelInformativeness(g *graph.Graph) (float64, error) {
	shares, joint, _, err := endpointClassShares(g)
	if err != nil {
		return 0, fmt.Errorf("label informativeness: %w", err)
	}
	hMarg := 0.0
	for _, p := range shares {
		if p > 0 {
			hMarg -= p * math.Log(p)
		}
	}
	if hMarg < 1e-12 {
		return 0, fmt.Errorf("label informativeness: graph %q: %w", g.Name(), ErrOneClass)
	}
	hJoint := 0.0
	for k := range joint {
		for _, p := range joint[k] {
			if p > 0 {
				hJoint -= p * math.Log(p)
			}
		}
	}
	return 2 - hJoint/hMarg, nil
}

// Measures holds every measure of a graph. A measure that is undefined for the
// graph is NaN and its reason is in Undefined (keyed by the field name), so
// tables can print "n/a" with the reason instead of a bare NaN.
type Measures struct {
	Edge, Node, ClassInsensitive, Adjusted, LabelInformativeness float64
	Undefined                                                    map[string]error
}

// All computes every measure of g.
func All(g *graph.Graph) Measures {
	m := Measures{Undefined: map[string]error{}}
	for _, f := range []struct {
		name string
		dst  *float64
		fn   func(*graph.Graph) (float64, error)
	}{
		{"Edge", &m.Edge, EdgeHomophily},
		{"Node", &m.Node, NodeHomophily},
		{"ClassInsensitive", &m.ClassInsensitive, ClassInsensitiveHomophily},
		{"Adjusted", &m.Adjusted, AdjustedHomophily},
		{"LabelInformativeness", &m.LabelInformativeness, LabelInformativeness},
	} {
		v, err := f.fn(g)
		if err != nil {
			v = math.NaN()
			m.Undefined[f.name] = err
		}
		*f.dst = v
	}
	return m
}
