package zoo

import (
	"fmt"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

// ASGC defaults: scikit-learn LogisticRegression's C (the official
// classifier) and the protocol's epochs and learning rate.
const (
	ASGCInverseL2 = 1.0
	ASGCEpochs    = 400
	ASGCLR        = 0.01
)

func init() {
	Register(Entry{
		Name: "asgc", Title: "ASGC",
		Paper: "Chanpuriya & Musco, NeurIPS 2022 (official code schariya/adaptive-simple-convolution: per-feature " +
			"least-squares Krylov filter, K and R from {1,2,4,8} x {1e-4..1} on validation, logistic regression C=1)",
		Defaults: asgcDefaults,
		Build:    buildASGC,
		Graph:    Undirected,
		Notes: map[string]string{
			"": "(K, R) chosen on mean validation accuracy over the splits (the official code picks them " +
				"per split); the logistic regression is trained with Adam under the protocol.",
			"cora": "Raw features as the official notebook, (K, R) = (2, 1) from a validation grid: 77.6, deterministic " +
				"over the 3 seeds (std 0), 0.8 above the paper's 76.8 ± 0.2; normalised rows with Texas's point gave 78.1.",
			"citeseer": "Raw features as the official notebook, (K, R) = (2, 0.1) from a validation grid " +
				"(validation 70.6): 65.2, 5.0 below the paper; the grid's best test point is 67.2 (K=1, R=1, " +
				"validation 68.0), and normalised rows with Texas's point gave 67.3. The official notebook fits " +
				"scikit-learn's logistic regression to convergence (lbfgs) on its own random splits; here Adam keeps " +
				"the best validation epoch of 400.",
			"pubmed": "Raw features, (K, R) = (2, 0.1) from a validation grid (validation 74.0): 74.8, 0.4 above the " +
				"paper's 74.4 ± 0.1; ASGC is deterministic here, so the paper's std is not ours to match, and the " +
				"grid's neighbour (K=2, R=1, validation 73.8) tests at 75.0.",
		},
	})
}

// asgcDefaults reads LR, Epochs and Extra "k" (hops), "reg" (ridge on the
// raw feature's coefficient) and "c" (inverse L2 strength of the logistic
// regression).
//
// The official notebook selects (K, R) per split on validation accuracy from
// K in {1, 2, 4, 8} and R in {1e-4, 1e-3, 1e-2, 1e-1, 1}, then fits
// scikit-learn's LogisticRegression (L2, C = 1, lbfgs to convergence) on its
// own random 60/20/20 splits. Here one (K, R) per dataset is chosen on the
// mean validation accuracy over the 10 Geom-GCN splits, and the logistic
// regression is trained under the protocol: Adam, best validation epoch,
// loss = mean cross-entropy + ‖W‖²/(2·C·n_train) (scikit-learn's objective
// divided by n_train; the intercept is not penalised).
//
// Preprocessing as the official notebook's load_dataset: PyG's datasets
// without NormalizeFeatures (RawFeaturesKey: Cora and Citeseer keep their
// binary bags of words; the filter is fitted per feature column, so row
// scaling changes it), edges symmetrised (adj.maximum(adj.T)).
func asgcDefaults(d string) Hyper {
	h := Hyper{LR: ASGCLR, Epochs: ASGCEpochs}
	h = planetoidRaw(h.With("k", 2).With("reg", 0.01).With("c", ASGCInverseL2), d)
	switch d {
	case "texas":
		// Validation grid (mean over the 10 splits): K=2, R=1e-2 85.9 (next:
		// K=2, R=0.1 83.2; K=1, R=1e-2 83.6; K=8, R=1e-2 83.4).
		h = h.With("k", 2).With("reg", 0.01)
	case "chameleon", "squirrel", "chameleon_filtered", "squirrel_filtered", "crocodile":
		// Validation grid on Chameleon (K {1,2,4,8} x R {1e-4,1e-2,1},
		// splits 0-2, mean validation / test): K=8, R=1 68.5 / 68.3 (next:
		// K=4, R=1 66.1 / 65.8; K=8, R=1e-2 65.6 / 65.9; K=2, R=1e-2
		// 58.6 / 59.2; K=1 at most 48.6). The other Wikipedia graphs take it.
		h = h.With("k", 8).With("reg", 1)
	case "cora":
		// Validation grid on the raw features (K {1,2,4,8} x R {1e-4 .. 1},
		// the public split; ASGC is deterministic, one seed), validation /
		// test: K=2, R=1 76.6 / 77.6 (next: K=2, R=0.1 75.6 / 76.8; K=1,
		// R=1 72.4 / 76.9; K=2, R=1e-2, the old default, 70.8 / 68.0; K=4
		// and 8 at most 64.0 / 64.4).
		h = h.With("k", 2).With("reg", 1)
	case "citeseer":
		// The same grid: K=2, R=0.1 70.6 / 65.2 (next: K=2, R=1 69.8 / 65.9;
		// K=1, R=1 68.0 / 67.2; K=4 at most 63.8, K=8 at most 63.2 on
		// validation).
		h = h.With("k", 2).With("reg", 0.1)
	case "pubmed":
		// Around the points Cora and Citeseer chose (a point takes minutes
		// here): K=2, R=0.1 74.0 / 74.8; K=2, R=1 73.8 / 75.0; K=1, R=1
		// 67.4 / 63.5; K=1, R=1e-4 72.8 / 73.2.
		h = h.With("k", 2).With("reg", 0.1)
	}
	return h
}

func buildASGC(h Hyper) (nn.Model, Training, error) {
	k := h.Get("k", 2)
	reg := h.Get("reg", 0.01)
	c := h.Get("c", ASGCInverseL2)
	switch {
	case k < 0 || k != float64(int(k)):
		return nil, Training{}, fmt.Errorf("extra k (hops) must be a non-negative integer, got %v", k)
	case reg < 0:
		return nil, Training{}, fmt.Errorf("extra reg must be >= 0, got %v", reg)
	case c <= 0:
		return nil, Training{}, fmt.Errorf("extra c (inverse L2 strength) must be positive, got %v", c)
	}
	m := models.ASGC{K: int(k), Reg: reg}
	opt := train.NewOptimizer(train.Group{Name: "all", Adam: train.NewAdam(h.LR, 0)})
	return m, Training{Optimizer: opt, Epoch: asgcEpoch(m, c)}, nil
}

// asgcEpoch is StandardEpoch with scikit-learn's L2 penalty on the weights
// (not the intercept): loss = NLL + ‖W‖² / (2·C·n_train).
func asgcEpoch(m models.ASGC, c float64) train.EpochFunc {
	return func(scope *model.Scope, g *Graph, in *nn.Nodes, opt *train.Optimizer) train.EpochNodes {
		labels, mask := in.Get(nn.InputLabels), in.Get(nn.InputTrainMask)
		logp := nn.RunsLogSoftmax(scope, m.Forward(scope.ResetVisited(), in, true))
		nll := train.MaskedNLL(logp, labels, mask)
		sq := nn.EachRunNode(scope, in, func(scope *model.Scope, _ *nn.Nodes) *Node {
			return ReduceAllSum(Square(models.ASGCWeight(scope, g)))
		}) // [R]
		nTrain := ConvertDType(ReduceSum(mask, 0), sq.DType())
		nTrain = Max(nTrain, OnesLike(nTrain))
		penalty := Div(sq, MulScalar(nTrain, 2*c))
		loss := Add(nll, ConvertDType(penalty, nll.DType()))
		opt.Step(scope, g, train.Total(loss))
		eval := nn.RunsLogSoftmax(scope, m.Forward(scope.ResetVisited(), in, false))
		return train.EpochNodes{TrainLoss: loss, LogProbs: eval}
	}
}
