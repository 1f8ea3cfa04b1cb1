package batched

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"time"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/results"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

// Input names of the per-run masks ([N, R] float).
const (
	InputTrainMask = "runs/mask/train"
	InputValMask   = "runs/mask/val"
	InputTestMask  = "runs/mask/test"
)

// Config configures a Trainer.
type Config struct {
	// Epochs per run (> 0); LR and WeightDecay are Adam's (train.NewAdam),
	// the same for every run, when Optimizer is nil.
	Epochs          int
	LR, WeightDecay float64
	// Optimizer, if set, gives parameter groups as train.Config's does
	// (matched by the unbatched variable paths, e.g.
	// train.ScopePrefix("/conv")); a group without Match takes every
	// weight not claimed by an earlier group.
	Optimizer *train.Optimizer
	// BatchSize is the number of runs per compiled computation; 0 chooses
	// it from memory (BatchSizeFor with MemoryBudget).
	BatchSize int
	// MemoryBudget bounds the estimated working memory of one batch when
	// BatchSize is 0; 0 means DefaultMemoryBudget.
	MemoryBudget int64
	// Progress receives progress (a run's epochs are reported when its
	// batch ends); nil means train.Silent.
	Progress train.Progress
	// Backend describes the backend for Result.Backend.
	Backend backend.Info
	// Selection picks each run's reported epoch as train.Config's does
	// (ROC-AUC excepted): a run its patience stops keeps the epochs up to
	// its stop, and the batch ends when every run has stopped.
	Selection train.Selection
}

// Trainer trains runs of one model on one graph, R at a time. It is not
// safe for concurrent use.
type Trainer struct {
	cfg     Config
	backend compute.Backend
	unb     nn.Model
	model   Model
	graph   *graph.Graph
	store   *model.Store
	base    *nn.Inputs
	cur     *nn.Inputs
	opt     *train.Optimizer
	exec    *model.Exec

	runs        int // R, fixed at the first batch
	seeds       []int64
	runMeta     []map[string]int // per run of the batch: metadata of RunInputs
	params      []paramSpec
	rng         []*model.Variable
	extras      []string // names of the per-run extra statistics, sorted
	compiled    bool
	compileTime time.Duration
}

// New prepares a batched trainer for m (which must have a batched form,
// see For). Compilation happens at the first batch.
func New(b compute.Backend, m nn.Model, g *graph.Graph, cfg Config) (*Trainer, error) {
	if b == nil || m == nil || g == nil {
		return nil, errors.New("batched: nil backend, model or graph")
	}
	bm, err := For(m)
	if err != nil {
		return nil, err
	}
	if cfg.Epochs <= 0 {
		return nil, fmt.Errorf("batched: epochs must be positive, got %d", cfg.Epochs)
	}
	if cfg.Optimizer == nil {
		if cfg.LR <= 0 || math.IsNaN(cfg.LR) {
			return nil, fmt.Errorf("batched: learning rate must be positive, got %v", cfg.LR)
		}
		if cfg.WeightDecay < 0 || math.IsNaN(cfg.WeightDecay) {
			return nil, fmt.Errorf("batched: weight decay must be >= 0, got %v", cfg.WeightDecay)
		}
	}
	if cfg.BatchSize < 0 {
		return nil, fmt.Errorf("batched: batch size must be >= 0 (0: from memory), got %d", cfg.BatchSize)
	}
	if err := cfg.Selection.Validate(); err != nil {
		return nil, err
	}
	if cfg.Selection.By == train.ByValROCAUC {
		return nil, errors.New("batched: ROC-AUC selection is not supported: train the runs alone (package train)")
	}
	if cfg.Progress == nil {
		cfg.Progress = train.Silent{}
	}
	if cfg.Backend.Name == "" {
		cfg.Backend = backend.Describe(b)
	}
	if g.Labels() == nil {
		return nil, fmt.Errorf("batched: graph %q has no labels", g.Name())
	}
	t := &Trainer{cfg: cfg, backend: b, unb: m, model: bm, graph: g, store: model.NewStore(), base: nn.NewInputs()}
	if cfg.Optimizer == nil {
		t.opt = train.NewOptimizer(train.Group{Name: "all", Adam: train.NewAdam(cfg.LR, cfg.WeightDecay), Match: t.isParam})
	} else {
		// The batched weights are not nn.Param variables: a group matching
		// "every weight" matches them by path instead.
		groups := slices.Clone(cfg.Optimizer.Groups)
		for i := range groups {
			if groups[i].Match == nil {
				groups[i].Match = t.isParam
			}
		}
		t.opt = train.NewOptimizer(groups...)
	}
	if err := bm.Prepare(g, t.base); err != nil {
		return nil, fmt.Errorf("batched: preparing %s on %s: %w", m.Name(), g.Name(), err)
	}
	if t.exec, err = model.NewExec(b, t.store, t.buildEpoch); err != nil {
		return nil, fmt.Errorf("batched: %w", err)
	}
	return t, nil
}

