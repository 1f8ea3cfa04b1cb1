package graph

import (
	"fmt"
	"slices"
	"sync"
)

// Unlabeled is the label of a node whose class is unknown.
const Unlabeled int32 = -1

// Spec describes a graph to build with New. Slices are taken over, not copied:
// the caller must not modify them afterwards.
type Spec struct {
	// Name identifies the graph in tables and errors (e.g. "texas").
	Name string
	// NumNodes is N; node ids are 0..N-1.
	NumNodes int
	// Src and Dst hold the directed edges: edge e goes from Src[e] to Dst[e].
	Src, Dst []int32
	// Features may be nil; otherwise it must have NumNodes rows.
	Features *Features
	// Labels may be nil; otherwise len NumNodes, each in [0, NumClasses) or Unlabeled.
	Labels []int32
	// NumClasses is C; 0 means 1 + the largest label.
	NumClasses int
	// Splits are the train/validation/test node sets.
	Splits []Split
}

// Graph is an immutable attributed graph. Build it with New; derive new graphs
// with the transforms (ToUndirected, Coalesce, Subgraph, ...).
type Graph struct {
	name       string
	numNodes   int
	src, dst   []int32
	features   *Features
	labels     []int32
	numClasses int
	splits     []Split

	outOnce, inOnce sync.Once
	out, in         *CSR
}

// New validates a Spec and returns the graph. Errors name the offending field
// and position.
func New(s Spec) (*Graph, error) {
	name := s.Name
	if name == "" {
		name = "graph"
	}
	fail := func(format string, args ...any) (*Graph, error) {
		return nil, fmt.Errorf("graph %q: %s", name, fmt.Sprintf(format, args...))
	}
	if s.NumNodes < 0 {
		return fail("negative number of nodes %d", s.NumNodes)
	}
	if int64(s.NumNodes) > int64(1<<31-1) {
		return fail("%d nodes exceed the int32 node id range", s.NumNodes)
	}
	if len(s.Src) != len(s.Dst) {
		return fail("%d edge sources but %d edge destinations", len(s.Src), len(s.Dst))
	}
	n := int32(s.NumNodes)
	for e := range s.Src {
		if s.Src[e] < 0 || s.Src[e] >= n {
			return fail("edge %d has source %d outside [0,%d)", e, s.Src[e], n)
		}
		if s.Dst[e] < 0 || s.Dst[e] >= n {
			return fail("edge %d has destination %d outside [0,%d)", e, s.Dst[e], n)
		}
	}
	if s.Features != nil && s.Features.NumRows() != s.NumNodes {
		return fail("features have %d rows for %d nodes", s.Features.NumRows(), s.NumNodes)
	}
	numClasses := s.NumClasses
	if s.Labels != nil {
		if len(s.Labels) != s.NumNodes {
			return fail("%d labels for %d nodes", len(s.Labels), s.NumNodes)
		}
		maxLabel := int32(-1)
		for v, y := range s.Labels {
			if y < Unlabeled {
				return fail("node %d has label %d (labels are >= 0, or %d for unlabeled)", v, y, Unlabeled)
			}
			if numClasses > 0 && int(y) >= numClasses {
				return fail("node %d has label %d outside [0,%d)", v, y, numClasses)
			}
			maxLabel = max(maxLabel, y)
		}
		if numClasses == 0 {
			numClasses = int(maxLabel) + 1
		}
	} else if numClasses < 0 {
		return fail("negative number of classes %d", numClasses)
	}
	splits := make([]Split, len(s.Splits))
	for i, sp := range s.Splits {
		norm, err := sp.normalized(s.NumNodes)
		if err != nil {
			return fail("split %d: %v", i, err)
		}
		splits[i] = norm
	}
	return &Graph{
		name: name, numNodes: s.NumNodes, src: s.Src, dst: s.Dst, features: s.Features,
		labels: s.Labels, numClasses: numClasses, splits: splits,
	}, nil
}

// MustNew is New that panics on error, for tests and examples.
func MustNew(s Spec) *Graph {
	g, err := New(s)
	if err != nil {
		panic(err)
	}
	return g
}

// Spec returns the graph's description; New(g.Spec()) rebuilds it. The slices
// are views shared with g.
func (g *Graph) Spec() Spec {
	return Spec{Name: g.name, NumNodes: g.numNodes, Src: g.src, Dst: g.dst, Features: g.features,
		Labels: g.labels, NumClasses: g.numClasses, Splits: g.splits}
}

// Name returns the graph's name.
func (g *Graph) Name() string { return g.name }

