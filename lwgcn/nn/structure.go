package nn

import (
	"fmt"
	"math"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// Standard input names.
const (
	InputFeatures   = "x"
	InputGCNAdj     = "adj/gcn"
	InputGATEdges   = "adj/gat"
	InputLabels     = "labels"
	InputNumClasses = "num_classes"
	InputTrainMask  = "mask/train"
	InputValMask    = "mask/val"
	InputTestMask   = "mask/test"
)

// GCNNormalized returns Â = D^-1/2 (A + I) D^-1/2 as PyG's gcn_norm builds
// it for GCNConv and GCN2Conv: existing self loops are replaced by one self
// loop of weight 1 per node (add_remaining_self_loops), every other edge
// u -> v (duplicates included) has weight 1, deg(v) = number of in-edges of v
// including its self loop, and Â[v, u] = deg(u)^-1/2 deg(v)^-1/2. Messages
// flow source -> target: row v of Â aggregates v's in-neighbours.
//
// The result keeps the edges unweighted and the degrees as row and column
// scales, so the graph applies them to N x H matrices rather than to edges.
func GCNNormalized(numNodes int, src, dst []int32) (*sparse.SparseMatrix, error) {
	rows, cols, deg, err := offDiagonalEdges(numNodes, src, dst, numNodes)
	if err != nil {
		return nil, err
	}
	for v := range numNodes {
		rows, cols = append(rows, int32(v)), append(cols, int32(v))
		deg[v]++
	}
	m, err := sparse.NewSparseMatrix(numNodes, numNodes, rows, cols, nil)
	if err != nil {
		return nil, err
	}
	dinv := make([]float32, numNodes)
	for v, d := range deg {
		dinv[v] = float32(1 / math.Sqrt(d))
	}
	m.RowScale, m.ColScale = dinv, dinv
	return m, nil
}

// offDiagonalEdges validates the edge list and returns its edges other than
// self loops as (row = destination, column = source) pairs, with room for
// extra more, and the in-degree of every node counting those edges.
func offDiagonalEdges(numNodes int, src, dst []int32, extra int) (rows, cols []int32, deg []float64, err error) {
	if len(src) != len(dst) {
		return nil, nil, nil, fmt.Errorf("nn: %d sources for %d destinations", len(src), len(dst))
	}
	rows = make([]int32, 0, len(src)+extra)
	cols = make([]int32, 0, len(src)+extra)
	deg = make([]float64, numNodes)
	for e := range src {
		if src[e] == dst[e] {
			continue
		}
		if src[e] < 0 || int(src[e]) >= numNodes || dst[e] < 0 || int(dst[e]) >= numNodes {
			return nil, nil, nil, fmt.Errorf("nn: edge %d (%d -> %d) outside %d nodes", e, src[e], dst[e], numNodes)
		}
		rows, cols = append(rows, dst[e]), append(cols, src[e])
		deg[dst[e]]++
	}
	return rows, cols, deg, nil
}

// SelfLoopEdges returns the edges with every self loop removed and one self
// loop per node added (PyG GATConv's remove_self_loops + add_self_loops),
// as an unweighted sparse matrix: row = destination, column = source.
func SelfLoopEdges(numNodes int, src, dst []int32) (*sparse.SparseMatrix, error) {
	rows := make([]int32, 0, len(src)+numNodes)
	cols := make([]int32, 0, len(src)+numNodes)
	for e := range src {
		if src[e] != dst[e] {
			rows, cols = append(rows, dst[e]), append(cols, src[e])
		}
	}
	for v := range numNodes {
		rows, cols = append(rows, int32(v)), append(cols, int32(v))
	}
	return sparse.NewSparseMatrix(numNodes, numNodes, rows, cols, nil)
}

// AddGraphBasics adds the features ("x"), the labels ("labels", [N] int32,
// unlabelled nodes as class 0 — masks exclude them) and the number of
// classes (metadata "num_classes"), then the model's own inputs (more, in
// order).
func AddGraphBasics(in *Inputs, g *graph.Graph, more ...func(*Inputs, *graph.Graph) error) error {
	if g.Features() == nil {
		return fmt.Errorf("nn: graph %q has no features", g.Name())
	}
	if err := in.SetFeatures(InputFeatures, g.Features()); err != nil {
		return err
	}
	labels := make([]int32, g.NumNodes())
	if l := g.Labels(); l != nil {
		for i, c := range l {
			labels[i] = max(c, 0)
		}
	}
	in.SetInt32(InputLabels, labels, g.NumNodes())
	in.SetMeta(InputNumClasses, g.NumClasses())
	for _, add := range more {
		if err := add(in, g); err != nil {
			return err
		}
	}
	return nil
}

// AddGCNAdjacency adds Â (GCNNormalized) as "adj/gcn".
func AddGCNAdjacency(in *Inputs, g *graph.Graph) error {
	if in.Has(InputGCNAdj + "/rows") {
		return nil
	}
	m, err := GCNNormalized(g.NumNodes(), g.Src(), g.Dst())
	if err != nil {
		return fmt.Errorf("nn: graph %q: %w", g.Name(), err)
	}
	sparse.Set(in, InputGCNAdj, m)
	return nil
}

// AddGATEdges adds the edges with self loops (SelfLoopEdges) as "adj/gat".
func AddGATEdges(in *Inputs, g *graph.Graph) error {
	if in.Has(InputGATEdges + "/rows") {
		return nil
	}
	m, err := SelfLoopEdges(g.NumNodes(), g.Src(), g.Dst())
	if err != nil {
		return fmt.Errorf("nn: graph %q: %w", g.Name(), err)
	}
	sparse.SetWeighted(in, InputGATEdges, m)
	return nil
}

// SetSplitMasks sets the float masks "mask/train", "mask/val" and
// "mask/test" of the runs' splits, [N, R] (run r's members 1 in column r;
// see Inputs.SetRunFloat); unlabelled nodes are rejected.
func SetSplitMasks(in *Inputs, g *graph.Graph, splits ...graph.Split) error {
	n, r := g.NumNodes(), len(splits)
	labels := g.Labels()
	for _, part := range []struct {
		name string
		of   func(s graph.Split) []int32
	}{
		{InputTrainMask, func(s graph.Split) []int32 { return s.Train }},
		{InputValMask, func(s graph.Split) []int32 { return s.Val }},
		{InputTestMask, func(s graph.Split) []int32 { return s.Test }},
	} {
		m := make([]float32, n*r)
		for k, s := range splits {
			for _, v := range part.of(s) {
				if v < 0 || int(v) >= n {
					return fmt.Errorf("nn: %s node %d outside %d nodes", part.name, v, n)
				}
				if labels == nil || labels[v] < 0 {
					return fmt.Errorf("nn: %s node %d is unlabelled", part.name, v)
				}
				m[int(v)*r+k] = 1
			}
		}
		in.SetRunFloat(part.name, m, n, r)
	}
	return nil
}