func (t *Trainer) isParam(v *model.Variable) bool {
	return slices.ContainsFunc(t.params, func(p paramSpec) bool { return p.path == v.Path() })
}

// BatchSize is R, the runs per compiled computation (0 before the first
// batch when chosen from memory).
func (t *Trainer) BatchSize() int { return t.runs }

// CompileTime is the time the epoch graph took to build and compile.
func (t *Trainer) CompileTime() time.Duration { return t.compileTime }

// statistics per run, layout of the [R, numStats] output.
const (
	statTrainLoss = iota
	statValLoss
	statTrainCorrect
	statValCorrect
	statTestCorrect
	statFinite
	numStats
)

func (t *Trainer) buildEpoch(scope *model.Scope, g *Graph, params []*Node) []*Node {
	nn.UseVariableParameters(scope, g)
	in := t.cur.Nodes(params)
	b := &Builder{Runs: t.runs, DType: in.DType, g: g, t: t}
	var ep EpochNodes
	if e, ok := t.model.(Epocher); ok {
		ep = e.Epoch(b, scope, in, t.opt)
	} else {
		ep = StandardEpoch(t.model, b, scope, in, t.opt)
	}
	labels := in.Get(nn.InputLabels)
	eval := ep.LogProbs
	finiteLogp := ReduceMin(ConvertDType(IsFinite(eval), dtypes.Float32), 0, 2) // [R]
	finite := Min(finiteLogp, ConvertDType(IsFinite(ep.TrainLoss), dtypes.Float32))
	f64 := func(x *Node) *Node { return ConvertDType(x, dtypes.Float64) }
	stats := []*Node{
		f64(ep.TrainLoss),
		f64(MaskedNLL(eval, labels, in.Get(InputValMask))),
		f64(CorrectCount(eval, labels, in.Get(InputTrainMask))),
		f64(CorrectCount(eval, labels, in.Get(InputValMask))),
		f64(CorrectCount(eval, labels, in.Get(InputTestMask))),
		f64(finite),
	}
	t.extras = slices.Sorted(maps.Keys(ep.Extra))
	for _, k := range t.extras {
		stats = append(stats, f64(ep.Extra[k]))
	}
	return []*Node{Stack(stats, 1), eval}
}

