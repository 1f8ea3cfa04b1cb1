package labelwise

import (
	"errors"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
	"github.com/lwgcn/toolkit/lwgcn/train"
	"github.com/lwgcn/toolkit/lwgcn/train/batched"
)

// BatchedSelection is Selection (LW-GCN with model selection) for batched
// training: R runs, each with its own pseudo-labels (Labels), its own f_C,
// f_G and selection logits phi, trained in one computation with the same
// bi-level epoch as Selection.Epoch. FC must be a LabelWiseGCN and FG a
// model with a batched form (GCNII or GCN).
type BatchedSelection struct {
	Selection
	Labels func(r train.Run) ([]int32, error)
}

// Batched implements batched.Batchable.
func (m *BatchedSelection) Batched() (batched.Model, error) {
	fc, ok := m.FC.(LabelWiseGCN)
	if !ok {
		return nil, errors.New("lwgcn: BatchedSelection needs a LabelWiseGCN f_C")
	}
	if m.Labels == nil {
		return nil, errors.New("lwgcn: BatchedSelection needs Labels")
	}
	fg, err := batched.For(m.FG)
	if err != nil {
		return nil, err
	}
	return &selRuns{sel: m, fc: fcRuns{LabelWiseGCN: fc, Labels: m.Labels}, fg: fg}, nil
}

// selRuns is the batched.Model (and Epocher) of BatchedSelection.
type selRuns struct {
	sel *BatchedSelection
	fc  fcRuns
	fg  batched.Model
}

func (m *selRuns) Name() string { return m.sel.Name() }

// Prepare implements batched.Model: f_C's inputs and f_G's adjacency.
func (m *selRuns) Prepare(g *graph.Graph, in *nn.Inputs) error {
	if err := m.fc.Prepare(g, in); err != nil {
		return err
	}
	if m.sel.Adj != nil {
		sparse.Set(in, nn.InputGCNAdj, m.sel.Adj)
	}
	return m.fg.Prepare(g, in)
}

// PrepareRuns implements batched.RunInputs (f_C's label-wise structures).
func (m *selRuns) PrepareRuns(g *graph.Graph, in *nn.Inputs, runs []train.Run) ([]map[string]int, error) {
	return m.fc.PrepareRuns(g, in, runs)
}

// forward returns the log-probabilities [N, R, C] of f_C and f_G.
func (m *selRuns) forward(b *batched.Builder, in *nn.Nodes, train bool) (pc, pg *Node) {
	pc = m.fc.Forward(b.In("/"+scopeFC), in, train)
	pg = nn.ClassLogSoftmax(m.fg.Forward(b.In("/"+scopeFG), in, train))
	return pc, pg
}

// phiRuns returns every run's selection logits [R, 2] (zeros at start).
func phiRuns(b *batched.Builder) *Node {
	return b.Param("/"+scopePhi+"/phi", nn.ZeroInit, batched.RunsFirst, 2)
}

// combineRuns is combine per run: w_r = softmax(phi_r), comb [N, R, C].
func combineRuns(phi, pc, pg *Node) (comb, wFC *Node) {
	w := Softmax(phi, -1) // [R, 2]
	wc := Reshape(Slice(w, AxisRange(), AxisElem(0)), -1)
	wg := Reshape(Slice(w, AxisRange(), AxisElem(1)), -1)
	r := wc.Shape().Dimensions[0]
	return Add(Mul(pc, Reshape(wc, 1, r, 1)), Mul(pg, Reshape(wg, 1, r, 1))), wc
}

// Forward implements batched.Model: the combined prediction.
func (m *selRuns) Forward(b *batched.Builder, in *nn.Nodes, train bool) *Node {
	pc, pg := m.forward(b, in, train)
	comb, _ := combineRuns(phiRuns(b), pc, pg)
	return comb
}

// Epoch implements batched.Epocher: Selection.Epoch for R runs, each run's
// losses summed for the theta and phi steps.
func (m *selRuns) Epoch(b *batched.Builder, scope *model.Scope, in *nn.Nodes, opt *train.Optimizer) batched.EpochNodes {
	g := b.Graph()
	labels := in.Get(nn.InputLabels)
	var losses *Node
	for range m.sel.InnerSteps {
		pc, pg := m.forward(b, in, true)
		comb, _ := combineRuns(StopGradient(phiRuns(b)), pc, pg)
		losses = batched.MaskedNLL(comb, labels, in.Get(batched.InputTrainMask))
		opt.Step(scope, g, ReduceAllSum(losses), groupTheta)
	}
	pc, pg := m.forward(b, in, false)
	comb, _ := combineRuns(phiRuns(b), StopGradient(pc), StopGradient(pg))
	valLoss := batched.MaskedNLL(comb, labels, in.Get(batched.InputValMask))
	opt.Step(scope, g, ReduceAllSum(valLoss), groupPhi)
	_, wAfter := combineRuns(phiRuns(b), pc, pg)
	return batched.EpochNodes{TrainLoss: losses, LogProbs: StopGradient(comb), Extra: map[string]*Node{ExtraWeightFC: wAfter}}
}
