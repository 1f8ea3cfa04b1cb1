package labelwise

import (
	"context"
	"math"
	"slices"
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

// oracle is a stub model: log_softmax(5·onehot(label)) when perfect, uniform
// log-probabilities otherwise, plus 0·w so that it owns one trainable weight.
type oracle struct{ perfect bool }

func (o oracle) Name() string                                { return "oracle" }
func (o oracle) Prepare(g *graph.Graph, in *nn.Inputs) error { return nn.AddGraphBasics(in, g) }
func (o oracle) RunBytes(*graph.Graph) int64                 { return 0 }
func (o oracle) Forward(scope *model.Scope, in *nn.Nodes, train bool) *Node {
	g := in.Graph()
	c := in.Meta(nn.InputNumClasses)
	w := nn.Param(scope, g, "w", in.DType, nn.Uniform(1), nil, 1)
	logits := MulScalar(OneHot(in.Get(nn.InputLabels), c, in.DType), 5)
	if !o.perfect {
		logits = ZerosLike(logits)
	}
	return LogSoftmax(Add(logits, MulScalar(ExpandAxes(w, 0), 0)), -1)
}

func tinyGraph(t *testing.T) *graph.Graph {
	f, err := graph.NewDenseFeatures(6, 2, []float32{1, 0, 0, 1, 1, 1, 0, 0, 1, 0, 0, 1})
	if err != nil {
		t.Fatal(err)
	}
	return graph.MustNew(graph.Spec{Name: "tiny", NumNodes: 6, Src: []int32{0, 1, 2, 3, 4, 5}, Dst: []int32{1, 2, 3, 4, 5, 0},
		Features: f, Labels: []int32{0, 1, 2, 0, 1, 2},
		Splits: []graph.Split{{Train: []int32{0, 1}, Val: []int32{2, 3}, Test: []int32{4, 5}}}})
}

// One epoch's phi step moves the selection weight towards the model with the
// lower validation loss. From phi = 0, Adam's first step moves each
// coordinate by lr against the sign of its gradient, so the weight of the
// better model becomes softmax(0.1, -0.1)_1 = 1/(1+e^-0.2) exactly (up to
// Adam's epsilon).
func TestSelectionWeightMovesTowardsBetterModel(t *testing.T) {
	b, info, err := backend.Shared()
	if err != nil {
		t.Fatal(err)
	}
	g := tinyGraph(t)
	want := 1 / (1 + math.Exp(-0.2))
	for _, fcBetter := range []bool{true, false} {
		sel := &Selection{FC: oracle{perfect: fcBetter}, FG: oracle{perfect: !fcBetter}, InnerSteps: 1}
		cfg := Defaults("texas")
		tr, err := train.New(b, sel, g, train.Config{Epochs: 1, Optimizer: cfg.optimizer(), Epoch: sel.Epoch, Backend: info})
		if err != nil {
			t.Fatal(err)
		}
		rr, err := tr.RunOne(context.Background(), train.Run{Split: 0, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		w := rr.Extra[ExtraWeightFC]
		exp := want
		if !fcBetter {
			exp = 1 - want
		}
		if math.Abs(w-exp) > 1e-5 {
			t.Errorf("f_C better = %v: weight of f_C after one epoch %.6f, want %.6f", fcBetter, w, exp)
		}
		rr.Finalize()
	}
}

// The official f_G adjacency: D^-1/2 (A + I) D^-1/2 with the identity added on
// top of self loops and duplicates counted. Graph (as the models see it):
// edges 1->0, 2->0, 2->0 (duplicate), 0->0 (loop). Row 0 = [loop 1 + I 1 = 2,
// 1, 2], degree 5; rows 1 and 2 have only I (degree 1).
func TestOfficialAdjacency(t *testing.T) {
	g := graph.MustNew(graph.Spec{Name: "a", NumNodes: 3, Src: []int32{1, 2, 2, 0}, Dst: []int32{0, 0, 0, 0}})
	m, err := OfficialAdjacency(g)
	if err != nil {
		t.Fatal(err)
	}
	d := m.Dense() // row-major 3x3
	want := []float64{2.0 / 5, 1 / math.Sqrt(5), 2 / math.Sqrt(5), 0, 1, 0, 0, 0, 1}
	for i := range want {
		if math.Abs(d[i]-want[i]) > 1e-6 {
			t.Fatalf("dense adjacency %v, want %v", d, want)
		}
	}
}

func TestPseudoLabels(t *testing.T) {
	// 3 nodes x 2 classes; node 2 is a training node with true label 0.
	logp := []float32{-0.1, -2, -3, -0.2, -0.5, -0.5}
	got, err := PseudoLabels(logp, 2, []int32{0, 0, 0}, []int32{2})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []int32{0, 1, 0}) {
		t.Errorf("pseudo labels %v, want [0 1 0] (ties to the first class, training label kept)", got)
	}
	if a := Accuracy(got, []int32{0, 0, 1}, []int32{0, 1, 2}); math.Abs(a-1.0/3) > 1e-12 {
		t.Errorf("accuracy %v, want 1/3", a)
	}
	if _, err := PseudoLabels(logp[:5], 2, []int32{0, 0, 0}, nil); err == nil {
		t.Error("short log-probabilities accepted")
	}
}

// DirectionOfficial makes a node aggregate over the second entry of its rows:
// for the row 0 -> 1, node 0 aggregates node 1.
func TestDirection(t *testing.T) {
	g := graph.MustNew(graph.Spec{Name: "d", NumNodes: 2, Src: []int32{0}, Dst: []int32{1}})
	if got := modelGraph(g, DirectionOfficial).InCSR().Row(0); !slices.Equal(got, []int32{1}) {
		t.Errorf("official: node 0 aggregates %v, want [1]", got)
	}
	if got := modelGraph(g, DirectionInNeighbours).InCSR().Row(1); !slices.Equal(got, []int32{0}) {
		t.Errorf("in-neighbours: node 1 aggregates %v, want [0]", got)
	}
}

func TestConfigValidateAndNames(t *testing.T) {
	c := Defaults("squirrel")
	if c.Variant != Dense || c.Hidden != 256 || c.Dropout != 0 || c.LR != 0.003 || c.Name() != "lwgcn" {
		t.Errorf("squirrel defaults %+v", c)
	}
	if n := c.WithoutSelection().Name(); n != "lwgcn-g" {
		t.Errorf("name %q", n)
	}
	if n := c.WithGCNPseudoLabels().Name(); n != "lwgcn-p" {
		t.Errorf("name %q", n)
	}
	bad := c
	bad.Layers = 1
	if err := bad.Validate(); err == nil {
		t.Error("dense variant with one layer accepted")
	}
	bad = c
	bad.Backbone = "gat"
	if err := bad.Validate(); err == nil {
		t.Error("unknown backbone accepted")
	}
	if d := Defaults("cora"); d.GCNIILayers != 64 || d.WeightDecay != 1e-4 || d.Variant != Small {
		t.Errorf("cora defaults %+v", d)
	}
}
