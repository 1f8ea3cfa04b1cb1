package theory

import (
	"math/rand/v2"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/graph"
)

// benchGraph is a Chameleon-sized random graph: 5,000 nodes, 5 classes,
// 2,300 sparse binary features (about 2 % dense), 15 edges per node.
func benchGraph(b *testing.B) *graph.Graph {
	rng := rand.New(rand.NewPCG(1, 1))
	n, cols, c := 5000, 2300, 5
	labels := make([]int32, n)
	rowPtr := []int32{0}
	var colIdx []int32
	var vals []float32
	for v := range n {
		labels[v] = int32(rng.IntN(c))
		seen := map[int32]bool{}
		for range 46 {
			col := int32(rng.IntN(cols))
			if !seen[col] {
				seen[col] = true
			}
		}
		for col := range seen {
			colIdx = append(colIdx, col)
			vals = append(vals, 1)
		}
		rowPtr = append(rowPtr, int32(len(colIdx)))
	}
	f, err := graph.NewSparseFeatures(n, cols, rowPtr, colIdx, vals)
	if err != nil {
		b.Fatal(err)
	}
	var src, dst []int32
	for range 15 * n {
		src = append(src, int32(rng.IntN(n)))
		dst = append(dst, int32(rng.IntN(n)))
	}
	perm := rng.Perm(n)
	var sp graph.Split
	for i, v := range perm {
		switch {
		case i < n*48/100:
			sp.Train = append(sp.Train, int32(v))
		case i < n*80/100:
			sp.Val = append(sp.Val, int32(v))
		default:
			sp.Test = append(sp.Test, int32(v))
		}
	}
	return graph.MustNew(graph.Spec{NumNodes: n, Src: src, Dst: dst, Features: f, Labels: labels,
		NumClasses: c, Splits: []graph.Split{sp}})
}

func BenchmarkDiscriminability(b *testing.B) {
	g := benchGraph(b)
	b.ResetTimer()
	for b.Loop() {
		if _, err := Discriminability(g, DiscriminabilityOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
