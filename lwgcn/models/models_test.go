package models_test

import (
	"math"
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
)

// TestModelsOutputs: every model gives [N, C]; GCNII gives log-probabilities;
// evaluation passes are deterministic and training passes use dropout.
func TestModelsOutputs(t *testing.T) {
	g := nntest.TinyGraph(t)
	for _, m := range []nn.Model{
		models.MLP{Hidden: 4, Dropout: 0.5, InputDropout: 0.5},
		models.GCN{Hidden: 4, Dropout: 0.5},
		models.GAT{Hidden: 2, Heads: 2, OutHeads: 1, Dropout: 0.5, AttentionDropout: 0.5},
		models.GCNII{Layers: 3, Hidden: 4, Dropout: 0.5, Alpha: 0.1, Lambda: 0.5},
	} {
		t.Run(m.Name(), func(t *testing.T) {
			in := nn.NewInputs()
			if err := m.Prepare(g, in); err != nil {
				t.Fatal(err)
			}
			store := model.NewStore()
			exec := model.MustNewExec(nntest.Backend(t), store, func(scope *model.Scope, gr *Graph, p []*Node) []*Node {
				nn.UseVariableParameters(scope, gr)
				n := in.Nodes(p)
				return []*Node{m.Forward(scope.ResetVisited(), n, false), m.Forward(scope.ResetVisited(), n, false),
					m.Forward(scope.ResetVisited(), n, true)}
			})
			outs := exec.MustCall(in.Tensors()...)
			if d := outs[0].Shape().Dimensions; len(d) != 2 || d[0] != 5 || d[1] != 3 {
				t.Fatalf("output shape %v, want [5 3]", d)
			}
			a, b, c := nntest.Float64s(outs[0]), nntest.Float64s(outs[1]), nntest.Float64s(outs[2])
			nntest.AssertClose(t, "two evaluation passes", a, b, 0)
			differs := false
			for i := range a {
				differs = differs || a[i] != c[i]
			}
			if !differs {
				t.Fatal("training pass (dropout 0.5) equals the evaluation pass")
			}
			if m.Name() == "gcnii" {
				for i := range 5 {
					s := 0.0
					for j := range 3 {
						s += math.Exp(a[i*3+j])
					}
					if math.Abs(s-1) > 1e-5 {
						t.Fatalf("row %d: Σ exp = %v, want 1 (log-probabilities)", i, s)
					}
				}
			}
		})
	}
}

func TestReinitializeDependsOnSeedAndPath(t *testing.T) {
	g := nntest.TinyGraph(t)
	m := models.GCN{Hidden: 4}
	in := nn.NewInputs()
	if err := m.Prepare(g, in); err != nil {
		t.Fatal(err)
	}
	store := model.NewStore()
	nn.SetSeed(store, 3)
	exec := model.MustNewExec(nntest.Backend(t), store, func(scope *model.Scope, gr *Graph, p []*Node) *Node {
		nn.UseVariableParameters(scope, gr)
		return m.Forward(scope, in.Nodes(p), false)
	})
	exec.MustCall(in.Tensors()...)
	w := func() []float32 {
		return tensors.MustCopyFlatData[float32](store.GetVariable("/conv1/weight").MustValue())
	}
	first := w()
	if err := nn.Reinitialize(store, in, 4); err != nil {
		t.Fatal(err)
	}
	other := w()
	if err := nn.Reinitialize(store, in, 3); err != nil {
		t.Fatal(err)
	}
	again := w()
	same := func(a, b []float32) bool {
		for i := range a {
			if a[i] != b[i] {
				return false
			}
		}
		return true
	}
	if !same(first, again) || same(first, other) {
		t.Fatalf("seed 3 twice: equal %v; seeds 3 and 4: equal %v", same(first, again), same(first, other))
	}
	// Different paths, different values.
	w2 := tensors.MustCopyFlatData[float32](store.GetVariable("/conv2/weight").MustValue())
	if w2[0] == first[0] {
		t.Fatal("two layers got the same first weight")
	}
	// Biases of GCNConv start at zero (PyG).
	for _, b := range tensors.MustCopyFlatData[float32](store.GetVariable("/conv1/bias").MustValue()) {
		if b != 0 {
			t.Fatalf("bias %v, want 0", b)
		}
	}
}
