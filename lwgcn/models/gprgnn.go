package models

import (
	"fmt"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// GPRGNN is GPR-GNN (Chien et al., ICLR 2021) as in the official code
// (jianhao2016/GPRGNN, GNN_models.py): an MLP, then K steps of generalized
// PageRank propagation of its class scores:
//
//	z   = Linear(Dropout(ReLU(SparseLinear(Dropout(X, Dropout))), Dropout))   ("lin1", "lin2")
//	out = GPRProp(Dropout(z, DropProp); Â, γ0 = GPRPPRInit(K, Alpha))        ("prop")
//
// Shapes: X N x F (row-normalised by the zoo entry, as the official
// NormalizeFeatures), hidden [N, Hidden], z and logits [N, C]; Â from
// "adj/gcn" (self loops, symmetric normalisation: PyG's gcn_norm).
// Linear layers use PyTorch's default initialisation.
type GPRGNN struct {
	Hidden, K int
	// Alpha is the teleport probability of the PPR initialisation.
	Alpha float64
	// Dropout on the features and the hidden layer; DropProp ("dprate") on
	// z before the propagation.
	Dropout, DropProp float64
}

// Name implements Model.
func (m GPRGNN) Name() string { return "gprgnn" }

// Prepare implements Model: features, labels and Â.
func (m GPRGNN) Prepare(g *graph.Graph, in *nn.Inputs) error {
	if m.K < 0 || m.Hidden < 1 {
		return fmt.Errorf("models: GPRGNN needs K >= 0 and hidden >= 1, got K %d, hidden %d", m.K, m.Hidden)
	}
	return nn.AddGraphBasics(in, g, nn.AddGCNAdjacency)
}

// RunBytes implements nn.Model: an MLP, then K+1 propagated [N, C]
// matrices with their weighted terms, partial sums and gradients (about 4
// each), and the mask.
func (m GPRGNN) RunBytes(g *graph.Graph) int64 {
	return nn.LayersRunBytes(g, m.Hidden, 2, (4*int64(m.K+1)+1)*int64(g.NumNodes())*int64(g.NumClasses()))
}

// Forward implements Model; it returns logits.
func (m GPRGNN) Forward(scope *model.Scope, in *nn.Nodes, train bool) *Node {
	adj := sparse.FromNodes(in, nn.InputGCNAdj).ForPass(train)
	x := nn.DropoutFeatures(scope, in.Features(nn.InputFeatures).ForPass(train), m.Dropout, train)
	h := nn.ReLU(nn.SparseLinear(scope.In("lin1"), x, m.Hidden, true))
	h = nn.Dropout(scope, h, m.Dropout, train)
	z := nn.Linear(scope.In("lin2"), h, numClasses(in), true)
	z = nn.Dropout(scope, z, m.DropProp, train)
	return nn.GPRProp(scope.In("prop"), z, adj, nn.GPRPPRInit(m.K, m.Alpha))
}
