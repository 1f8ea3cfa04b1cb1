package graph

import (
	"fmt"
	"slices"
)

// Every transform returns a new graph; nodes, features, labels and splits are
// shared with the receiver unless the transform says otherwise.

// Reverse flips every edge (u->v becomes v->u). Edge count unchanged.
func (g *Graph) Reverse() *Graph { return g.withEdges(g.dst, g.src) }

// RemoveSelfLoops drops every edge u->u. Edge count: E minus the number of
// self loops. Edge order is kept.
func (g *Graph) RemoveSelfLoops() *Graph {
	src := make([]int32, 0, len(g.src))
	dst := make([]int32, 0, len(g.dst))
	for e := range g.src {
		if g.src[e] != g.dst[e] {
			src = append(src, g.src[e])
			dst = append(dst, g.dst[e])
		}
	}
	return g.withEdges(src, dst)
}

// AddSelfLoops gives every node exactly one self loop: existing loops are
// removed, then loops 0->0, ..., N-1->N-1 are appended. Edge count: E minus
// the existing loops plus N. (This is the A+I of GCN.)
func (g *Graph) AddSelfLoops() *Graph {
	h := g.RemoveSelfLoops()
	src := slices.Grow(h.src, g.numNodes)
	dst := slices.Grow(h.dst, g.numNodes)
	for v := int32(0); v < int32(g.numNodes); v++ {
		src = append(src, v)
		dst = append(dst, v)
	}
	return g.withEdges(src, dst)
}

// Coalesce sorts the edges by (source, destination) and removes duplicates.
// Edge count: the number of distinct ordered pairs (self loops kept). This is
// PyTorch Geometric's coalesce without edge weights.
func (g *Graph) Coalesce() *Graph {
	src, dst := sortedUniquePairs(g.numNodes, g.src, g.dst)
	return g.withEdges(src, dst)
}

// ToUndirected adds the reverse of every edge and coalesces. Edge count:
// twice the number of distinct unordered pairs {u,v} with u != v, plus the
// number of distinct self loops (each loop is kept once).
func (g *Graph) ToUndirected() *Graph {
	src := make([]int32, 0, 2*len(g.src))
	dst := make([]int32, 0, 2*len(g.dst))
	src = append(append(src, g.src...), g.dst...)
	dst = append(append(dst, g.dst...), g.src...)
	s, d := sortedUniquePairs(g.numNodes, src, dst)
	return g.withEdges(s, d)
}

// sortedUniquePairs sorts (src,dst) pairs with two stable counting sorts and
// drops repeats.
func sortedUniquePairs(n int, src, dst []int32) ([]int32, []int32) {
	byDst := buildCSR(n, dst, src) // stable by destination
	// Re-sort by source, stable, so pairs end up ordered by (src, dst).
	order := make([]int32, len(src))
	counts := make([]int32, n+1)
	for _, s := range src {
		counts[s+1]++
	}
	for v := 0; v < n; v++ {
		counts[v+1] += counts[v]
	}
	for _, e := range byDst.EdgeIDs {
		s := src[e]
		order[counts[s]] = e
		counts[s]++
	}
	outSrc := make([]int32, 0, len(src))
	outDst := make([]int32, 0, len(dst))
	for i, e := range order {
		if i > 0 {
			p := order[i-1]
			if src[p] == src[e] && dst[p] == dst[e] {
				continue
			}
		}
		outSrc = append(outSrc, src[e])
		outDst = append(outDst, dst[e])
	}
	return outSrc, outDst
}

// RowNormalizeFeatures returns the graph with row-normalised features (rows
// summing to 1; see Features.RowNormalized). Edges unchanged.
func (g *Graph) RowNormalizeFeatures() *Graph {
	c := g.withEdges(g.src, g.dst)
	if g.features != nil {
		c.features = g.features.RowNormalized()
	}
	return c
}

// WithUnnormalizedFeatures returns the graph with its features as they were
// before any row normalisation (Features.Unnormalized): a model whose
// official loader reads the raw features undoes the standard preprocessing
// (datasets.Standard row-normalises Planetoid features) with it. Edges
// unchanged; a graph whose features were never row-normalised keeps them.
func (g *Graph) WithUnnormalizedFeatures() *Graph {
	c := g.withEdges(g.src, g.dst)
	if g.features != nil {
		c.features = g.features.Unnormalized()
	}
	return c
}

// Subgraph keeps the nodes with keep[v] true, renumbered in increasing order,
// and the edges between them (edge order kept). Features, labels and splits
// are restricted to the kept nodes. It also returns, for each new node, its id
// in g. Edge count: the edges with both endpoints kept.
func (g *Graph) Subgraph(keep []bool) (*Graph, []int32, error) {
	if len(keep) != g.numNodes {
		return nil, nil, fmt.Errorf("graph %q: subgraph mask has length %d for %d nodes", g.name, len(keep), g.numNodes)
	}
	var oldID []int32
	for v, k := range keep {
		if k {
			oldID = append(oldID, int32(v))
		}
	}
	h, err := g.relabel(oldID)
	return h, oldID, err
}

