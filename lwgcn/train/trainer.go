package train

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
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
)

// Defaults.
const (
	DefaultEpochs = 200
	DefaultLR     = 0.01
	DefaultWD     = 5e-4
)

// Config configures a Trainer.
type Config struct {
	// Epochs per run (> 0).
	Epochs int
	// LR and WeightDecay configure the default optimizer (one group with
	// all model weights) when Optimizer is nil.
	LR, WeightDecay float64
	Optimizer       *Optimizer
	// Epoch builds one epoch; nil means StandardEpoch(model).
	Epoch EpochFunc
	// Phases, if set (instead of Epoch), split a run into stretches of
	// epochs, each with its own compiled epoch graph over the same weights
	// and state: a graph computes only what its phase needs (BM-GCN's MLP
	// pre-training leaves out the joint model). Every phase must report the
	// same Extra keys.
	Phases []Phase
	// Lagged, if set (instead of Epoch and Phases), is a custom epoch
	// with the evaluation lag (see LaggedEpoch).
	Lagged *LaggedEpoch
	// PrepareRun, if set, adjusts a run's inputs after the split masks are
	// set (e.g. pseudo-label structures). Tensor names and shapes must be
	// the same for every run, so the compiled graph is reused.
	PrepareRun func(r Run, in *nn.Inputs) error
	// Progress receives progress; nil means Silent.
	Progress Progress
	// CheckpointDir, if set, keeps per run (in <dir>/split<k>-seed<s>) the
	// full training state ("last", every CheckpointEvery epochs and at the
	// end) and the best weights and outputs ("best"); a run whose
	// checkpoint exists resumes from it (and a finished one is not rerun).
	CheckpointDir   string
	CheckpointEvery int
	// CheckpointSettings are the caller's settings a checkpoint is made
	// for (hyperparameters of the model, the dataset's file hashes, ...),
	// recorded with it beside what the trainer knows itself (dataset name
	// and content, model, epochs, optimizer, backend): a checkpoint made
	// for anything else is refused, naming what differs.
	CheckpointSettings map[string]string
	// Backend describes the backend for Result.Backend (backend.Shared's
	// Info); when zero, a description is derived from the backend itself.
	Backend backend.Info
	// Selection picks each run's reported epoch and may stop a run early;
	// the zero value is the protocol's (best validation accuracy, first on
	// ties, every epoch).
	Selection Selection
}

// Phase is a stretch of a run's epochs built by one EpochFunc.
type Phase struct {
	// Epochs is the phase's number of epochs (>= 1); the last phase's 0
	// runs it to the end of the run.
	Epochs int
	Epoch  EpochFunc
}

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

// EpochNodes are what an EpochFunc builds.
type EpochNodes struct {
	// TrainLoss is the scalar training loss of the step (before the update).
	TrainLoss *Node
	// LogProbs are the evaluation log-probabilities [N, C] after the update
	// (dropout off).
	LogProbs *Node
	// Extra are further scalars reported per epoch (e.g. LW-GCN's model
	// selection weight).
	Extra map[string]*Node
}

// EpochFunc builds one epoch in g: the update step(s) through opt, and the
// evaluation pass. It must use scope.ResetVisited() for each model pass.
type EpochFunc func(scope *model.Scope, g *Graph, in *nn.Nodes, opt *Optimizer) EpochNodes

// StandardEpoch is one full-batch step: forward with dropout, NLL of the
// log-softmax on the training nodes, an Adam step on all groups, then the
// forward pass without dropout with the updated weights.
func StandardEpoch(m nn.Model) EpochFunc {
	return func(scope *model.Scope, g *Graph, in *nn.Nodes, opt *Optimizer) EpochNodes {
		labels := in.Get(nn.InputLabels)
		logp := nn.ClassLogSoftmax(m.Forward(scope.ResetVisited(), in, true))
		loss := MaskedNLL(logp, labels, in.Get(nn.InputTrainMask))
		opt.Step(scope, g, loss)
		eval := nn.ClassLogSoftmax(m.Forward(scope.ResetVisited(), in, false))
		return EpochNodes{TrainLoss: loss, LogProbs: eval}
	}
}

