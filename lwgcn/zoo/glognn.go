package zoo

import (
	"fmt"

	"github.com/lwgcn/toolkit/lwgcn/models"

	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

// GloGNN++ hyperparameter keys in Hyper.Extra (Hyper.Alpha is α,
// Hyper.Layers the number of norm layers).
const (
	GloGNNBeta   = "beta"
	GloGNNGamma  = "gamma"
	GloGNNDelta  = "delta"
	GloGNNOrders = "orders"
	// GloGNNFloat64 = 1 runs the model in float64 like the official code.
	GloGNNFloat64 = "float64"
)

// glognnEpochs: the official runs train up to 2000 epochs and stop when the
// validation loss exceeds its mean over the previous 200-300 epochs,
// reporting the last epoch. Under the shared protocol (fixed epochs, best
// validation accuracy) we run 1000: see the entry's doc for the check.
const glognnEpochs = 1000

func init() {
	Register(Entry{
		Name: "glognn++", Title: "GloGNN++",
		Paper: "Li et al., ICML 2022 (official RecklessRonan/GloGNN small-scale settings, run_glognn++_sota_reproduce_small.sh)",
		// The layer is GloGNNConv: H' = (1-γ) Z* H Dw + γ H⁰ with Z* in closed form,
		// evaluated by the Woodbury identity in the C-dimensional class space
		// (a C x C solve, nn.SolveSPD; never an N x N matrix). The official code
		// runs in float64 and early-stops on the validation loss; here float32
		// (the layer's C x C algebra in float64, as it is ill-conditioned),
		// fixed epochs, best validation accuracy.
		Defaults: glognnDefaults,
		Build:    buildGloGNN,
		// The official loader row-normalises the features (the model
		// symmetrises the edges itself).
		Graph: rowNormalized,
		Notes: map[string]string{
			"cora": glognnPaperCopyNote, "citeseer": glognnPaperCopyNote,
			"pubmed": "The official Pubmed command's settings give 77.2, 78.0 and 77.3 over seeds 10-12 (validation " +
				"80.6-81.2, best epochs 410-728 of 1000), 0.6 below the paper's 78.1 ± 0.2: within two of our own " +
				"seed-to-seed standard deviations (0.4), twice the paper's, which its 3 seeds make a loose estimate.",
		},
	})
}

// glognnPaperCopyNote explains the LW-GCN paper's GloGNN++ numbers on the
// Planetoid graphs.
const glognnPaperCopyNote = "The LW-GCN paper prints the same 66.7 ± 1.9 for Cora and for Citeseer, mean and std " +
	"alike: most likely a copy error in the paper, so the gap is not a measure of this implementation (on the " +
	"same public split GCN reaches 81.6 and 71.3, MLP 58.6 and 60.3 in the paper)."

// glognnDefaults are the official small-scale commands (hidden 64, lr 0.01 for
// every dataset). Cora, Citeseer and Pubmed's commands were tuned for the
// Geom-GCN 60/20/20 splits, not the public split the LW-GCN paper uses for
// them; we keep them. Datasets without a published command take the setting
// of their closest published graph (filtered Chameleon/Squirrel: the
// originals; Crocodile: Squirrel, the other large dense Wikipedia graph).
func glognnDefaults(d string) Hyper {
	h := Hyper{Hidden: 64, LR: 0.01, Epochs: glognnEpochs}
	set := func(dropout, wd, alpha, beta, gamma, delta float64, layers, orders int) {
		h.Dropout, h.WeightDecay, h.Alpha, h.Layers = dropout, wd, alpha, layers
		h = h.With(GloGNNBeta, beta).With(GloGNNGamma, gamma).With(GloGNNDelta, delta).With(GloGNNOrders, float64(orders))
	}
	switch d {
	case "chameleon", "chameleon_filtered":
		set(0.4, 1e-4, 1, 1, 0.4, 0, 3, 2)
	case "squirrel", "squirrel_filtered", "crocodile":
		set(0.8, 0, 0, 1, 0, 0, 3, 2)
	case "cornell":
		set(0, 1e-4, 1, 0.1, 0.7, 1, 2, 2)
	case "texas":
		set(0, 1e-4, 10, 0.1, 0.2, 1, 1, 4)
	case "wisconsin":
		set(0, 5e-5, 1.2, 0.05, 0.3, 1, 2, 3)
	case "cora":
		set(0.8, 5e-5, 0, 800, 0.8, 0.9, 2, 4)
	case "citeseer":
		set(0.8, 1e-5, 1, 1000, 0.8, 1, 2, 3)
	case "pubmed":
		set(0.6, 1e-4, 0, 20000, 0.5, 1, 1, 3)
	default: // no published setting: Chameleon's
		set(0.4, 1e-4, 1, 1, 0.4, 0, 3, 2)
	}
	return h
}

func buildGloGNN(h Hyper) (nn.Model, Training, error) {
	m := models.GloGNN{Hidden: h.Hidden, Dropout: h.Dropout, Delta: h.Get(GloGNNDelta, 0), NormLayers: h.Layers,
		GloGNNConfig: nn.GloGNNConfig{Alpha: h.Alpha, Beta: h.Get(GloGNNBeta, 1), Gamma: h.Get(GloGNNGamma, 0),
			Orders: int(h.Get(GloGNNOrders, 2))}, Float64: h.Get(GloGNNFloat64, 0) != 0}
	if err := m.Validate(); err != nil {
		return nil, Training{}, err
	}
	if h.LR <= 0 || h.WeightDecay < 0 {
		return nil, Training{}, fmt.Errorf("glognn++: need lr > 0 and weight decay >= 0, got %v, %v", h.LR, h.WeightDecay)
	}
	// One Adam group (torch.optim.Adam over all parameters); w and θ start
	// at 1/C and 1/K and are decayed as PyTorch does (offsetExactEpoch).
	return m, Training{Optimizer: train.NewOptimizer(train.Group{Name: "all", Adam: train.NewAdam(h.LR, h.WeightDecay)}),
		Epoch: offsetExactEpoch(m, h.WeightDecay)}, nil
}
