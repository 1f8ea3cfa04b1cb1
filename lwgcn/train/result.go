package train

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"time"

	"github.com/gomlx/gomlx/core/tensors"

	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/results"
)

// Run is one training run: a split of the graph and a seed.
type Run struct {
	Split int
	Seed  int64
}

// Runs returns every (split, seed) pair, splits first.
func Runs(splits []int, seeds ...int64) []Run {
	var rs []Run
	for _, s := range splits {
		for _, seed := range seeds {
			rs = append(rs, Run{Split: s, Seed: seed})
		}
	}
	return rs
}

// EpochStats are one epoch's statistics. Accuracies and the validation
// loss come from the evaluation pass after the update; TrainLoss from the
// training pass before it.
type EpochStats struct {
	Run, Split int
	Seed       int64
	// Epoch counts from 1.
	Epoch                     int
	TrainLoss, ValLoss        float64
	TrainAcc, ValAcc, TestAcc float64
	// ValROCAUC and TestROCAUC are set under ByValROCAUC selection (the
	// positive class is class 1), else 0.
	ValROCAUC, TestROCAUC float64
	Extra                 map[string]float64
	// Duration is the epoch's share of its batch's call (the call's time
	// divided by the runs in the batch).
	Duration time.Duration
}

// RunResult is the outcome of one run.
type RunResult struct {
	Split int
	Seed  int64
	// BestEpoch (from 1) is the epoch Config.Selection picks (by default
	// the highest validation accuracy, the first one on ties); the
	// accuracies, losses, ROC-AUCs and extras are that epoch's.
	BestEpoch                 int
	ValAcc, TestAcc, TrainAcc float64
	ValLoss                   float64
	ValROCAUC, TestROCAUC     float64
	Extra                     map[string]float64
	// Epochs is the number of epochs run (fewer than Config.Epochs when the
	// selection's patience stopped the run).
	Epochs int
	// MsPerEpoch is the mean wall time of an epoch (the compiled call and
	// reading its statistics, divided by the runs it trained: a
	// split-epoch); MedianMsPerEpoch the median. Compilation is excluded
	// (Result.CompileTime).
	MsPerEpoch, MedianMsPerEpoch float64
	// CompileSecs is the run's share of the compiling its batch did (the
	// batch's time split evenly over its runs; graphs compiled for earlier
	// batches are not counted again) and Compiles the epoch graphs the
	// batch compiled, carried by its first run (0 on the others).
	CompileSecs float64
	Compiles    int
	// LogProbs are the evaluation log-probabilities [N, C] of the best epoch
	// and Weights copies of the model weights after it (by variable path,
	// each as the run alone holds it): later epochs and runs never modify
	// them. Release with Finalize.
	LogProbs *tensors.Tensor
	Weights  map[string]*tensors.Tensor
	// History has every epoch's statistics (a resumed run's include those
	// its checkpoint recorded).
	History []EpochStats
	// Resumed says the run continued from a checkpoint.
	Resumed bool
}

// String is a one-line summary.
func (r *RunResult) String() string {
	return fmt.Sprintf("split %d seed %d: test %.4f (val %.4f, train %.4f, best epoch %d/%d), %.2f ms/epoch",
		r.Split, r.Seed, r.TestAcc, r.ValAcc, r.TrainAcc, r.BestEpoch, r.Epochs, r.MsPerEpoch)
}

// Finalize releases the kept tensors.
func (r *RunResult) Finalize() {
	if r.LogProbs != nil {
		_ = r.LogProbs.FinalizeAll()
		r.LogProbs = nil
	}
	finalizeWeights(r.Weights)
	r.Weights = nil
}

// WeightNames lists the kept weights of a run, sorted.
func (r *RunResult) WeightNames() []string { return slices.Sorted(maps.Keys(r.Weights)) }

// Result summarises runs.
type Result struct {
	Model, Dataset string
	Runs           []*RunResult
	// TestAcc and ValAcc are mean ± std over runs, the std being the
	// population one (ddof = 0, like numpy's np.std, as the official code
	// reports).
	TestAcc, ValAcc results.Stat
	// CompileTime is the time to build and compile the epoch graph.
	CompileTime time.Duration
	// MsPerEpoch is the mean over runs of RunResult.MsPerEpoch.
	MsPerEpoch float64
	// BatchSize is the runs trained in one computation.
	BatchSize int
	// Backend is the backend that ran (recorded with every result).
	Backend backend.Info
}

// String is a one-line summary.
func (r *Result) String() string {
	return fmt.Sprintf("%s on %s: test accuracy %.2f ± %.2f %% over %d runs (population std), %.2f ms/epoch, compile %.2fs; %s",
		r.Model, r.Dataset, 100*r.TestAcc.Mean, 100*r.TestAcc.Std, r.TestAcc.N, r.MsPerEpoch, r.CompileTime.Seconds(), r.Backend)
}

// ErrNonFinite is wrapped by the error a run returns when the loss or the
// outputs become NaN or infinite.
var ErrNonFinite = errors.New("non-finite loss or outputs")

// ErrDiverged is wrapped by the error a run returns when its training loss
// explodes while staying finite (CheckLoss).
var ErrDiverged = errors.New("training diverged")

// DivergenceFactor bounds the training loss of a run against its first
// epoch's: a loss above DivergenceFactor × max(first, 1) has diverged. A
// cross-entropy starts near ln C (1.6 for 5 classes) and only falls in a
// healthy run; 10^4 times that means the model gives the true classes
// probabilities near e^-10000, as with a learning rate of 10^6 (loss 10^15).
const DivergenceFactor = 1e4

// CheckLoss is the per-epoch divergence check: an error wrapping
// ErrNonFinite when loss is NaN or infinite, ErrDiverged when it exceeds
// DivergenceFactor × max(first, 1), first being the run's first training
// loss; nil otherwise. The error names the epoch.
func CheckLoss(epoch int, loss, first float64) error {
	if math.IsNaN(loss) || math.IsInf(loss, 0) {
		return fmt.Errorf("epoch %d: %w (train loss %v)", epoch, ErrNonFinite, loss)
	}
	if limit := DivergenceFactor * max(first, 1); loss > limit {
		return fmt.Errorf("epoch %d: %w: train loss %.4g exceeds %g × the first epoch's %.4g", epoch, ErrDiverged, loss,
			DivergenceFactor, first)
	}
	return nil
}

// meanMedianMs are the mean and median of durations, in milliseconds.
func meanMedianMs(ds []time.Duration) (mean, median float64) {
	if len(ds) == 0 {
		return 0, 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	var sum time.Duration
	for _, d := range s {
		sum += d
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	return ms(sum) / float64(len(s)), ms(s[len(s)/2])
}
