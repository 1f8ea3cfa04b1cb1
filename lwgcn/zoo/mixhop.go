package zoo

import (
	"fmt"
	"strings"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

// MixHopPSumL2 is the official weight of the psum output's penalty
// 1e-3·mean(q²), applied as the weight decay 2e-3/len(q) of q's group.
const MixHopPSumL2 = 1e-3

func init() {
	Register(Entry{
		Name: "mixhop", Title: "MixHop",
		Paper: "Abu-El-Haija et al., ICML 2019 (official code samihaija/mixhop: powers {0,1,2}, L2-normalised input, " +
			"batch norm, psum output; hidden 64 or 192 as the H2GCN authors ran it on the Geom-GCN graphs)",
		Defaults: mixhopDefaults,
		Build:    buildMixHop,
		Graph:    Undirected,
		Notes: map[string]string{
			"chameleon": "Above the paper. Ours trains the official architecture, dropouts and L2 under the shared " +
				"protocol (Adam, 400 epochs, best validation epoch) with the hidden size chosen on validation (192); " +
				"the LW-GCN paper does not publish its MixHop settings, and its MixHop numbers on Texas and " +
				"Wisconsin sit 13-18 points below MLP's, which suggests untuned runs.",
			"cornell": "Below the paper with either trainer: the protocol's Adam gives 64.9 ± 7.0, the official SGD " +
				"(lr 0.5, lowered 1 % every 40 steps; Extra sgd = 1) 68.6 ± 7.7 (validation 74.6), against the paper's " +
				"79.5. Cornell carries Texas's features and labels on its own edges (the Geom-GCN file is " +
				"byte-identical) and MLP reaches 80.0 on it: aggregating Cornell's neighbours costs MixHop 11-15 points.",
			"cora": mixhopPlanetoidNote, "citeseer": mixhopPlanetoidNote,
			"squirrel": "Above the paper (+2.6) with the official architecture and L2 under the protocol (hidden 64); " +
				"the paper publishes no MixHop setting for Squirrel.",
		},
	})
}

// mixhopPlanetoidNote explains MixHop on Cora and Citeseer.
const mixhopPlanetoidNote = "Above the paper with the official trainer too: its SGD (lr 0.5, lowered 1 % every 40 " +
	"steps; Extra sgd = 1) gives Cora 81.4 ± 0.2 and Citeseer 71.5 ± 0.4 (3 seeds), the protocol's Adam 81.7 ± 0.6 and " +
	"70.7 ± 0.3, against the paper's 80.6 ± 0.2 and 68.7 ± 0.3. The official scripts' per-power widths are unequal; " +
	"here the 60 units are split equally, the one known difference."

// mixhopDefaults reads Hidden, Layers (hidden MixHop layers), Dropout (before
// every MixHop layer but the first), LR, WeightDecay, Epochs and Extra
// "input_dropout".
//
// The official trainer uses SGD (lr 0.5, decreased by 1% of it every 40
// steps, 400 steps, stop after 50 without improvement), L2 5e-4 on the
// kernels (Keras l2: 5e-4·Σw², i.e. PyTorch-style weight decay 1e-3),
// input dropout 0.7 and layer dropout 0.9. Under the shared protocol
// (Adam, 400 epochs, best validation accuracy) the learning rate is the
// protocol's 0.01; the architecture, dropouts and L2 are the official ones.
// Hidden is 64 or 192 (the two sizes of the H2GCN authors' MixHop runs on
// Geom-GCN graphs, configs/real-geomgcn/mixhop.json), chosen per dataset on
// mean validation accuracy over the 10 splits.
//
// Preprocessing: the official mixhop_dataset.ReadDataset reads the raw allx
// and the model L2-normalises its (dropped-out) input rows, which undoes any
// positive row scaling: the standard row-normalised Planetoid features give
// the model the same input up to float rounding, so no raw-features key.
//
// Planetoid graphs: train_cora.sh / train_citeseer.sh / train_pubmed_2layer_psum.sh
// use input dropout 0.5, layer dropout 0.9, L2 5e-3 (Citeseer 5e-2) and
// hidden 60 with unequal per-power capacities; here the capacities are
// split equally.
func mixhopDefaults(d string) Hyper {
	h := Hyper{Hidden: 64, Layers: 1, Dropout: models.MixHopLayerDropout, LR: DefaultLR, WeightDecay: 1e-3,
		Epochs: DefaultEpochs}
	h = h.With("input_dropout", models.MixHopInputDropout)
	switch d {
	case "texas":
		h.Hidden = 192 // mean validation accuracy 79.0 (hidden 64: 69.7)
	case "chameleon":
		h.Hidden = 192
	case "cora", "pubmed":
		h.Hidden, h.WeightDecay = 60, 1e-2
		h = h.With("input_dropout", 0.5)
	case "citeseer":
		h.Hidden, h.WeightDecay = 60, 1e-1
		h = h.With("input_dropout", 0.5)
	}
	return h
}

func buildMixHop(h Hyper) (nn.Model, Training, error) {
	if h.Hidden < 1 {
		return nil, Training{}, fmt.Errorf("hidden must be positive, got %d", h.Hidden)
	}
	if h.Layers < 0 {
		return nil, Training{}, fmt.Errorf("layers must be >= 0 (0 means 1), got %d", h.Layers)
	}
	powers := models.MixHopPowers
	if h.Hidden < len(powers) {
		return nil, Training{}, fmt.Errorf("hidden %d is smaller than the %d powers", h.Hidden, len(powers))
	}
	m := models.MixHop{Hidden: h.Hidden, Layers: max(h.Layers, 1), Powers: powers,
		InputDropout: h.Get("input_dropout", models.MixHopInputDropout), Dropout: h.Dropout}
	if h.Get("sgd", 0) == 1 {
		// The official optimizer, for comparison (not the shared protocol).
		return m, Training{Epoch: mixhopSGDEpoch(m, h.LR, h.WeightDecay, 2*MixHopPSumL2/float64(len(powers)))}, nil
	}
	opt := train.NewOptimizer(
		// 1e-3·mean(q²): gradient 2e-3/S·q.
		train.Group{Name: "psum", Adam: train.NewAdam(h.LR, 2*MixHopPSumL2/float64(len(powers))),
			Match: train.ScopePrefix("/psum/")},
		// tf.contrib batch_norm's offset has no regulariser.
		train.Group{Name: "bn", Adam: train.NewAdam(h.LR, 0), Match: isMixHopBN},
		train.Group{Name: "kernels", Adam: train.NewAdam(h.LR, h.WeightDecay)},
	)
	return m, Training{Optimizer: opt}, nil
}

// isMixHopBN matches the batch-norm offsets ("/bn<l>/offset").
func isMixHopBN(v *model.Variable) bool {
	return strings.HasPrefix(v.Path(), "/bn") && v.Name() == "offset"
}

// Official MixHop optimizer schedule (mixhop_trainer.py): SGD, the learning
// rate lowered by 1% of its initial value every 40 steps.
const (
	MixHopSGDDecrement = 0.01
	MixHopSGDEvery     = 40
)

// mixhopSGDEpoch is one step of the official trainer's optimizer: plain
// gradient descent with learning rate lr0·(1 - 0.01·max(0, ⌊(t-1)/40⌋)) at
// step t (from 0), on the loss plus the L2 terms (weight decays as in the
// Adam groups). Selected with Extra "sgd" = 1 and LR 0.5 to compare with the
// published numbers; the step count lives under the optimizer's state scope
// so that each run starts from step 0.
func mixhopSGDEpoch(m models.MixHop, lr0, wdKernels, wdPSum float64) train.EpochFunc {
	return func(scope *model.Scope, g *Graph, in *nn.Nodes, _ *train.Optimizer) train.EpochNodes {
		store := scope.Store()
		labels := in.Get(nn.InputLabels)
		logp := nn.RunsLogSoftmax(scope, m.Forward(scope.ResetVisited(), in, true))
		loss := train.MaskedNLL(logp, labels, in.Get(nn.InputTrainMask))
		var vars []*model.Variable
		var nodes []*Node
		for v := range store.IterVariables() {
			if v.Trainable && v.InUseByGraph(g) && nn.IsParam(store, v) {
				vars, nodes = append(vars, v), append(nodes, v.NodeValue(g))
			}
		}
		grads := Gradient(train.Total(loss), nodes...)
		stepVar := store.Scope(train.StateScope+"/sgd").VariableWithValue("step", float64(0)).SetTrainable(false)
		step := stepVar.NodeValue(g)
		stepVar.SetNodeValue(AddScalar(step, 1))
		decays := Max(Floor(DivScalar(AddScalar(step, -1), MixHopSGDEvery)), ZerosLike(step))
		lr := MulScalar(OneMinus(MulScalar(decays, MixHopSGDDecrement)), lr0)
		for i, v := range vars {
			wd := wdKernels
			switch {
			case strings.HasPrefix(v.Path(), "/psum/"):
				wd = wdPSum
			case isMixHopBN(v):
				wd = 0
			}
			p := nodes[i]
			grad := Add(grads[i], MulScalar(p, wd))
			v.SetNodeValue(Sub(p, Mul(ConvertDType(lr, p.DType()), grad)))
		}
		eval := nn.RunsLogSoftmax(scope, m.Forward(scope.ResetVisited(), in, false))
		return train.EpochNodes{TrainLoss: loss, LogProbs: eval}
	}
}
