package zoo

import (
	"math"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/backend"
)

// quickDatasets are the datasets whose reference settings the entries
// define, plus one they do not know.
var quickDatasets = []string{"texas", "wisconsin", "cornell", "chameleon", "squirrel", "cora", "citeseer", "pubmed",
	"chameleon_filtered", "squirrel_filtered", "crocodile", "arxiv-year", "unknown"}

// Quick mode (`reproduce -quick`: 40 epochs) and -epochs must give every
// entry a configuration it accepts on every dataset: BM-GCN's 400 MLP
// pre-training epochs used to exceed 40 epochs in all.
func TestEveryEntryAcceptsShortRuns(t *testing.T) {
	for _, name := range Names() {
		e, _ := Lookup(name)
		for _, d := range quickDatasets {
			for _, n := range []int{1, 40} {
				h := e.WithEpochs(e.Defaults(d), n)
				if h.Epochs != n {
					t.Fatalf("%s on %s: WithEpochs(%d) gave %d epochs", name, d, n, h.Epochs)
				}
				if err := h.Validate(); err != nil {
					t.Errorf("%s on %s, %d epochs: %v", name, d, n, err)
				}
				if _, _, err := e.Build(h); err != nil {
					t.Errorf("%s on %s, %d epochs: %v", name, d, n, err)
				}
			}
		}
	}
}

func TestWithEpochsScalesEpochExtras(t *testing.T) {
	e, _ := Lookup("bmgcn")
	ref := e.Defaults("texas")
	if ref.Epochs != 2000 || ref.Get(BMGCNMLPEpochsKey, 0) != 400 {
		t.Fatalf("BM-GCN reference: %d epochs, %v MLP epochs; want 2000 and 400", ref.Epochs, ref.Get(BMGCNMLPEpochsKey, 0))
	}
	for _, c := range []struct{ n, mlp int }{{40, 8}, {1000, 200}, {1, 0}, {4000, 800}} {
		h := e.WithEpochs(ref, c.n)
		if got := h.Get(BMGCNMLPEpochsKey, -1); got != float64(c.mlp) {
			t.Errorf("%d epochs: %v MLP epochs, want %d (400/2000 of them)", c.n, got, c.mlp)
		}
	}
	if ref.Get(BMGCNMLPEpochsKey, 0) != 400 {
		t.Error("WithEpochs modified the reference's extras")
	}
	// Entries without epoch extras only change Epochs.
	g, _ := Lookup("gcn")
	if h := g.WithEpochs(g.Defaults("texas"), 40); h.Epochs != 40 || h.Hidden != 64 {
		t.Errorf("gcn: %+v", h)
	}
}

// Out-of-range settings are refused with the parameter named, before any
// model is built (a dropout of 1.5 used to train and report 24 %).
func TestNewTrainerRejectsOutOfRangeSettings(t *testing.T) {
	for _, c := range []struct {
		model string
		set   func(*Hyper)
		want  string
	}{
		{"gcn", func(h *Hyper) { h.Dropout = 1.5 }, "dropout must be in [0, 1), got 1.5"},
		{"gcn", func(h *Hyper) { h.Dropout = -0.5 }, "dropout must be in [0, 1), got -0.5"},
		{"mlp", func(h *Hyper) { h.Dropout = 1 }, "dropout must be in [0, 1), got 1"},
		{"gcn", func(h *Hyper) { h.Dropout = math.NaN() }, "dropout must be in [0, 1), got NaN"},
		{"gcnii", func(h *Hyper) { h.Layers = -1 }, "layers must be >= 0, got -1"},
		{"gcnii", func(h *Hyper) { h.Layers = 0 }, "layers must be >= 1, got 0"},
		{"gcn", func(h *Hyper) { h.Hidden = 0 }, "hidden must be >= 1, got 0"},
		{"gcn", func(h *Hyper) { h.Layers = 1 }, "layers must be 0 (the reference, 2) or >= 2, got 1"},
		{"gat", func(h *Hyper) { h.Heads = 0 }, "heads must be >= 1, got 0"},
		{"gat", func(h *Hyper) { h.Hidden = 0 }, "hidden must be >= 1, got 0"},
		{"gcn", func(h *Hyper) { h.LR = 0 }, "lr must be a positive number, got 0"},
		{"gcn", func(h *Hyper) { h.LR = math.Inf(1) }, "lr must be a positive number, got +Inf"},
		{"gcn", func(h *Hyper) { h.WeightDecay = -1 }, "weight decay must be a number >= 0, got -1"},
		{"gcn", func(h *Hyper) { h.Epochs = -5 }, "epochs must be >= 0, got -5"},
		{"gcnii", func(h *Hyper) { h.Alpha = 2 }, "alpha must be in [0, 1] and lambda >= 0, got 2 and 1.5"},
		{"bmgcn", func(h *Hyper) { *h = h.With(BMGCNMLPDropoutKey, 1.2) }, `extra mlp_dropout must be in [0, 1), got 1.2`},
		{"gprgnn", func(h *Hyper) { *h = h.With("dprate", -0.1) }, `extra dprate must be in [0, 1), got -0.1`},
		{"mixhop", func(h *Hyper) { *h = h.With("input_dropout", math.Inf(1)) }, `extra "input_dropout" must be finite`},
	} {
		e, _ := Lookup(c.model)
		h := e.Defaults("texas")
		c.set(&h)
		_, err := NewTrainer(nil, backend.Info{}, nil, c.model, h, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "zoo: "+c.model+": ") {
			t.Errorf("%s %+v: error %v, want %q", c.model, h, err, c.want)
		}
	}
}
