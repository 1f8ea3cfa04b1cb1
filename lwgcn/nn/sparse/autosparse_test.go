package sparse_test

import (
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

func TestAutoSparse(t *testing.T) {
	g := nntest.TinyGraph(t)
	m, err := nn.GCNNormalized(5, g.Src(), g.Dst())
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(8, 8))
	xv := nntest.RandValues(rng, 5, 3)
	want := nntest.Flat(nntest.DenseMatMul(nntest.GCNDense(g), nntest.Matrix(xv, 5, 3)))
	for _, density := range []float64{0.01, 2} { // dense (14/25 > 1%) and sparse
		old := sparse.AutoSparseDensity
		sparse.AutoSparseDensity = density
		in := nntest.Float64Inputs(t, g, false)
		sparse.SetAuto(in, "a", m)
		sparse.AutoSparseDensity = old
		if dense := in.Has("a/full"); dense != (density < 1) {
			t.Fatalf("density threshold %v: dense = %v", density, dense)
		}
		h := nntest.NewHarness(t, in, 1, func(scope *model.Scope, n *nn.Nodes) *Node {
			x := scope.VariableWithValue("x", nntest.Float64Tensor(xv, 5, 3)).NodeValue(n.Graph())
			return sparse.AutoFromNodes(n, "a", true).Mul(x)
		})
		got, _ := h.Forward()
		nntest.AssertClose(t, "A·x", got, want, 1e-6)
		h.CheckGradients(rng, 1e-6)
	}
}
