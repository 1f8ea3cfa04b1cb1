package zoo

import (
	"fmt"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

// FAGCN reference settings: the official bdy9527/FAGCN src/train.py defaults
// (its example is the Wikipedia squirrel graph, 60/20/20 splits): hidden 32,
// 2 layers, ε = 0.3, dropout 0.5, Adam lr 0.01, weight decay 5e-5, 500
// epochs, the epoch of best validation accuracy reported (train.py sorts
// the epochs by validation accuracy for every dataset but Planetoid's).
const (
	FAGCNHidden  = 32
	FAGCNLayers  = 2
	FAGCNEps     = 0.3
	FAGCNDropout = 0.5
	FAGCNLR      = 0.01
	FAGCNWD      = 5e-5
	FAGCNEpochs  = 500
)

// FAGCN's semi-supervised settings for the Planetoid public splits (Cora,
// Citeseer, Pubmed), which the train.py defaults are not: hidden 16, weight
// decay 1e-3, dropout 0.6, ε = 0.3, 4 layers (lr 0.01 and 500 epochs as
// the defaults). The repository publishes no command for them; these are
// the FAGCN paper's semi-supervised settings as the audit read
// them. The stored sources here hold neither the paper's settings
// paragraph nor a script of the authors, so they are unverified beyond
// this: GammaGL's FAGCN example (BUPT-GAMMA, the authors' group) runs the
// Planetoid graphs with hidden 16, lr 0.01, weight decay 1e-3, dropout
// 0.6 and ε 0.2 (3-6 layers) in its Paddle commands. train.py's Planetoid
// branch selects the epoch of lowest validation loss and stops after 200
// epochs that do not lower the loss and raise the accuracy together
// (FAGCNPatience).
const (
	FAGCNSemiHidden  = 16
	FAGCNSemiLayers  = 4
	FAGCNSemiDropout = 0.6
	FAGCNSemiWD      = 1e-3
	FAGCNPatience    = 200
)

func init() {
	Register(Entry{
		Name: "fagcn", Title: "FAGCN",
		Paper: "Bo et al., AAAI 2021 (official bdy9527/FAGCN: signed tanh attention, ε·h⁰ residual; " +
			"features row-normalised, symmetric graph without self loops)",
		Defaults: fagcnDefaults,
		Build: func(h Hyper) (nn.Model, Training, error) {
			if h.Hidden < 1 || h.Layers < 1 {
				return nil, Training{}, fmt.Errorf("hidden and layers must be positive, got %d and %d", h.Hidden, h.Layers)
			}
			if h.Dropout < 0 || h.Dropout >= 1 {
				return nil, Training{}, fmt.Errorf("dropout must be in [0, 1), got %v", h.Dropout)
			}
			return models.FAGCN{Hidden: h.Hidden, Layers: h.Layers, Eps: h.Alpha, Dropout: h.Dropout}, Training{}, nil
		},
		Graph:     FAGCNGraph,
		AutoBatch: func(g *graph.Graph, _ Hyper) bool { return len(g.Src()) >= FAGCNAutoBatchMinEdges },
		Notes: map[string]string{
			"citeseer": "1.7 below the paper (70.0 ± 0.2 against 71.7 ± 0.6) with train.py's Planetoid selection " +
				"(lowest validation loss, joint patience 200); the same settings with the epoch of best validation " +
				"accuracy over all 500 epochs give 72.0 ± 1.7 (validation 73.6). The semi-supervised settings are not " +
				"published with the code (see FAGCNSemiHidden).",
		},
	})
}

// FAGCNAutoBatchMinEdges is the number of edges from which
// experiments.BatchAuto batches FAGCN: R runs share the gathers of the
// edge-weighted aggregation (sparse.MulWeightedRuns), which pays on large
// graphs and not on small ones. Measured (bench-batched, 10 runs, machine
// shared with two 1-thread protocol runs; batched ÷ alone at 1 / 2
// threads): Squirrel, 217,073 edges, 1.59x / 1.74x; Chameleon, 36,101,
// 1.49x / 1.32x; Cora, 10,556, 1.09x / 1.08x; Texas, 325, 0.87x / 0.59x.
// (Before the entry-weight gradient reused the forward pass's blocks,
// batched FAGCN was 0.63-1.08x.)
const FAGCNAutoBatchMinEdges = 20_000

// FAGCNGraph is the official preprocessing: features row-normalised
// (normalize_features, every dataset), edges made symmetric and simple with
// no self loops (dgl.to_simple, to_bidirected, remove_self_loop).
func FAGCNGraph(g *graph.Graph, _ Hyper) *graph.Graph {
	return g.RowNormalizeFeatures().ToUndirected().RemoveSelfLoops()
}

// fagcnDefaults: Hyper.Alpha is ε. The FAGCN paper evaluates Chameleon,
// Squirrel and Actor (60/20/20 splits) and the Planetoid public splits, but
// its repository publishes only the train.py defaults (FAGCN* constants),
// used wherever no tuned value is given below. Where FAGCN published nothing
// (WebKB), the setting was tuned on mean validation accuracy over the 10
// Geom-GCN splits, as the LW-GCN paper did: on Texas, a grid over ε {0.3,
// 0.5, 1}, lr {0.01, 0.05}, weight decay {5e-5, 5e-4, 1e-3}, dropout {0,
// 0.5}, 1 or 2 layers, hidden {32, 64} (one factor at a time around the
// defaults) put hidden 64, lr 0.05 first (validation 89.2 %, against 82.2 %
// for the defaults); Wisconsin and Cornell take Texas's setting.
//
// Results (10 splits, seed 15, test accuracy mean ± std, the LW-GCN paper's
// Table 2 in brackets): Texas 83.8 ± 5.3 (79.5 ± 4.8) with the tuned
// setting, 78.1 ± 6.8 with the defaults; Chameleon 62.8 ± 1.4 (63.9 ± 2.2)
// with the defaults. Both within two standard deviations.
//
// Cora, Citeseer and Pubmed take the semi-supervised settings (FAGCNSemi*)
// with train.py's Planetoid selection: lowest validation loss, patience
// FAGCNPatience on loss and accuracy together. With the train.py defaults
// and accuracy selection they tested at 76.0 ± 3.1 (Cora) and 66.6 ± 3.3
// (Citeseer), against the paper's 83.1 and 71.7.
func fagcnDefaults(d string) Hyper {
	h := Hyper{Hidden: FAGCNHidden, Layers: FAGCNLayers, Alpha: FAGCNEps, Dropout: FAGCNDropout, LR: FAGCNLR,
		WeightDecay: FAGCNWD, Epochs: FAGCNEpochs}
	switch d {
	case "texas", "wisconsin", "cornell":
		h.Hidden, h.LR = 64, 0.05
	case "cora", "citeseer", "pubmed":
		h.Hidden, h.Layers, h.Dropout, h.WeightDecay = FAGCNSemiHidden, FAGCNSemiLayers, FAGCNSemiDropout, FAGCNSemiWD
		h = h.With(SelectKey, float64(train.ByValLoss)).With(PatienceKey, FAGCNPatience).With(PatienceBothKey, 1)
	}
	return h
}