// Run trains the runs, BatchSize at a time (the last batch padded with
// repeats of its last run, whose results are dropped), and summarises them
// as train.Trainer.Run does. RunResult.MsPerEpoch is the batch's epoch time
// divided by the runs it trained (a split-epoch); RunResult.Weights is not
// kept (see RunWeights).
func (t *Trainer) Run(ctx context.Context, runs []train.Run) (*train.Result, error) {
	if len(runs) == 0 {
		return nil, errors.New("batched: no runs")
	}
	if err := t.check(runs); err != nil {
		return nil, err
	}
	p := t.cfg.Progress
	p.Begin(len(runs), t.cfg.Epochs)
	defer p.End()
	res := &train.Result{Model: t.unb.Name(), Dataset: t.graph.Name(), Backend: t.cfg.Backend}
	var tests, vals []float64
	for start := 0; start < len(runs); start += t.runs {
		batch := runs[start:min(start+t.runs, len(runs))]
		rrs, err := t.runBatch(ctx, batch)
		if err != nil {
			return res, err
		}
		for k, rr := range rrs {
			p.StartRun(start+k, rr.Split, rr.Seed)
			for _, es := range rr.History {
				p.EndEpoch(es)
			}
			p.EndRun(rr)
			res.Runs = append(res.Runs, rr)
			tests, vals = append(tests, rr.TestAcc), append(vals, rr.ValAcc)
			res.MsPerEpoch += rr.MsPerEpoch / float64(len(runs))
		}
	}
	res.TestAcc, res.ValAcc = results.MeanStd(tests), results.MeanStd(vals)
	res.CompileTime = t.compileTime
	return res, nil
}

// check validates the runs' splits and fixes the batch size at the first
// call: Config.BatchSize, else BatchSizeFor, at most len(runs).
func (t *Trainer) check(runs []train.Run) error {
	splits := t.graph.Splits()
	for _, r := range runs {
		if r.Split < 0 || r.Split >= len(splits) {
			return fmt.Errorf("batched: split %d out of range: graph %q has %d splits", r.Split, t.graph.Name(), len(splits))
		}
	}
	if t.runs == 0 {
		r := t.cfg.BatchSize
		if r == 0 {
			if r = BatchSizeFor(t.graph, t.unb, t.cfg.MemoryBudget); r == 0 {
				budget := t.cfg.MemoryBudget
				if budget <= 0 {
					budget = DefaultMemoryBudget
				}
				return fmt.Errorf("batched: one run of %s on %s needs about %.1f GB, above the %.1f GB budget: "+
					"train it unbatched (package train), or set Config.MemoryBudget or BatchSize",
					t.unb.Name(), t.graph.Name(), float64(RunBytes(t.graph, t.unb))/1e9, float64(budget)/1e9)
			}
		}
		t.runs = min(r, len(runs))
	}
	return nil
}

// prepare sets the batch's inputs (masks [N, R]), compiles at the first
// batch, and resets weights, optimizer state and random states to each
// run's start. It returns the call arguments.
func (t *Trainer) prepare(batch []train.Run) ([]any, error) {
	n := t.graph.NumNodes()
	r := t.runs
	padded := slices.Clone(batch)
	for len(padded) < r {
		padded = append(padded, batch[len(batch)-1])
	}
	t.seeds = make([]int64, r)
	masks := [3][]float32{make([]float32, n*r), make([]float32, n*r), make([]float32, n*r)}
	for k, run := range padded {
		t.seeds[k] = run.Seed
		tr, va, te := t.graph.Splits()[run.Split].Masks(n)
		for i := range n {
			for m, set := range [3][]bool{tr, va, te} {
				if set[i] {
					masks[m][i*r+k] = 1
				}
			}
		}
	}
	in := t.base.Clone()
	t.runMeta = nil
	if ri, ok := t.model.(RunInputs); ok {
		meta, err := ri.PrepareRuns(t.graph, in, padded)
		if err != nil {
			return nil, fmt.Errorf("batched: preparing runs %v: %w", batch, err)
		}
		t.runMeta = meta
	}
	in.SetFloat(InputTrainMask, masks[0], n, r)
	in.SetFloat(InputValMask, masks[1], n, r)
	in.SetFloat(InputTestMask, masks[2], n, r)
	t.cur = in
	if !t.compiled {
		for k := range r {
			state, err := RNGStateFromSeed(t.seeds[k])
			if err != nil {
				return nil, fmt.Errorf("batched: seeding: %w", err)
			}
			v := t.store.Scope("/batched_rng").VariableWithValue(fmt.Sprintf("run%03d", k), state).SetTrainable(false)
			t.rng = append(t.rng, v)
		}
		start := time.Now()
		if _, err := t.exec.Compile(in.Shapes()...); err != nil {
			return nil, fmt.Errorf("batched: compiling %s on %s for %d runs: %w", t.unb.Name(), t.graph.Name(), r, err)
		}
		t.compileTime = time.Since(start)
		t.compiled = true
	}
	for _, p := range t.params {
		val, err := p.stacked(t.seeds, t.runMeta)
		if err != nil {
			return nil, err
		}
		if err := t.store.GetVariable(p.path).SetValue(val); err != nil {
			return nil, fmt.Errorf("batched: initialising %s: %w", p.path, err)
		}
	}
	if err := t.opt.Reset(t.store); err != nil {
		return nil, err
	}
	for k, v := range t.rng {
		state, err := RNGStateFromSeed(t.seeds[k])
		if err != nil {
			return nil, fmt.Errorf("batched: seeding: %w", err)
		}
		if err := v.SetValue(state); err != nil {
			return nil, fmt.Errorf("batched: seeding: %w", err)
		}
	}
	return in.Tensors(), nil
}

