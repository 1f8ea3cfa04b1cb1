package train

import (
	"fmt"
	"slices"
	"time"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/nn"
)

// DefaultMemoryBudget is the working memory a batch may use when the batch
// size is chosen from memory: 6 GiB, a quarter of the 24 GiB machine the
// protocol targets, leaving room for the graph's shared inputs, the Go
// runtime and a second process.
const DefaultMemoryBudget = 6 << 30

// MaxBatchSize caps the batch chosen from memory: the protocol's 10 splits
// fit in one batch, and larger batches only add padding for them.
const MaxBatchSize = 10

// BatchSizeFor is the number of runs of m on g whose estimated working
// memory (nn.Model.RunBytes) fits budget (0: DefaultMemoryBudget), at most
// MaxBatchSize, and 0 when a single run does not fit.
func BatchSizeFor(g *graph.Graph, m nn.Model, budget int64) int {
	if budget <= 0 {
		budget = DefaultMemoryBudget
	}
	r := budget / max(m.RunBytes(g), 1)
	return int(min(r, MaxBatchSize))
}

// fixBatchSize validates the runs' splits and fixes R at the first batch:
// Config.BatchSize (or BatchSizeFor), at most len(runs).
func (t *Trainer) fixBatchSize(runs []Run) error {
	splits := t.graph.Splits()
	for _, r := range runs {
		if r.Split < 0 || r.Split >= len(splits) {
			return fmt.Errorf("train: split %d out of range: graph %q has %d splits", r.Split, t.graph.Name(), len(splits))
		}
	}
	if t.runs > 0 {
		return nil
	}
	r := max(t.cfg.BatchSize, 1)
	if t.cfg.BatchSize == BatchFromMemory {
		if r = BatchSizeFor(t.graph, t.model, t.cfg.MemoryBudget); r == 0 {
			budget := t.cfg.MemoryBudget
			if budget <= 0 {
				budget = DefaultMemoryBudget
			}
			return fmt.Errorf("train: one run of %s on %s needs about %.1f GB, above the %.1f GB budget: "+
				"train the runs one at a time, or set Config.MemoryBudget or BatchSize",
				t.model.Name(), t.graph.Name(), float64(t.model.RunBytes(t.graph))/1e9, float64(budget)/1e9)
		}
	}
	t.runs = min(r, len(runs))
	return nil
}

// checkSplit requires training, validation and test nodes in a run's split:
// without validation nodes there is no epoch selection, without test nodes
// the reported accuracy would be a meaningless 0. (PrepareRuns alone, for
// benchmarks and tests of single steps, accepts any split.)
func (t *Trainer) checkSplit(k int) error {
	splits := t.graph.Splits()
	for _, part := range []struct {
		name  string
		nodes []int32
	}{{"training", splits[k].Train}, {"validation", splits[k].Val}, {"test", splits[k].Test}} {
		if len(part.nodes) == 0 {
			return fmt.Errorf("train: split %d of graph %q has no %s nodes", k, t.graph.Name(), part.name)
		}
	}
	return nil
}

// prepare sets up a batch of at most R runs, padded to R with repeats of
// its last run: the split masks ([N, R]) and the per-run inputs, the
// compilation at the first batch, then every run's fresh weights,
// optimizer state and random state. It returns the call arguments.
func (t *Trainer) prepare(batch []Run) ([]any, error) {
	padded := slices.Clone(batch)
	for len(padded) < t.runs {
		padded = append(padded, batch[len(batch)-1])
	}
	in := t.base.Clone()
	if err := t.setMasks(in, padded); err != nil {
		return nil, err
	}
	if t.cfg.RunInputs != nil {
		if err := t.cfg.RunInputs(padded, in); err != nil {
			return nil, fmt.Errorf("train: preparing runs %v: %w", batch, err)
		}
	}
	t.pendingArg = -1
	if t.cfg.Lagged != nil {
		in.Set(InputPending, t.pendingValues[0])
		t.pendingArg = slices.Index(in.Names(), InputPending)
	}
	t.cur = in
	seeds := make([]int64, len(padded))
	for k, r := range padded {
		seeds[k] = r.Seed
	}
	nn.SetSeed(t.store, seeds...)
	if err := t.compile(in); err != nil {
		return nil, err
	}
	if err := nn.Reinitialize(t.store, in); err != nil {
		return nil, err
	}
	if err := t.opt.Reset(t.store); err != nil {
		return nil, err
	}
	if err := nn.SeedRandom(t.store); err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	return in.Tensors(), nil
}

// setPending sets the InputPending argument of a LaggedEpoch's call.
func (t *Trainer) setPending(args []any, pending bool) {
	if t.pendingArg >= 0 {
		args[t.pendingArg] = t.pendingValues[btoi(pending)]
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// setMasks sets the runs' split masks, [N, R] (nn.SetSplitMasks).
func (t *Trainer) setMasks(in *nn.Inputs, runs []Run) error {
	splits := make([]graph.Split, len(runs))
	for k, r := range runs {
		splits[k] = t.graph.Splits()[r.Split]
	}
	if err := nn.SetSplitMasks(in, t.graph, splits...); err != nil {
		return fmt.Errorf("train: runs %v: %w", runs, err)
	}
	return nil
}

// compile compiles every executable of the step at the first batch (each
// creates the variables it uses, so before the weights are initialised).
func (t *Trainer) compile(in *nn.Inputs) error {
	if t.compiled {
		return nil
	}
	start := time.Now()
	name := fmt.Sprintf("%s on %s", t.model.Name(), t.graph.Name())
	if t.runs > 1 {
		name += fmt.Sprintf(" for %d runs", t.runs)
	}
	for i, exec := range t.step.phases {
		one := time.Now()
		if _, err := exec.Compile(in.Shapes()...); err != nil {
			if len(t.step.phases) > 1 {
				return fmt.Errorf("train: compiling %s, phase %d: %w", name, i+1, err)
			}
			return fmt.Errorf("train: compiling %s: %w", name, err)
		}
		if !slices.Equal(t.step.extras[i], t.step.extras[0]) {
			return fmt.Errorf("train: %s: phase %d reports extras %v, phase 1 %v: phases must report the same",
				t.model.Name(), i+1, t.step.extras[i], t.step.extras[0])
		}
		t.graphCompiles = append(t.graphCompiles, time.Since(one))
	}
	if t.step.eval != nil {
		want := slices.Clone(t.step.extras[0])
		one := time.Now()
		if _, err := t.step.eval.Compile(in.Shapes()...); err != nil {
			return fmt.Errorf("train: compiling the evaluation pass of %s: %w", name, err)
		}
		t.graphCompiles = append(t.graphCompiles, time.Since(one))
		if !slices.Equal(t.step.extras[0], want) {
			return fmt.Errorf("train: %s: the evaluation pass reports extras %v, the epoch %v: they must report the same",
				t.model.Name(), t.step.extras[0], want)
		}
	}
	t.compileTime = time.Since(start)
	t.compiled = true
	return nil
}
