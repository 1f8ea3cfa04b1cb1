package models_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
)

func TestASGCModel(t *testing.T) {
	g := nntest.TinyGraph(t)
	m := models.ASGC{K: 2, Reg: 0.01}
	in := nn.NewInputs()
	in.DType = dtypes.Float64
	if err := m.Prepare(g, in); err != nil {
		t.Fatal(err)
	}
	res, err := nn.ASGCFilter(5, g.Src(), g.Dst(), g.Features(), 2, 0.01, 0)
	if err != nil {
		t.Fatal(err)
	}
	h := nntest.NewHarness(t, in, 1, func(scope *model.Scope, n *nn.Nodes) *Node { return m.Forward(scope, n, false) })
	h.Forward()
	rng := rand.New(rand.NewPCG(3, 3))
	w, b := nntest.RandValues(rng, 4, 3), []float64{0.1, 0.2, -0.3}
	h.Store.GetVariable("/fc/weight").MustSetValue(nntest.Float64Tensor(w, 4, 3))
	h.Store.GetVariable("/fc/bias").MustSetValue(nntest.Float64Tensor(b, 3))
	got, _ := h.Forward()
	xf := make([]float64, len(res.Features))
	for i, v := range res.Features {
		xf[i] = float64(v)
	}
	nntest.AssertClose(t, "ASGC logits", got, nntest.Flat(nntest.AddBias(nntest.DenseMatMul(nntest.Matrix(xf, 5, 4), nntest.Matrix(w, 4, 3)), b)), 1e-9)
	h.CheckGradients(rng, 1e-6)
}
