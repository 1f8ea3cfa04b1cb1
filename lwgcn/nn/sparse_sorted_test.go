package nn

import (
	"fmt"
	"testing"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/graph"
)

// TestGCNIISortedPadded: GCNII on the sorted-padded layout (SetSparseSorted)
// gives the outputs and gradients of GCNII on the plain layout, for a
// directed graph (the transpose needs its own row order) and a symmetric one.
func TestGCNIISortedPadded(t *testing.T) {
	oldDense, oldCost := DenseMaxElements, ELLBucketCost
	defer func() { DenseMaxElements, ELLBucketCost = oldDense, oldCost }()
	DenseMaxElements, ELLBucketCost = 0, 0
	directed := tinyGraph(t)
	for _, g := range []*graph.Graph{directed, directed.ToUndirected()} {
		t.Run(fmt.Sprintf("symmetric=%v", g.IsSymmetric()), func(t *testing.T) {
			m := GCNII{Layers: 3, Hidden: 4, Alpha: 0.1, Lambda: 0.5} // no dropout: a training pass, deterministic
			var outs [][]float64
			var grads []map[string][]float64
			for _, sorted := range []bool{false, true} {
				in := NewInputs()
				in.DType = dtypes.Float64
				if err := AddGraphBasics(in, g); err != nil {
					t.Fatal(err)
				}
				if err := AddGCNAdjacency(in, g); err != nil {
					t.Fatal(err)
				}
				if sorted {
					if err := in.SetSparseSorted(InputGCNAdj); err != nil {
						t.Fatal(err)
					}
				}
				hs := newHarness(t, in, 5, func(scope *model.Scope, n *Nodes) *Node {
					if _, ok := n.Sparse(InputGCNAdj).SortedPadded(); ok != sorted {
						t.Fatalf("sorted layout present = %v, want %v", ok, sorted)
					}
					return m.Forward(scope, n, true)
				})
				out, dims := hs.forward()
				r := make([]float64, len(out))
				for i := range r {
					r[i] = float64(i%7) - 3
				}
				outs, grads = append(outs, out), append(grads, hs.gradients(r, dims))
			}
			assertClose(t, "log-probabilities", outs[1], outs[0], 1e-6) // scales are float32 on the host
			if len(grads[0]) == 0 || len(grads[0]) != len(grads[1]) {
				t.Fatalf("gradients for %d and %d variables", len(grads[0]), len(grads[1]))
			}
			for path, want := range grads[0] {
				assertClose(t, "gradient of "+path, grads[1][path], want, 1e-6)
			}
		})
	}
}