func (t *Trainer) runBatch(ctx context.Context, batch []train.Run) ([]*train.RunResult, error) {
	args, err := t.prepare(batch)
	if err != nil {
		return nil, err
	}
	r, real := t.runs, len(batch)
	n, c := t.graph.NumNodes(), t.graph.NumClasses()
	rrs := make([]*train.RunResult, real)
	selectors := make([]*train.Selector, real)
	stopped := make([]bool, real) // the run's patience ended it
	sizes := make([][3]float64, real)
	for k, run := range batch {
		rrs[k] = &train.RunResult{Split: run.Split, Seed: run.Seed}
		selectors[k] = t.cfg.Selection.NewSelector()
		s := t.graph.Splits()[run.Split]
		sizes[k] = [3]float64{float64(len(s.Train)), float64(len(s.Val)), float64(len(s.Test))}
	}
	frac := func(c, n float64) float64 {
		if n == 0 {
			return 0
		}
		return c / n
	}
	firstLoss := make([]float64, len(batch)) // each run's first training loss (train.CheckLoss)
	var durations []time.Duration
	for epoch := 1; epoch <= t.cfg.Epochs; epoch++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		t0 := time.Now()
		outs, err := t.exec.Call(args...)
		if err != nil {
			return nil, fmt.Errorf("batched: epoch %d of runs %v: %w", epoch, batch, err)
		}
		stats, err := tensors.CopyFlatData[float64](outs[0])
		dur := time.Since(t0)
		_ = outs[0].FinalizeAll()
		if err != nil {
			_ = outs[1].FinalizeAll()
			return nil, fmt.Errorf("batched: reading epoch %d statistics: %w", epoch, err)
		}
		durations = append(durations, dur)
		var logp []float32
		for k := range real {
			if stopped[k] {
				continue
			}
			width := numStats + len(t.extras)
			st := stats[k*width : (k+1)*width]
			rr := rrs[k]
			es := train.EpochStats{Run: k, Split: rr.Split, Seed: rr.Seed, Epoch: epoch, TrainLoss: st[statTrainLoss],
				ValLoss: st[statValLoss], TrainAcc: frac(st[statTrainCorrect], sizes[k][0]),
				ValAcc: frac(st[statValCorrect], sizes[k][1]), TestAcc: frac(st[statTestCorrect], sizes[k][2]),
				Duration: dur / time.Duration(real)}
			if len(t.extras) > 0 {
				es.Extra = map[string]float64{}
				for i, name := range t.extras {
					es.Extra[name] = st[numStats+i]
				}
			}
			if st[statFinite] == 0 {
				_ = outs[1].FinalizeAll()
				return nil, fmt.Errorf("batched: %s on %s, split %d, seed %d: epoch %d: %w (train loss %v, val loss %v)",
					t.unb.Name(), t.graph.Name(), rr.Split, rr.Seed, epoch, train.ErrNonFinite, es.TrainLoss, es.ValLoss)
			}
			if epoch == 1 {
				firstLoss[k] = es.TrainLoss
			}
			if err := train.CheckLoss(epoch, es.TrainLoss, firstLoss[k]); err != nil {
				_ = outs[1].FinalizeAll()
				return nil, fmt.Errorf("batched: %s on %s, split %d, seed %d: %w", t.unb.Name(), t.graph.Name(), rr.Split, rr.Seed, err)
			}
			rr.History = append(rr.History, es)
			rr.Epochs = epoch
			selected, stop := selectors[k].Observe(es)
			stopped[k] = stop
			if selected {
				if logp == nil {
					if logp, err = tensors.CopyFlatData[float32](outs[1]); err != nil {
						_ = outs[1].FinalizeAll()
						return nil, fmt.Errorf("batched: reading epoch %d outputs: %w", epoch, err)
					}
				}
				if rr.LogProbs != nil {
					_ = rr.LogProbs.FinalizeAll()
				}
				rr.LogProbs = runSlice(logp, n, r, c, k)
				rr.BestEpoch, rr.ValAcc, rr.TestAcc, rr.TrainAcc, rr.ValLoss, rr.Extra = epoch, es.ValAcc, es.TestAcc, es.TrainAcc, es.ValLoss, es.Extra
			}
		}
		_ = outs[1].FinalizeAll()
		if !slices.Contains(stopped, false) {
			break
		}
	}
	mean, median := meanMedianMs(durations)
	for _, rr := range rrs {
		rr.MsPerEpoch, rr.MedianMsPerEpoch = mean/float64(real), median/float64(real)
	}
	return rrs, nil
}

