package zoo

import (
	"fmt"

	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

// LINKX hyperparameter keys in Hyper.Extra (Hyper.Layers is num_layers of
// MLP_f).
const (
	LINKXLayersA = "layers_a"
	LINKXLayersX = "layers_x"
)

// LINKX code defaults (parse.py, main.py): AdamW with weight decay 1e-3, 500
// epochs, the epoch of best validation accuracy reported.
const (
	linkxWD     = 1e-3
	linkxEpochs = 500
)

func init() {
	Register(Entry{
		Name: "linkx", Title: "LINKX",
		Paper:    "Lim et al., NeurIPS 2021 (official CUAI/Non-Homophily-Large-Scale code, AdamW; settings tuned on validation over its Geom-GCN grid)",
		Defaults: linkxDefaults,
		Build:    buildLINKX,
		// main.py symmetrises the edges (to_undirected) unless --directed.
		Graph: Undirected,
		Notes: map[string]string{
			"": "No per-dataset setting is published: hidden and lr chosen on a validation grid (recorded " +
				"in linkxDefaults).",
			"cora": "One Linear as MLP_f (num_layers 1, hidden 256, lr 0.01, the official loader's raw features), " +
				"chosen on validation: 64.7, 62.0, 63.7 over seeds 10-12 (validation 65.0-66.2, best epochs 3-4), " +
				"1.2 below the paper's 64.7 ± 0.4. The official code (CUAI/Non-Homophily-Large-Scale 82f8f05, its one " +
				"torch_sparse.SparseTensor call shimmed by a torch COO tensor; scripts/official/linkx) on the same split " +
				"gives 63.0 there (validation 66.2), and its own grid (seed 10; hidden 16-128, lr 0.01 and 0.002, 1-3 " +
				"layers) picks 1 layer on validation (62.0-64.2; 2 layers at most 46.4). With 2 layers (the runs " +
				"before) ours gave 53.4 and the official code 50.7 at the same point: the setting, not the port, was " +
				"the gap. Validation peaks within the first epochs, as the adjacency branch (one 2,708-wide row per " +
				"node) fits the 140 training nodes at once; the paper's residual 1.2 is within our seed-to-seed " +
				"spread (1.1).",
			"citeseer": "Cora's setting (num_layers 1, hidden 256, lr 0.01, raw features), chosen on validation " +
				"(52.6-55.4 against 45.4-49.6 with 2 layers): 55.4, 52.2, 54.5 over seeds 10-12, 2.4 above the " +
				"paper's 51.6 ± 1.7. The official code (82f8f05, SparseTensor shim; scripts/official/linkx) gives " +
				"52.2 there (seed 10; validation 51.6) and 47.8 with 2 layers (ours 46.3, the runs before).",
			"squirrel": "Takes Chameleon's validated point (lr 0.002, hidden 256), which Squirrel's own 4-point " +
				"grid keeps (splits 0-2, mean validation: 57.6 against 56.3 for hidden 64 and 53.2-53.7 at lr 0.01): " +
				"57.0 ± 1.3, 4.8 below the paper's 61.8 ± 1.8. Validation peaks early (best epochs 24-59 of 500, " +
				"validation 56.6-59.0) with train accuracy 0.97-1.0 there; the paper's 384-point grid (layers 1-4, " +
				"lr 0.05, dropout 0, two-layer A and X encoders) is not run here.",
			"pubmed": "Cora's and Citeseer's setting (num_layers 1, hidden 256, lr 0.01, raw features), chosen on " +
				"validation: 71.6, 71.9, 72.2 over seeds 10-12 (validation 70.0-70.2, best epoch 5 of 500 in each), 1.5 " +
				"above the paper's 70.4 ± 0.7. With the default two layers (the runs before) the same seeds gave 54.7, " +
				"55.7 and 49.0 (validation 54.4-57.0). One point chosen from two on validation, against the paper's " +
				"384-point grid whose chosen point is not published; validation peaks at epoch 5 and the training " +
				"loss is 0 by epoch 7 (the adjacency branch's 19,717-wide rows fit the 60 training nodes at once).",
			"cornell": "The 4-point grid on Cornell's own validation keeps Texas's point (hidden 256, lr 0.01: " +
				"validation 71.5; the other three 60.0-66.3), 13.7 below the paper's 77.8; validation peaks early " +
				"(best epochs 11-430, median 46). The paper's 384-point grid is not run here.",
		},
	})
}

// linkxDefaults: the LINKX paper reports Geom-GCN results from a grid
// (experiments/linkx_tuning.sh: hidden {64,128,256,512}, num_layers {1..4},
// lr {0.05,0.01,0.002}, dropout {0,0.5}, init layers A, X {1,2}) without
// publishing the chosen points; ours come from a validation grid (see each
// case).
//
// The grid run here (lr {0.01, 0.002} x hidden {64, 256}, 2 layers,
// dropout 0.5, splits 0-2, mean validation / test accuracy):
//
//	chameleon  lr 0.01:  hidden 64 64.1 / 62.0, hidden 256 65.3 / 64.4
//	           lr 0.002: hidden 64 65.2 / 64.3, hidden 256 67.1 / 67.0  <- chosen
//	texas      lr 0.01:  hidden 64 66.1 / 61.3, hidden 256 74.0 / 67.6  <- chosen
//	           lr 0.002: hidden 64 62.7 / 58.6, hidden 256 65.0 / 60.4
//
// The other Wikipedia graphs take Chameleon's point, the other WebKB graphs
// and the rest Texas's. Later grids on graphs that inherited a point
// (mean validation / test; Squirrel keeps Chameleon's, Cornell and
// Wisconsin Texas's):
//
//	squirrel   lr 0.01:  hidden 64 53.2 / 53.7, hidden 256 53.7 / 53.8
//	           lr 0.002: hidden 64 56.3 / 57.1, hidden 256 57.6 / 57.2  <- kept
//	           (2026-11-29, at c17249e; the kept point's runs equal the
//	           recorded ones, split by split)
//	cornell    lr 0.01:  hidden 64 66.3 / 59.5, hidden 256 71.5 / 64.3  <- kept
//	           lr 0.002: hidden 64 64.6 / 60.0, hidden 256 60.0 / 53.8
//	wisconsin  lr 0.01:  hidden 64 81.1 / 80.0, hidden 256 83.8 / 79.4  <- kept
//	           lr 0.002: hidden 64 73.2 / 74.9, hidden 256 75.6 / 77.8
//	cora       (raw features, seeds 10-12, dropout 0 or 0.5) lr 0.01, hidden 256,
//	           dropout 0.5: 54.9 / 53.4 (2 layers); hidden 256 dropout 0: 48.3;
//	           lr 0.002 hidden 256: 50.5-50.7; hidden 64: 30.3-43.3
//	cora       layers 1 (MLP_f one Linear; the official code's grid, seed 10,
//	           scripts/official/linkx): validation 62.0-64.2 for hidden >= 32,
//	           2 layers at most 46.4; ours at hidden 256, lr 0.01, layers 1:
//	           65.5 / 63.5 <- chosen (validation 65.5 against 54.9)
//	citeseer   layers 1, hidden 256, lr 0.01 (seeds 10-12): validation 52.6-55.4
//	           against 45.4-49.6 with 2 layers <- chosen
//	pubmed     layers 1, hidden 256, lr 0.01 (seed 10, `lwgcn train -layers 1`):
//	           validation 70.2 (epoch 5) against 54.4-57.0 with 2 layers
//	           (seeds 10-12) <- chosen
//
// Preprocessing as the official loaders (dataset.py): the features as
// stored (RawFeaturesKey; load_planetoid_dataset reads PyG's Planetoid
// without NormalizeFeatures, load_geom_gcn_dataset the .mat files), the
// edges symmetrised (main.py's to_undirected); the epoch of best validation
// accuracy, the first on ties (logger.py's argmax).
func linkxDefaults(d string) Hyper {
	h := Hyper{Hidden: 256, Layers: 2, Dropout: 0.5, LR: 0.01, WeightDecay: linkxWD, Epochs: linkxEpochs}
	h = planetoidRaw(h.With(LINKXLayersA, 1).With(LINKXLayersX, 1), d)
	switch d {
	case "chameleon", "squirrel", "chameleon_filtered", "squirrel_filtered", "crocodile":
		h.LR = 0.002
	case "cora", "citeseer", "pubmed":
		h.Layers = 1
	}
	return h
}

func buildLINKX(h Hyper) (nn.Model, Training, error) {
	m := models.LINKX{Hidden: h.Hidden, Layers: h.Layers, LayersA: int(h.Get(LINKXLayersA, 1)),
		LayersX: int(h.Get(LINKXLayersX, 1)), Dropout: h.Dropout}
	if err := m.Validate(); err != nil {
		return nil, Training{}, err
	}
	if h.LR <= 0 || h.WeightDecay < 0 {
		return nil, Training{}, fmt.Errorf("linkx: need lr > 0 and weight decay >= 0, got %v, %v", h.LR, h.WeightDecay)
	}
	// AdamW: Adam without coupled decay, the decoupled decay in the epoch.
	return m, Training{Optimizer: train.NewOptimizer(train.Group{Name: "all", Adam: train.NewAdam(h.LR, 0)}),
		Epoch: adamWEpoch(m, h.LR, h.WeightDecay)}, nil
}
