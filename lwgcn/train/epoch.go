package train

import (
	"maps"
	"slices"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/nn"
)

// Phase is a stretch of a run's epochs built by one EpochFunc.
type Phase struct {
	// Epochs is the phase's number of epochs (>= 1); the last phase's 0
	// runs it to the end of the run.
	Epochs int
	Epoch  EpochFunc
}

// EpochNodes are what an EpochFunc builds, for the R runs of the batch
// (see nn.Runs).
type EpochNodes struct {
	// TrainLoss is each run's training loss of the step (before the
	// update), [R].
	TrainLoss *Node
	// LogProbs are the evaluation log-probabilities [N, R·C] after the
	// update (dropout off).
	LogProbs *Node
	// Extra are further per-run values [R] reported per epoch (e.g. LW-GCN's
	// model selection weight).
	Extra map[string]*Node
}

// EpochFunc builds one epoch in g: the update step(s) through opt, and the
// evaluation pass. It must use scope.ResetVisited() for each model pass.
// Each run's loss must depend on its own weights only; opt steps on their
// sum (Total), so each run's gradient is its own loss's.
type EpochFunc func(scope *model.Scope, g *Graph, in *nn.Nodes, opt *Optimizer) EpochNodes

// Total is the sum of the runs' losses [R], the scalar an optimizer steps
// on.
func Total(losses *Node) *Node { return ReduceAllSum(losses) }

