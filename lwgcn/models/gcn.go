package models

import (
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
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
func (m GCN) Prepare(g *graph.Graph, in *nn.Inputs) error {
	return nn.AddGraphBasics(in, g, nn.AddGCNAdjacency)
}

// DeterministicPass implements train.DeterministicPass: without dropout
// the training pass computes what the evaluation pass does.
func (m GCN) DeterministicPass() bool { return m.Dropout <= 0 }

// RunBytes implements nn.Model: Layers of Hidden.
func (m GCN) RunBytes(g *graph.Graph) int64 {
	return nn.LayersRunBytes(g, m.Hidden, max(m.Layers, 2), 0)
}

// Forward implements Model; it returns logits.
func (m GCN) Forward(scope *model.Scope, in *nn.Nodes, train bool) *Node {
	adj := sparse.FromNodes(in, nn.InputGCNAdj).ForPass(train)
	x := nn.DropoutFeatures(scope, in.Features(nn.InputFeatures).ForPass(train), m.Dropout, train)
	layers := max(m.Layers, 2)
	h := nn.ReLU(nn.GCNConv(scope.In("conv1"), x, adj, m.Hidden))
	for l := 2; l < layers; l++ {
		h = nn.Dropout(scope, h, m.Dropout, train)
		h = nn.ReLU(nn.GCNConv(scope.In("conv%d", l), nn.DenseFeatures(h), adj, m.Hidden))
	}
	h = nn.Dropout(scope, h, m.Dropout, train)
	return nn.GCNConv(scope.In("conv%d", layers), nn.DenseFeatures(h), adj, numClasses(in))
}