// NumNodes returns N.
func (g *Graph) NumNodes() int { return g.numNodes }

// NumEdges returns the number of directed edges (rows of the edge list).
func (g *Graph) NumEdges() int { return len(g.src) }

// Src returns the edge sources (a view).
func (g *Graph) Src() []int32 { return g.src }

// Dst returns the edge destinations (a view).
func (g *Graph) Dst() []int32 { return g.dst }

// Features returns the node features, or nil.
func (g *Graph) Features() *Features { return g.features }

// Labels returns the node labels (a view), or nil.
func (g *Graph) Labels() []int32 { return g.labels }

// NumClasses returns C.
func (g *Graph) NumClasses() int { return g.numClasses }

// Splits returns the train/validation/test splits (a view).
func (g *Graph) Splits() []Split { return g.splits }

// String summarises the graph, e.g. "texas: 183 nodes, 325 edges, 5 classes, 10 splits".
func (g *Graph) String() string {
	return fmt.Sprintf("%s: %d nodes, %d edges, %d classes, %d splits",
		g.name, g.numNodes, len(g.src), g.numClasses, len(g.splits))
}

// with returns a new graph with the same name, nodes, features, labels and
// splits but the given edges; the edges must be valid for the node count.
func (g *Graph) withEdges(src, dst []int32) *Graph {
	return &Graph{name: g.name, numNodes: g.numNodes, src: src, dst: dst, features: g.features,
		labels: g.labels, numClasses: g.numClasses, splits: g.splits}
}

// WithName returns the same graph under another name.
func (g *Graph) WithName(name string) *Graph {
	c := g.withEdges(g.src, g.dst)
	c.name = name
	return c
}

// WithFeatures returns the graph with other features (or nil).
func (g *Graph) WithFeatures(f *Features) (*Graph, error) {
	s := g.Spec()
	s.Features = f
	return New(s)
}

// WithLabels returns the graph with other labels; numClasses 0 infers C.
func (g *Graph) WithLabels(labels []int32, numClasses int) (*Graph, error) {
	s := g.Spec()
	s.Labels, s.NumClasses = labels, numClasses
	return New(s)
}

// WithSplits returns the graph with other splits.
func (g *Graph) WithSplits(splits []Split) (*Graph, error) {
	s := g.Spec()
	s.Splits = splits
	return New(s)
}

// WithEdges returns the graph with another edge list.
func (g *Graph) WithEdges(src, dst []int32) (*Graph, error) {
	s := g.Spec()
	s.Src, s.Dst = src, dst
	return New(s)
}

// CSR is a compressed adjacency view: the edges of node v occupy positions
// Offsets[v]..Offsets[v+1] of Neighbors and EdgeIDs, in edge-list order.
type CSR struct {
	// Offsets has length N+1.
	Offsets []int32
	// Neighbors holds the other endpoint of each edge.
	Neighbors []int32
	// EdgeIDs holds the index of each edge in the graph's edge list.
	EdgeIDs []int32
}

// Row returns the neighbours of v (a view).
func (c *CSR) Row(v int) []int32 { return c.Neighbors[c.Offsets[v]:c.Offsets[v+1]] }

// Degree returns the number of edges of v in this view.
func (c *CSR) Degree(v int) int { return int(c.Offsets[v+1] - c.Offsets[v]) }

// buildCSR groups edges by key with a stable counting sort.
func buildCSR(n int, key, other []int32) *CSR {
	offsets := make([]int32, n+1)
	for _, k := range key {
		offsets[k+1]++
	}
	for v := 0; v < n; v++ {
		offsets[v+1] += offsets[v]
	}
	next := slices.Clone(offsets[:n])
	neighbors := make([]int32, len(key))
	ids := make([]int32, len(key))
	for e, k := range key {
		p := next[k]
		next[k]++
		neighbors[p] = other[e]
		ids[p] = int32(e)
	}
	return &CSR{Offsets: offsets, Neighbors: neighbors, EdgeIDs: ids}
}

// OutCSR returns the view by source: Row(v) lists the destinations of v's
// out-edges. It is computed once and cached.
func (g *Graph) OutCSR() *CSR {
	g.outOnce.Do(func() { g.out = buildCSR(g.numNodes, g.src, g.dst) })
	return g.out
}

// InCSR returns the view by destination: Row(v) lists the sources of v's
// in-edges, the neighbours v aggregates over. It is computed once and cached.
func (g *Graph) InCSR() *CSR {
	g.inOnce.Do(func() { g.in = buildCSR(g.numNodes, g.dst, g.src) })
	return g.in
}
