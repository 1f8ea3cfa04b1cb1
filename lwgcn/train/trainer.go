package train

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/gomlx/compute"
	gomlxgraph "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/nn"
)

// Defaults.
const (
	DefaultEpochs = 200
	DefaultLR     = 0.01
	DefaultWD     = 5e-4
)

// BatchFromMemory as Config.BatchSize chooses the runs per computation
// from memory (BatchSizeFor).
const BatchFromMemory = -1

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
	// BatchSize is R, the runs trained together in one computation (see
	// nn.Runs): 0 or 1 trains each run alone, BatchFromMemory as many as
	// MemoryBudget allows (BatchSizeFor). A batch never has more runs than
	// the first Run call asks for.
	BatchSize int
	// MemoryBudget bounds the estimated working memory of a batch chosen
	// from memory; 0 means DefaultMemoryBudget.
	MemoryBudget int64
	// RunInputs, if set, adds a batch's per-run inputs after the split
	// masks (e.g. the label-wise structures of each run's pseudo-labels;
	// per-run metadata with nn.Inputs.SetRunMeta). Tensors whose names or
	// shapes change from batch to batch make each such batch compile its
	// own graph.
	RunInputs func(runs []Run, in *nn.Inputs) error
	// Progress receives progress; nil means Silent.
	Progress Progress
	// CheckpointDir, if set, keeps per run (in <dir>/split<k>-seed<s>) the
	// full training state ("last", every CheckpointEvery epochs and at the
	// end) and the best weights and outputs ("best"); a run whose
	// checkpoint exists resumes from it (and a finished one is not rerun).
	// Checkpoints are per run: they need a BatchSize of 1.
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

// Trainer trains one model on one graph, R runs per compiled computation.
// It is not safe for concurrent use.
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
	step    *step
	// finishUpdates: see LaggedEpoch.FinishUpdates.
	finishUpdates func(path string) bool
	// pendingArg is the position of InputPending among a LaggedEpoch's
	// call arguments (-1 without one); pendingValues its two values.
	pendingArg    int
	pendingValues [2]*tensors.Tensor

	runs        int // R, fixed at the first batch
	compiled    bool
	compileTime time.Duration
	// graphCompiles are the compile times of the executables one by one
	// (a call that compiled counts as one, see call).
	graphCompiles []time.Duration
	// compiles counts the epoch graphs built (each is compiled once): the
	// step's executables at the first batch, plus one whenever a batch's
	// inputs change shape. epochOps is the op count of the last epoch
	// graph of the first phase, epochGraph that graph (for its compiled
	// program's size, EpochHLOBytes).
	compiles, epochOps int
	epochGraph         *gomlxgraph.Graph
	// identity is what this trainer's checkpoints are made for (see
	// checkpointIdentity).
	identity map[string]string
}

// New prepares a trainer: it validates the configuration and lets the model
// add its inputs. Compilation happens at the first batch.
func New(b compute.Backend, m nn.Model, g *graph.Graph, cfg Config) (*Trainer, error) {
	if b == nil || m == nil || g == nil {
		return nil, errors.New("train: nil backend, model or graph")
	}
	if err := cfg.check(g); err != nil {
		return nil, err
	}
	if cfg.Optimizer == nil {
		cfg.Optimizer = NewOptimizer(Group{Name: "all", Adam: NewAdam(cfg.LR, cfg.WeightDecay)})
	}
	if cfg.Progress == nil {
		cfg.Progress = Silent{}
	}
	if cfg.Backend.Name == "" {
		cfg.Backend = backend.Describe(b)
	}
	t := &Trainer{cfg: cfg, backend: b, model: m, graph: g, store: model.NewStore(), base: nn.NewInputs(),
		opt: cfg.Optimizer, phases: cfg.Phases}
	t.base.Backend = b.String()
	finish, err := t.epochFuncs()
	if err != nil {
		return nil, err
	}
	if err := m.Prepare(g, t.base); err != nil {
		return nil, fmt.Errorf("train: preparing %s on %s: %w", m.Name(), g.Name(), err)
	}
	if cfg.Lagged != nil {
		t.pendingValues = [2]*tensors.Tensor{tensors.FromValue(false), tensors.FromValue(true)}
	}
	if err := t.newStep(finish); err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	return t, nil
}

