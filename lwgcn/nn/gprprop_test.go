package nn_test

import (
	"math"
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

func TestGPRPPRInit(t *testing.T) {
	// α(1-α)^k for k < K, (1-α)^K last: α = 0.1, K = 3.
	nntest.AssertClose(t, "PPR 0.1", nn.GPRPPRInit(3, 0.1), []float64{0.1, 0.09, 0.081, 0.729}, 1e-15)
	// α = 1: identity (the official Texas/Chameleon setting starts as an MLP).
	nntest.AssertClose(t, "PPR 1", nn.GPRPPRInit(3, 1), []float64{1, 0, 0, 0}, 0)
	// α = 0: only Â^K (Squirrel).
	nntest.AssertClose(t, "PPR 0", nn.GPRPPRInit(2, 0), []float64{0, 0, 1}, 0)
	s := 0.0
	for _, v := range nn.GPRPPRInit(10, 0.37) {
		s += v
	}
	if math.Abs(s-1) > 1e-12 {
		t.Fatalf("PPR weights sum to %v, want 1", s)
	}
}

func TestGPRProp(t *testing.T) { nntest.BothLayouts(t, testGPRProp) }

func testGPRProp(t *testing.T) {
	g := nntest.TinyGraph(t)
	in := nntest.Float64Inputs(t, g, false)
	if err := nn.AddGCNAdjacency(in, g); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(11, 2))
	zv := nntest.RandValues(rng, 5, 2)
	gamma0 := []float64{0.5, -0.3, 0.2, 0.1}
	h := nntest.NewHarness(t, in, 1, func(scope *model.Scope, n *nn.Nodes) *Node {
		z := scope.VariableWithValue("z", nntest.Float64Tensor(zv, 5, 2)).NodeValue(n.Graph())
		return nn.GPRProp(scope.In("prop"), z, sparse.FromNodes(n, nn.InputGCNAdj), gamma0)
	})
	h.Forward()
	delta := []float64{0.05, 0.1, -0.2, 0.3}
	h.Store.GetVariable("/prop/gamma_offset").MustSetValue(nntest.Float64Tensor(delta, 4))
	got, _ := h.Forward()
	a := nntest.GCNDense(g)
	z := nntest.Matrix(zv, 5, 2)
	want := make([]float64, 10)
	for k := range 4 {
		ak := nntest.Flat(nntest.DenseMatMul(nntest.MatPow(a, k), z))
		for i := range want {
			want[i] += (gamma0[k] + delta[k]) * ak[i]
		}
	}
	nntest.AssertClose(t, "Σ γ_k Â^k z", got, want, 1e-6)
	h.CheckGradients(rng, 1e-6)
}
