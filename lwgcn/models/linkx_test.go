package models_test

import (
	"math"
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
)

// linkxDenseMLP is LINKXMLP in float64 on dense matrices, batch norm in
// training mode (batch statistics, biased variance), no dropout.
func linkxDenseMLP(h *nntest.Harness, prefix string, x [][]float64, layers, hidden, out int) [][]float64 {
	lin := func(i int, x [][]float64, width int) [][]float64 {
		p := prefix + "/lin" + string(rune('0'+i))
		return nntest.AddBias(nntest.DenseMatMul(x, nntest.Matrix(h.VarValues(p+"/weight"), len(x[0]), width)), h.VarValues(p+"/bias"))
	}
	if layers == 1 {
		return lin(0, x, out)
	}
	for i := range layers - 1 {
		x = lin(i, x, hidden)
		bn := prefix + "/bn" + string(rune('0'+i))
		w, b := h.VarValues(bn+"/weight"), h.VarValues(bn+"/bias")
		n := float64(len(x))
		for j := range hidden {
			mean, v := 0.0, 0.0
			for r := range x {
				x[r][j] = max(x[r][j], 0)
				mean += x[r][j] / n
			}
			for r := range x {
				v += (x[r][j] - mean) * (x[r][j] - mean) / n
			}
			for r := range x {
				x[r][j] = (x[r][j]-mean)/math.Sqrt(v+1e-5)*(1+w[j]) + b[j]
			}
		}
	}
	return lin(layers-1, x, out)
}

// TestLINKX checks the model (MLP_A with two layers and batch norm, MLP_X
// with one, MLP_f with two) against a dense float64 implementation with
// the adjacency written by hand, in a training pass without dropout; then
// gradients with respect to every weight.
func TestLINKX(t *testing.T) {
	nntest.BothLayouts(t, func(t *testing.T) {
		g := nntest.TinyGraph(t)
		in := nntest.Float64Inputs(t, g, true)
		m := models.LINKX{Hidden: 3, Layers: 2, LayersA: 2, LayersX: 1}
		if err := m.Prepare(g, in); err != nil {
			t.Fatal(err)
		}
		h := nntest.NewHarness(t, in, 17, func(scope *model.Scope, nd *nn.Nodes) *Node {
			return m.Forward(scope, nd, true)
		})
		h.Forward()
		// Batch-norm scales and shifts away from 1 and 0.
		rng := rand.New(rand.NewPCG(5, 6))
		for _, p := range []string{"/mlpA/bn0/weight", "/mlpA/bn0/bias", "/mlpf/bn0/weight", "/mlpf/bn0/bias"} {
			h.Store.GetVariable(p).MustSetValue(nntest.Float64Tensor(nntest.RandMatrix(rng, 1, 3), 3))
		}
		got, _ := h.Forward()
		a := [][]float64{ // A[src][dst], distinct pairs, the 2 -> 2 loop kept
			{0, 1, 0, 0, 1},
			{1, 0, 1, 0, 0},
			{0, 1, 1, 0, 0},
			{0, 0, 1, 0, 0},
			{0, 0, 0, 1, 0},
		}
		ha := linkxDenseMLP(h, "/mlpA", a, 2, 3, 3)
		hx := linkxDenseMLP(h, "/mlpX", nntest.DenseX(g), 1, 3, 3)
		cat := make([][]float64, 5)
		for i := range cat {
			cat[i] = append(append([]float64{}, ha[i]...), hx[i]...)
		}
		z := nntest.AddBias(nntest.DenseMatMul(cat, nntest.Matrix(h.VarValues("/W/weight"), 6, 3)), h.VarValues("/W/bias"))
		for i := range z {
			for j := range z[i] {
				z[i][j] = max(z[i][j]+ha[i][j]+hx[i][j], 0)
			}
		}
		want := linkxDenseMLP(h, "/mlpf", z, 2, 3, 3)
		nntest.AssertClose(t, "LINKX", got, nntest.Flat(want), 1e-12)
		// PyTorch nn.Linear init of MLP_A's first layer: fan-in N = 5.
		for _, v := range h.VarValues("/mlpA/lin0/weight") {
			if math.Abs(v) > 1/math.Sqrt(5) {
				t.Fatalf("init %v outside ±1/sqrt(N)", v)
			}
		}
		h.CheckGradients(rng, 1e-5)
	})
}
