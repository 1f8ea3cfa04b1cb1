package labelwise

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

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
	// CompileSecs and Compiles sum the compiling of the run's f_P and main
	// model rounds (train.RunResult's: a share of each batch's time, the
	// graphs carried by the batch's first run).
	CompileSecs float64
	Compiles    int
	TotalSecs   float64
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

// Runner trains one configuration on one graph, R runs at a time (see
// WithBatch): f_P trains the batch's runs in one computation, each run's
// pseudo-labels are read from its best epoch, then the main model (f_C, or
// f_C and f_G with selection) trains the batch in one computation, once
// per refinement round. Its compiled graphs are reused across splits and
// seeds. It is not safe for concurrent use.
type Runner struct {
	cfg          Config
	g, mg        *graph.Graph
	pseudo, main *train.Trainer
	batch        int
	// labels are the pseudo-labels of the runs being trained.
	labels map[train.Run][]int32
	// cache (nil: none) shares f_P's pseudo-labels between runners;
	// fingerprint is the graph's key in it (computed on first use).
	cache       *PseudoCache
	fingerprint string
	backend     string
}

// RunnerOption adjusts a Runner.
type RunnerOption func(*Runner)

// WithBatch trains n runs per computation (1, the default: each alone;
// train.BatchFromMemory: as many as memory allows).
func WithBatch(n int) RunnerOption { return func(r *Runner) { r.batch = n } }

// BatchSize is the runs the runner trains per computation (WithBatch's;
// with train.BatchFromMemory as many as the memory budget allows, 0 when
// not even one run fits: it then trains them one at a time).
func (r *Runner) BatchSize() int { return r.batch }

// UsePseudoCache makes the runner take f_P's pseudo-labels from c when
// another run trained f_P on the same nodes, split and seed, and put its
// own there (nil: train f_P every run).
func (r *Runner) UsePseudoCache(c *PseudoCache) { r.cache = c }

// NewRunner prepares f_P and the main model for g (already preprocessed, see
// datasets.Standard). progress receives the main model's epochs (nil: silent).
func NewRunner(b compute.Backend, info backend.Info, g *graph.Graph, cfg Config, progress train.Progress,
	opts ...RunnerOption) (*Runner, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if g.Features() == nil || g.Labels() == nil {
		return nil, fmt.Errorf("lwgcn: graph %q needs features and labels", g.Name())
	}
	if len(g.Splits()) == 0 {
		return nil, fmt.Errorf("lwgcn: graph %q has no splits", g.Name())
	}
	r := &Runner{cfg: cfg, g: g, mg: modelGraph(g, cfg.Direction), batch: 1, labels: map[train.Run][]int32{},
		backend: info.Name}
	for _, o := range opts {
		o(r)
	}
	tc := train.Config{Epochs: cfg.Epochs, Progress: progress, Backend: info, RunInputs: r.addLabelWise}
	m, err := r.mainModel(&tc)
	if err != nil {
		return nil, err
	}
	if r.batch == train.BatchFromMemory {
		r.batch = train.BatchSizeFor(r.mg, m, 0) // f_P (an MLP) takes less than the main model
	}
	pm, pEpochs := cfg.pseudoModel()
	r.pseudo, err = train.New(b, pm, r.mg, train.Config{Epochs: pEpochs, LR: cfg.PseudoLR, WeightDecay: cfg.PseudoWD,
		Backend: info, BatchSize: max(r.batch, 1)})
	if err != nil {
		return nil, fmt.Errorf("lwgcn: f_P: %w", err)
	}
	tc.BatchSize = max(r.batch, 1)
	if r.main, err = train.New(b, m, r.mg, tc); err != nil {
		return nil, fmt.Errorf("lwgcn: %w", err)
	}
	return r, nil
}

// mainModel is the main model (f_C alone, or with f_G and selection) with
// its training settings in tc.
func (r *Runner) mainModel(tc *train.Config) (nn.Model, error) {
	cfg := r.cfg
	if cfg.SelectROCAUC {
		tc.Selection.By = train.ByValROCAUC
	}
	fc := LabelWiseGCN{Variant: cfg.Variant, Layers: cfg.Layers, Hidden: cfg.Hidden, Dropout: cfg.Dropout}
	if cfg.Backbone == BackboneNone {
		tc.LR, tc.WeightDecay = cfg.LR, cfg.WeightDecay
		return fc, nil
	}
	fg, err := cfg.backbone()
	if err != nil {
		return nil, err
	}
	adj, err := OfficialAdjacency(r.mg)
	if err != nil {
		return nil, err
	}
	sel := &Selection{FC: fc, FG: fg, Adj: adj, InnerSteps: cfg.InnerSteps}
	tc.Optimizer = cfg.optimizer()
	if tc.Lagged = sel.Lagged(); tc.Lagged == nil {
		tc.Epoch = sel.Epoch
	}
	return sel, nil
}

// addLabelWise gives the main model the label-wise structures of the
// batch's runs' current pseudo-labels.
func (r *Runner) addLabelWise(runs []train.Run, in *nn.Inputs) error {
	lws := make([]*nn.LabelWise, len(runs))
	for k, run := range runs {
		labels, ok := r.labels[run]
		if !ok {
			return fmt.Errorf("lwgcn: no pseudo-labels for split %d, seed %d", run.Split, run.Seed)
		}
		var err error
		if lws[k], err = nn.NewLabelWise(r.mg.NumNodes(), r.mg.Src(), r.mg.Dst(), labels, r.mg.NumClasses()); err != nil {
			return err
		}
	}
	return nn.AddLabelWiseRuns(in, LabelWiseInput, lws, r.mg.Features())
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
	res, err := r.RunAll(ctx, []train.Run{{Split: split, Seed: seed}})
	if err != nil {
		return nil, err
	}
	return res[0], nil
}

