package models

import (
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/nn"
)

// MLP is the pseudo-label predictor f_P of LW-GCN: a one-hidden-layer
// perceptron on the node features, ignoring the edges:
//
//	logits = Linear(Dropout(ReLU(SparseLinear(Dropout(X, InputDropout))), Dropout))
//
// Shapes: X N x F, hidden [N, Hidden], output logits [N, C].
type MLP struct {
	Hidden int
	// Dropout on the hidden layer; InputDropout on the features.
	Dropout, InputDropout float64
}

// Name implements Model.
func (m MLP) Name() string { return "mlp" }

// Prepare implements Model: features and labels.
func (m MLP) Prepare(g *graph.Graph, in *nn.Inputs) error { return nn.AddGraphBasics(in, g) }

// RunBytes implements nn.Model: two layers of Hidden.
func (m MLP) RunBytes(g *graph.Graph) int64 { return nn.LayersRunBytes(g, m.Hidden, 2, 0) }

// Forward implements Model; it returns logits.
func (m MLP) Forward(scope *model.Scope, in *nn.Nodes, train bool) *Node {
	x := nn.DropoutFeatures(scope, in.Features(nn.InputFeatures).ForPass(train), m.InputDropout, train)
	h := nn.ReLU(nn.SparseLinear(scope.In("fc1"), x, m.Hidden, true))
	h = nn.Dropout(scope, h, m.Dropout, train)
	return nn.Linear(scope.In("fc2"), h, numClasses(in), true)
}
