package zoo

import (
	"fmt"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

// Keys of SuperGAT's Hyper.Extra.
const (
	// SuperGATAttention: 0 = MX (official "prob_mask_only", key EV13NSO8),
	// 1 = SD (official "scaled_dot_product", key EV3O8).
	SuperGATAttentionKey = "attention"
	// SuperGATLambdaKey is λ_E, the weight of the link loss (att_lambda).
	SuperGATLambdaKey = "att_lambda"
	// SuperGATEdgeRatioKey and SuperGATNegRatioKey are edge_sampling_ratio
	// and neg_sample_ratio.
	SuperGATEdgeRatioKey = "edge_ratio"
	SuperGATNegRatioKey  = "neg_ratio"
	// SuperGATOutHeadsKey is out_heads (heads of the output layer).
	SuperGATOutHeadsKey = "out_heads"
	// ExtraLinkLoss is the per-epoch link loss reported in Extra.
	ExtraLinkLoss = "link_loss"
)

func init() {
	Register(Entry{
		Name: "supergat", Title: "SuperGAT",
		Paper: "Kim & Oh, ICLR 2021 (official dongkwan-kim/SuperGAT args.yaml: MX or SD attention, " +
			"link loss on sampled positive and negative edges)",
		Defaults: superGATDefaults,
		Build: func(h Hyper) (nn.Model, Training, error) {
			m := models.SuperGAT{Hidden: h.Hidden, Heads: h.Heads, OutHeads: int(h.Get(SuperGATOutHeadsKey, 8)),
				Dropout: h.Dropout, EdgeSampleRatio: h.Get(SuperGATEdgeRatioKey, 0.8),
				NegSampleRatio: h.Get(SuperGATNegRatioKey, 0.5)}
			switch a := h.Get(SuperGATAttentionKey, 0); a {
			case 0:
				m.Attention = nn.SuperGATMX
			case 1:
				m.Attention = nn.SuperGATSD
			default:
				return nil, Training{}, fmt.Errorf("extra %q must be 0 (MX) or 1 (SD), got %v", SuperGATAttentionKey, a)
			}
			if m.Hidden < 1 || m.Heads < 1 || m.OutHeads < 1 {
				return nil, Training{}, fmt.Errorf("hidden, heads and out_heads must be positive, got %d, %d, %d",
					m.Hidden, m.Heads, m.OutHeads)
			}
			if m.EdgeSampleRatio < 0 || m.EdgeSampleRatio > 1 || m.NegSampleRatio < 0 {
				return nil, Training{}, fmt.Errorf("edge_ratio must be in [0, 1] and neg_ratio >= 0, got %v and %v",
					m.EdgeSampleRatio, m.NegSampleRatio)
			}
			lambda := h.Get(SuperGATLambdaKey, 0)
			if lambda < 0 {
				return nil, Training{}, fmt.Errorf("att_lambda must be >= 0, got %v", lambda)
			}
			return m, Training{Epoch: SuperGATEpoch(m, lambda)}, nil
		},
		Graph: Undirected,
		Notes: map[string]string{
			"chameleon": "Weight decay and epochs chosen on validation: the official GAT-Chameleon l2 (0.029) " +
				"gives 34 % test / 38 % validation on the Geom-GCN splits.",
			"cora": "With the official loader's raw features (43.4 on normalised rows before) and args.yaml's " +
				"GAT-Cora-EV13NSO8: 84.4, 84.0, 83.9 over seeds 10-12 (best epochs 425-495 of the 500 the key " +
				"runs), 1.4 above the paper's 82.7 ± 0.4. The paper may have run the early-stopping key (-ES); " +
				"that rule (val loss or accuracy change under a threshold over a 484-epoch queue) is not reproduced here.",
			"pubmed": "args.yaml's GAT-PubMed-EV13NSO8-500 (MX attention) with the official loader's raw features: " +
				"81.3, 81.9, 82.4 over seeds 10-12 (best epochs 419-499 of 500), 3.5 above the LW-GCN paper's " +
				"78.4 ± 0.5 and within 0.2 of SuperGAT's own paper (SuperGAT_MX on PubMed's public split: 81.7 ± 0.5), " +
				"as Cora (84.1 against its 84.3) and Citeseer (72.9 against 72.6) are: the LW-GCN paper's SuperGAT " +
				"numbers sit below the SuperGAT paper's on all three.",
			"squirrel": "Above the paper: Squirrel has no SuperGAT setting and takes Chameleon's, whose weight decay " +
				"was chosen on validation (5e-4 instead of the official GAT-Chameleon l2 0.029, which left Chameleon at " +
				"34 % test); an untuned run would sit lower. Not measured on Squirrel itself.",
		},
	})
}

// SuperGATEpoch is the official training step: cross-entropy on the
// training nodes plus λ_E times the sum of the layers' link losses (sampled
// in-graph from the run's RNG), one Adam step, then the evaluation pass.
// Extra reports the link loss.
func SuperGATEpoch(m models.SuperGAT, lambda float64) train.EpochFunc {
	return func(scope *model.Scope, g *Graph, in *nn.Nodes, opt *train.Optimizer) train.EpochNodes {
		labels := in.Get(nn.InputLabels)
		logits, link := m.ForwardWithLinkLoss(scope.ResetVisited(), in, true)
		loss := train.MaskedNLL(nn.RunsLogSoftmax(scope, logits), labels, in.Get(nn.InputTrainMask))
		if link == nil {
			link = ZerosLike(loss)
		}
		loss = Add(loss, MulScalar(link, lambda))
		opt.Step(scope, g, train.Total(loss))
		eval := nn.RunsLogSoftmax(scope, m.Forward(scope.ResetVisited(), in, false))
		return train.EpochNodes{TrainLoss: loss, LogProbs: eval, Extra: map[string]*Node{ExtraLinkLoss: link}}
	}
}

// superGATDefaults are the official args.yaml settings (GAT-<dataset> base
// plus the EV13NSO8 (MX) or EV3O8 (SD) key): 8 heads of 8 features, 8
// output heads, dropout 0.6 on inputs and attention, l2_lambda as the
// weight decay, "epochs" of the non-early-stopping key.
//
// Preprocessing and selection as the official code (data.py, main.py):
//   - raw features (RawFeaturesKey): ENSPlanetoid is PyG's Planetoid without
//     a NormalizeFeatures transform, so Cora and Citeseer train on the
//     binary bags of words. Row-normalised rows cannot be fitted under the
//     official weight decays (0.0082 Cora, 0.0416 Citeseer): the runs
//     recorded with them trained to 29-46 % on Cora's training nodes and
//     tested at 43.4 % (Cora) and 26.9 % (Citeseer).
//   - the epoch of best validation accuracy, the later one on ties
//     ("val_perf >= best_val_perf": TiesLaterKey), no early stop.
func superGATDefaults(d string) Hyper {
	h := Hyper{Hidden: 8, Heads: 8, Dropout: 0.6}
	h = planetoidRaw(h.With(TiesLaterKey, 1), d)
	set := func(lr, wd float64, epochs int, attention, lambda, edgeRatio, negRatio float64) {
		h.LR, h.WeightDecay, h.Epochs = lr, wd, epochs
		h = h.With(SuperGATOutHeadsKey, 8).With(SuperGATAttentionKey, attention).With(SuperGATLambdaKey, lambda).
			With(SuperGATEdgeRatioKey, edgeRatio).With(SuperGATNegRatioKey, negRatio)
	}
	switch d {
	case "cora": // GAT-Cora-EV13NSO8
		set(0.005, 0.008228864972965771, 500, 0, 11.346574532931719, 0.8, 0.5)
	case "citeseer": // GAT-CiteSeer-EV13NSO8
		set(0.005, 0.04161321832213915, 400, 0, 0.013081692727373775, 0.8, 0.5)
	case "pubmed": // GAT-PubMed-EV13NSO8-500 (lr 0.01)
		set(0.01, 0.00021866527730714198, 500, 0, 10.452051802920762, 0.6, 0.5)
	case "crocodile": // GAT-Crocodile-EV3O8
		set(0.01, 0.04601475118869809, 200, 1, 0.08106168565881736, 0.8, 0.3)
	case "texas", "wisconsin", "cornell":
		// No per-university setting: GAT-WebKB4Univ (the four WebKB
		// universities as one graph), EV13NSO8.
		set(0.001, 0.001170949103254853, 500, 0, 0.4564172584169823, 0.8, 0.7)
	default:
		// chameleon: GAT-Chameleon-EV13NSO8 except the weight decay and
		// epochs, tuned on validation: its l2_lambda 0.029 (with 200
		// epochs) leaves the Geom-GCN splits at 38 % validation accuracy
		// (34 % test, split 0), weight decay 5e-4 with 300 epochs reaches
		// 66.1 / 60.6 % validation (64.0 / 63.6 % test) on splits 0 and 1,
		// best epochs 218-242. Squirrel and the filtered Wikipedia graphs,
		// absent from SuperGAT, take this setting.
		set(0.005, 5e-4, 300, 0, 7.196197081101768e-08, 0.8, 0.5)
	}
	return h
}
