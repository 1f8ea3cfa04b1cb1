package models_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
)

func TestFAGCNMatchesReference(t *testing.T) { nntest.BothLayouts(t, testFAGCNMatchesReference) }

func testFAGCNMatchesReference(t *testing.T) {
	g := nntest.TinyGraph(t).ToUndirected()
	m := models.FAGCN{Hidden: 3, Layers: 2, Eps: 0.3, Dropout: 0.5}
	in := nntest.Float64Inputs(t, g, true)
	if err := m.Prepare(g, in); err != nil {
		t.Fatal(err)
	}
	hr := nntest.NewHarness(t, in, 8, func(scope *model.Scope, n *nn.Nodes) *Node { return m.Forward(scope, n, false) })
	got, dims := hr.Forward()
	if dims[0] != 5 || dims[1] != 3 {
		t.Fatalf("output %v, want [5 3]", dims)
	}
	w1, b1 := nntest.Matrix(hr.VarValues("/t1/weight"), 4, 3), hr.VarValues("/t1/bias")
	raw := nntest.AddBias(nntest.NaiveMatMul(nntest.DenseX(g), w1), b1)
	for _, r := range raw {
		for j := range r {
			r[j] = max(r[j], 0)
		}
	}
	h := raw
	for _, layer := range []string{"/layer0", "/layer1"} {
		h = nntest.FAReference(g, h, hr.VarValues(layer+"/gate/weight"), hr.VarValues(layer + "/gate/bias")[0])
		for i := range h {
			for j := range h[i] {
				h[i][j] += 0.3 * raw[i][j]
			}
		}
	}
	want := nntest.AddBias(nntest.NaiveMatMul(h, nntest.Matrix(hr.VarValues("/t2/weight"), 3, 3)), hr.VarValues("/t2/bias"))
	nntest.AssertClose(t, "FAGCN", got, nntest.Flat(want), 1e-12)
	// Gradients through a training pass (evaluation passes stop them at the
	// sparse features); no dropout, so the pass is deterministic.
	m.Dropout = 0
	hg := nntest.NewHarness(t, in, 8, func(scope *model.Scope, n *nn.Nodes) *Node { return m.Forward(scope, n, true) })
	hg.CheckGradients(rand.New(rand.NewPCG(5, 6)), 1e-5)
}

func TestFAGCNPrepareErrors(t *testing.T) {
	g := nntest.TinyGraph(t)
	if err := (models.FAGCN{Hidden: 0, Layers: 1}).Prepare(g, nn.NewInputs()); err == nil {
		t.Fatal("hidden 0 accepted")
	}
	loops := graph.MustNew(graph.Spec{Name: "loops", NumNodes: 2, Src: []int32{0, 1}, Dst: []int32{0, 1},
		Features: g.Features().SelectRows([]int32{0, 1}), Labels: []int32{0, 1}})
	err := (models.FAGCN{Hidden: 2, Layers: 1}).Prepare(loops, nn.NewInputs())
	if err == nil || !containsAll(err.Error(), "loops", "self loops") {
		t.Fatalf("graph of self loops only: error %v", err)
	}
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}