// DeterministicPass is implemented by models whose training pass computes
// exactly what their evaluation pass computes (no dropout, no batch
// statistics), such as LW-GCN's dense f_C. For them (with the standard
// epoch) the trainer takes an epoch's evaluation from the next epoch's
// training pass, which sees the same weights, instead of running the
// evaluation pass after each step: an epoch is then one forward pass, the
// backward pass and the update. The runs' results are the same; only the
// last epoch and the checkpoints run the evaluation pass on its own.
type DeterministicPass interface {
	DeterministicPass() bool
}

// LaggedEpoch is a custom epoch with the evaluation lag of
// DeterministicPass models: an epoch's end (its evaluation and what depends
// on it) is computed by the next epoch's call, from that call's training
// pass, which sees the same weights. Each of its calls must leave the model
// in the same state, and report the same epochs' figures, as the epoch
// function it replaces would (test it: see labelwise's selection epoch).
type LaggedEpoch struct {
	// Step is an epoch's step(s) alone (its LogProbs and Extra are not
	// read): the first epoch of a run and the first after a checkpoint.
	Step EpochFunc
	// FinishAndStep ends the previous epoch (its LogProbs and Extra) and
	// runs this epoch's step(s) (its TrainLoss).
	FinishAndStep EpochFunc
	// Finish ends the previous epoch alone (LogProbs and Extra; TrainLoss
	// is not read): the last epoch and before a checkpoint.
	Finish EpochFunc
	// FinishUpdates, if set, says which weights (by variable path) an
	// epoch's end updates: an epoch's copies of them are read after the
	// call that ended it, the others' before.
	FinishUpdates func(path string) bool
}

// laggedEpoch is StandardEpoch for a DeterministicPass model: one pass
// (training mode, the same as evaluation), whose loss is the step's and
// whose log-probabilities are the evaluation of the weights before the step.
func laggedEpoch(m nn.Model) EpochFunc {
	return func(scope *model.Scope, g *Graph, in *nn.Nodes, opt *Optimizer) EpochNodes {
		logp := nn.ClassLogSoftmax(m.Forward(scope.ResetVisited(), in, true))
		loss := MaskedNLL(logp, in.Get(nn.InputLabels), in.Get(nn.InputTrainMask))
		opt.Step(scope, g, loss)
		return EpochNodes{TrainLoss: loss, LogProbs: logp}
	}
}

// evalEpoch is the evaluation pass alone (no step).
func evalEpoch(m nn.Model) EpochFunc {
	return func(scope *model.Scope, g *Graph, in *nn.Nodes, opt *Optimizer) EpochNodes {
		logp := nn.ClassLogSoftmax(m.Forward(scope.ResetVisited(), in, false))
		return EpochNodes{TrainLoss: MaskedNLL(logp, in.Get(nn.InputLabels), in.Get(nn.InputTrainMask)), LogProbs: logp}
	}
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
	Duration              time.Duration
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
	// reading its statistics); MedianMsPerEpoch the median. Compilation is
	// excluded (Result.CompileTime).
	MsPerEpoch, MedianMsPerEpoch float64
	// LogProbs are the evaluation log-probabilities [N, C] of the best epoch
	// and Weights copies of the model weights after it (by variable path):
	// later epochs and runs never modify them. Release with Finalize.
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
	for _, t := range r.Weights {
		_ = t.FinalizeAll()
	}
	r.Weights = nil
}

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

