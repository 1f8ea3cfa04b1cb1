package train

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/results"
)

// Run trains the runs, R at a time (the last batch padded with repeats of
// its last run, whose results are dropped), and summarises them.
func (t *Trainer) Run(ctx context.Context, runs []Run) (*Result, error) {
	if len(runs) == 0 {
		return nil, errors.New("train: no runs")
	}
	if err := t.fixBatchSize(runs); err != nil {
		return nil, err
	}
	p := t.cfg.Progress
	p.Begin(len(runs), t.cfg.Epochs)
	defer p.End()
	res := &Result{Model: t.model.Name(), Dataset: t.graph.Name(), Backend: t.cfg.Backend, BatchSize: t.runs}
	var tests, vals []float64
	for start := 0; start < len(runs); start += t.runs {
		rrs, err := t.runBatch(ctx, start, runs[start:min(start+t.runs, len(runs))])
		if err != nil {
			return res, err
		}
		for _, rr := range rrs {
			res.Runs = append(res.Runs, rr)
			tests, vals = append(tests, rr.TestAcc), append(vals, rr.ValAcc)
			res.MsPerEpoch += rr.MsPerEpoch / float64(len(runs))
		}
	}
	res.TestAcc, res.ValAcc = results.MeanStd(tests), results.MeanStd(vals)
	res.CompileTime = t.compileTime
	return res, nil
}

// RunOne trains a single run (with progress reported as run 0 of 1).
func (t *Trainer) RunOne(ctx context.Context, r Run) (*RunResult, error) {
	if err := t.fixBatchSize([]Run{r}); err != nil {
		return nil, err
	}
	t.cfg.Progress.Begin(1, t.cfg.Epochs)
	defer t.cfg.Progress.End()
	rrs, err := t.runBatch(ctx, 0, []Run{r})
	if err != nil {
		return nil, err
	}
	return rrs[0], nil
}

// runBatch trains the runs of one batch (first: the index of its first
// run among Run's).
func (t *Trainer) runBatch(ctx context.Context, first int, runs []Run) ([]*RunResult, error) {
	for _, r := range runs {
		if err := t.checkSplit(r.Split); err != nil {
			return nil, err
		}
	}
	compiles, compileTime := t.compiles, t.compileTime
	args, err := t.prepare(runs)
	if err != nil {
		return nil, err
	}
	b := t.newBatch(first, runs)
	done, err := t.resume(b)
	if err == nil && !done {
		err = t.loop(ctx, b, args)
	}
	if err != nil {
		b.release()
		return nil, err
	}
	out, err := t.finish(b)
	if err != nil {
		return nil, err
	}
	share := (t.compileTime - compileTime).Seconds() / float64(len(out))
	for _, rr := range out {
		rr.CompileSecs = share
	}
	out[0].Compiles = t.compiles - compiles
	return out, nil
}

// resume restores a run's checkpoint (a batch of one run with
// checkpoints): the state after its last saved epoch. done says the run
// had ended.
func (t *Trainer) resume(b *batch) (done bool, err error) {
	st := b.runs[0]
	if len(b.runs) != 1 || st.ck == nil {
		return false, nil
	}
	ls, err := st.ck.load(t.store)
	if err != nil || ls == nil {
		return false, err
	}
	st.rr = ls.result
	st.rr.Resumed = true
	if st.rr.Weights != nil {
		st.best = &snapshot{vals: st.rr.Weights, refs: 1}
		st.rr.Weights = nil
	}
	// The recorded epochs replayed into the selector restore its best and
	// its patience count.
	for _, es := range st.rr.History {
		st.sel.Observe(es)
	}
	b.start = ls.epoch + 1
	return ls.done, nil
}

// pendingStep is, with the evaluation lag, an epoch whose step ran and
// whose evaluation comes with the next call.
type pendingStep struct {
	epoch  int
	losses []float64
	dur    time.Duration
}

