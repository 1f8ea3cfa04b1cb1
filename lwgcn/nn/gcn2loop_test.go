package nn_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// TestGCN2ConvLoop: the loop computes what the unrolled layers do, values
// and gradients (of every layer's weight and of h0), with and without
// dropout (the same masks), in training and evaluation passes.
func TestGCN2ConvLoop(t *testing.T) {
	g := nntest.TinyGraph(t)
	in := nntest.Float64Inputs(t, g, false)
	if err := nn.AddGCNAdjacency(in, g); err != nil {
		t.Fatal(err)
	}
	const n, hdim, layers, alpha, lambda = 5, 3, 4, 0.1, 0.5
	rng := rand.New(rand.NewPCG(3, 8))
	h0v := nntest.RandMatrix(rng, n, hdim)
	var undropped []float64
	for _, dropout := range []float64{0, 0.5} {
		for _, train := range []bool{true, false} {
			build := func(loop bool) *nntest.Harness {
				h := nntest.NewHarness(t, in, 21, func(scope *model.Scope, nodes *nn.Nodes) *Node {
					gr := nodes.Graph()
					h0 := scope.VariableWithValue("h0", nntest.Float64Tensor(h0v, n, hdim)).NodeValue(gr)
					adj := sparse.FromNodes(nodes, nn.InputGCNAdj).ForPass(train)
					alphaH0 := MulScalar(h0, alpha)
					if loop {
						return nn.GCN2ConvLoop(scope, h0, alphaH0, adj, alpha, lambda, layers, dropout, train)
					}
					h := h0
					for l := 1; l <= layers; l++ {
						h = nn.Dropout(scope, h, dropout, train)
						h = nn.ReLU(nn.GCN2Conv(scope.In("conv%d", l), h, alphaH0, adj, alpha, lambda, l))
					}
					return h
				})
				if err := nn.SeedRandom(h.Store); err != nil {
					t.Fatal(err)
				}
				return h
			}
			unrolled, loop := build(false), build(true)
			want, dims := unrolled.Forward()
			got, _ := loop.Forward()
			nntest.AssertClose(t, fmt.Sprintf("forward (dropout %g, train %v)", dropout, train), got, want, 1e-12)
			zeros := 0
			for _, v := range want {
				if v == 0 {
					zeros++
				}
			}
			if zeros == len(want) {
				t.Fatalf("dropout %g: every output is 0: the test compares nothing", dropout)
			}
			if dropout == 0 && train {
				undropped = want
			} else if dropout > 0 && train && slices.Equal(want, undropped) {
				t.Fatal("dropout 0.5 gave the output without dropout: the masks are not tested")
			}
			r := nntest.RandMatrix(rng, n, hdim)
			wantG, gotG := unrolled.Gradients(r, dims), loop.Gradients(r, dims)
			var paths []string
			for p := range wantG {
				paths = append(paths, p)
			}
			sort.Strings(paths)
			if len(paths) != layers+1 || len(gotG) != len(wantG) {
				t.Fatalf("gradients of %v (unrolled) and %d variables (loop), want %d", paths, len(gotG), layers+1)
			}
			for _, p := range paths {
				nntest.AssertClose(t, "gradient of "+p, gotG[p], wantG[p], 1e-12)
			}
		}
	}
}