// Trainer trains one model on one graph. It is not safe for concurrent use.
type Trainer struct {
	cfg     Config
	backend compute.Backend
	model   nn.Model
	graph   *graph.Graph
	store   *model.Store
	base    *nn.Inputs
	cur     *nn.Inputs
	opt     *Optimizer
	phases  []Phase
	execs   []*model.Exec // one per phase
	extras  [][]string    // Extra keys, per phase
	// evalExec, with the evaluation lag (see DeterministicPass): the
	// evaluation pass alone, for the last epoch and checkpoints.
	evalExec *model.Exec
	// stepExec, with a custom LaggedEpoch: its Step, run when no epoch is
	// pending (with a DeterministicPass model, execs[0] serves).
	stepExec      *model.Exec
	finishUpdates func(path string) bool

	compiled    bool
	compileTime time.Duration
	// identity is what this trainer's checkpoints are made for (see
	// checkpointIdentity).
	identity map[string]string
}

// New prepares a trainer: it validates the configuration and lets the model
// add its inputs. Compilation happens at the first run.
func New(b compute.Backend, m nn.Model, g *graph.Graph, cfg Config) (*Trainer, error) {
	if b == nil || m == nil || g == nil {
		return nil, errors.New("train: nil backend, model or graph")
	}
	if cfg.Epochs <= 0 {
		return nil, fmt.Errorf("train: epochs must be positive, got %d", cfg.Epochs)
	}
	if cfg.Optimizer == nil {
		if cfg.LR <= 0 || math.IsNaN(cfg.LR) {
			return nil, fmt.Errorf("train: learning rate must be positive, got %v", cfg.LR)
		}
		if cfg.WeightDecay < 0 || math.IsNaN(cfg.WeightDecay) {
			return nil, fmt.Errorf("train: weight decay must be >= 0, got %v", cfg.WeightDecay)
		}
		cfg.Optimizer = NewOptimizer(Group{Name: "all", Adam: NewAdam(cfg.LR, cfg.WeightDecay)})
	}
	if cfg.Progress == nil {
		cfg.Progress = Silent{}
	}
	if cfg.Backend.Name == "" {
		cfg.Backend = backend.Describe(b)
	}
	if cfg.CheckpointEvery < 0 {
		return nil, fmt.Errorf("train: checkpoint interval must be >= 0, got %d", cfg.CheckpointEvery)
	}
	if err := cfg.Selection.Validate(); err != nil {
		return nil, err
	}
	if cfg.Selection.By == ByValROCAUC && g.NumClasses() != 2 {
		return nil, fmt.Errorf("train: ROC-AUC selection needs a two-class graph; %q has %d classes", g.Name(), g.NumClasses())
	}
	if g.Labels() == nil {
		return nil, fmt.Errorf("train: graph %q has no labels", g.Name())
	}
	t := &Trainer{cfg: cfg, backend: b, model: m, graph: g, store: model.NewStore(), base: nn.NewInputs(),
		opt: cfg.Optimizer, phases: cfg.Phases}
	var finish, step EpochFunc // with the evaluation lag (see DeterministicPass)
	switch {
	case len(t.phases) > 0 && cfg.Epoch != nil:
		return nil, errors.New("train: Config.Epoch and Config.Phases are exclusive")
	case cfg.Lagged != nil && (len(t.phases) > 0 || cfg.Epoch != nil):
		return nil, errors.New("train: Config.Lagged excludes Config.Epoch and Config.Phases")
	case cfg.Lagged != nil:
		l := cfg.Lagged
		if l.Step == nil || l.FinishAndStep == nil || l.Finish == nil {
			return nil, errors.New("train: Config.Lagged needs Step, FinishAndStep and Finish")
		}
		t.phases = []Phase{{Epoch: l.FinishAndStep}}
		finish, step, t.finishUpdates = l.Finish, l.Step, l.FinishUpdates
	case len(t.phases) == 0:
		epoch := cfg.Epoch
		if epoch == nil {
			epoch = StandardEpoch(m)
			if d, ok := m.(DeterministicPass); ok && d.DeterministicPass() {
				epoch = laggedEpoch(m)
				finish = evalEpoch(m)
			}
		}
		t.phases = []Phase{{Epoch: epoch}}
	}
	for i, p := range t.phases {
		if p.Epoch == nil {
			return nil, fmt.Errorf("train: phase %d has no epoch function", i+1)
		}
		if last := i == len(t.phases)-1; p.Epochs < 0 || (p.Epochs == 0 && !last) {
			return nil, fmt.Errorf("train: phase %d: epochs must be >= 1 (0 only for the last phase), got %d", i+1, p.Epochs)
		}
	}
	if err := m.Prepare(g, t.base); err != nil {
		return nil, fmt.Errorf("train: preparing %s on %s: %w", m.Name(), g.Name(), err)
	}
	t.extras = make([][]string, len(t.phases))
	for i, p := range t.phases {
		exec, err := t.newEpochExec(i, true, p.Epoch)
		if err != nil {
			return nil, err
		}
		t.execs = append(t.execs, exec)
	}
	var err error
	if finish != nil {
		if t.evalExec, err = t.newEpochExec(0, true, finish); err != nil {
			return nil, err
		}
	}
	if step != nil {
		if t.stepExec, err = t.newEpochExec(0, false, step); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// newEpochExec is the executable of an epoch function (see buildEpoch).
func (t *Trainer) newEpochExec(phase int, report bool, epoch EpochFunc) (*model.Exec, error) {
	exec, err := model.NewExec(t.backend, t.store, func(scope *model.Scope, g *Graph, params []*Node) []*Node {
		return t.buildEpoch(phase, report, epoch, scope, g, params)
	})
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	return exec, nil
}

// phaseOf is the index of the phase that runs epoch (1-based).
func (t *Trainer) phaseOf(epoch int) int {
	end := 0
	for i, p := range t.phases {
		end += p.Epochs
		if p.Epochs == 0 || epoch <= end {
			return i
		}
	}
	return len(t.phases) - 1
}

// Store returns the model store (weights, optimizer state, RNG state).
func (t *Trainer) Store() *model.Store { return t.store }

// Inputs returns the graph's base inputs (without split masks).
func (t *Trainer) Inputs() *nn.Inputs { return t.base }

// CompileTime is the time the epoch graph took to build and compile.
func (t *Trainer) CompileTime() time.Duration { return t.compileTime }

// statistics vector layout.
const (
	statTrainLoss = iota
	statValLoss
	statTrainCorrect
	statValCorrect
	statTestCorrect
	statFinite
	numStats
)

// buildEpoch builds an epoch's graph; its statistics, and with report its
// Extra keys (t.extras[phase]), are what runOne books.
func (t *Trainer) buildEpoch(phase int, report bool, epoch EpochFunc, scope *model.Scope, g *Graph, params []*Node) []*Node {
	nn.UseVariableParameters(scope, g)
	in := t.cur.Nodes(params)
	ep := epoch(scope, g, in, t.opt)
	labels := in.Get(nn.InputLabels)
	logp := ep.LogProbs
	f64 := func(x *Node) *Node { return ConvertDType(x, dtypes.Float64) }
	finite := LogicalAnd(IsFinite(ep.TrainLoss), LogicalAll(IsFinite(logp)))
	stats := []*Node{
		f64(ep.TrainLoss),
		f64(MaskedNLL(logp, labels, in.Get(nn.InputValMask))),
		f64(CorrectCount(logp, labels, in.Get(nn.InputTrainMask))),
		f64(CorrectCount(logp, labels, in.Get(nn.InputValMask))),
		f64(CorrectCount(logp, labels, in.Get(nn.InputTestMask))),
		f64(ConvertDType(finite, dtypes.Float32)),
	}
	if report {
		t.extras[phase] = slices.Sorted(maps.Keys(ep.Extra))
		for _, k := range t.extras[phase] {
			stats = append(stats, f64(ep.Extra[k]))
		}
	}
	return []*Node{Stack(stats, 0), logp}
}

// Run trains every run in order and summarises them.
func (t *Trainer) Run(ctx context.Context, runs []Run) (*Result, error) {
	if len(runs) == 0 {
		return nil, errors.New("train: no runs")
	}
	p := t.cfg.Progress
	p.Begin(len(runs), t.cfg.Epochs)
	defer p.End()
	res := &Result{Model: t.model.Name(), Dataset: t.graph.Name(), Backend: t.cfg.Backend}
	var tests, vals []float64
	for i, r := range runs {
		rr, err := t.runOne(ctx, i, r)
		if err != nil {
			return res, err
		}
		res.Runs = append(res.Runs, rr)
		tests, vals = append(tests, rr.TestAcc), append(vals, rr.ValAcc)
		res.MsPerEpoch += rr.MsPerEpoch / float64(len(runs))
	}
	res.TestAcc, res.ValAcc = results.MeanStd(tests), results.MeanStd(vals)
	res.CompileTime = t.compileTime
	return res, nil
}

// RunOne trains a single run (with progress reported as run 0 of 1).
func (t *Trainer) RunOne(ctx context.Context, r Run) (*RunResult, error) {
	t.cfg.Progress.Begin(1, t.cfg.Epochs)
	defer t.cfg.Progress.End()
	return t.runOne(ctx, 0, r)
}

func (t *Trainer) runOne(ctx context.Context, index int, r Run) (*RunResult, error) {
	if err := t.checkSplit(r.Split); err != nil {
		return nil, err
	}
	er, err := t.PrepareRun(r)
	if err != nil {
		return nil, err
	}
	split := t.graph.Splits()[r.Split]
	rr := &RunResult{Split: r.Split, Seed: r.Seed}
	p := t.cfg.Progress
	p.StartRun(index, r.Split, r.Seed)
	ck := t.checkpointer(r)
	start := 1
	if ck != nil {
		st, err := ck.load(t.store)
		if err != nil {
			return nil, err
		}
		if st != nil {
			rr = st.result
			rr.Resumed = true
			start = st.epoch + 1
			if st.done {
				p.EndRun(rr)
				return rr, nil
			}
		}
	}
	nTrain, nVal, nTest := float64(len(split.Train)), float64(len(split.Val)), float64(len(split.Test))
	frac := func(c, n float64) float64 {
		if n == 0 {
			return 0
		}
		return c / n
	}
	args := er.args
	// A resumed run replays its recorded epochs into the selector, which
	// restores its best and its patience count.
	selector := t.cfg.Selection.NewSelector()
	for _, es := range rr.History {
		selector.Observe(es)
	}
	stopped := false // the selection's patience ended the run
	var durations []time.Duration
	var firstLoss float64 // the first training loss of this process's epochs (CheckLoss)
	// record books epoch's statistics (trainLoss: its step's loss; stats
	// and logp: the evaluation after its step); weights are the weights
	// after that step (nil: the store's).
	record := func(epoch, phase int, trainLoss float64, stats []float64, logp *tensors.Tensor, dur time.Duration,
		weights map[string]*tensors.Tensor) error {
		durations = append(durations, dur)
		es := EpochStats{Run: index, Split: r.Split, Seed: r.Seed, Epoch: epoch, TrainLoss: trainLoss,
			ValLoss: stats[statValLoss], TrainAcc: frac(stats[statTrainCorrect], nTrain),
			ValAcc: frac(stats[statValCorrect], nVal), TestAcc: frac(stats[statTestCorrect], nTest), Duration: dur}
		if t.cfg.Selection.By == ByValROCAUC && stats[statFinite] != 0 {
			var err error
			if es.ValROCAUC, es.TestROCAUC, err = splitROCAUC(logp, t.graph.Labels(), split); err != nil {
				_ = logp.FinalizeAll()
				finalizeWeights(weights)
				return fmt.Errorf("train: epoch %d of split %d: %w", epoch, r.Split, err)
			}
		}
		if len(t.extras[phase]) > 0 {
			es.Extra = map[string]float64{}
			for i, k := range t.extras[phase] {
				es.Extra[k] = stats[numStats+i]
			}
		}
		release := func() {
			_ = logp.FinalizeAll()
			finalizeWeights(weights)
		}
		if stats[statFinite] == 0 {
			release()
			return fmt.Errorf("train: %s on %s, split %d, seed %d: epoch %d: %w (train loss %v, val loss %v)",
				t.model.Name(), t.graph.Name(), r.Split, r.Seed, epoch, ErrNonFinite, es.TrainLoss, es.ValLoss)
		}
		if epoch == start {
			firstLoss = es.TrainLoss
		}
		if err := CheckLoss(epoch, es.TrainLoss, firstLoss); err != nil {
			release()
			return fmt.Errorf("train: %s on %s, split %d, seed %d: %w", t.model.Name(), t.graph.Name(), r.Split, r.Seed, err)
		}
		rr.History = append(rr.History, es)
		rr.Epochs = epoch
		selected, stop := selector.Observe(es)
		stopped = stop
		if selected {
			if rr.LogProbs != nil {
				_ = rr.LogProbs.FinalizeAll()
			}
			rr.LogProbs = logp
			rr.BestEpoch, rr.ValAcc, rr.TestAcc, rr.TrainAcc, rr.ValLoss, rr.Extra = epoch, es.ValAcc, es.TestAcc,
				es.TrainAcc, es.ValLoss, es.Extra
			rr.ValROCAUC, rr.TestROCAUC = es.ValROCAUC, es.TestROCAUC
			if weights != nil {
				finalizeWeights(rr.Weights)
				rr.Weights = weights
			} else if err := t.snapshotWeights(rr); err != nil {
				return err
			}
			if ck != nil {
				ck.bestDirty = true
			}
		} else {
			release()
		}
		p.EndEpoch(es)
		if ck != nil && (stop || epoch == t.cfg.Epochs || (t.cfg.CheckpointEvery > 0 && epoch%t.cfg.CheckpointEvery == 0)) {
			if err := ck.save(t.store, rr, epoch, stop || epoch == t.cfg.Epochs); err != nil {
				return err
			}
		}
		return nil
	}
	call := func(exec *model.Exec, epoch int) ([]float64, *tensors.Tensor, error) {
		outs, err := exec.Call(args...)
		if err != nil {
			return nil, nil, fmt.Errorf("train: epoch %d of split %d: %w", epoch, r.Split, err)
		}
		stats, err := tensors.CopyFlatData[float64](outs[0])
		_ = outs[0].FinalizeAll()
		if err != nil {
			_ = outs[1].FinalizeAll()
			return nil, nil, fmt.Errorf("train: reading epoch %d statistics: %w", epoch, err)
		}
		return stats, outs[1], nil
	}
	// With the evaluation lag (t.evalExec, see DeterministicPass), a call's
	// pass before its step is the evaluation of the previous epoch: pending
	// is that epoch's step (loss, time), booked with the next call, or with
	// an evaluation-only call at the last epoch and before each checkpoint
	// (which must hold the state of an epoch whose statistics are booked).
	type pendingStep struct {
		epoch int
		loss  float64
		dur   time.Duration
	}
	var pending *pendingStep
	for epoch := start; epoch <= t.cfg.Epochs; epoch++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		t0 := time.Now()
		phase := t.phaseOf(epoch)
		var before map[string]*tensors.Tensor // the weights the pass before the step sees
		if pending != nil {
			var err error
			if before, err = t.cloneWeights(nil); err != nil {
				return nil, err
			}
		}
		exec := t.execs[phase]
		if pending == nil && t.stepExec != nil {
			exec = t.stepExec
		}
		stats, logp, err := call(exec, epoch)
		if err == nil && before != nil && t.finishUpdates != nil {
			err = t.replaceWeights(before, t.finishUpdates)
		}
		if err != nil {
			finalizeWeights(before)
			return nil, err
		}
		dur := time.Since(t0)
		if t.evalExec == nil {
			if err := record(epoch, phase, stats[statTrainLoss], stats, logp, dur, nil); err != nil {
				return nil, err
			}
			if stopped {
				break
			}
			continue
		}
		if pending != nil {
			if err := record(pending.epoch, phase, pending.loss, stats, logp, pending.dur, before); err != nil {
				return nil, err
			}
			if stopped {
				// This call's step belongs to an epoch the run does not
				// have: the run ends at the one just recorded.
				break
			}
		} else {
			_ = logp.FinalizeAll()
			if stats[statFinite] == 0 {
				return nil, fmt.Errorf("train: %s on %s, split %d, seed %d: epoch %d: %w (train loss %v)",
					t.model.Name(), t.graph.Name(), r.Split, r.Seed, epoch, ErrNonFinite, stats[statTrainLoss])
			}
		}
		pending = &pendingStep{epoch: epoch, loss: stats[statTrainLoss], dur: dur}
		if epoch == t.cfg.Epochs || (ck != nil && t.cfg.CheckpointEvery > 0 && epoch%t.cfg.CheckpointEvery == 0) {
			t1 := time.Now()
			stats, logp, err := call(t.evalExec, epoch)
			if err != nil {
				return nil, err
			}
			if err := record(epoch, phase, pending.loss, stats, logp, pending.dur+time.Since(t1), nil); err != nil {
				return nil, err
			}
			pending = nil
			if stopped {
				break
			}
		}
	}
	rr.MsPerEpoch, rr.MedianMsPerEpoch = meanMedianMs(durations)
	p.EndRun(rr)
	return rr, nil
}

// checkSplit requires training, validation and test nodes in a run's split:
// without validation nodes there is no epoch selection, without test nodes
// the reported accuracy would be a meaningless 0. (PrepareRun alone, for
// benchmarks and tests of single steps, accepts any split.)
func (t *Trainer) checkSplit(k int) error {
	splits := t.graph.Splits()
	if k < 0 || k >= len(splits) {
		return fmt.Errorf("train: split %d out of range: graph %q has %d splits", k, t.graph.Name(), len(splits))
	}
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

// snapshotWeights copies the model weights into rr.Weights.
func (t *Trainer) snapshotWeights(rr *RunResult) error {
	finalizeWeights(rr.Weights)
	w, err := t.cloneWeights(nil)
	rr.Weights = w
	return err
}

// replaceWeights replaces w's copies of the weights match selects with
// copies of their current values.
func (t *Trainer) replaceWeights(w map[string]*tensors.Tensor, match func(path string) bool) error {
	now, err := t.cloneWeights(match)
	if err != nil {
		return err
	}
	for path, c := range now {
		if old := w[path]; old != nil {
			_ = old.FinalizeAll()
		}
		w[path] = c
	}
	return nil
}

// cloneWeights copies the model weights (those match selects, if set).
func (t *Trainer) cloneWeights(match func(path string) bool) (map[string]*tensors.Tensor, error) {
	out := map[string]*tensors.Tensor{}
	for v := range t.store.IterVariables() {
		if !nn.IsParam(t.store, v) || (match != nil && !match(v.Path())) {
			continue
		}
		val, err := v.Value()
		if err != nil {
			finalizeWeights(out)
			return nil, fmt.Errorf("train: reading %s: %w", v.Path(), err)
		}
		c, err := val.Clone()
		if err != nil {
			finalizeWeights(out)
			return nil, fmt.Errorf("train: copying %s: %w", v.Path(), err)
		}
		out[v.Path()] = c
	}
	return out, nil
}

func finalizeWeights(w map[string]*tensors.Tensor) {
	for _, t := range w {
		_ = t.FinalizeAll()
	}
}

func meanMedianMs(ds []time.Duration) (mean, median float64) {
	if len(ds) == 0 {
		return 0, 0
	}
	s := slices.Clone(ds)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	var sum time.Duration
	for _, d := range s {
		sum += d
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	return ms(sum) / float64(len(s)), ms(s[len(s)/2])
}

// WeightNames lists the kept weights of a run, sorted.
func (r *RunResult) WeightNames() []string { return slices.Sorted(maps.Keys(r.Weights)) }

// EpochRunner runs epochs of one prepared run without the bookkeeping of
// RunOne (no best-epoch tracking, no progress): for benchmarks.
type EpochRunner struct {
	t     *Trainer
	args  []any
	epoch int // epochs run so far (selects the phase)
}

// PrepareRun sets up run r as RunOne does (masks, compilation, fresh
// weights, optimizer state and RNG) and returns a runner for its epochs.
func (t *Trainer) PrepareRun(r Run) (*EpochRunner, error) {
	splits := t.graph.Splits()
	if r.Split < 0 || r.Split >= len(splits) {
		return nil, fmt.Errorf("train: split %d out of range: graph %q has %d splits", r.Split, t.graph.Name(), len(splits))
	}
	in := t.base.Clone()
	if err := nn.SetSplitMasks(in, t.graph, splits[r.Split]); err != nil {
		return nil, fmt.Errorf("train: split %d: %w", r.Split, err)
	}
	if t.cfg.PrepareRun != nil {
		if err := t.cfg.PrepareRun(r, in); err != nil {
			return nil, fmt.Errorf("train: preparing run (split %d, seed %d): %w", r.Split, r.Seed, err)
		}
	}
	t.cur = in
	nn.SetSeed(t.store, r.Seed)
	if !t.compiled {
		// Every phase compiles before the weights are initialised: each
		// creates the variables it uses.
		start := time.Now()
		for i, exec := range t.execs {
			if _, err := exec.Compile(in.Shapes()...); err != nil {
				if len(t.execs) > 1 {
					return nil, fmt.Errorf("train: compiling %s on %s, phase %d: %w", t.model.Name(), t.graph.Name(), i+1, err)
				}
				return nil, fmt.Errorf("train: compiling %s on %s: %w", t.model.Name(), t.graph.Name(), err)
			}
			if !slices.Equal(t.extras[i], t.extras[0]) {
				return nil, fmt.Errorf("train: %s: phase %d reports extras %v, phase 1 %v: phases must report the same",
					t.model.Name(), i+1, t.extras[i], t.extras[0])
			}
		}
		if t.evalExec != nil {
			want := slices.Clone(t.extras[0])
			if _, err := t.evalExec.Compile(in.Shapes()...); err != nil {
				return nil, fmt.Errorf("train: compiling the evaluation pass of %s on %s: %w", t.model.Name(), t.graph.Name(), err)
			}
			if !slices.Equal(t.extras[0], want) {
				return nil, fmt.Errorf("train: %s: the evaluation pass reports extras %v, the epoch %v: they must report the same",
					t.model.Name(), t.extras[0], want)
			}
		}
		if t.stepExec != nil {
			if _, err := t.stepExec.Compile(in.Shapes()...); err != nil {
				return nil, fmt.Errorf("train: compiling the first step of %s on %s: %w", t.model.Name(), t.graph.Name(), err)
			}
		}
		t.compileTime = time.Since(start)
		t.compiled = true
	}
	if err := nn.Reinitialize(t.store, r.Seed, in); err != nil {
		return nil, err
	}
	if err := t.opt.Reset(t.store); err != nil {
		return nil, err
	}
	if err := t.store.SetRNGStateFromSeed(r.Seed); err != nil {
		return nil, fmt.Errorf("train: seeding: %w", err)
	}
	return &EpochRunner{t: t, args: in.Tensors()}, nil
}

// Epoch runs one epoch and returns its training loss.
func (e *EpochRunner) Epoch() (float64, error) {
	e.epoch++
	exec := e.t.execs[e.t.phaseOf(e.epoch)]
	if e.epoch == 1 && e.t.stepExec != nil {
		exec = e.t.stepExec
	}
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
	return stats[statTrainLoss], nil
}