// loop runs the batch's epochs. With the evaluation lag (step.eval), a
// call's pass before its step is the evaluation of the previous epoch:
// pending is that epoch's step (losses, time), booked with the next call,
// or with an evaluation-only call at the last epoch and before each
// checkpoint (which must hold the state of an epoch whose statistics are
// booked).
func (t *Trainer) loop(ctx context.Context, b *batch, args []any) error {
	var pending *pendingStep
	for epoch := b.start; epoch <= t.cfg.Epochs && b.active(); epoch++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		t0 := time.Now()
		phase := t.phaseOf(epoch)
		out, before, err := t.callStep(args, epoch, phase, pending != nil)
		if err != nil {
			return err
		}
		dur := time.Since(t0)
		switch {
		case t.step.eval == nil:
			err = t.book(b, epoch, phase, out, out.column(statTrainLoss), dur, nil)
		case pending != nil:
			err = t.book(b, pending.epoch, phase, out, pending.losses, pending.dur, before)
		default:
			err = t.firstStep(b, epoch, out)
		}
		if err != nil || t.step.eval == nil {
			if err != nil {
				return err
			}
			continue
		}
		pending = &pendingStep{epoch: epoch, losses: out.column(statTrainLoss), dur: dur}
		if !b.active() || (epoch < t.cfg.Epochs && !t.checkpointDue(b, epoch)) {
			continue
		}
		t1 := time.Now()
		if out, err = t.call(t.step.eval, args, epoch); err != nil {
			return err
		}
		if err := t.book(b, epoch, phase, out, pending.losses, pending.dur+time.Since(t1), nil); err != nil {
			return err
		}
		pending = nil
	}
	return nil
}

// callStep runs epoch's executable, the phase's (a LaggedEpoch's told
// whether an epoch is pending, InputPending). With an epoch pending it
// returns the weights the call's pass before the step saw (those
// FinishUpdates names replaced by their values after the call).
func (t *Trainer) callStep(args []any, epoch, phase int, pending bool) (*output, *snapshot, error) {
	exec := t.step.phases[phase]
	t.setPending(args, pending)
	var before *snapshot
	if pending {
		var err error
		if before, err = t.snapshot(nil); err != nil {
			return nil, nil, err
		}
	}
	out, err := t.call(exec, args, epoch)
	if err == nil && before != nil && t.finishUpdates != nil {
		if err = before.replace(t, t.finishUpdates); err != nil {
			out.release()
		}
	}
	if err != nil {
		before.unref()
		return nil, nil, err
	}
	return out, before, nil
}

// firstStep checks the first step's call with the evaluation lag (its
// outputs are no epoch's evaluation).
func (t *Trainer) firstStep(b *batch, epoch int, out *output) error {
	defer out.release()
	for k, st := range b.runs {
		if s := out.row(k); !st.stopped && s[statFinite] == 0 {
			return fmt.Errorf("train: %s on %s, split %d, seed %d: epoch %d: %w (train loss %v)",
				t.model.Name(), t.graph.Name(), st.run.Split, st.run.Seed, epoch, ErrNonFinite, s[statTrainLoss])
		}
	}
	return nil
}

// call runs one epoch executable and reads its statistics.
func (t *Trainer) call(exec *model.Exec, args []any, epoch int) (*output, error) {
	compiles, start := t.compiles, time.Now()
	outs, err := exec.Call(args...)
	if t.compiles != compiles {
		// This batch's inputs changed shape: the call compiled a graph
		// (counted with it: the call's time is mostly compiling).
		d := time.Since(start)
		t.compileTime += d
		t.graphCompiles = append(t.graphCompiles, d)
	}
	if err != nil {
		return nil, fmt.Errorf("train: epoch %d: %w", epoch, err)
	}
	stats, err := tensors.CopyFlatData[float64](outs[0])
	_ = outs[0].FinalizeAll()
	if err != nil {
		_ = outs[1].FinalizeAll()
		return nil, fmt.Errorf("train: reading epoch %d statistics: %w", epoch, err)
	}
	return &output{stats: stats, width: len(stats) / t.runs, logp: outs[1]}, nil
}

// column is one statistic of every run.
func (o *output) column(i int) []float64 {
	n := len(o.stats) / o.width
	c := make([]float64, n)
	for k := range c {
		c[k] = o.stats[k*o.width+i]
	}
	return c
}
