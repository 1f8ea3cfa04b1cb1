package batched

import (
	"fmt"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

// Model is a node classifier whose runs are trained together.
type Model interface {
	// Name is the unbatched model's name.
	Name() string
	// Prepare adds the inputs Forward reads (as the unbatched model's).
	Prepare(g *graph.Graph, in *nn.Inputs) error
	// Forward builds every run's output [N, R, C] (logits or
	// log-probabilities, as the unbatched model). train enables dropout.
	Forward(b *Builder, in *nn.Nodes, train bool) *Node
}

// EpochNodes are what an Epocher builds: per-run [R] training losses
// (before the update), the evaluation log-probabilities [N, R, C] after it,
// and further per-run [R] statistics reported per epoch (Extra).
type EpochNodes struct {
	TrainLoss, LogProbs *Node
	Extra               map[string]*Node
}

// Epocher is a Model with its own epoch (LW-GCN's bi-level selection);
// other models get StandardEpoch. Each run's loss must depend only on its
// own weights, and opt steps on the sum of the runs' losses.
type Epocher interface {
	Epoch(b *Builder, scope *model.Scope, in *nn.Nodes, opt *train.Optimizer) EpochNodes
}

// StandardEpoch is train.StandardEpoch for R runs: forward with dropout,
// each run's NLL on its training nodes, one Adam step on their sum, then
// the forward pass without dropout.
func StandardEpoch(m Model, b *Builder, scope *model.Scope, in *nn.Nodes, opt *train.Optimizer) EpochNodes {
	labels := in.Get(nn.InputLabels)
	logp := nn.ClassLogSoftmax(m.Forward(b, in, true))
	losses := MaskedNLL(logp, labels, in.Get(InputTrainMask)) // [R]
	// The sum keeps each run's gradient its own loss's.
	opt.Step(scope, b.g, ReduceAllSum(losses))
	return EpochNodes{TrainLoss: losses, LogProbs: nn.ClassLogSoftmax(m.Forward(b, in, false))}
}

// RunInputs is a Model whose inputs differ per run (LW-GCN's label-wise
// structure of each run's pseudo-labels).
type RunInputs interface {
	// PrepareRuns adds the batch's per-run inputs to in (their shapes must
	// not depend on the runs, so that one compiled graph serves every
	// batch) and returns each run's metadata, which resolves "fanin"
	// initialisations as the run's own inputs would alone.
	PrepareRuns(g *graph.Graph, in *nn.Inputs, runs []train.Run) ([]map[string]int, error)
}

// Batchable is an nn.Model defined outside this package that has a
// batched form.
type Batchable interface {
	Batched() (Model, error)
}

// For returns the batched form of an unbatched model, or an error naming
// the models that have one.
func For(m nn.Model) (Model, error) {
	if bm, ok := m.(Batchable); ok {
		return bm.Batched()
	}
	switch m := m.(type) {
	case models.MLP:
		return MLP{m}, nil
	case models.GCN:
		return GCN{m}, nil
	case models.GCNII:
		return GCNII{m}, nil
	case models.GAT:
		return GAT{m}, nil
	case models.GPRGNN:
		return GPRGNN{m}, nil
	case models.FAGCN:
		return FAGCN{m}, nil
	}
	return nil, fmt.Errorf("batched: no batched form of model %q (batched: mlp, gcn, gcnii, gat, gprgnn, fagcn, and models with a Batched method such as LW-GCN's f_C)", m.Name())
}

// MLP is models.MLP for R runs.
type MLP struct{ models.MLP }

// Forward implements Model; it returns logits [N, R, C].
func (m MLP) Forward(b *Builder, in *nn.Nodes, train bool) *Node {
	x := in.Features(nn.InputFeatures).ForPass(train)
	f := x.NumCols()
	h := ReLU(b.FirstLayer("/fc1", x, m.InputDropout, train, m.Hidden, true, nn.LinearInit(f), nn.LinearInit(f)))
	h = b.Dropout(h, m.Dropout, train)
	c := in.Meta(nn.InputNumClasses)
	y := b.Linear("/fc2", h, c, true, nn.LinearInit(m.Hidden), nn.LinearInit(m.Hidden))
	return Reshape(y, x.NumRows(), b.Runs, c)
}

// GCN is models.GCN for R runs: the first projection is fused over the runs
// ([F, R·H]), and every aggregation Â·(hW) runs once over [N, R·width].
type GCN struct{ models.GCN }

// Forward implements Model; it returns logits [N, R, C].
func (m GCN) Forward(b *Builder, in *nn.Nodes, train bool) *Node {
	adj := sparse.FromNodes(in, nn.InputGCNAdj).ForPass(train)
	x := in.Features(nn.InputFeatures).ForPass(train)
	n, f := x.NumRows(), x.NumCols()
	layers := max(m.Layers, 2)
	bias := func(scope string, out int) *Node {
		return ExpandAxes(b.Param(scope+"/bias", nn.ZeroInit, FusedCols, out), 0)
	}
	h := b.FirstLayer("/conv1", x, m.Dropout, train, m.Hidden, false, nn.GlorotInit(f, m.Hidden), nn.ZeroInit)
	h = ReLU(Add(adj.MulRuns(h, b.Runs, nil), bias("/conv1", m.Hidden)))
	for l := 2; l < layers; l++ {
		s := fmt.Sprintf("/conv%d", l)
		h = b.Dropout(h, m.Dropout, train)
		h = b.Linear(s, h, m.Hidden, false, nn.GlorotInit(m.Hidden, m.Hidden), nn.ZeroInit)
		h = ReLU(Add(adj.MulRuns(h, b.Runs, nil), bias(s, m.Hidden)))
	}
	c := in.Meta(nn.InputNumClasses)
	s := fmt.Sprintf("/conv%d", layers)
	h = b.Dropout(h, m.Dropout, train)
	h = b.Linear(s, h, c, false, nn.GlorotInit(m.Hidden, c), nn.ZeroInit)
	return Reshape(Add(adj.MulRuns(h, b.Runs, nil), bias(s, c)), n, b.Runs, c)
}

// ReLU is nn.ReLU (the same op as the unbatched models).
func ReLU(x *Node) *Node { return nn.ReLU(x) }
