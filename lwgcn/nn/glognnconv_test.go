package nn_test

import (
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

func scaleM(a [][]float64, s float64) [][]float64 {
	out := make([][]float64, len(a))
	for i := range a {
		out[i] = make([]float64, len(a[i]))
		for j := range a[i] {
			out[i][j] = s * a[i][j]
		}
	}
	return out
}

func addM(a, b [][]float64) [][]float64 {
	out := make([][]float64, len(a))
	for i := range a {
		out[i] = make([]float64, len(a[i]))
		for j := range a[i] {
			out[i][j] = a[i][j] + b[i][j]
		}
	}
	return out
}

// TestGloGNNConv compares the layer's d x d Woodbury form with the N x N
// closed form computed densely (an N x N inverse) in float64:
//
//	H' = (1-γ) Z H Dw + γ H0,
//	Z  = [(1-γ) H Dw Hᵀ + β Σ_k θ_k Â^k - γ(1-γ) H0 Dw Hᵀ] [(1-γ)² H Hᵀ + (α+β) I]⁻¹
//
// with non-default w and θ, on Â the row-normalised A + I of the tiny
// graph; then gradients with respect to H, H0, w and θ.
func TestGloGNNConv(t *testing.T) {
	nntest.BothLayouts(t, func(t *testing.T) {
		g := nntest.TinyGraph(t)
		in := nntest.Float64Inputs(t, g, false)
		u := g.ToUndirected()
		adjM, err := sparse.BinaryAdjacency(5, u.Dst(), u.Src(), true, sparse.NormRow)
		if err != nil {
			t.Fatal(err)
		}
		sparse.Set(in, "glognn/adj", adjM)
		const n, d = 5, 3
		rng := rand.New(rand.NewPCG(31, 32))
		hv, h0v := nntest.RandMatrix(rng, n, d), nntest.RandMatrix(rng, n, d)
		cfg := nn.GloGNNConfig{Alpha: 1, Beta: 0.5, Gamma: 0.3, Orders: 2}
		hr := nntest.NewHarness(t, in, 1, func(scope *model.Scope, nd *nn.Nodes) *Node {
			gr := nd.Graph()
			h := scope.VariableWithValue("h", nntest.Float64Tensor(hv, n, d)).NodeValue(gr)
			h0 := scope.VariableWithValue("h0", nntest.Float64Tensor(h0v, n, d)).NodeValue(gr)
			return nn.GloGNNConv(scope.In("norm"), h, h0, sparse.FromNodes(nd, "glognn/adj"), cfg)
		})
		hr.Forward()
		// Move w and θ away from their starting values 1/d and 1/K.
		wDelta, thetaDelta := []float64{0.2, -0.1, 0.05}, []float64{0.3, -0.2}
		hr.Store.GetVariable("/norm/diag_weight").MustSetValue(nntest.Float64Tensor(wDelta, d))
		hr.Store.GetVariable("/norm/orders_weight").MustSetValue(nntest.Float64Tensor(thetaDelta, 2))
		got, _ := hr.Forward()

		w := make([]float64, d)
		for j := range w {
			w[j] = 1.0/d + wDelta[j]
		}
		theta := []float64{0.5 + thetaDelta[0], 0.5 + thetaDelta[1]}
		a := nntest.Matrix(adjM.Dense(), n, n)
		h, h0 := nntest.Matrix(hv, n, d), nntest.Matrix(h0v, n, d)
		hDw := make([][]float64, n)
		h0Dw := make([][]float64, n)
		for i := range n {
			hDw[i], h0Dw[i] = make([]float64, d), make([]float64, d)
			for j := range d {
				hDw[i][j], h0Dw[i][j] = h[i][j]*w[j], h0[i][j]*w[j]
			}
		}
		c1 := 1 - cfg.Gamma
		a2 := nntest.DenseMatMul(a, a)
		sumA := addM(scaleM(a, theta[0]), scaleM(a2, theta[1]))
		left := addM(addM(scaleM(nntest.DenseMatMul(hDw, nntest.TransposeDense(h)), c1), scaleM(sumA, cfg.Beta)),
			scaleM(nntest.DenseMatMul(h0Dw, nntest.TransposeDense(h)), -cfg.Gamma*c1))
		right := scaleM(nntest.DenseMatMul(h, nntest.TransposeDense(h)), c1*c1)
		for i := range right {
			right[i][i] += cfg.Alpha + cfg.Beta
		}
		z := nntest.DenseMatMul(left, nntest.InvertDense(t, right))
		want := addM(scaleM(nntest.DenseMatMul(z, hDw), c1), scaleM(h0, cfg.Gamma))
		nntest.AssertClose(t, "Woodbury vs dense N x N", got, nntest.Flat(want), 1e-6) // Â stored in float32
		hr.CheckGradients(rng, 1e-6)
	})
}
