package models_test

import (
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// A 3-layer GCN is GCNConv(ReLU(GCNConv(ReLU(GCNConv(X))))) with the weights
// conv1 [F,H], conv2 [H,H], conv3 [H,C]: compare its forward pass with the
// explicit composition over the same variables.
func TestGCNLayers(t *testing.T) {
	g := nntest.TinyGraph(t)
	m := models.GCN{Hidden: 4, Layers: 3}
	in := nn.NewInputs()
	if err := m.Prepare(g, in); err != nil {
		t.Fatal(err)
	}
	store := model.NewStore()
	nn.SetSeed(store, 5)
	be := nntest.Backend(t)
	out := model.MustNewExec(be, store, func(scope *model.Scope, gr *Graph, p []*Node) *Node {
		nn.UseVariableParameters(scope, gr)
		return m.Forward(scope, in.Nodes(p), false)
	}).MustCall(in.Tensors()...)[0]
	got := tensors.MustCopyFlatData[float32](out)
	ref := model.MustNewExec(be, store, func(scope *model.Scope, gr *Graph, p []*Node) *Node {
		nn.UseVariableParameters(scope, gr)
		n := in.Nodes(p)
		adj := sparse.FromNodes(n, nn.InputGCNAdj)
		h := nn.ReLU(nn.GCNConv(scope.In("conv1"), n.Features(nn.InputFeatures), adj, 4))
		h = nn.ReLU(nn.GCNConv(scope.In("conv2"), nn.DenseFeatures(h), adj, 4))
		return nn.GCNConv(scope.In("conv3"), nn.DenseFeatures(h), adj, g.NumClasses())
	}).MustCall(in.Tensors()...)[0]
	want := tensors.MustCopyFlatData[float32](ref)
	if len(got) != len(want) {
		t.Fatalf("output sizes %d and %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("output %d: %v, composition %v", i, got[i], want[i])
		}
	}
	if s := store.GetVariable("/conv2/weight").Shape(); s.Dimensions[0] != 4 || s.Dimensions[1] != 4 {
		t.Errorf("conv2 weight shape %v, want [4 4]", s)
	}
	if v := store.GetVariable("/conv4/weight"); v != nil {
		t.Error("a 4th layer exists")
	}
}
