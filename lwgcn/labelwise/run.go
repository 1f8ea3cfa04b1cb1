package labelwise

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/gomlx/compute"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

// RoundResult is the outcome of one training of the main model on one split: the
// paper's run (round 0), or a refinement round.
type RoundResult struct {
	TestAcc, ValAcc, TrainAcc float64
	BestEpoch                 int
	// WeightFC is f_C's selection weight at the best epoch (NaN without
	// selection).
	WeightFC float64
	// PseudoAcc is the accuracy of the pseudo-labels this round used, on the
	// test nodes.
	PseudoAcc  float64
	MsPerEpoch float64
	// ValROCAUC and TestROCAUC are the best epoch's under
	// Config.SelectROCAUC, else 0.
	ValROCAUC, TestROCAUC float64
}

// SplitResult is LW-GCN (or an ablation) on one split with one seed.
type SplitResult struct {
	Split int
	Seed  int64
	// RoundResult 0 is the paper's method; Rounds[k] the k-th refinement.
	Rounds []RoundResult
	// PseudoTestAcc is f_P's own test accuracy (its best-validation epoch).
	PseudoTestAcc    float64
	PseudoMsPerEpoch float64
	// PseudoShared: f_P's pseudo-labels came from a PseudoCache (trained by
	// an earlier run; PseudoMsPerEpoch is that run's).
	PseudoShared bool
	CompileSecs  float64
	TotalSecs    float64
	// Predictions are the argmax of the final round's best-epoch prediction
	// (true labels on the training nodes): the next round's pseudo-labels.
	Predictions []int32
	// Main is the final round's run (best-epoch log-probabilities and a copy
	// of the weights); release it with Finalize when done.
	Main *train.RunResult
}

// Final returns the last round (the paper's result when not refining).
func (r *SplitResult) Final() RoundResult { return r.Rounds[len(r.Rounds)-1] }

// Finalize releases the kept tensors.
func (r *SplitResult) Finalize() {
	if r.Main != nil {
		r.Main.Finalize()
	}
}

// Runner trains one configuration on one graph. Its compiled graphs are
// reused across splits and seeds. It is not safe for concurrent use.
type Runner struct {
	cfg      Config
	g, mg    *graph.Graph
	pseudo   *train.Trainer
	main     *train.Trainer
	labels   []int32 // pseudo-labels for the next main run
	progress train.Progress
	// cache (nil: none) shares f_P's pseudo-labels between runners;
	// fingerprint is the graph's key in it (computed on first use).
	cache       *PseudoCache
	fingerprint string
	backend     string
}

// UsePseudoCache makes the runner take f_P's pseudo-labels from c when
// another run trained f_P on the same nodes, split and seed, and put its
// own there (nil: train f_P every run).
func (r *Runner) UsePseudoCache(c *PseudoCache) { r.cache = c }

// NewRunner prepares f_P and the main model for g (already preprocessed, see
// datasets.Standard). progress receives the main model's epochs (nil: silent).
func NewRunner(b compute.Backend, info backend.Info, g *graph.Graph, cfg Config, progress train.Progress) (*Runner, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if g.Features() == nil || g.Labels() == nil {
		return nil, fmt.Errorf("lwgcn: graph %q needs features and labels", g.Name())
	}
	if len(g.Splits()) == 0 {
		return nil, fmt.Errorf("lwgcn: graph %q has no splits", g.Name())
	}
	if progress == nil {
		progress = train.Silent{}
	}
	r := &Runner{cfg: cfg, g: g, mg: modelGraph(g, cfg.Direction), progress: progress, backend: info.Name}

	// f_P.
	pm, pEpochs := cfg.pseudoModel()
	var err error
	r.pseudo, err = train.New(b, pm, r.mg, train.Config{Epochs: pEpochs, LR: cfg.PseudoLR, WeightDecay: cfg.PseudoWD, Backend: info})
	if err != nil {
		return nil, fmt.Errorf("lwgcn: f_P: %w", err)
	}

	// Main model.
	tc := train.Config{Epochs: cfg.Epochs, Progress: progress, Backend: info, PrepareRun: r.addLabelWise}
	if cfg.SelectROCAUC {
		tc.Selection.By = train.ByValROCAUC
	}
	fc := LabelWiseGCN{Variant: cfg.Variant, Layers: cfg.Layers, Hidden: cfg.Hidden, Dropout: cfg.Dropout}
	var m nn.Model
	if cfg.Backbone == BackboneNone {
		m, tc.LR, tc.WeightDecay = fc, cfg.LR, cfg.WeightDecay
	} else {
		fg, err := cfg.backbone()
		if err != nil {
			return nil, err
		}
		adj, err := OfficialAdjacency(r.mg)
		if err != nil {
			return nil, err
		}
		sel := &Selection{FC: fc, FG: fg, Adj: adj, InnerSteps: cfg.InnerSteps}
		m, tc.Optimizer = sel, cfg.optimizer()
		if tc.Lagged = sel.Lagged(); tc.Lagged == nil {
			tc.Epoch = sel.Epoch
		}
	}
	r.main, err = train.New(b, m, r.mg, tc)
	if err != nil {
		return nil, fmt.Errorf("lwgcn: %w", err)
	}
	return r, nil
}

