package models

import (
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// GAT is the two-layer graph attention network of the GAT paper (Cora
// setting: 8 heads x 8 hidden, ELU, one output head, dropout 0.6 on inputs
// and attention):
//
//	h      = ELU(GATConv(Dropout(X); Heads x Hidden, concat))
//	logits = GATConv(Dropout(h); OutHeads x C, mean)
//
// Shapes: X N x F, h [N, Heads·Hidden], logits [N, C]; edges with self loops
// from "adj/gat".
type GAT struct {
	Hidden, Heads, OutHeads int
	// Dropout on the inputs of both layers; AttentionDropout on the
	// attention coefficients.
	Dropout, AttentionDropout float64
}

// Name implements Model.
func (m GAT) Name() string { return "gat" }

// Prepare implements Model: features, labels and the self-looped edges.
func (m GAT) Prepare(g *graph.Graph, in *nn.Inputs) error {
	return nn.AddGraphBasics(in, g, nn.AddGATEdges)
}

// RunBytes implements nn.Model: two layers of Heads·Hidden, plus per edge
// and head the score, softmax terms, attention and its mask (about 8 [E, K]
// buffers) and the messages [E, K, O] with their gradient, for both layers.
func (m GAT) RunBytes(g *graph.Graph) int64 {
	hidden := int64(m.Heads * m.Hidden)
	e := int64(len(g.Src()) + g.NumNodes()) // with self loops
	k2 := int64(max(m.OutHeads, 1))
	edgeActs := e * (8*int64(m.Heads) + 2*hidden + 8*k2 + 2*k2*int64(g.NumClasses()))
	return nn.LayersRunBytes(g, m.Heads*m.Hidden, 2, edgeActs)
}

// Forward implements Model; it returns logits.
func (m GAT) Forward(scope *model.Scope, in *nn.Nodes, train bool) *Node {
	edges := sparse.FromNodes(in, nn.InputGATEdges)
	x := nn.DropoutFeatures(scope, in.Features(nn.InputFeatures).ForPass(train), m.Dropout, train)
	h := nn.GATConv(scope.In("conv1"), x, edges, nn.GATConfig{Heads: m.Heads, Out: m.Hidden, Concat: true,
		NegativeSlope: 0.2, AttentionDropout: m.AttentionDropout}, train)
	h = nn.Dropout(scope, nn.ELU(h), m.Dropout, train)
	outHeads := max(m.OutHeads, 1)
	return nn.GATConv(scope.In("conv2"), nn.DenseFeatures(h), edges, nn.GATConfig{Heads: outHeads, Out: numClasses(in),
		Concat: false, NegativeSlope: 0.2, AttentionDropout: m.AttentionDropout}, train)
}
