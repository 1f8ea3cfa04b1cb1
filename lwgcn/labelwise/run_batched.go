package labelwise

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/gomlx/compute"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/train"
	"github.com/lwgcn/toolkit/lwgcn/train/batched"
)

// BatchedRunner is Runner for many runs at once: f_P trains the runs of a
// batch in one computation (package train/batched), each run's
// pseudo-labels are read from its best epoch, then the main model (f_C, or
// f_C and f_G with selection) trains the batch in one computation. Each
// run gives what Runner.Run gives for it, up to float32 rounding.
// Refinement rounds are not supported.
type BatchedRunner struct {
	cfg          Config
	g, mg        *graph.Graph
	pseudo, main *batched.Trainer
	labels       map[train.Run][]int32
}

// NewBatchedRunner prepares f_P and the main model for g (preprocessed, see
// datasets.Standard) with batchSize runs per computation (0: chosen from
// memory, see batched.BatchSizeFor). progress receives the main model's
// epochs (nil: silent).
func NewBatchedRunner(b compute.Backend, info backend.Info, g *graph.Graph, cfg Config, batchSize int, progress train.Progress) (*BatchedRunner, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.RefineRounds > 0 {
		return nil, errors.New("lwgcn: batched runs do not support refinement rounds")
	}
	if g.Features() == nil || g.Labels() == nil || len(g.Splits()) == 0 {
		return nil, fmt.Errorf("lwgcn: graph %q needs features, labels and splits", g.Name())
	}
	r := &BatchedRunner{cfg: cfg, g: g, mg: modelGraph(g, cfg.Direction), labels: map[train.Run][]int32{}}
	labels := func(run train.Run) ([]int32, error) {
		l, ok := r.labels[run]
		if !ok {
			return nil, fmt.Errorf("lwgcn: no pseudo-labels for split %d, seed %d", run.Split, run.Seed)
		}
		return l, nil
	}
	pm, pEpochs := cfg.pseudoModel()
	var err error
	r.pseudo, err = batched.New(b, pm, r.mg, batched.Config{Epochs: pEpochs, LR: cfg.PseudoLR, WeightDecay: cfg.PseudoWD,
		BatchSize: batchSize, Backend: info})
	if err != nil {
		return nil, fmt.Errorf("lwgcn: f_P: %w", err)
	}
	bc := batched.Config{Epochs: cfg.Epochs, BatchSize: batchSize, Progress: progress, Backend: info}
	fc := LabelWiseGCN{Variant: cfg.Variant, Layers: cfg.Layers, Hidden: cfg.Hidden, Dropout: cfg.Dropout}
	var m nn.Model
	if cfg.Backbone == BackboneNone {
		m, bc.LR, bc.WeightDecay = BatchedFC{LabelWiseGCN: fc, Labels: labels}, cfg.LR, cfg.WeightDecay
	} else {
		fg, err := cfg.backbone()
		if err != nil {
			return nil, err
		}
		adj, err := OfficialAdjacency(r.mg)
		if err != nil {
			return nil, err
		}
		m = &BatchedSelection{Selection: Selection{FC: fc, FG: fg, Adj: adj, InnerSteps: cfg.InnerSteps}, Labels: labels}
		bc.Optimizer = cfg.optimizer()
	}
	if r.main, err = batched.New(b, m, r.mg, bc); err != nil {
		return nil, fmt.Errorf("lwgcn: %w", err)
	}
	return r, nil
}

// pseudoLabels trains f_P on runs and records each run's pseudo-labels.
func (r *BatchedRunner) pseudoLabels(ctx context.Context, runs []train.Run) (*train.Result, error) {
	pr, err := r.pseudo.Run(ctx, runs)
	if err != nil {
		return nil, fmt.Errorf("lwgcn: f_P: %w", err)
	}
	for i, run := range runs {
		rr := pr.Runs[i]
		flat, err := tensors.CopyFlatData[float32](rr.LogProbs)
		rr.Finalize()
		if err != nil {
			return nil, fmt.Errorf("lwgcn: reading f_P's predictions: %w", err)
		}
		if r.labels[run], err = PseudoLabels(flat, r.g.NumClasses(), r.g.Labels(), r.g.Splits()[run.Split].Train); err != nil {
			return nil, err
		}
	}
	return pr, nil
}

// Run trains LW-GCN on every run (f_P for all runs, then the main model),
// batch by batch, and returns one result per run, in order.
func (r *BatchedRunner) Run(ctx context.Context, runs []train.Run) ([]*SplitResult, error) {
	start := time.Now()
	pr, err := r.pseudoLabels(ctx, runs)
	if err != nil {
		return nil, err
	}
	mr, err := r.main.Run(ctx, runs)
	if err != nil {
		return nil, fmt.Errorf("lwgcn: %s: %w", r.cfg.Name(), err)
	}
	total := time.Since(start).Seconds() / float64(len(runs))
	out := make([]*SplitResult, len(runs))
	for i, run := range runs {
		m := mr.Runs[i]
		sp := r.g.Splits()[run.Split]
		w := math.NaN()
		if v, ok := m.Extra[ExtraWeightFC]; ok {
			w = v
		}
		res := &SplitResult{Split: run.Split, Seed: run.Seed, PseudoTestAcc: pr.Runs[i].TestAcc,
			PseudoMsPerEpoch: pr.Runs[i].MsPerEpoch, Main: m, TotalSecs: total,
			CompileSecs: (r.main.CompileTime() + r.pseudo.CompileTime()).Seconds() / float64(len(runs))}
		res.Rounds = []RoundResult{{TestAcc: m.TestAcc, ValAcc: m.ValAcc, TrainAcc: m.TrainAcc, BestEpoch: m.BestEpoch,
			WeightFC: w, PseudoAcc: Accuracy(r.labels[run], r.g.Labels(), sp.Test), MsPerEpoch: m.MsPerEpoch}}
		flat, err := tensors.CopyFlatData[float32](m.LogProbs)
		if err != nil {
			return nil, fmt.Errorf("lwgcn: reading predictions: %w", err)
		}
		if res.Predictions, err = PseudoLabels(flat, r.g.NumClasses(), r.g.Labels(), sp.Train); err != nil {
			return nil, err
		}
		out[i] = res
	}
	return out, nil
}

// PrepareEpochs trains f_P on runs (at most one batch) and prepares the
// main model's batch: each Epoch call of the result is one full LW-GCN
// epoch of every run (for benchmarks).
func (r *BatchedRunner) PrepareEpochs(ctx context.Context, runs []train.Run) (*batched.EpochRunner, error) {
	if _, err := r.pseudoLabels(ctx, runs); err != nil {
		return nil, err
	}
	return r.main.PrepareBatch(runs)
}
