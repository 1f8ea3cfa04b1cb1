package train

import (
	"fmt"
	"time"

	"github.com/gomlx/gomlx/core/tensors"

	"github.com/lwgcn/toolkit/lwgcn/graph"
)

// A batch's epochs are booked run by run through the loop's hooks, in
// order: divergence (non-finite values, CheckLoss), selection (the
// reported epoch, its outputs and weights, the patience stop), progress
// and checkpoints.

// runState is one run of a batch while it trains.
type runState struct {
	index int // the run's position in Run's runs
	run   Run
	split graph.Split
	rr    *RunResult
	sel   *Selector
	// stopped: the selection's patience ended the run.
	stopped bool
	// firstLoss is the first training loss of this process's epochs
	// (CheckLoss); durations the run's share of each booked call.
	firstLoss float64
	durations []time.Duration
	// best are the weights after the reported epoch (shared with the
	// batch's other runs selected at the same epoch).
	best *snapshot
	ck   *runCheckpoint
}

// batch is the state of the runs trained together.
type batch struct {
	runs []*runState
	// start is the first epoch to run (after a checkpoint's).
	start int
}

// output is what one call of an epoch executable returns: the per-run
// statistics (width values per run) and the evaluation log-probabilities
// [N, R·C]; flat is their host copy, read when a run needs them.
type output struct {
	stats []float64
	width int
	logp  *tensors.Tensor
	flat  []float32
	owned bool // logp was handed to a run
}

func (o *output) row(k int) []float64 { return o.stats[k*o.width : (k+1)*o.width] }

// release frees the log-probabilities unless a run kept them.
func (o *output) release() {
	if !o.owned {
		_ = o.logp.FinalizeAll()
	}
}

// hostLogProbs returns the log-probabilities on the host (read once).
func (o *output) hostLogProbs() ([]float32, error) {
	if o.flat == nil {
		flat, err := tensors.CopyFlatData[float32](o.logp)
		if err != nil {
			return nil, fmt.Errorf("train: reading the epoch's outputs: %w", err)
		}
		o.flat = flat
	}
	return o.flat, nil
}

// runLogProbs is run k's [N, C] block of the output (of runs runs): the
// output itself for one run, handed over.
func (o *output) runLogProbs(k, runs int) (*tensors.Tensor, error) {
	if runs == 1 {
		o.owned = true
		return o.logp, nil
	}
	flat, err := o.hostLogProbs()
	if err != nil {
		return nil, err
	}
	n := o.logp.Shape().Dimensions[0]
	c := len(flat) / n / runs
	out := make([]float32, n*c)
	for i := range n {
		copy(out[i*c:(i+1)*c], flat[(i*runs+k)*c:(i*runs+k+1)*c])
	}
	return tensors.FromFlatDataAndDimensions(out, n, c), nil
}

// newBatch starts the runs of a batch (first: the index of its first run).
func (t *Trainer) newBatch(first int, runs []Run) *batch {
	b := &batch{start: 1}
	for k, r := range runs {
		st := &runState{index: first + k, run: r, split: t.graph.Splits()[r.Split],
			rr: &RunResult{Split: r.Split, Seed: r.Seed}, sel: t.cfg.Selection.NewSelector(), ck: t.checkpointer(r)}
		b.runs = append(b.runs, st)
		t.cfg.Progress.StartRun(st.index, r.Split, r.Seed)
	}
	return b
}

// active reports whether a run of the batch still trains.
func (b *batch) active() bool {
	for _, st := range b.runs {
		if !st.stopped {
			return true
		}
	}
	return false
}

