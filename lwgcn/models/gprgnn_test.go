package models_test

import (
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
)

func TestGPRGNNModelForward(t *testing.T) {
	g := nntest.TinyGraph(t)
	m := models.GPRGNN{Hidden: 4, K: 3, Alpha: 0.2, Dropout: 0.5, DropProp: 0.5}
	in := nntest.Float64Inputs(t, g, true)
	if err := m.Prepare(g, in); err != nil {
		t.Fatal(err)
	}
	h := nntest.NewHarness(t, in, 8, func(scope *model.Scope, n *nn.Nodes) *Node { return m.Forward(scope, n, false) })
	got, _ := h.Forward()
	hid := nntest.AddBias(nntest.DenseMatMul(nntest.DenseX(g), nntest.Matrix(h.VarValues("/lin1/weight"), 4, 4)), h.VarValues("/lin1/bias"))
	for _, r := range hid {
		for j := range r {
			r[j] = max(r[j], 0)
		}
	}
	z := nntest.AddBias(nntest.DenseMatMul(hid, nntest.Matrix(h.VarValues("/lin2/weight"), 4, 3)), h.VarValues("/lin2/bias"))
	a := nntest.GCNDense(g)
	gamma := nn.GPRPPRInit(3, 0.2) // offsets start at zero
	want := make([]float64, 15)
	for k := range 4 {
		ak := nntest.Flat(nntest.DenseMatMul(nntest.MatPow(a, k), z))
		for i := range want {
			want[i] += gamma[k] * ak[i]
		}
	}
	nntest.AssertClose(t, "GPRGNN forward", got, want, 1e-6)
	if err := (models.GPRGNN{Hidden: 4, K: -1}).Prepare(g, nn.NewInputs()); err == nil ||
		err.Error() != "models: GPRGNN needs K >= 0 and hidden >= 1, got K -1, hidden 4" {
		t.Fatalf("got error %v", err)
	}
}