// Renumbered is the same graph with node i of the result being node
// order[i] of g (order a permutation of g's nodes): edges (in their order),
// features, labels and splits follow their nodes. A node order changes
// which rows of a node matrix sit together in memory, not the graph.
func (g *Graph) Renumbered(order []int32) (*Graph, error) {
	if len(order) != g.numNodes {
		return nil, fmt.Errorf("graph %q: node order has length %d for %d nodes", g.name, len(order), g.numNodes)
	}
	seen := make([]bool, g.numNodes)
	for i, v := range order {
		if v < 0 || int(v) >= g.numNodes || seen[v] {
			return nil, fmt.Errorf("graph %q: node order is not a permutation: position %d holds %d", g.name, i, v)
		}
		seen[v] = true
	}
	return g.relabel(order)
}

// DegreeOrder lists g's nodes by decreasing degree (in plus out edges),
// ties by id: the hubs first, so that their rows share cache lines and
// pages when the node matrices follow this order (Renumbered).
func (g *Graph) DegreeOrder() []int32 {
	deg := make([]int, g.numNodes)
	for e := range g.src {
		deg[g.src[e]]++
		deg[g.dst[e]]++
	}
	order := make([]int32, g.numNodes)
	for v := range order {
		order[v] = int32(v)
	}
	slices.SortStableFunc(order, func(a, b int32) int { return deg[b] - deg[a] })
	return order
}

// relabel makes the graph of the nodes oldID (new node i is oldID[i]) and
// the edges between them, with their features, labels and split members.
func (g *Graph) relabel(oldID []int32) (*Graph, error) {
	newID := make([]int32, g.numNodes)
	for v := range newID {
		newID[v] = -1
	}
	for i, v := range oldID {
		newID[v] = int32(i)
	}
	var src, dst []int32
	for e := range g.src {
		s, d := newID[g.src[e]], newID[g.dst[e]]
		if s >= 0 && d >= 0 {
			src = append(src, s)
			dst = append(dst, d)
		}
	}
	spec := Spec{Name: g.name, NumNodes: len(oldID), Src: src, Dst: dst, NumClasses: g.numClasses}
	if g.features != nil {
		spec.Features = g.features.SelectRows(oldID)
	}
	if g.labels != nil {
		spec.Labels = make([]int32, len(oldID))
		for i, v := range oldID {
			spec.Labels[i] = g.labels[v]
		}
	}
	remap := func(ids []int32) []int32 {
		out := []int32{}
		for _, v := range ids {
			if newID[v] >= 0 {
				out = append(out, newID[v])
			}
		}
		return out
	}
	for _, sp := range g.splits {
		spec.Splits = append(spec.Splits, Split{Train: remap(sp.Train), Val: remap(sp.Val), Test: remap(sp.Test)})
	}
	return New(spec)
}

// ConnectedComponents labels every node with the index of its weakly
// connected component (edge directions ignored); components are numbered in
// order of their smallest node id. It returns the labels and the sizes.
func (g *Graph) ConnectedComponents() (component []int32, sizes []int) {
	parent := make([]int32, g.numNodes)
	for v := range parent {
		parent[v] = int32(v)
	}
	var find func(int32) int32
	find = func(v int32) int32 {
		for parent[v] != v {
			parent[v] = parent[parent[v]]
			v = parent[v]
		}
		return v
	}
	for e := range g.src {
		a, b := find(g.src[e]), find(g.dst[e])
		if a != b {
			if a < b {
				parent[b] = a
			} else {
				parent[a] = b
			}
		}
	}
	component = make([]int32, g.numNodes)
	index := make(map[int32]int32)
	for v := range component {
		r := find(int32(v))
		c, ok := index[r]
		if !ok {
			c = int32(len(sizes))
			index[r] = c
			sizes = append(sizes, 0)
		}
		component[v] = c
		sizes[c]++
	}
	return component, sizes
}

// LargestConnectedComponent keeps the largest weakly connected component (the
// one with the smallest node id on ties), as Subgraph does. Edge count: the
// edges inside that component.
func (g *Graph) LargestConnectedComponent() (*Graph, []int32, error) {
	comp, sizes := g.ConnectedComponents()
	best := 0
	for c, s := range sizes {
		if s > sizes[best] {
			best = c
		}
	}
	keep := make([]bool, g.numNodes)
	for v, c := range comp {
		keep[v] = int(c) == best
	}
	return g.Subgraph(keep)
}