// StandardEpoch is one full-batch step: forward with dropout, NLL of the
// log-softmax on the training nodes, an Adam step on all groups, then the
// forward pass without dropout with the updated weights.
func StandardEpoch(m nn.Model) EpochFunc {
	return func(scope *model.Scope, g *Graph, in *nn.Nodes, opt *Optimizer) EpochNodes {
		labels := in.Get(nn.InputLabels)
		logp := nn.RunsLogSoftmax(scope, m.Forward(scope.ResetVisited(), in, true))
		loss := MaskedNLL(logp, labels, in.Get(nn.InputTrainMask))
		opt.Step(scope, g, Total(loss))
		eval := nn.RunsLogSoftmax(scope, m.Forward(scope.ResetVisited(), in, false))
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
	// FinishAndStep ends the previous epoch (its LogProbs and Extra) and
	// runs this epoch's step(s) (its TrainLoss). At a run's first epoch,
	// and at the first after Finish, no epoch is pending: the call must
	// then be this epoch's step(s) alone, so the end's updates of the
	// store are kept only where Pending(in) is true (Optimizer.StepWhen).
	// One executable thus serves every epoch (a separate step-alone graph
	// would be compiled for the first epoch only; on XLA CPU that was
	// 40 % of Cora's compile time).
	FinishAndStep EpochFunc
	// Finish ends the previous epoch alone (LogProbs and Extra; TrainLoss
	// is not read): the last epoch and before a checkpoint.
	Finish EpochFunc
	// FinishUpdates, if set, says which weights (by variable path) an
	// epoch's end updates: an epoch's copies of them are read after the
	// call that ended it, the others' before.
	FinishUpdates func(path string) bool
}

// InputPending names the boolean scalar input that the trainer adds for a
// LaggedEpoch: whether the call ends a pending epoch (false at a run's
// first epoch and at the first after an evaluation alone).
const InputPending = "train_pending"

// Pending is a LaggedEpoch's InputPending node (see FinishAndStep).
func Pending(in *nn.Nodes) *Node { return in.Get(InputPending) }

// laggedEpoch is StandardEpoch for a DeterministicPass model: one pass
// (training mode, the same as evaluation), whose loss is the step's and
// whose log-probabilities are the evaluation of the weights before the step.
func laggedEpoch(m nn.Model) EpochFunc {
	return func(scope *model.Scope, g *Graph, in *nn.Nodes, opt *Optimizer) EpochNodes {
		logp := nn.RunsLogSoftmax(scope, m.Forward(scope.ResetVisited(), in, true))
		loss := MaskedNLL(logp, in.Get(nn.InputLabels), in.Get(nn.InputTrainMask))
		opt.Step(scope, g, Total(loss))
		return EpochNodes{TrainLoss: loss, LogProbs: logp}
	}
}

// SharedPass is implemented by models whose training and evaluation passes
// agree up to a last dropout (e.g. LW-GCN's small f_C, whose only dropout
// is before its classifier): ForwardShared returns both outputs from one
// pass, the training output (dropout on) and the evaluation output (off).
// The trainer then takes an epoch's evaluation from the next epoch's
// pass, as for DeterministicPass models: everything before the dropout is
// computed once per epoch instead of twice. The runs are the same.
type SharedPass interface {
	ForwardShared(scope *model.Scope, in *nn.Nodes) (train, eval *Node)
}

// sharedLaggedEpoch is StandardEpoch for a SharedPass model: one pass,
// whose training output gives the step's loss and whose evaluation output
// is the evaluation of the weights before the step.
func sharedLaggedEpoch(m SharedPass) EpochFunc {
	return func(scope *model.Scope, g *Graph, in *nn.Nodes, opt *Optimizer) EpochNodes {
		out, eval := m.ForwardShared(scope.ResetVisited(), in)
		loss := MaskedNLL(nn.RunsLogSoftmax(scope, out), in.Get(nn.InputLabels), in.Get(nn.InputTrainMask))
		opt.Step(scope, g, Total(loss))
		return EpochNodes{TrainLoss: loss, LogProbs: StopGradient(nn.RunsLogSoftmax(scope, eval))}
	}
}

// evalEpoch is the evaluation pass alone (no step).
func evalEpoch(m nn.Model) EpochFunc {
	return func(scope *model.Scope, g *Graph, in *nn.Nodes, opt *Optimizer) EpochNodes {
		logp := nn.RunsLogSoftmax(scope, m.Forward(scope.ResetVisited(), in, false))
		return EpochNodes{TrainLoss: MaskedNLL(logp, in.Get(nn.InputLabels), in.Get(nn.InputTrainMask)), LogProbs: logp}
	}
}

// statistics per run, the columns of an epoch's [R, numStats+extras]
// output.
const (
	statTrainLoss = iota
	statValLoss
	statTrainCorrect
	statValCorrect
	statTestCorrect
	statFinite
	numStats
)

// step is the compiled epoch of one batch size: an executable per phase,
// and with the evaluation lag (see DeterministicPass and LaggedEpoch) the
// evaluation alone (eval: the last epoch and before checkpoints).
type step struct {
	phases []*model.Exec
	eval   *model.Exec
	// extras are the names of the per-run Extra values, sorted, per phase.
	extras [][]string
}

// buildEpoch builds an epoch's graph: its per-run statistics [R,
// numStats+extras] and evaluation log-probabilities [N, R·C]; it records
// its Extra keys (t.step.extras[phase]) and, for a phase's step (not the
// evaluation alone, evalOnly), its op count.
func (t *Trainer) buildEpoch(phase int, evalOnly bool, epoch EpochFunc, scope *model.Scope, g *Graph, params []*Node) []*Node {
	nn.UseVariableParameters(scope, g)
	in := t.cur.Nodes(params)
	ep := epoch(scope, g, in, t.opt)
	labels := in.Get(nn.InputLabels)
	logp := ep.LogProbs
	f64 := func(x *Node) *Node { return ConvertDType(x, dtypes.Float64) }
	n := logp.Shape().Dimensions[0]
	r := in.Get(nn.InputTrainMask).Shape().Dimensions[1]
	finiteLogp := ReduceMin(ConvertDType(IsFinite(Reshape(logp, n, r, -1)), dtypes.Float32), 0, 2) // [R]
	finite := Min(finiteLogp, ConvertDType(IsFinite(ep.TrainLoss), dtypes.Float32))
	stats := []*Node{
		f64(ep.TrainLoss),
		f64(MaskedNLL(logp, labels, in.Get(nn.InputValMask))),
		f64(CorrectCount(logp, labels, in.Get(nn.InputTrainMask))),
		f64(CorrectCount(logp, labels, in.Get(nn.InputValMask))),
		f64(CorrectCount(logp, labels, in.Get(nn.InputTestMask))),
		f64(finite),
	}
	t.step.extras[phase] = slices.Sorted(maps.Keys(ep.Extra))
	for _, k := range t.step.extras[phase] {
		stats = append(stats, f64(ep.Extra[k]))
	}
	outs := []*Node{Stack(stats, 1), logp}
	t.compiles++
	if phase == 0 && !evalOnly {
		t.epochOps, t.epochGraph = len(g.Nodes()), g
	}
	return outs
}

// newEpochExec is the executable of an epoch function (see buildEpoch).
func (t *Trainer) newEpochExec(phase int, evalOnly bool, epoch EpochFunc) (*model.Exec, error) {
	exec, err := model.NewExec(t.backend, t.store, func(scope *model.Scope, g *Graph, params []*Node) []*Node {
		return t.buildEpoch(phase, evalOnly, epoch, scope, g, params)
	})
	if err != nil {
		return nil, err
	}
	return exec, nil
}

// newStep builds the executables of t's epoch functions.
func (t *Trainer) newStep(finish EpochFunc) error {
	t.step = &step{extras: make([][]string, len(t.phases))}
	for i, p := range t.phases {
		exec, err := t.newEpochExec(i, false, p.Epoch)
		if err != nil {
			return err
		}
		t.step.phases = append(t.step.phases, exec)
	}
	var err error
	if finish != nil {
		if t.step.eval, err = t.newEpochExec(0, true, finish); err != nil {
			return err
		}
	}
	return nil
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
