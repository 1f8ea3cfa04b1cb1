package bench

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/lwgcn/toolkit/lwgcn/graph"
)

// Size describes a benchmark graph.
type Size struct {
	Name     string
	Nodes    int
	Edges    int
	Features int
	// NNZPerRow > 0: sparse binary features with that many non-zeros per
	// row; 0: dense Gaussian features.
	NNZPerRow int
	Classes   int
}

// The sizes of the paper's datasets: nodes, edges as the loaders return
// them, feature columns and the mean non-zeros per row of the loaded
// features, rounded (Texas 83.4, Chameleon 12.8, Squirrel 18.0, Cora 18.2;
// TestSizesMatchTheDatasets checks them against the files).
var (
	Texas     = Size{Name: "texas", Nodes: 183, Edges: 325, Features: 1703, NNZPerRow: 83, Classes: 5}
	Chameleon = Size{Name: "chameleon", Nodes: 2277, Edges: 36101, Features: 2325, NNZPerRow: 13, Classes: 5}
	Squirrel  = Size{Name: "squirrel", Nodes: 5201, Edges: 217073, Features: 2089, NNZPerRow: 18, Classes: 5}
	Cora      = Size{Name: "cora", Nodes: 2708, Edges: 10556, Features: 1433, NNZPerRow: 18, Classes: 7}
	ArxivYear = Size{Name: "arxiv-year", Nodes: 169343, Edges: 1166243, Features: 128, Classes: 5}
)

// Sizes lists the benchmark sizes, smallest first.
var Sizes = []Size{Texas, Cora, Chameleon, Squirrel, ArxivYear}

// RandomGraph returns a graph of the given size: uniformly random directed
// edges, random labels, features as described by the size, and one random
// 48/32/20 split.
func RandomGraph(s Size, seed uint64) (*graph.Graph, error) {
	r := rand.New(rand.NewPCG(seed, 0x6c77))
	src := make([]int32, s.Edges)
	dst := make([]int32, s.Edges)
	for e := range src {
		src[e], dst[e] = int32(r.IntN(s.Nodes)), int32(r.IntN(s.Nodes))
	}
	labels := make([]int32, s.Nodes)
	for i := range labels {
		labels[i] = int32(r.IntN(s.Classes))
	}
	var feats *graph.Features
	var err error
	if s.NNZPerRow > 0 {
		rowPtr := make([]int32, s.Nodes+1)
		var cols []int32
		var vals []float32
		for i := range s.Nodes {
			seen := map[int32]bool{}
			for len(seen) < s.NNZPerRow {
				seen[int32(r.IntN(s.Features))] = true
			}
			row := make([]int32, 0, len(seen))
			for c := range seen {
				row = append(row, c)
			}
			sortInt32(row)
			cols = append(cols, row...)
			for range row {
				vals = append(vals, 1)
			}
			rowPtr[i+1] = int32(len(cols))
		}
		feats, err = graph.NewSparseFeatures(s.Nodes, s.Features, rowPtr, cols, vals)
	} else {
		data := make([]float32, s.Nodes*s.Features)
		for i := range data {
			data[i] = float32(r.NormFloat64())
		}
		feats, err = graph.NewDenseFeatures(s.Nodes, s.Features, data)
	}
	if err != nil {
		return nil, fmt.Errorf("bench: %s features: %w", s.Name, err)
	}
	perm := r.Perm(s.Nodes)
	var split graph.Split
	for k, v := range perm {
		switch {
		case k < s.Nodes*48/100:
			split.Train = append(split.Train, int32(v))
		case k < s.Nodes*80/100:
			split.Val = append(split.Val, int32(v))
		default:
			split.Test = append(split.Test, int32(v))
		}
	}
	sortInt32(split.Train)
	sortInt32(split.Val)
	sortInt32(split.Test)
	return graph.New(graph.Spec{Name: s.Name + "-random", NumNodes: s.Nodes, Src: src, Dst: dst, Features: feats,
		Labels: labels, NumClasses: s.Classes, Splits: []graph.Split{split}})
}

func sortInt32(a []int32) { slices.Sort(a) }
