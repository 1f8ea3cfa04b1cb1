package models_test

import (
	"fmt"
	"testing"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// TestGCNIISortedPadded: GCNII on the sorted-padded layout (sparse.SetSorted)
// gives the outputs and gradients of GCNII on the plain layout, for a
// directed graph (the transpose needs its own row order) and a symmetric one,
// with and without hub columns (dense blocks, see sparse.DenseColumnRatio).
func TestGCNIISortedPadded(t *testing.T) {
	oldDense, oldCost := sparse.DenseMaxElements, sparse.ELLBucketCost
	defer func() { sparse.DenseMaxElements, sparse.ELLBucketCost = oldDense, oldCost }()
	sparse.DenseMaxElements, sparse.ELLBucketCost = 0, 0
	directed := nntest.TinyGraph(t)
	for _, g := range []*graph.Graph{directed, directed.ToUndirected()} {
		t.Run(fmt.Sprintf("symmetric=%v", g.IsSymmetric()), func(t *testing.T) {
			m := models.GCNII{Layers: 3, Hidden: 4, Alpha: 0.1, Lambda: 0.5} // no dropout: a training pass, deterministic
			var outs [][]float64
			var grads []map[string][]float64
			for _, variant := range []struct{ sorted, hubs bool }{{false, false}, {true, false}, {false, true}, {true, true}} {
				sorted := variant.sorted
				undo := nntest.NoHubs()
				if variant.hubs {
					undo()
					undo = nntest.ForceHubs()
				}
				in := nn.NewInputs()
				in.DType = dtypes.Float64
				if err := nn.AddGraphBasics(in, g); err != nil {
					t.Fatal(err)
				}
				if err := nn.AddGCNAdjacency(in, g); err != nil {
					t.Fatal(err)
				}
				if sorted {
					if err := sparse.SetSorted(in, nn.InputGCNAdj); err != nil {
						t.Fatal(err)
					}
				}
				hs := nntest.NewHarness(t, in, 5, func(scope *model.Scope, n *nn.Nodes) *Node {
					if _, ok := sparse.FromNodes(n, nn.InputGCNAdj).SortedPadded(); ok != sorted {
						t.Fatalf("sorted layout present = %v, want %v", ok, sorted)
					}
					return m.Forward(scope, n, true)
				})
				out, dims := hs.Forward()
				r := make([]float64, len(out))
				for i := range r {
					r[i] = float64(i%7) - 3
				}
				outs, grads = append(outs, out), append(grads, hs.Gradients(r, dims))
				undo()
			}
			for v := 1; v < len(outs); v++ {
				nntest.AssertClose(t, fmt.Sprintf("log-probabilities (variant %d)", v), outs[v], outs[0], 1e-6) // scales are float32 on the host
				if len(grads[0]) == 0 || len(grads[0]) != len(grads[v]) {
					t.Fatalf("gradients for %d and %d variables", len(grads[0]), len(grads[v]))
				}
				for path, want := range grads[0] {
					nntest.AssertClose(t, fmt.Sprintf("gradient of %s (variant %d)", path, v), grads[v][path], want, 1e-6)
				}
			}
		})
	}
}
