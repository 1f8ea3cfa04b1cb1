package zoo

import (
	"fmt"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
)

func init() {
	Register(Entry{
		Name: "h2gcn", Title: "H2GCN",
		Paper: "Zhu et al., NeurIPS 2020 (official code GemsLab/H2GCN: ego/neighbour separation, 1-hop and exact 2-hop " +
			"neighbourhoods, concatenation of all rounds; its grid of 16 setups, chosen on validation)",
		Defaults: h2gcnDefaults,
		Build:    buildH2GCN,
		// The official code loads the Geom-GCN graphs as undirected networkx
		// graphs, removes self loops and row-normalises the features.
		Graph: func(g *graph.Graph, _ Hyper) *graph.Graph {
			return g.ToUndirected().RemoveSelfLoops().RowNormalizeFeatures()
		},
		Notes: map[string]string{
			"squirrel": "Squirrel's own setup from the official code's 16 (rounds {1, 2} x ReLU on the embedding or " +
				"not x dropout {0, 0.5} x L2 {1e-5, 5e-4}), chosen on validation: all 16 on split 0, the three best on " +
				"splits 1-2 (" +
				"`lwgcn train -model h2gcn -dataset squirrel -splits S -layers K -dropout D -wd W -extra relu=R`, one thread, at " +
				"9605ade and ce90023): 2 rounds, no ReLU, no dropout, " +
				"Keras L2 1e-5 (weight decay 2e-5), mean validation 38.1 over splits 0-2 against 37.1 and 37.0 for the " +
				"next two; the setup every other dataset takes (2 rounds, ReLU, dropout 0.5, L2 5e-4) had 31.2 on " +
				"split 0, and gave 30.6 ± 2.1 over the 10 splits.",
		},
	})
}

// h2gcnDefaults reads Hidden, Layers (rounds K), Dropout (before the output
// layer), LR, WeightDecay, Epochs and Extra "relu" (1: ReLU on the embedding).
//
// The official experiments (experiments/h2gcn/configs/real-geomgcn/h2gcn.json)
// run 16 setups per dataset, M64[-R]-T1-G-V[-T2-G-V]-C1[-C2][-D0.5]-MO with
// L2 1e-5 or the default 5e-4, Adam lr 0.01, 2000 epochs, and keep the one
// with the best validation accuracy: rounds {1, 2} x ReLU {no, yes} x
// dropout {0, 0.5} x L2 {1e-5, 5e-4}. Keras' l2(λ) adds λ·Σw², which is
// PyTorch-style weight decay 2λ (2e-5 or 1e-3). Every dataset gets one
// setup, 2 rounds with ReLU, dropout 0.5 and L2 5e-4 (400 epochs under the
// shared protocol: validation accuracy peaks well before); it matches the
// paper within its std on Texas, Wisconsin, Cornell, Chameleon, Cora and
// Citeseer. Squirrel, where it did not (30.6 against 36.0), takes the setup
// the 16-setup grid chose there on validation (see its note): 2 rounds
// without ReLU, dropout 0, L2 1e-5.
func h2gcnDefaults(dataset string) Hyper {
	h := Hyper{Hidden: 64, Layers: 2, Dropout: 0.5, LR: 0.01, WeightDecay: 1e-3, Epochs: DefaultEpochs}
	if dataset == "squirrel" {
		h.Dropout, h.WeightDecay = 0, 2e-5
		return h.With("relu", 0)
	}
	return h.With("relu", 1)
}

func buildH2GCN(h Hyper) (nn.Model, Training, error) {
	if h.Hidden < 1 {
		return nil, Training{}, fmt.Errorf("hidden must be positive, got %d", h.Hidden)
	}
	if h.Layers < 1 {
		return nil, Training{}, fmt.Errorf("layers (aggregation rounds K) must be >= 1, got %d", h.Layers)
	}
	relu := h.Get("relu", 1)
	if relu != 0 && relu != 1 {
		return nil, Training{}, fmt.Errorf("extra relu must be 0 or 1, got %v", relu)
	}
	return models.H2GCN{Hidden: h.Hidden, Rounds: h.Layers, Dropout: h.Dropout, EmbedReLU: relu == 1}, Training{}, nil
}
