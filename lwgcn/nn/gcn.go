package nn

import (
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/graph"
)

// GCN is the graph convolutional network of Kipf & Welling (as in PyG's
// example), two layers by default:
//
//	h_1 = ReLU(GCNConv(Dropout(X))),  h_l = ReLU(GCNConv(Dropout(h_{l-1}))) for l < L,
//	logits = GCNConv(Dropout(h_{L-1}))
//
// Shapes: X N x F, hidden [N, Hidden], logits [N, C]; Â from "adj/gcn".
// Layers (L) 0 means 2; deeper GCNs serve the depth-sensitivity experiment.
type GCN struct {
	Hidden  int
	Dropout float64
	Layers  int
}

// Name implements Model.
func (m GCN) Name() string { return "gcn" }

// Prepare implements Model: features, labels and Â.
func (m GCN) Prepare(g *graph.Graph, in *Inputs) error {
	if err := AddGraphBasics(in, g); err != nil {
		return err
	}
	return AddGCNAdjacency(in, g)
}

// Forward implements Model; it returns logits.
func (m GCN) Forward(scope *model.Scope, in *Nodes, train bool) *Node {
	adj := in.Sparse(InputGCNAdj).ForPass(train)
	x := DropoutFeatures(scope, in.Features(InputFeatures).ForPass(train), m.Dropout, train)
	layers := max(m.Layers, 2)
	h := ReLU(GCNConv(scope.In("conv1"), x, adj, m.Hidden))
	for l := 2; l < layers; l++ {
		h = Dropout(scope, h, m.Dropout, train)
		h = ReLU(GCNConv(scope.In("conv%d", l), DenseFeatures(h), adj, m.Hidden))
	}
	h = Dropout(scope, h, m.Dropout, train)
	return GCNConv(scope.In("conv%d", layers), DenseFeatures(h), adj, numClasses(in))
}
