package nntest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/gomlx/compute"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// CompareGCN2Loop checks on backend be that nn.GCN2ConvLoop computes what
// the unrolled layers (Dropout, GCN2Conv, ReLU) compute on TinyGraph's Â:
// outputs and the gradients of every layer's weight and of h0, for runs
// runs, one dropout rate, one pass (train). undropped carries the output
// without dropout between calls, so that a dropout call must differ from it
// (the masks are tested); h0 and the gradient weights come from rng. The
// loop's stacked weight must hold the unrolled layers' initial values, also
// after nn.Reinitialize.
func CompareGCN2Loop(t *testing.T, be compute.Backend, runs int, dropout float64, train bool, undropped *[]float64, rng *rand.Rand) {
	t.Helper()
	g := TinyGraph(t)
	in := Float64Inputs(t, g, false)
	if err := nn.AddGCNAdjacency(in, g); err != nil {
		t.Fatal(err)
	}
	const n, hdim, layers, alpha, lambda = 5, 3, 4, 0.1, 0.5
	h0v := RandMatrix(rng, n, runs*hdim)
	build := func(loop bool) *Harness {
		h := NewHarnessOn(t, be, in, 21, func(scope *model.Scope, nodes *nn.Nodes) *Node {
			gr := nodes.Graph()
			h0 := scope.VariableWithValue("h0", Float64Tensor(h0v, n, runs*hdim)).NodeValue(gr)
			adj := sparse.FromNodes(nodes, nn.InputGCNAdj).ForPass(train)
			alphaH0 := MulScalar(h0, alpha)
			var h *Node
			if loop {
				h = nn.GCN2ConvLoop(scope, h0, alphaH0, adj, alpha, lambda, layers, dropout, train)
			} else {
				h = h0
				for l := 1; l <= layers; l++ {
					h = nn.Dropout(scope, h, dropout, train)
					h = nn.ReLU(nn.GCN2Conv(scope.In("conv%d", l), h, alphaH0, adj, alpha, lambda, l))
				}
			}
			// One more draw after the layers: the random states the loop
			// leaves are the unrolled layers'.
			return nn.Dropout(scope, h, dropout, train)
		})
		nn.SetSeed(h.Store, []int64{21, 22}[:runs]...)
		if err := nn.SeedRandom(h.Store); err != nil {
			t.Fatal(err)
		}
		return h
	}
	unrolled, loop := build(false), build(true)
	what := fmt.Sprintf("%s, %d runs, dropout %g, train %v", be.Name(), runs, dropout, train)
	compareWeights := func(when string) {
		want, got := unrolled.Weights(), loop.Unstacked(loop.Weights())
		if len(got) != layers+1 || len(want) != len(got) {
			t.Fatalf("%s: %d weights (unrolled) and %d (loop, split), want %d", what, len(want), len(got), layers+1)
		}
		for p, w := range want {
			if !slices.Equal(got[p], w) {
				t.Fatalf("%s: %s %s: loop's %v, unrolled's %v", what, when, p, got[p], w)
			}
		}
	}
	unrolled.Forward() // creates the weights
	loop.Forward()
	compareWeights("initial")
	seeds := []int64{31, 32}[:runs]
	for _, h := range []*Harness{unrolled, loop} {
		if err := nn.Reinitialize(h.Store, in, seeds...); err != nil {
			t.Fatal(err)
		}
	}
	compareWeights("reinitialised")
	want, dims := unrolled.Forward()
	got, _ := loop.Forward()
	AssertClose(t, "forward ("+what+")", got, want, 1e-12)
	zeros := 0
	for _, v := range want {
		if v == 0 {
			zeros++
		}
	}
	if zeros == len(want) {
		t.Fatalf("%s: every output is 0: the test compares nothing", what)
	}
	if dropout == 0 && train {
		*undropped = want
	} else if dropout > 0 && train && slices.Equal(want, *undropped) {
		t.Fatalf("%s: the output without dropout: the masks are not tested", what)
	}
	r := RandMatrix(rng, n, runs*hdim)
	wantG, gotG := unrolled.Gradients(r, dims), loop.Unstacked(loop.Gradients(r, dims))
	var paths []string
	for p := range wantG {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	if len(paths) != layers+1 || len(gotG) != len(wantG) {
		t.Fatalf("gradients of %v (unrolled) and %d variables (loop), want %d", paths, len(gotG), layers+1)
	}
	for _, p := range paths {
		AssertClose(t, what+": gradient of "+p, gotG[p], wantG[p], 1e-12)
	}
}
