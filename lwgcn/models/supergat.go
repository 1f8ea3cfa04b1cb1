package models

import (
	"fmt"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// SuperGAT is the two-layer SuperGATNet of the official code
// (dongkwan-kim/SuperGAT, model.py):
//
//	h      = ELU(SuperGATConv(Dropout(X); Heads x Hidden, concat))
//	logits = SuperGATConv(Dropout(h); OutHeads x C, mean)
//	loss   = NLL(logits) + LinkLambda · (L_E of layer 1 + L_E of layer 2)
//
// Shapes: X N x F, h [N, Heads·Hidden], logits [N, C]; edges with self
// loops from "adj/gat", negative-sampling keys from "supergat/keys". One
// dropout rate serves the inputs of both layers and the attention
// coefficients, as in the official code. The link loss (see SuperGATConv)
// comes from ForwardWithLinkLoss; the zoo entry adds it to the loss.
type SuperGAT struct {
	Hidden, Heads, OutHeads int
	Dropout                 float64
	Attention               nn.SuperGATAttention
	// EdgeSampleRatio and NegSampleRatio: see SuperGATConfig.
	EdgeSampleRatio, NegSampleRatio float64
}

// Name implements Model.
func (m SuperGAT) Name() string { return "supergat" }

// RunBytes implements nn.Model: GAT's estimate (models.GAT.RunBytes) with
// its heads, the link loss's sampled edges adding less than the attention.
func (m SuperGAT) RunBytes(g *graph.Graph) int64 {
	return GAT{Hidden: m.Hidden, Heads: m.Heads, OutHeads: m.OutHeads}.RunBytes(g)
}

// Prepare implements Model: features, labels, self-looped edges and keys.
func (m SuperGAT) Prepare(g *graph.Graph, in *nn.Inputs) error {
	if m.Hidden < 1 || m.Heads < 1 || m.OutHeads < 1 {
		return fmt.Errorf("models: SuperGAT needs hidden, heads and out heads >= 1, got %d, %d, %d", m.Hidden, m.Heads,
			m.OutHeads)
	}
	if m.EdgeSampleRatio < 0 || m.EdgeSampleRatio > 1 || m.NegSampleRatio < 0 {
		return fmt.Errorf("models: SuperGAT edge sample ratio must be in [0, 1] and negative sample ratio >= 0, got %v and %v",
			m.EdgeSampleRatio, m.NegSampleRatio)
	}
	return nn.AddGraphBasics(in, g, nn.AddSuperGATInputs)
}

// Forward implements Model; it returns logits.
func (m SuperGAT) Forward(scope *model.Scope, in *nn.Nodes, train bool) *Node {
	logits, _ := m.ForwardWithLinkLoss(scope, in, train)
	return logits
}

// ForwardWithLinkLoss returns the logits and, in training passes, the sum
// of the two layers' self-supervised link losses (nil otherwise).
//
// With R runs (nn.Runs) the logits are [N, R·C] and the link loss [R]: each
// run builds its own layers (nn.EachRun).
func (m SuperGAT) ForwardWithLinkLoss(scope *model.Scope, in *nn.Nodes, train bool) (logits, linkLoss *Node) {
	return nn.EachRunPair(scope, in, func(scope *model.Scope, in *nn.Nodes) (*Node, *Node) {
		return m.forward(scope, in, train)
	})
}

// forward is one run's ForwardWithLinkLoss.
func (m SuperGAT) forward(scope *model.Scope, in *nn.Nodes, train bool) (logits, linkLoss *Node) {
	edges := sparse.FromNodes(in, nn.InputGATEdges)
	keys := nn.SuperGATEdgesFrom(in)
	cfg := nn.SuperGATConfig{Heads: m.Heads, Out: m.Hidden, Concat: true, Attention: m.Attention, NegativeSlope: 0.2,
		AttentionDropout: m.Dropout, EdgeSampleRatio: m.EdgeSampleRatio, NegSampleRatio: m.NegSampleRatio}
	x := nn.DropoutFeatures(scope, in.Features(nn.InputFeatures).ForPass(train), m.Dropout, train)
	h, l1 := nn.SuperGATConv(scope.In("conv1"), x, edges, keys, cfg, train)
	h = nn.Dropout(scope, nn.ELU(h), m.Dropout, train)
	cfg.Heads, cfg.Out, cfg.Concat = m.OutHeads, numClasses(in), false
	logits, l2 := nn.SuperGATConv(scope.In("conv2"), nn.DenseFeatures(h), edges, keys, cfg, train)
	if l1 != nil && l2 != nil {
		linkLoss = Add(l1, l2)
	}
	return logits, linkLoss
}
