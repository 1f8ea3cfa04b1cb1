package experiments

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/lwgcn/toolkit/lwgcn/labelwise"
	"github.com/lwgcn/toolkit/lwgcn/train"
	"github.com/lwgcn/toolkit/lwgcn/zoo"
)

// Batch modes of Spec.Batch and SweepSpec.Batch; a value N > 1 trains the
// missing runs of every cell N at a time, in one computation (the runs
// axis of every model, nn.Runs).
const (
	// BatchAuto batches the methods whose zoo entry says they train faster
	// batched (zoo.Entry.AutoBatch, measured with `lwgcn bench-batched`),
	// as many runs per computation as memory allows
	// (train.BatchSizeFor); the others run alone. LW-GCN measured
	// 0.70-1.07x batched on CPUs, so there it and its variants stay alone;
	// on a GPU they are batched (lwgcnMethod.autoBatched).
	BatchAuto = 0
	// BatchAlone trains every run alone.
	BatchAlone = 1
)

// BatchedByDefault reports whether BatchAuto may train method batched (its
// zoo entry has an AutoBatch rule; the rule decides per dataset and
// setting).
func BatchedByDefault(method string) bool {
	e, ok := zoo.Lookup(method)
	return ok && e.AutoBatch != nil
}

// BatchedMethodsByDefault lists the methods BatchAuto may batch, sorted.
func BatchedMethodsByDefault() []string {
	var out []string
	for _, n := range zoo.Names() {
		if BatchedByDefault(n) {
			out = append(out, n)
		}
	}
	return out
}

// batchModeName is the batch mode as recorded in sessions.
func batchModeName(n int) string {
	switch n {
	case BatchAuto:
		return "auto"
	case BatchAlone:
		return "alone"
	}
	return strconv.Itoa(n)
}

// autoBatcher is a Method that BatchAuto may batch.
type autoBatcher interface {
	// autoBatched says whether BatchAuto batches this configuration.
	autoBatched() bool
}

// batchSize is the runs per computation mode asks for with method m
// (train.BatchFromMemory: as many as fit), and whether it batches m.
func batchSize(mode int, m Method) (size int, ok bool) {
	switch mode {
	case BatchAlone:
		return 0, false
	case BatchAuto:
		if ab, ok := m.(autoBatcher); !ok || !ab.autoBatched() {
			return 0, false
		}
		return train.BatchFromMemory, true
	}
	return mode, true
}

// TrainRuns trains the runs (of one cell) with method m (name): together
// when the batch mode batches the method, else one at a time. It hands each
// run to record as soon as it is trained (alone: after every run; batched:
// after its batch), with its index in missing, its outcome, the runs per
// computation (0: alone) and its share of the wall time, so that a killed
// invocation keeps every run finished before the kill. It stops at the
// first error, from training or from record.
func TrainRuns(ctx context.Context, mode int, name string, m Method, missing []train.Run,
	logf func(string, ...any), record func(i int, o Outcome, perBatch int, secs float64) error) error {
	if size, ok := batchSize(mode, m); ok && len(missing) > 0 {
		start := time.Now()
		outs, r, err := m.RunBatch(ctx, missing, size)
		if err != nil {
			return err
		}
		if r > 0 {
			share := time.Since(start).Seconds() / float64(len(outs))
			for i, o := range outs {
				if err := record(i, o, r, share); err != nil {
					return err
				}
			}
			return nil
		}
		logf("%s: one run does not fit the batch memory budget (train.DefaultMemoryBudget): trained alone", name)
	}
	for i, r := range missing {
		if err := ctx.Err(); err != nil {
			return err
		}
		start := time.Now()
		o, err := m.Run(ctx, r.Split, r.Seed)
		if err != nil {
			return fmt.Errorf("split %d, seed %d: %w", r.Split, r.Seed, err)
		}
		if err := record(i, o, 0, time.Since(start).Seconds()); err != nil {
			return err
		}
	}
	return nil
}

// autoBatched: LW-GCN and its variants run batched on a GPU, alone
// elsewhere. On an H200 (XLA CUDA, 2026-11-29) ten runs in one computation
// cost 0.30 ms per split-epoch on Texas against 1.5 ms for one run alone,
// 0.47 against 1.4 on Chameleon, 2.1 against 21.5 on Squirrel, and Cora's
// three seeds 2.55 against 6.2 (xla/README.md, "GPU"); on CPUs batching
// gave 0.70-1.07x.
func (m *lwgcnMethod) autoBatched() bool { return m.env.Info.OnGPU() }

// --- zoo models ---

// autoBatched is the entry's AutoBatch rule on the dataset graph.
func (m *zooMethod) autoBatched() bool {
	e, _ := zoo.Lookup(m.name)
	return e.AutoBatch != nil && e.AutoBatch(m.env.Graph, m.hyper)
}

// trainer is the method's trainer for size runs per computation (built on
// first use).
func (m *zooMethod) trainer(size int) (*train.Trainer, error) {
	if t, ok := m.trainers[size]; ok {
		return t, nil
	}
	t, err := zoo.NewTrainer(m.env.Backend, m.env.Info, m.env.Graph, m.name, m.hyper, m.env.Progress,
		func(c *train.Config) {
			c.BatchSize = size
			if m.env.CheckpointDir != "" {
				c.CheckpointDir, c.CheckpointEvery = m.env.CheckpointDir, CheckpointEvery
				c.CheckpointSettings = checkpointSettings(m.env.Dataset, m.name, m.hyper)
			}
		})
	if err != nil {
		return nil, err
	}
	m.trainers[size] = t
	return t, nil
}

// RunBatch implements Method.
func (m *zooMethod) RunBatch(ctx context.Context, runs []train.Run, size int) ([]Outcome, int, error) {
	if size == train.BatchFromMemory {
		e, _ := zoo.Lookup(m.name)
		nm, _, err := e.Build(m.hyper)
		if err != nil {
			return nil, 0, err
		}
		if size = train.BatchSizeFor(e.Prepare(m.env.Graph, m.hyper), nm, 0); size == 0 {
			return nil, 0, nil
		}
	}
	t, err := m.trainer(size)
	if err != nil {
		return nil, 0, err
	}
	res, err := t.Run(ctx, runs)
	if err != nil {
		return nil, 0, err
	}
	outs := make([]Outcome, len(runs))
	for i, rr := range res.Runs {
		outs[i] = m.outcome(rr)
		rr.Finalize()
	}
	return outs, t.BatchSize(), nil
}

// --- LW-GCN ---

// runner is the method's runner for size runs per computation (built on
// first use).
func (m *lwgcnMethod) runner(size int) (*labelwise.Runner, error) {
	if r, ok := m.runners[size]; ok {
		return r, nil
	}
	r, err := labelwise.NewRunner(m.env.Backend, m.env.Info, m.env.Graph, m.cfg, m.env.Progress, labelwise.WithBatch(size))
	if err != nil {
		return nil, err
	}
	r.UsePseudoCache(m.env.Pseudo)
	m.runners[size] = r
	return r, nil
}

// RunBatch implements Method.
func (m *lwgcnMethod) RunBatch(ctx context.Context, runs []train.Run, size int) ([]Outcome, int, error) {
	r, err := m.runner(size)
	if err != nil {
		return nil, 0, err
	}
	if size = r.BatchSize(); size == 0 {
		return nil, 0, nil
	}
	res, err := r.RunAll(ctx, runs)
	if err != nil {
		return nil, 0, err
	}
	outs := make([]Outcome, len(runs))
	for i, x := range res {
		outs[i] = m.outcome(x)
		x.Finalize()
	}
	return outs, min(size, len(runs)), nil
}