// runSlice is run k's [N, C] block of a flat [N, R, C] array, as a tensor.
func runSlice(flat []float32, n, r, c, k int) *tensors.Tensor {
	out := make([]float32, n*c)
	for i := range n {
		copy(out[i*c:(i+1)*c], flat[(i*r+k)*c:(i*r+k+1)*c])
	}
	return tensors.FromFlatDataAndDimensions(out, n, c)
}

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

// RunWeights returns run k's weights (k < BatchSize, in the last batch
// trained) by unbatched variable path, as flat float32 values in the
// unbatched variable's row-major order: what train.Trainer's store would
// hold for that run.
func (t *Trainer) RunWeights(k int) (map[string][]float32, error) {
	if k < 0 || k >= t.runs {
		return nil, fmt.Errorf("batched: run %d out of range: batch of %d", k, t.runs)
	}
	out := map[string][]float32{}
	for _, p := range t.params {
		v := t.store.GetVariable(p.path)
		val, err := v.Value()
		if err != nil {
			return nil, fmt.Errorf("batched: reading %s: %w", p.path, err)
		}
		flat, err := tensors.CopyFlatData[float32](val)
		if err != nil {
			return nil, fmt.Errorf("batched: reading %s: %w", p.path, err)
		}
		n := 1
		for _, d := range p.dims {
			n *= d
		}
		w := make([]float32, n)
		for i := range w {
			w[i] = flat[p.index(t.runs, k, i)]
		}
		out[p.path] = w
	}
	return out, nil
}

// EpochRunner runs epochs of one prepared batch without bookkeeping (no
// best-epoch tracking, no progress): for benchmarks.
type EpochRunner struct {
	t    *Trainer
	args []any
	// Runs is the number of runs the batch trains (padding excluded).
	Runs int
}

// PrepareBatch sets up one batch of runs (at most BatchSize; the batch
// size is fixed here when not yet chosen) as Run does and returns a runner
// for its epochs.
func (t *Trainer) PrepareBatch(runs []train.Run) (*EpochRunner, error) {
	if len(runs) == 0 {
		return nil, errors.New("batched: no runs")
	}
	if err := t.check(runs); err != nil {
		return nil, err
	}
	if len(runs) > t.runs {
		return nil, fmt.Errorf("batched: %d runs for a batch of %d", len(runs), t.runs)
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
	outs, err := e.t.exec.Call(e.args...)
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
	var sum float64
	for k := range e.Runs {
		sum += stats[k*(numStats+len(e.t.extras))+statTrainLoss]
	}
	return sum, nil
}
