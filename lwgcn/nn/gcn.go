package nn

import (
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/graph"
)

// GCN is the two-layer graph convolutional network of Kipf & Welling (as in
// PyG's example):
//
//	logits = GCNConv(Dropout(ReLU(GCNConv(Dropout(X)))))
//
// Shapes: X N x F, hidden [N, Hidden], logits [N, C]; Â from "adj/gcn".
type GCN struct {
	Hidden  int
	Dropout float64
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
	h := ReLU(GCNConv(scope.In("conv1"), x, adj, m.Hidden))
	h = Dropout(scope, h, m.Dropout, train)
	return GCNConv(scope.In("conv2"), DenseFeatures(h), adj, numClasses(in))
}
