package graph

// OutDegrees returns the number of out-edges of each node (duplicates and
// self loops counted as stored).
func (g *Graph) OutDegrees() []int32 { return degrees(g.numNodes, g.src) }

// InDegrees returns the number of in-edges of each node.
func (g *Graph) InDegrees() []int32 { return degrees(g.numNodes, g.dst) }

func degrees(n int, ends []int32) []int32 {
	d := make([]int32, n)
	for _, v := range ends {
		d[v]++
	}
	return d
}

// AverageDegree returns E/N, the directed edges per node (the "Ave. Degree" of
// the LW-GCN paper's Table 2 with its edge counts). It is 0 for an empty graph.
func (g *Graph) AverageDegree() float64 {
	if g.numNodes == 0 {
		return 0
	}
	return float64(len(g.src)) / float64(g.numNodes)
}

// NumSelfLoops returns the number of edges u->u.
func (g *Graph) NumSelfLoops() int {
	n := 0
	for e := range g.src {
		if g.src[e] == g.dst[e] {
			n++
		}
	}
	return n
}

// NumUndirectedEdges returns the number of distinct unordered pairs {u,v}
// with u != v joined by at least one edge in either direction.
func (g *Graph) NumUndirectedEdges() int {
	h := g.RemoveSelfLoops().ToUndirected()
	return h.NumEdges() / 2
}

// IsSymmetric reports whether every edge u->v has a reverse edge v->u.
func (g *Graph) IsSymmetric() bool {
	c := g.Coalesce()
	out := c.OutCSR()
	for e := range c.src {
		u, v := c.src[e], c.dst[e]
		if !containsSorted(out.Row(int(v)), u) {
			return false
		}
	}
	return true
}

func containsSorted(xs []int32, x int32) bool {
	lo, hi := 0, len(xs)
	for lo < hi {
		m := (lo + hi) / 2
		switch {
		case xs[m] == x:
			return true
		case xs[m] < x:
			lo = m + 1
		default:
			hi = m
		}
	}
	return false
}

// ClassCounts returns the number of nodes of each class (unlabeled nodes are
// not counted). It is nil when the graph has no labels.
func (g *Graph) ClassCounts() []int {
	if g.labels == nil {
		return nil
	}
	counts := make([]int, g.numClasses)
	for _, y := range g.labels {
		if y >= 0 {
			counts[y]++
		}
	}
	return counts
}

// FeatureDensity returns the fraction of non-zero feature values, 0 without
// features.
func (g *Graph) FeatureDensity() float64 {
	if g.features == nil {
		return 0
	}
	return g.features.Density()
}

// Stats is a summary of a graph's size.
type Stats struct {
	Name            string
	Nodes           int
	Edges           int // directed edges as stored
	UndirectedEdges int // distinct unordered pairs, self loops excluded
	SelfLoops       int
	Features        int
	FeatureDensity  float64
	Classes         int
	ClassCounts     []int
	AverageDegree   float64 // Edges / Nodes
	IsolatedNodes   int     // nodes with no edge in either direction
	Splits          int
	Symmetric       bool
	SparseFeatures  bool
	LabeledNodes    int
}

// Stats computes the summary.
func (g *Graph) Stats() Stats {
	s := Stats{
		Name: g.name, Nodes: g.numNodes, Edges: len(g.src), UndirectedEdges: g.NumUndirectedEdges(),
		SelfLoops: g.NumSelfLoops(), FeatureDensity: g.FeatureDensity(), Classes: g.numClasses,
		ClassCounts: g.ClassCounts(), AverageDegree: g.AverageDegree(), Splits: len(g.splits),
		Symmetric: g.IsSymmetric(),
	}
	if g.features != nil {
		s.Features = g.features.NumCols()
		s.SparseFeatures = g.features.IsSparse()
	}
	for _, c := range s.ClassCounts {
		s.LabeledNodes += c
	}
	in, out := g.InDegrees(), g.OutDegrees()
	for v := range in {
		if in[v] == 0 && out[v] == 0 {
			s.IsolatedNodes++
		}
	}
	return s
}
