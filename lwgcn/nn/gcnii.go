package nn

import (
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/graph"
)

// GCNII is the deep GCN of Chen et al. (2020) as in its official code (the
// f_G of LW-GCN):
//
//	h0     = ReLU(SparseLinear(Dropout(X)))               ("fc0": F -> Hidden)
//	h_l    = ReLU(GCN2Conv(Dropout(h_{l-1}), h0; l))      l = 1..Layers ("conv<l>")
//	output = log_softmax(Linear(Dropout(h_L)))            ("fc1": Hidden -> C)
//
// Shapes: X N x F, h [N, Hidden], output log-probabilities [N, C]; Â from
// "adj/gcn". Alpha and Lambda as in GCN2Conv (0.1 and 0.5 in LW-GCN's
// settings).
type GCNII struct {
	Layers, Hidden int
	Dropout        float64
	Alpha, Lambda  float64
}

// Name implements Model.
func (m GCNII) Name() string { return "gcnii" }

// Prepare implements Model: features, labels and Â.
func (m GCNII) Prepare(g *graph.Graph, in *Inputs) error {
	if err := AddGraphBasics(in, g); err != nil {
		return err
	}
	return AddGCNAdjacency(in, g)
}

// Forward implements Model; it returns log-probabilities.
func (m GCNII) Forward(scope *model.Scope, in *Nodes, train bool) *Node {
	adj := in.Sparse(InputGCNAdj).ForPass(train)
	x := DropoutFeatures(scope, in.Features(InputFeatures).ForPass(train), m.Dropout, train)
	h0 := ReLU(SparseLinear(scope.In("fc0"), x, m.Hidden, true))
	alphaH0 := MulScalar(h0, m.Alpha)
	h := h0
	for l := 1; l <= m.Layers; l++ {
		h = Dropout(scope, h, m.Dropout, train)
		h = ReLU(GCN2Conv(scope.In("conv%d", l), h, alphaH0, adj, m.Alpha, m.Lambda, l))
	}
	h = Dropout(scope, h, m.Dropout, train)
	return LogSoftmax(Linear(scope.In("fc1"), h, numClasses(in), true), -1)
}
