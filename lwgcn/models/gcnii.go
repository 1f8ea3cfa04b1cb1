package models

import (
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// GCNII is the deep GCN of Chen et al. (2020) as in its official code (the
// f_G of LW-GCN):
//
//	h0     = ReLU(SparseLinear(Dropout(X)))               ("fc0": F -> Hidden)
//	h_l    = ReLU(GCN2Conv(Dropout(h_{l-1}), h0; l))      l = 1..Layers ("conv<l>")
//	output = log_softmax(Linear(Dropout(h_L)))            ("fc1": Hidden -> C)
//
// Where the layers run as one loop (nn.UseGCN2Loop: XLA, from 8 layers)
// their weights are one variable, "convs/weight" (nn.RunsParamStack: the
// same values; nn.SplitStack gives "conv<l>/weight" back).
//
// Shapes: X N x F, h [N, Hidden], output log-probabilities [N, C] ([N, R·Hidden]
// and [N, R·C] for R runs, see nn.Runs); Â from "adj/gcn". Alpha and Lambda as in GCN2Conv (0.1 and 0.5 in LW-GCN's
// settings).
type GCNII struct {
	Layers, Hidden int
	Dropout        float64
	Alpha, Lambda  float64
}

// Name implements Model.
func (m GCNII) Name() string { return "gcnii" }

// Prepare implements Model: features, labels and Â (with its sorted
// layout, see sparse.SpMat.SortedPadded).
func (m GCNII) Prepare(g *graph.Graph, in *nn.Inputs) error {
	if err := nn.AddGraphBasics(in, g); err != nil {
		return err
	}
	if err := nn.AddGCNAdjacency(in, g); err != nil {
		return err
	}
	if sparse.HostMatrix(in, nn.InputGCNAdj) == nil {
		return nil // tensors set some other way: plain layout only
	}
	return sparse.SetSorted(in, nn.InputGCNAdj)
}

// DeterministicPass implements train.DeterministicPass: without dropout
// the training pass computes what the evaluation pass does.
func (m GCNII) DeterministicPass() bool { return m.Dropout <= 0 }

// Forward implements Model; it returns log-probabilities.
func (m GCNII) Forward(scope *model.Scope, in *nn.Nodes, train bool) *Node {
	adj := sparse.FromNodes(in, nn.InputGCNAdj).ForPass(train)
	x := nn.DropoutFeatures(scope, in.Features(nn.InputFeatures).ForPass(train), m.Dropout, train)
	h0 := nn.ReLU(nn.SparseLinear(scope.In("fc0"), x, m.Hidden, true))
	view, sorted := adj.SortedPadded()
	if !sorted {
		alphaH0 := MulScalar(h0, m.Alpha)
		h := h0
		if nn.UseGCN2Loop(h0.Graph().Backend().String(), m.Layers) {
			// The same layers as one While loop (XLA: one layer to compile).
			h = nn.GCN2ConvLoop(scope, h0, alphaH0, adj, m.Alpha, m.Lambda, m.Layers, m.Dropout, train)
		} else {
			for l := 1; l <= m.Layers; l++ {
				h = nn.Dropout(scope, h, m.Dropout, train)
				h = nn.ReLU(nn.GCN2Conv(scope.In("conv%d", l), h, alphaH0, adj, m.Alpha, m.Lambda, l))
			}
		}
		h = nn.Dropout(scope, h, m.Dropout, train)
		return nn.RunsLogSoftmax(scope, nn.Linear(scope.In("fc1"), h, numClasses(in), true))
	}
	// The layers run on the sorted-padded form (see sparse.SpMat.SortedPadded),
	// with Â = diag(r) B diag(c) and the node matrices kept as c ⊙ h: since
	// c > 0, c ⊙ ReLU(S W) = ReLU((c ⊙ S) W) and c ⊙ dropout(h) =
	// dropout(c ⊙ h), so each layer scales its product once (by c·r)
	// instead of twice.
	h := view.ToSortedPadded(h0)
	folded := view
	if cs := view.ColScale; cs != nil {
		f := *view
		f.RowScale, f.ColScale = cs, nil
		if view.RowScale != nil {
			f.RowScale = Mul(view.RowScale, cs)
		}
		folded = &f
		h = Mul(h, cs)
	}
	alphaH0 := MulScalar(h, m.Alpha)
	for l := 1; l <= m.Layers; l++ {
		h = nn.Dropout(scope, h, m.Dropout, train)
		h = nn.ReLU(nn.GCN2Conv(scope.In("conv%d", l), h, alphaH0, folded, m.Alpha, m.Lambda, l))
	}
	if view.ColScale != nil {
		h = Mul(h, view.InvColScale())
	}
	h = nn.Dropout(scope, h, m.Dropout, train)
	out := nn.Linear(scope.In("fc1"), h, numClasses(in), true)
	return nn.RunsLogSoftmax(scope, view.FromSortedPadded(out))
}

// RunBytes implements nn.Model: Layers+2 layers of Hidden.
func (m GCNII) RunBytes(g *graph.Graph) int64 { return nn.LayersRunBytes(g, m.Hidden, m.Layers+2, 0) }
