package zoo

import (
	"fmt"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

// SimP-GCN hyperparameter keys in Hyper.Extra (Hyper.Lambda is the weight of
// the self-supervised loss).
const (
	SimPGamma    = "gamma"
	SimPK        = "k"
	SimPBiasInit = "bias_init"
)

// ExtraSSLLoss is the per-epoch self-supervised loss reported by SimP-GCN.
const ExtraSSLLoss = "ssl_loss"

func init() {
	Register(Entry{
		Name: "simpgcn", Title: "SimP-GCN",
		Paper:    "Jin et al., WSDM 2021 (official ChandlerBang/SimP-GCN scripts; Chameleon/Squirrel tuned on validation)",
		Defaults: simpDefaults,
		Build:    buildSimPGCN,
		// The official code row-normalises the features and keeps the edge
		// rows as given (a directed nx.DiGraph for the Geom-GCN graphs; the
		// Planetoid graphs are symmetric already).
		Graph: rowNormalized,
		Notes: map[string]string{
			"cora": "-0.8 against a paper std of 0.1 over 3 seeds: our 3 seeds test at 82.8, 80.7 and 82.5 with the " +
				"official Cora script's settings, so the gap is within our own seed-to-seed spread (0.9).",
		},
	})
}

// simpDefaults are the official scripts: heterophilous graphs (Texas,
// Wisconsin, Cornell; Actor): hidden 32, lr 0.05, weight decay 5e-4, dropout
// 0.5, k 20, 500 epochs, bias_init 0, with per-dataset gamma and lambda;
// Cora/Citeseer/Pubmed: hidden 128, lr 0.01, 200 epochs (bias_init 2 for Cora
// and Citeseer). The official runs keep the epoch of best validation accuracy
// (patience 100 or 200), as the protocol here does.
func simpDefaults(d string) Hyper {
	h := Hyper{Hidden: 32, Dropout: 0.5, LR: 0.05, WeightDecay: 5e-4, Epochs: 500}
	set := func(gamma, lambda, biasInit float64) {
		h.Lambda = lambda
		h = h.With(SimPGamma, gamma).With(SimPK, 20).With(SimPBiasInit, biasInit)
	}
	switch d {
	case "texas":
		set(1, 0.5, 0)
	case "wisconsin":
		set(0.1, 1, 0)
	case "cornell":
		set(1, 0.1, 0)
	case "cora", "citeseer", "pubmed":
		h.Hidden, h.LR, h.Epochs = 128, 0.01, 200
		switch d {
		case "cora":
			set(0.01, 50, 2)
		case "citeseer":
			set(0.01, 100, 2)
		default:
			set(0.01, 1, 0)
		}
	default:
		// Chameleon, Squirrel and the others have no published setting: the
		// heterophilous-graph setting with a validation grid over gamma {0.1, 1}
		// x lambda {0.1, 1, 5} on Chameleon splits 0-2 (mean validation
		// accuracy: gamma 0.1 with lambda 0.1/1/5: 62.7/63.1/62.5; gamma 1:
		// 57.6/53.4/-), whose best point, gamma 0.1 and lambda 1, is also
		// Actor's published setting. The other graphs take it untuned.
		set(0.1, 1, 0)
	}
	return h
}

func buildSimPGCN(h Hyper) (nn.Model, Training, error) {
	m := models.SimPGCN{Hidden: h.Hidden, Dropout: h.Dropout, Gamma: h.Get(SimPGamma, 0.1), ScoreBias: h.Get(SimPBiasInit, 0),
		K: int(h.Get(SimPK, 20)), Lambda: h.Lambda}
	if err := m.Validate(); err != nil {
		return nil, Training{}, err
	}
	if h.LR <= 0 || h.WeightDecay < 0 {
		return nil, Training{}, fmt.Errorf("simpgcn: need lr > 0 and weight decay >= 0, got %v, %v", h.LR, h.WeightDecay)
	}
	// One Adam over the model and the regression head, as the official code.
	return m, Training{Optimizer: train.NewOptimizer(train.Group{Name: "all", Adam: train.NewAdam(h.LR, h.WeightDecay)}),
		Epoch: SimPEpoch(m, h.WeightDecay)}, nil
}

// SimPEpoch is one SimP-GCN step: NLL on the training nodes plus Lambda
// times the self-supervised regression on the hidden representation of the
// same (dropout) pass, then the evaluation pass. wd is the Adam weight
// decay (applied to the score bias's effective value, see offsetExactEpoch).
func SimPEpoch(m models.SimPGCN, wd float64) train.EpochFunc {
	return func(scope *model.Scope, g *Graph, in *nn.Nodes, opt *train.Optimizer) train.EpochNodes {
		logp, ssl := m.ForwardWithSSL(scope.ResetVisited(), in, true)
		loss := train.MaskedNLL(logp, in.Get(nn.InputLabels), in.Get(nn.InputTrainMask))
		total := loss
		extra := map[string]*Node{}
		if m.Lambda > 0 {
			total = Add(total, MulScalar(ssl, m.Lambda))
			extra[ExtraSSLLoss] = ssl
		}
		opt.Step(scope, g, addOffsetDecay(scope, g, train.Total(total), wd))
		eval := m.Forward(scope.ResetVisited(), in, false)
		return train.EpochNodes{TrainLoss: loss, LogProbs: eval, Extra: extra}
	}
}