// check validates the configuration's numbers for graph g.
func (cfg Config) check(g *graph.Graph) error {
	if cfg.Epochs <= 0 {
		return fmt.Errorf("train: epochs must be positive, got %d", cfg.Epochs)
	}
	if cfg.Optimizer == nil {
		if cfg.LR <= 0 || math.IsNaN(cfg.LR) {
			return fmt.Errorf("train: learning rate must be positive, got %v", cfg.LR)
		}
		if cfg.WeightDecay < 0 || math.IsNaN(cfg.WeightDecay) {
			return fmt.Errorf("train: weight decay must be >= 0, got %v", cfg.WeightDecay)
		}
	}
	if cfg.CheckpointEvery < 0 {
		return fmt.Errorf("train: checkpoint interval must be >= 0, got %d", cfg.CheckpointEvery)
	}
	if cfg.BatchSize < BatchFromMemory {
		return fmt.Errorf("train: batch size must be >= 1 (0: 1; %d: from memory), got %d", BatchFromMemory, cfg.BatchSize)
	}
	if cfg.CheckpointDir != "" && cfg.BatchSize != 0 && cfg.BatchSize != 1 {
		return errors.New("train: checkpoints are kept per run: train with a batch size of 1")
	}
	if err := cfg.Selection.Validate(); err != nil {
		return err
	}
	if cfg.Selection.By == ByValROCAUC && g.NumClasses() != 2 {
		return fmt.Errorf("train: ROC-AUC selection needs a two-class graph; %q has %d classes", g.Name(), g.NumClasses())
	}
	if g.Labels() == nil {
		return fmt.Errorf("train: graph %q has no labels", g.Name())
	}
	return nil
}

// epochFuncs settles t.phases from the configuration and returns the
// evaluation alone of the evaluation lag (nil without).
func (t *Trainer) epochFuncs() (finish EpochFunc, err error) {
	cfg, m := t.cfg, t.model
	switch {
	case len(t.phases) > 0 && cfg.Epoch != nil:
		return nil, errors.New("train: Config.Epoch and Config.Phases are exclusive")
	case cfg.Lagged != nil && (len(t.phases) > 0 || cfg.Epoch != nil):
		return nil, errors.New("train: Config.Lagged excludes Config.Epoch and Config.Phases")
	case cfg.Lagged != nil:
		l := cfg.Lagged
		if l.FinishAndStep == nil || l.Finish == nil {
			return nil, errors.New("train: Config.Lagged needs FinishAndStep and Finish")
		}
		t.phases = []Phase{{Epoch: l.FinishAndStep}}
		t.finishUpdates = l.FinishUpdates
		return l.Finish, nil
	case len(t.phases) == 0:
		epoch := cfg.Epoch
		if epoch == nil {
			epoch = StandardEpoch(m)
			if d, ok := m.(DeterministicPass); ok && d.DeterministicPass() {
				epoch, finish = laggedEpoch(m), evalEpoch(m)
			} else if sh, ok := m.(SharedPass); ok {
				epoch, finish = sharedLaggedEpoch(sh), evalEpoch(m)
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
	return finish, nil
}

// Store returns the model store (weights, optimizer state, random states).
func (t *Trainer) Store() *model.Store { return t.store }

// Inputs returns the graph's base inputs (without split masks).
func (t *Trainer) Inputs() *nn.Inputs { return t.base }

// CompileTime is the time the epoch graph took to build and compile.
func (t *Trainer) CompileTime() time.Duration { return t.compileTime }

// GraphCompiles are the times each executable took to build and compile
// so far, in order (CompileTime is about their sum).
func (t *Trainer) GraphCompiles() []time.Duration { return slices.Clone(t.graphCompiles) }

// LongestCompile is the longest of GraphCompiles (0 before any).
func (t *Trainer) LongestCompile() time.Duration {
	if len(t.graphCompiles) == 0 {
		return 0
	}
	return slices.Max(t.graphCompiles)
}

// Compiles is the number of epoch graphs built and compiled so far: one
// per executable of the step (the phases, and with the evaluation lag the
// evaluation alone) when every batch has the inputs' shapes
// of the first; a batch whose inputs change shape compiles its own.
func (t *Trainer) Compiles() int { return t.compiles }

// EpochOps is the number of ops (graph nodes, autodiff's included) of the
// first phase's epoch graph, 0 before it is built.
func (t *Trainer) EpochOps() int { return t.epochOps }

// EpochHLOBytes is the size of the StableHLO program the first phase's
// epoch graph was compiled to on XLA (go-xla's Executable.ProgramBytes,
// third_party patch 0003); 0 on the pure-Go backend, which compiles no
// program, and before the graph is compiled.
func (t *Trainer) EpochHLOBytes() int {
	if t.epochGraph == nil || !t.epochGraph.IsCompiled() {
		return 0
	}
	if p, ok := t.epochGraph.Executable().(interface{ ProgramBytes() int }); ok {
		return p.ProgramBytes()
	}
	return 0
}

// BatchSize is R, the runs per compiled computation (0 before the first
// batch).
func (t *Trainer) BatchSize() int { return t.runs }

// Model returns the model the trainer trains.
func (t *Trainer) Model() nn.Model { return t.model }
