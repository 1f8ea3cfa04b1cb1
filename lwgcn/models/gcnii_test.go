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
// directed graph (the transpose needs its own row order) and a symmetric one.
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
			for _, sorted := range []bool{false, true} {
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
			}
			nntest.AssertClose(t, "log-probabilities", outs[1], outs[0], 1e-6) // scales are float32 on the host
			if len(grads[0]) == 0 || len(grads[0]) != len(grads[1]) {
				t.Fatalf("gradients for %d and %d variables", len(grads[0]), len(grads[1]))
			}
			for path, want := range grads[0] {
				nntest.AssertClose(t, "gradient of "+path, grads[1][path], want, 1e-6)
			}
		})
	}
}
