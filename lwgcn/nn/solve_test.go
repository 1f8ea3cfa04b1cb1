package nn_test

import (
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/nn"
)

// TestSolveSPD: A = L Lᵀ + I (SPD, pivots far from 1), A⁻¹B against a
// pivoted dense inverse, and gradients with respect to L and B against
// finite differences.
func TestSolveSPD(t *testing.T) {
	const d, m = 4, 3
	rng := rand.New(rand.NewPCG(21, 22))
	lv, bv := nntest.RandMatrix(rng, d, d), nntest.RandMatrix(rng, d, m)
	in := nntest.Float64Inputs(t, nntest.TinyGraph(t), false)
	h := nntest.NewHarness(t, in, 1, func(scope *model.Scope, n *nn.Nodes) *Node {
		g := n.Graph()
		l := scope.VariableWithValue("l", nntest.Float64Tensor(lv, d, d)).NodeValue(g)
		b := scope.VariableWithValue("b", nntest.Float64Tensor(bv, d, m)).NodeValue(g)
		a := Add(Dot(l, Transpose(l, 0, 1)).Product(), nn.IdentityMatrix(g, l.DType(), d))
		return nn.SolveSPD(a, b)
	})
	got, _ := h.Forward()
	l := nntest.Matrix(lv, d, d)
	a := nntest.DenseMatMul(l, nntest.TransposeDense(l))
	for i := range a {
		a[i][i]++
	}
	want := nntest.DenseMatMul(nntest.InvertDense(t, a), nntest.Matrix(bv, d, m))
	nntest.AssertClose(t, "A⁻¹B", got, nntest.Flat(want), 1e-10)
	h.CheckGradients(rng, 1e-6)
}
