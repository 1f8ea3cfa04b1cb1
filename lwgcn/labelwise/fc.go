package labelwise

import (
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/nn"
)

// LabelWiseInput is the name under which the label-wise structure of the
// current pseudo-labels is given to the models (nn.LabelWise.AddTo).
const LabelWiseInput = "lw"

// LabelWiseGCN is f_C, the label-wise GCN, as an nn.Model. Its label-wise
// structure ("lw") must be added to the inputs for every run (it depends on
// the pseudo-labels); Prepare adds only the features and labels.
//
// Dense variant (no dropout, as the authors' DIS_lp):
//
//	h_1 = ReLU(LW_1(X)),  h_l = ReLU(LW_l(h_{l-1})) for l < L,  out = LW_L(h_{L-1})
//
// Small variant (DIS_texas):
//
//	h_0 = Linear(X),  h_l = ReLU(LW_l(h_{l-1})) for l = 1..L,
//	out = Linear(Dropout(ReLU(Linear(concat(h_0, ..., h_L)))))
//
// where LW_l is nn.LabelWiseConv (Linear over the concatenation of the
// class-wise neighbour means and the node itself). Shapes: X N x F, h_l
// [N, Hidden], output log-probabilities [N, C]; with R runs (nn.Runs) each
// run has its own pseudo-labels' structure (nn.AddLabelWiseRuns), h_l
// [N, R·Hidden] and output [N, R·C].
type LabelWiseGCN struct {
	Variant Variant
	Layers  int
	Hidden  int
	Dropout float64
}

// Name implements nn.Model.
func (m LabelWiseGCN) Name() string { return "lwgcn-fc" }

// DeterministicPass implements train.DeterministicPass: the dense variant
// has no dropout, so its training pass is its evaluation pass.
func (m LabelWiseGCN) DeterministicPass() bool { return m.Variant == Dense }

// Prepare implements nn.Model.
func (m LabelWiseGCN) Prepare(g *graph.Graph, in *nn.Inputs) error { return nn.AddGraphBasics(in, g) }

// Forward implements nn.Model; it returns log-probabilities.
func (m LabelWiseGCN) Forward(scope *model.Scope, in *nn.Nodes, train bool) *Node {
	if m.Variant == Dense {
		return m.denseForward(scope, in, train)
	}
	z := m.smallHidden(scope, in, train)
	return m.smallClassify(scope, nn.Dropout(scope, z, m.Dropout, train), in)
}

// ForwardShared implements train.SharedPass: the small variant's only
// dropout is before its classifier, so one pass up to it gives the
// training and the evaluation output (the dense variant has no dropout:
// both are its one pass).
func (m LabelWiseGCN) ForwardShared(scope *model.Scope, in *nn.Nodes) (trainOut, eval *Node) {
	if m.Variant == Dense {
		out := m.denseForward(scope, in, true)
		return out, out
	}
	z := m.smallHidden(scope, in, true)
	trainOut = m.smallClassify(scope, nn.Dropout(scope, z, m.Dropout, true), in)
	return trainOut, m.smallClassify(scope.ResetVisited(), z, in)
}

// denseForward is the dense variant (no dropout).
func (m LabelWiseGCN) denseForward(scope *model.Scope, in *nn.Nodes, train bool) *Node {
	lw := in.LabelWise(LabelWiseInput).ForPass(train)
	h := in.Features(nn.InputFeatures).ForPass(train)
	for l := 1; l < m.Layers; l++ {
		h = nn.DenseFeatures(nn.ReLU(nn.LabelWiseConv(scope.In("lw%d", l), h, lw, m.Hidden)))
	}
	return nn.RunsLogSoftmax(scope, nn.LabelWiseConv(scope.In("lw%d", m.Layers), h, lw, in.Meta(nn.InputNumClasses)))
}

// smallHidden is the small variant up to its dropout:
// ReLU(Linear(concat(h_0, ..., h_L))).
func (m LabelWiseGCN) smallHidden(scope *model.Scope, in *nn.Nodes, train bool) *Node {
	lw := in.LabelWise(LabelWiseInput).ForPass(train)
	h := nn.SparseLinear(scope.In("lin"), in.Features(nn.InputFeatures).ForPass(train), m.Hidden, true)
	hs := []*Node{h}
	for l := 1; l <= m.Layers; l++ {
		h = nn.ReLU(nn.LabelWiseConv(scope.In("lw%d", l), nn.DenseFeatures(h), lw, m.Hidden))
		hs = append(hs, h)
	}
	return nn.ReLU(nn.Linear(scope.In("cls1"), nn.ConcatRuns(scope, hs), m.Hidden, true))
}

// smallClassify is the small variant's classifier after its dropout.
func (m LabelWiseGCN) smallClassify(scope *model.Scope, z *Node, in *nn.Nodes) *Node {
	return nn.RunsLogSoftmax(scope, nn.Linear(scope.In("cls2"), z, in.Meta(nn.InputNumClasses), true))
}

// RunBytes implements nn.Model (float32): per label-wise layer the
// all-classes product [N, C·out] with its gradient and gather (3 copies),
// about 10 [N, out] buffers, and the weights [in, C+1, out] with Adam's
// moments and gradient (4 copies); the small variant's projection and
// classifier add a few [N, Hidden] buffers. On Squirrel (dense, 2 layers of
// 256) it gives about 0.25 GB per run.
func (m LabelWiseGCN) RunBytes(g *graph.Graph) int64 {
	n, f, c, h := int64(g.NumNodes()), int64(g.Features().NumCols()), int64(g.NumClasses()), int64(m.Hidden)
	var vals int64
	in := f
	if m.Variant == Small {
		vals += 4*f*h + 20*n*h + int64(m.Layers+1)*h*h*4
		in = h
	}
	for l := 1; l <= m.Layers; l++ {
		out := h
		if m.Variant == Dense && l == m.Layers {
			out = c
		}
		vals += 3*n*c*out + 10*n*out + 4*in*(c+1)*out
		in = h
	}
	return 4 * vals
}
