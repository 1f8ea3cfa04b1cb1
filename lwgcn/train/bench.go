package train

import (
	"errors"
	"fmt"

	"github.com/gomlx/gomlx/core/tensors"
)

// EpochRunner runs epochs of one prepared batch without the bookkeeping of
// Run (no best-epoch tracking, no progress): for benchmarks.
type EpochRunner struct {
	t     *Trainer
	args  []any
	epoch int // epochs run so far (selects the phase)
	// Runs is the number of runs the batch trains (padding excluded).
	Runs int
}

// PrepareRuns sets up a batch of runs as Run does (masks, compilation,
// fresh weights, optimizer state and random states; the batch size is
// fixed here when not yet chosen) and returns a runner for its epochs.
func (t *Trainer) PrepareRuns(runs ...Run) (*EpochRunner, error) {
	if len(runs) == 0 {
		return nil, errors.New("train: no runs")
	}
	if err := t.fixBatchSize(runs); err != nil {
		return nil, err
	}
	if len(runs) > t.runs {
		return nil, fmt.Errorf("train: %d runs for a batch of %d", len(runs), t.runs)
	}
	args, err := t.prepare(runs)
	if err != nil {
		return nil, err
	}
	return &EpochRunner{t: t, args: args, Runs: len(runs)}, nil
}

// Epoch runs one epoch of every run in the batch and returns the sum of
// their training losses.
func (e *EpochRunner) Epoch() (float64, error) {
	e.epoch++
	exec := e.t.step.phases[e.t.phaseOf(e.epoch)]
	e.t.setPending(e.args, e.epoch > 1) // a LaggedEpoch's: from the second epoch on
	outs, err := exec.Call(e.args...)
	if err != nil {
		return 0, err
	}
	stats, err := tensors.CopyFlatData[float64](outs[0])
	for _, o := range outs {
		_ = o.FinalizeAll()
	}
	if err != nil {
		return 0, err
	}
	width := len(stats) / e.t.runs
	var sum float64
	for k := range e.Runs {
		sum += stats[k*width+statTrainLoss]
	}
	return sum, nil
}
