package models_test

import (
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
)

func TestH2GCNModelForward(t *testing.T) {
	g := nntest.TinyGraph(t)
	for _, relu := range []bool{false, true} {
		m := models.H2GCN{Hidden: 3, Rounds: 2, Dropout: 0.5, EmbedReLU: relu}
		in := nntest.Float64Inputs(t, g, true)
		if err := m.Prepare(g, in); err != nil {
			t.Fatal(err)
		}
		h := nntest.NewHarness(t, in, 6, func(scope *model.Scope, n *nn.Nodes) *Node { return m.Forward(scope, n, false) })
		got, dims := h.Forward()
		if dims[1] != 3 {
			t.Fatalf("logits %v, want 3 classes", dims)
		}
		a1, a2, _ := nn.H2GCNNeighborhoods(5, g.Src(), g.Dst())
		d1, d2 := nntest.Matrix(a1.Dense(), 5, 5), nntest.Matrix(a2.Dense(), 5, 5)
		r0 := nntest.DenseMatMul(nntest.DenseX(g), nntest.Matrix(h.VarValues("/embed/weight"), 4, 3))
		if relu {
			for _, row := range r0 {
				for j := range row {
					row[j] = max(row[j], 0)
				}
			}
		}
		r1 := nntest.HCat(nntest.DenseMatMul(d1, r0), nntest.DenseMatMul(d2, r0))
		r2 := nntest.HCat(nntest.DenseMatMul(d1, r1), nntest.DenseMatMul(d2, r1))
		want := nntest.DenseMatMul(nntest.HCat(r0, r1, r2), nntest.Matrix(h.VarValues("/out/weight"), 3+6+12, 3))
		nntest.AssertClose(t, "H2GCN forward", got, nntest.Flat(want), 1e-6)
	}
	if err := (models.H2GCN{Hidden: 0, Rounds: 1}).Prepare(g, nn.NewInputs()); err == nil ||
		err.Error() != "models: H2GCN needs hidden >= 1 and rounds >= 1, got hidden 0, rounds 1" {
		t.Fatalf("got error %v", err)
	}
}