// addLabelWise gives the main model the label-wise structure of the current
// pseudo-labels.
func (r *Runner) addLabelWise(_ train.Run, in *nn.Inputs) error {
	lw, err := nn.NewLabelWise(r.mg.NumNodes(), r.mg.Src(), r.mg.Dst(), r.labels, r.mg.NumClasses())
	if err != nil {
		return err
	}
	return lw.AddTo(in, LabelWiseInput, r.mg.Features())
}

// argmaxLabels reads best-epoch log-probabilities and returns pseudo-labels
// with the training nodes' true labels.
func (r *Runner) argmaxLabels(logp *tensors.Tensor, split graph.Split) ([]int32, error) {
	flat, err := tensors.CopyFlatData[float32](logp)
	if err != nil {
		return nil, fmt.Errorf("lwgcn: reading predictions: %w", err)
	}
	return PseudoLabels(flat, r.g.NumClasses(), r.g.Labels(), split.Train)
}

// Run trains on one split with one seed: f_P, then the main model (and the
// refinement rounds).
func (r *Runner) Run(ctx context.Context, split int, seed int64) (*SplitResult, error) {
	if split < 0 || split >= len(r.g.Splits()) {
		return nil, fmt.Errorf("lwgcn: split %d out of range: %q has %d splits", split, r.g.Name(), len(r.g.Splits()))
	}
	sp := r.g.Splits()[split]
	res := &SplitResult{Split: split, Seed: seed}
	run := train.Run{Split: split, Seed: seed}

	if err := r.pseudoLabels(ctx, run, sp, res); err != nil {
		return nil, err
	}
	for round := 0; round <= r.cfg.RefineRounds; round++ {
		if res.Main != nil {
			res.Main.Finalize()
		}
		mr, err := r.main.RunOne(ctx, run)
		if err != nil {
			return nil, fmt.Errorf("lwgcn: %s on split %d (round %d): %w", r.cfg.Name(), split, round, err)
		}
		res.Main = mr
		w := math.NaN()
		if v, ok := mr.Extra[ExtraWeightFC]; ok {
			w = v
		}
		res.Rounds = append(res.Rounds, RoundResult{TestAcc: mr.TestAcc, ValAcc: mr.ValAcc, TrainAcc: mr.TrainAcc,
			BestEpoch: mr.BestEpoch, WeightFC: w, PseudoAcc: Accuracy(r.labels, r.g.Labels(), sp.Test),
			MsPerEpoch: mr.MsPerEpoch, ValROCAUC: mr.ValROCAUC, TestROCAUC: mr.TestROCAUC})
		if r.labels, err = r.argmaxLabels(mr.LogProbs, sp); err != nil {
			return nil, err
		}
	}
	res.Predictions = r.labels
	res.CompileSecs = r.main.CompileTime().Seconds() + r.pseudo.CompileTime().Seconds()
	return res, nil
}

// pseudoLabels trains f_P on the run (or takes its pseudo-labels from the
// cache) and sets r.labels and res's f_P fields.
func (r *Runner) pseudoLabels(ctx context.Context, run train.Run, sp graph.Split, res *SplitResult) error {
	var key string
	if r.cache != nil {
		key = r.pseudoKey(run.Split, run.Seed)
		if e, ok := r.cache.get(key); ok {
			r.labels = slices.Clone(e.labels)
			res.PseudoTestAcc, res.PseudoMsPerEpoch, res.PseudoShared = e.testAcc, e.msPerEpoch, true
			return nil
		}
	}
	pr, err := r.pseudo.RunOne(ctx, run)
	if err != nil {
		return fmt.Errorf("lwgcn: f_P on split %d: %w", run.Split, err)
	}
	res.PseudoTestAcc, res.PseudoMsPerEpoch = pr.TestAcc, pr.MsPerEpoch
	r.labels, err = r.argmaxLabels(pr.LogProbs, sp)
	pr.Finalize()
	if err != nil {
		return err
	}
	if r.cache != nil {
		r.cache.put(key, pseudoEntry{labels: slices.Clone(r.labels), testAcc: pr.TestAcc, msPerEpoch: pr.MsPerEpoch})
	}
	return nil
}

// pseudoModel is the pseudo-label predictor f_P and its epochs (PseudoEpochs,
// else Epochs), for the runner alone and the batched one.
func (cfg Config) pseudoModel() (nn.Model, int) {
	var pm nn.Model = models.MLP{Hidden: cfg.PseudoHidden, Dropout: cfg.PseudoDropout}
	if cfg.Pseudo == PseudoGCN {
		pm = models.GCN{Hidden: cfg.PseudoHidden, Dropout: 0.5}
	}
	epochs := cfg.PseudoEpochs
	if epochs == 0 {
		epochs = cfg.Epochs
	}
	return pm, epochs
}
