package labelwise

import (
	"fmt"
	"strings"

	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

// Scopes of the combined model's variables, and optimizer group names.
const (
	scopeFC  = "fc"
	scopeFG  = "fg"
	scopePhi = "phi"

	groupTheta = "theta"
	groupPhi   = "phi"

	// ExtraWeightFC is the name of the per-epoch selection weight of f_C,
	// softmax(phi)_1 after the epoch's phi step (what the official code keeps
	// as best_weight).
	ExtraWeightFC = "weight_fc"
)

// Selection is LW-GCN with automatic model selection: f_C and f_G combined by
// softmax(phi). Forward returns the combination; Epoch is its bi-level epoch.
// With R runs (nn.Runs) each run has its own f_C, f_G and phi, and the
// losses of its steps depend on its own weights only.
type Selection struct {
	FC nn.Model // LabelWiseGCN; returns log-probabilities
	FG nn.Model // GCNII or GCN, reading the adjacency "adj/gcn"
	// Adj, if set, is the adjacency f_G reads (OfficialAdjacency); nil lets
	// f_G add its own (PyG's gcn_norm).
	Adj *sparse.SparseMatrix
	// InnerSteps is T.
	InnerSteps int
}

// Name implements nn.Model.
func (m *Selection) Name() string { return "lwgcn" }

// Prepare implements nn.Model: features, labels and f_G's inputs.
func (m *Selection) Prepare(g *graph.Graph, in *nn.Inputs) error {
	if err := m.FC.Prepare(g, in); err != nil {
		return err
	}
	if m.Adj != nil {
		sparse.Set(in, nn.InputGCNAdj, m.Adj)
	}
	return m.FG.Prepare(g, in)
}

// RunBytes implements nn.Model: f_C's and f_G's.
func (m *Selection) RunBytes(g *graph.Graph) int64 { return m.FC.RunBytes(g) + m.FG.RunBytes(g) }

// forward returns the log-probabilities of f_C and f_G.
func (m *Selection) forward(scope *model.Scope, in *nn.Nodes, train bool) (pc, pg *Node) {
	pc = m.FC.Forward(scope.In(scopeFC), in, train)
	pg = nn.RunsLogSoftmax(scope, m.FG.Forward(scope.In(scopeFG), in, train))
	return pc, pg
}

// phi returns each run's two selection logits, [R, 2] (zeros at
// initialisation).
func phi(scope *model.Scope, g *Graph, in *nn.Nodes) *Node {
	return Reshape(nn.Param(scope.In(scopePhi), g, "phi", in.DType, nn.ZeroInit, nil, 2), nn.Runs(scope), 2)
}

// combine is each run's w_1 pc + w_2 pg with w = softmax(phi) (phi [R, 2],
// pc and pg [N, R·C]); wFC [R] are the runs' w_1.
func combine(scope *model.Scope, phi, pc, pg *Node) (comb, wFC *Node) {
	r := nn.Runs(scope)
	w := Softmax(phi, -1)
	wc := Reshape(Slice(w, AxisRange(), AxisElem(0)), r)
	wg := Reshape(Slice(w, AxisRange(), AxisElem(1)), r)
	return Add(nn.RunsScale(pc, wc, r), nn.RunsScale(pg, wg, r)), wc
}

// Forward implements nn.Model: the combined prediction (no phi update).
func (m *Selection) Forward(scope *model.Scope, in *nn.Nodes, train bool) *Node {
	pc, pg := m.forward(scope, in, train)
	comb, _ := combine(scope, phi(scope, in.Graph(), in), pc, pg)
	return comb
}

// Epoch is one epoch of the alternating first-order bi-level optimisation,
// in the official code's order: T inner steps of theta on the training NLL of
// the combination with phi held fixed (dropout on), then the evaluation pass
// (dropout off) with the outputs detached, one step of phi on its validation
// NLL, and the epoch's prediction: the evaluation combination with phi before
// its step.
func (m *Selection) Epoch(scope *model.Scope, g *Graph, in *nn.Nodes, opt *train.Optimizer) train.EpochNodes {
	loss := m.thetaSteps(scope, g, in, opt, nil, nil)
	s := scope.ResetVisited()
	pc, pg := m.forward(s, in, false)
	return m.finish(scope, g, in, opt, pc, pg, loss, nil)
}

// thetaSteps runs the T inner steps of theta and returns the last one's
// training loss; pc and pg, if given, are the first step's training passes.
func (m *Selection) thetaSteps(scope *model.Scope, g *Graph, in *nn.Nodes, opt *train.Optimizer, pc, pg *Node) *Node {
	var loss *Node
	for t := range m.InnerSteps {
		s := scope.ResetVisited()
		if t > 0 || pc == nil {
			pc, pg = m.forward(s, in, true)
		}
		comb, _ := combine(s, StopGradient(phi(s, g, in)), pc, pg)
		loss = train.MaskedNLL(comb, in.Get(nn.InputLabels), in.Get(nn.InputTrainMask))
		opt.Step(s, g, train.Total(loss), groupTheta)
	}
	return loss
}

// finish ends an epoch from its evaluation passes pc and pg: phi's step on
// the validation NLL of their combination (detached), which is the epoch's
// prediction, and f_C's weight after the step. A non-nil when (a boolean
// scalar) keeps phi's step only where true (train.Optimizer.StepWhen).
func (m *Selection) finish(scope *model.Scope, g *Graph, in *nn.Nodes, opt *train.Optimizer, pc, pg, loss, when *Node) train.EpochNodes {
	s := scope.ResetVisited()
	comb, _ := combine(s, phi(s, g, in), StopGradient(pc), StopGradient(pg))
	valLoss := train.MaskedNLL(comb, in.Get(nn.InputLabels), in.Get(nn.InputValMask))
	opt.StepWhen(s, g, train.Total(valLoss), when, groupPhi)
	_, wAfter := combine(scope, phi(scope.ResetVisited(), g, in), pc, pg)
	return train.EpochNodes{TrainLoss: loss, LogProbs: StopGradient(comb), Extra: map[string]*Node{ExtraWeightFC: wAfter}}
}

// deterministic says whether a model's training pass is its evaluation pass.
func deterministic(m nn.Model) bool {
	d, ok := m.(train.DeterministicPass)
	return ok && d.DeterministicPass()
}

// Lagged is Epoch with the evaluation lag (train.LaggedEpoch), for an f_C
// whose one pass gives its training and evaluation outputs
// (train.SharedPass: the dense variant has no dropout, the small one only
// before its classifier): an epoch's end (phi's step and the prediction)
// comes from the next epoch's pass of f_C, and of f_G when it has no
// dropout (the reference settings of the dense variant), else from an
// evaluation pass of f_G. f_C, and then f_G, run one forward pass per epoch
// instead of two. The runs are the same as with Epoch (tested). Lagged is
// nil for an f_C without a shared pass.
func (m *Selection) Lagged() *train.LaggedEpoch {
	fc, ok := m.FC.(train.SharedPass)
	if !ok {
		return nil
	}
	fgDet := deterministic(m.FG)
	return &train.LaggedEpoch{
		// At a call with no epoch pending (train.Pending) phi's step is
		// dropped: the call is this epoch's theta steps alone.
		FinishAndStep: func(scope *model.Scope, g *Graph, in *nn.Nodes, opt *train.Optimizer) train.EpochNodes {
			s := scope.ResetVisited()
			// pcEval: f_C's evaluation of the weights before this step; pg
			// f_G's training pass (its evaluation too if fgDet).
			pc, pcEval := fc.ForwardShared(s.In(scopeFC), in)
			pg := nn.RunsLogSoftmax(s, m.FG.Forward(s.In(scopeFG), in, true))
			pgEval := pg
			if !fgDet {
				pgEval = nn.RunsLogSoftmax(scope, m.FG.Forward(scope.ResetVisited().In(scopeFG), in, false))
			}
			end := m.finish(scope, g, in, opt, pcEval, pgEval, nil, train.Pending(in))
			end.TrainLoss = m.thetaSteps(scope, g, in, opt, pc, pg)
			return end
		},
		Finish: func(scope *model.Scope, g *Graph, in *nn.Nodes, opt *train.Optimizer) train.EpochNodes {
			pc, pg := m.forward(scope.ResetVisited(), in, false)
			end := m.finish(scope, g, in, opt, pc, pg, nil, nil)
			end.TrainLoss = Zeros(g, shapes.Make(pc.DType(), nn.Runs(scope)))
			return end
		},
		FinishUpdates: func(path string) bool { return strings.HasPrefix(path, "/"+scopePhi+"/") },
	}
}

// optimizer returns Adam over theta (f_C and f_G: lr, weight decay) and phi
// (lr PhiLR, no weight decay), the official code's three optimizers.
func (c Config) optimizer() *train.Optimizer {
	return train.NewOptimizer(
		train.Group{Name: groupTheta, Adam: train.NewAdam(c.LR, c.WeightDecay), Match: train.ScopePrefix("/"+scopeFC, "/"+scopeFG)},
		train.Group{Name: groupPhi, Adam: train.NewAdam(c.PhiLR, 0), Match: train.ScopePrefix("/" + scopePhi)},
	)
}

// backbone returns f_G.
func (c Config) backbone() (nn.Model, error) {
	switch c.Backbone {
	case BackboneGCNII:
		return models.GCNII{Layers: c.GCNIILayers, Hidden: c.Hidden, Dropout: c.Dropout, Alpha: c.Alpha, Lambda: c.Lambda}, nil
	case BackboneGCN:
		return models.GCN{Hidden: c.Hidden, Dropout: c.Dropout}, nil
	}
	return nil, fmt.Errorf("lwgcn: no f_G for backbone %q", c.Backbone)
}