// book books epoch for every active run: losses are the runs' training
// losses of the epoch's step, out the evaluation after it; weights (nil:
// the store's) are the weights after the step. It takes out and weights.
func (t *Trainer) book(b *batch, epoch, phase int, out *output, losses []float64, dur time.Duration,
	weights *snapshot) error {
	defer out.release()
	defer func() { weights.unref() }()
	for k, st := range b.runs {
		if st.stopped {
			continue
		}
		es, err := t.epochStats(st, k, epoch, phase, out, losses[k], dur/time.Duration(len(b.runs)))
		if err == nil {
			err = t.checkDivergence(st, es, out.row(k)[statFinite] != 0, epoch == b.start)
		}
		if err == nil {
			err = t.selectEpoch(st, k, es, out, &weights)
		}
		if err == nil {
			t.cfg.Progress.EndEpoch(es)
			err = t.checkpoint(st, epoch)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// epochStats reads run k's statistics of epoch from out.
func (t *Trainer) epochStats(st *runState, k, epoch, phase int, out *output, loss float64, dur time.Duration) (EpochStats, error) {
	s := out.row(k)
	frac := func(c float64, nodes []int32) float64 {
		if len(nodes) == 0 {
			return 0
		}
		return c / float64(len(nodes))
	}
	es := EpochStats{Run: st.index, Split: st.run.Split, Seed: st.run.Seed, Epoch: epoch, TrainLoss: loss,
		ValLoss: s[statValLoss], TrainAcc: frac(s[statTrainCorrect], st.split.Train),
		ValAcc: frac(s[statValCorrect], st.split.Val), TestAcc: frac(s[statTestCorrect], st.split.Test), Duration: dur}
	if extras := t.step.extras[phase]; len(extras) > 0 {
		es.Extra = map[string]float64{}
		for i, name := range extras {
			es.Extra[name] = s[numStats+i]
		}
	}
	if t.cfg.Selection.By == ByValROCAUC && s[statFinite] != 0 {
		flat, err := out.hostLogProbs()
		if err != nil {
			return es, err
		}
		es.ValROCAUC, es.TestROCAUC, err = splitROCAUC(flat, t.runs, k, t.graph.Labels(), st.split)
		if err != nil {
			return es, fmt.Errorf("train: epoch %d of split %d: %w", epoch, st.run.Split, err)
		}
	}
	return es, nil
}

// checkDivergence is the divergence hook: a non-finite loss or output, or
// a loss past CheckLoss's bound, ends the run with an error.
func (t *Trainer) checkDivergence(st *runState, es EpochStats, finite, first bool) error {
	if !finite {
		return fmt.Errorf("train: %s on %s, split %d, seed %d: epoch %d: %w (train loss %v, val loss %v)",
			t.model.Name(), t.graph.Name(), st.run.Split, st.run.Seed, es.Epoch, ErrNonFinite, es.TrainLoss, es.ValLoss)
	}
	if first {
		st.firstLoss = es.TrainLoss
	}
	if err := CheckLoss(es.Epoch, es.TrainLoss, st.firstLoss); err != nil {
		return fmt.Errorf("train: %s on %s, split %d, seed %d: %w", t.model.Name(), t.graph.Name(), st.run.Split, st.run.Seed, err)
	}
	st.durations = append(st.durations, es.Duration)
	return nil
}

// selectEpoch is the selection hook: it books the epoch in the run's
// history and, when the selection picks it, keeps its outputs and weights
// (*weights, or a copy of the store's taken now and shared with the
// batch's other runs picked at this epoch).
func (t *Trainer) selectEpoch(st *runState, k int, es EpochStats, out *output, weights **snapshot) error {
	rr := st.rr
	rr.History = append(rr.History, es)
	rr.Epochs = es.Epoch
	selected, stop := st.sel.Observe(es)
	st.stopped = stop
	if !selected {
		return nil
	}
	logp, err := out.runLogProbs(k, t.runs)
	if err != nil {
		return err
	}
	if rr.LogProbs != nil {
		_ = rr.LogProbs.FinalizeAll()
	}
	rr.LogProbs = logp
	rr.BestEpoch, rr.ValAcc, rr.TestAcc, rr.TrainAcc, rr.ValLoss, rr.Extra = es.Epoch, es.ValAcc, es.TestAcc, es.TrainAcc,
		es.ValLoss, es.Extra
	rr.ValROCAUC, rr.TestROCAUC = es.ValROCAUC, es.TestROCAUC
	if *weights == nil {
		if *weights, err = t.snapshot(nil); err != nil {
			return err
		}
	}
	st.best.unref()
	st.best = (*weights).ref()
	if st.ck != nil {
		st.ck.bestDirty = true
	}
	return nil
}

// checkpoint is the checkpoint hook: the run's state after epoch, when
// due (every CheckpointEvery epochs, at its stop and at the end).
func (t *Trainer) checkpoint(st *runState, epoch int) error {
	if st.ck == nil {
		return nil
	}
	done := st.stopped || epoch == t.cfg.Epochs
	if !done && (t.cfg.CheckpointEvery == 0 || epoch%t.cfg.CheckpointEvery != 0) {
		return nil
	}
	var best map[string]*tensors.Tensor
	if st.best != nil {
		best = st.best.vals // one run: the run's own weights
	}
	return st.ck.save(t.store, st.rr, best, epoch, done)
}

// checkpointDue says whether a checkpoint follows epoch (the evaluation
// lag evaluates before it).
func (t *Trainer) checkpointDue(b *batch, epoch int) bool {
	return t.cfg.CheckpointEvery > 0 && epoch%t.cfg.CheckpointEvery == 0 && b.runs[0].ck != nil
}

// finish ends the batch's runs: their timings, kept weights, and progress.
func (t *Trainer) finish(b *batch) ([]*RunResult, error) {
	out := make([]*RunResult, len(b.runs))
	for k, st := range b.runs {
		rr := st.rr
		if st.best != nil {
			w, err := st.best.take(t.store, k)
			if err != nil {
				return nil, err
			}
			rr.Weights = w
			st.best.unref()
			st.best = nil
		}
		if len(st.durations) > 0 {
			rr.MsPerEpoch, rr.MedianMsPerEpoch = meanMedianMs(st.durations)
		}
		t.cfg.Progress.EndRun(rr)
		out[k] = rr
	}
	return out, nil
}

// release frees what the batch's runs keep (after an error).
func (b *batch) release() {
	for _, st := range b.runs {
		st.best.unref()
		st.best = nil
		st.rr.Finalize()
	}
}
