package models_test

import (
	"math"
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// TestGloGNNModel: the model's output is log_softmax of the layers applied
// to fc2's output (checked by re-running the pieces), the unused branch is
// skipped (delta 1: no fc3 weights), and a bad configuration is rejected.
func TestGloGNNModel(t *testing.T) {
	g := nntest.TinyGraph(t)
	m := models.GloGNN{Hidden: 4, Dropout: 0.5, Delta: 1, NormLayers: 2,
		GloGNNConfig: nn.GloGNNConfig{Alpha: 1, Beta: 1, Gamma: 0.4, Orders: 2}}
	in := nntest.Float64Inputs(t, g, false)
	if err := m.Prepare(g, in); err != nil {
		t.Fatal(err)
	}
	h := nntest.NewHarness(t, in, 5, func(scope *model.Scope, nd *nn.Nodes) *Node {
		return m.Forward(scope, nd, false)
	})
	got, _ := h.Forward()
	for i := range 5 {
		s := 0.0
		for j := range 3 {
			s += math.Exp(got[i*3+j])
		}
		if math.Abs(s-1) > 1e-9 {
			t.Fatalf("row %d: Σ exp = %v", i, s)
		}
	}
	if h.Store.GetVariable("/fc3/weight") != nil {
		t.Fatal("delta = 1 built the unused adjacency branch")
	}
	ref := nntest.NewHarness(t, in, 5, func(scope *model.Scope, nd *nn.Nodes) *Node {
		adj := sparse.FromNodes(nd, models.InputGloGNNAdj)
		x := nn.ReLU(nn.SparseLinear(scope.In("fc1"), nd.Features(nn.InputFeatures), 4, true))
		h0 := nn.Linear(scope.In("fc2"), x, 3, true)
		norm := scope.In("norm")
		out := nn.GloGNNConv(norm, h0, h0, adj, m.GloGNNConfig)
		return LogSoftmax(nn.GloGNNConv(norm, out, h0, adj, m.GloGNNConfig), -1)
	})
	want, _ := ref.Forward()
	nntest.AssertClose(t, "model vs pieces (same seed and paths)", got, want, 1e-12)

	bad := m
	bad.Gamma = 1
	if err := bad.Prepare(g, nn.NewInputs()); err == nil {
		t.Fatal("gamma = 1 accepted")
	}
}