// Compiles is the number of epoch graphs f_P and the main model compiled
// so far (train.Trainer.Compiles): the same after every batch whose inputs
// keep the first batch's shapes.
func (r *Runner) Compiles() int { return r.main.Compiles() + r.pseudo.Compiles() }

// EpochOps is the op count of the main model's epoch graph
// (train.Trainer.EpochOps).
func (r *Runner) EpochOps() int { return r.main.EpochOps() }

// RunAll trains every run, batch by batch (WithBatch), and returns one
// result per run, in order.
func (r *Runner) RunAll(ctx context.Context, runs []train.Run) ([]*SplitResult, error) {
	for _, run := range runs {
		if run.Split < 0 || run.Split >= len(r.g.Splits()) {
			return nil, fmt.Errorf("lwgcn: split %d out of range: %q has %d splits", run.Split, r.g.Name(), len(r.g.Splits()))
		}
	}
	size := max(r.batch, 1)
	var out []*SplitResult
	for start := 0; start < len(runs); start += size {
		res, err := r.runBatch(ctx, runs[start:min(start+size, len(runs))])
		if err != nil {
			for _, x := range out {
				x.Finalize()
			}
			return nil, err
		}
		out = append(out, res...)
	}
	return out, nil
}

// runBatch trains one batch: f_P, the main model and its refinement rounds.
func (r *Runner) runBatch(ctx context.Context, runs []train.Run) ([]*SplitResult, error) {
	start := time.Now()
	res := make([]*SplitResult, len(runs))
	for k, run := range runs {
		res[k] = &SplitResult{Split: run.Split, Seed: run.Seed}
	}
	if err := r.pseudoLabels(ctx, runs, res); err != nil {
		return nil, err
	}
	for round := 0; round <= r.cfg.RefineRounds; round++ {
		if err := r.mainRound(ctx, runs, res, round); err != nil {
			for _, x := range res {
				x.Finalize()
			}
			return nil, err
		}
	}
	secs := time.Since(start).Seconds() / float64(len(runs))
	for k, run := range runs {
		res[k].Predictions, res[k].TotalSecs = r.labels[run], secs
		delete(r.labels, run)
	}
	return res, nil
}

// mainRound trains the main model on the runs' current pseudo-labels and
// takes its predictions as the next round's.
func (r *Runner) mainRound(ctx context.Context, runs []train.Run, res []*SplitResult, round int) error {
	mr, err := r.main.Run(ctx, runs)
	if err != nil {
		return fmt.Errorf("lwgcn: %s on split %d (round %d): %w", r.cfg.Name(), runs[0].Split, round, err)
	}
	for k, run := range runs {
		m, sp := mr.Runs[k], r.g.Splits()[run.Split]
		res[k].Finalize()
		res[k].Main = m
		res[k].CompileSecs, res[k].Compiles = res[k].CompileSecs+m.CompileSecs, res[k].Compiles+m.Compiles
		w := math.NaN()
		if v, ok := m.Extra[ExtraWeightFC]; ok {
			w = v
		}
		res[k].Rounds = append(res[k].Rounds, RoundResult{TestAcc: m.TestAcc, ValAcc: m.ValAcc, TrainAcc: m.TrainAcc,
			BestEpoch: m.BestEpoch, WeightFC: w, PseudoAcc: Accuracy(r.labels[run], r.g.Labels(), sp.Test),
			MsPerEpoch: m.MsPerEpoch, ValROCAUC: m.ValROCAUC, TestROCAUC: m.TestROCAUC})
		if r.labels[run], err = r.argmaxLabels(m.LogProbs, sp); err != nil {
			return err
		}
	}
	return nil
}

// pseudoLabels sets the runs' pseudo-labels and res's f_P fields: from the
// cache, or by training f_P on the runs it does not hold.
func (r *Runner) pseudoLabels(ctx context.Context, runs []train.Run, res []*SplitResult) error {
	var missing []train.Run
	var at []int
	for k, run := range runs {
		if r.cache != nil {
			if e, ok := r.cache.get(r.pseudoKey(run.Split, run.Seed)); ok {
				r.labels[run] = slices.Clone(e.labels)
				res[k].PseudoTestAcc, res[k].PseudoMsPerEpoch, res[k].PseudoShared = e.testAcc, e.msPerEpoch, true
				continue
			}
		}
		missing, at = append(missing, run), append(at, k)
	}
	if len(missing) == 0 {
		return nil
	}
	pr, err := r.pseudo.Run(ctx, missing)
	if err != nil {
		return fmt.Errorf("lwgcn: f_P on split %d: %w", missing[0].Split, err)
	}
	for i, run := range missing {
		rr := pr.Runs[i]
		res[at[i]].PseudoTestAcc, res[at[i]].PseudoMsPerEpoch = rr.TestAcc, rr.MsPerEpoch
		res[at[i]].CompileSecs, res[at[i]].Compiles = rr.CompileSecs, rr.Compiles
		labels, err := r.argmaxLabels(rr.LogProbs, r.g.Splits()[run.Split])
		rr.Finalize()
		if err != nil {
			return err
		}
		r.labels[run] = labels
		if r.cache != nil {
			r.cache.put(r.pseudoKey(run.Split, run.Seed),
				pseudoEntry{labels: slices.Clone(labels), testAcc: rr.TestAcc, msPerEpoch: rr.MsPerEpoch})
		}
	}
	return nil
}

// pseudoModel is the pseudo-label predictor f_P and its epochs (PseudoEpochs,
// else Epochs).
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
