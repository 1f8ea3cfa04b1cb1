package zoo

import (
	"fmt"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

// GPRGNN defaults: the official train_model.py flags (jianhao2016/GPRGNN).
const (
	GPRGNNK        = 10
	GPRGNNEpochs   = 1000
	GPRGNNDropProp = 0.5
)

func init() {
	Register(Entry{
		Name: "gprgnn", Title: "GPRGNN",
		Paper: "Chien et al., ICLR 2021 (official code jianhao2016/GPRGNN: MLP + K=10 generalized PageRank steps, " +
			"PPR-initialised learnable weights; per-dataset lr/alpha/dprate/weight decay of Reproduce_GPRGNN.sh)",
		Defaults: gprgnnDefaults,
		Build:    buildGPRGNN,
		// The official loaders symmetrise the graph and row-normalise the
		// features (T.NormalizeFeatures) for every dataset.
		Graph:     func(g *graph.Graph, _ Hyper) *graph.Graph { return g.ToUndirected().RowNormalizeFeatures() },
		AutoBatch: func(g *graph.Graph, _ Hyper) bool { return len(g.Src()) >= GPRGNNAutoBatchMinEdges },
		Notes: map[string]string{
			"pubmed": "Reproduce_GPRGNN.sh's Pubmed setting (lr 0.05, alpha 0.2) gives 78.3, 78.5 and 79.5 over seeds " +
				"10-12 (best epochs 130, 59, 382 of 1000), 1.1 below the paper's 79.9 ± 0.1: our seed-to-seed spread " +
				"(0.5) is five times the paper's std, and the protocol keeps the best validation accuracy where the " +
				"official code keeps the lowest validation loss with patience 200 (not measured on Pubmed: about " +
				"25 minutes a run here).",
		},
	})
}

// GPRGNNAutoBatchMinEdges is the number of edges from which
// experiments.BatchAuto batches GPRGNN: its K steps propagate C-wide rows,
// so a run alone pays the gather's per-row cost for little data, and R runs
// share it. Measured (bench-batched, 10 runs, on a machine shared with two
// protocol runs: wall times vary between measurements, CPU times less;
// batched ÷ alone at 1 / 2 threads, wall (CPU)): Squirrel, 217,073 edges,
// 3.1-7.5x (3.3x) / 2.8x (3.0x); Chameleon, 36,101, 2.6x (2.5x) / 2.1x
// (2.3x); Cora, 10,556, 1.4x (1.3x) / 0.8x (1.2x); Texas, 325, 1.1x (1.1x) /
// 0.9x (1.1x). Below the bound the gain is small or, in wall time, lost.
const GPRGNNAutoBatchMinEdges = 20_000

// gprgnnDefaults reads Hidden, Dropout, Alpha, LR, WeightDecay, Epochs and
// Extra "k" (propagation steps) and "dprate" (dropout before propagation).
//
// Published settings (src/Reproduce_GPRGNN.sh; the flags it leaves out take
// train_model.py's defaults: hidden 64, dropout 0.5, dprate 0.5, K 10,
// weight decay 5e-4, 1000 epochs with early stopping after 200):
//
//	cora, citeseer   lr 0.01, alpha 0.1
//	pubmed           lr 0.05, alpha 0.2
//	chameleon        lr 0.05, alpha 1.0, weight decay 0, dprate 0.7
//	squirrel         lr 0.05, alpha 0.0, weight decay 0, dprate 0.7
//	texas            lr 0.05, alpha 1.0
//	cornell          lr 0.05, alpha 0.9
//
// They were tuned on random 60/20/20 splits; the Geom-GCN splits used here
// train on 48%. The protocol keeps the best-validation-accuracy epoch of
// 1000 (the official code keeps the best validation loss and stops 200
// epochs after it stops improving).
func gprgnnDefaults(d string) Hyper {
	h := Hyper{Hidden: 64, Dropout: 0.5, Alpha: 0.1, LR: 0.002, WeightDecay: 5e-4, Epochs: GPRGNNEpochs}
	h = h.With("k", GPRGNNK).With("dprate", GPRGNNDropProp)
	switch d {
	case "cora", "citeseer":
		h.LR, h.Alpha = 0.01, 0.1
	case "pubmed":
		h.LR, h.Alpha = 0.05, 0.2
	case "chameleon", "chameleon_filtered":
		// The filtered graphs are not in the GPRGNN paper: they take the
		// setting of their unfiltered graph (same graph without duplicates).
		h.LR, h.Alpha, h.WeightDecay = 0.05, 1.0, 0
		h = h.With("dprate", 0.7)
	case "squirrel", "squirrel_filtered":
		h.LR, h.Alpha, h.WeightDecay = 0.05, 0.0, 0
		h = h.With("dprate", 0.7)
	case "texas":
		h.LR, h.Alpha = 0.05, 1.0
	case "cornell":
		h.LR, h.Alpha = 0.05, 0.9
	case "wisconsin":
		// Not in the GPRGNN paper. Chosen on mean validation accuracy over the
		// 10 Geom-GCN splits among alpha {0.1, 0.5, 0.9, 1.0} x lr {0.01, 0.05}
		// with the other WebKB settings (see GPRGNNWisconsinNote).
		h.LR, h.Alpha = 0.05, 1.0
	}
	return h
}

func buildGPRGNN(h Hyper) (nn.Model, Training, error) {
	k := int(h.Get("k", GPRGNNK))
	switch {
	case h.Hidden < 1:
		return nil, Training{}, fmt.Errorf("hidden must be positive, got %d", h.Hidden)
	case k < 0:
		return nil, Training{}, fmt.Errorf("extra k (propagation steps) must be >= 0, got %d", k)
	case h.Alpha < 0 || h.Alpha > 1:
		return nil, Training{}, fmt.Errorf("alpha (PPR teleport) must be in [0, 1], got %v", h.Alpha)
	}
	m := models.GPRGNN{Hidden: h.Hidden, K: k, Alpha: h.Alpha, Dropout: h.Dropout, DropProp: h.Get("dprate", GPRGNNDropProp)}
	// The official optimizer: weight decay on the two linear layers, none on
	// the propagation weights γ.
	opt := train.NewOptimizer(
		train.Group{Name: "prop", Adam: train.NewAdam(h.LR, 0), Match: train.ScopePrefix("/prop/")},
		train.Group{Name: "mlp", Adam: train.NewAdam(h.LR, h.WeightDecay)},
	)
	return m, Training{Optimizer: opt}, nil
}
