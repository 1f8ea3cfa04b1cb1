package models

import (
	"fmt"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// BMGCN is the block-modelling-guided GCN of He et al. ("Block
// Modeling-Guided Graph Convolutional Neural Networks", AAAI 2022) as the
// official hedongxiao-tju/BM-GCN model computes it:
//
//	B      = softmax(MLP(X))                         soft labels [N, C]
//	Ŷ      = one-hot labels on training nodes, B elsewhere
//	H      = BlockMatrix(Ŷ, A)                       [C, C]
//	Q      = BlockCompatibility(H, Enhance)          [C, C]
//	alpha  = BlockEdgeWeights(B, Q, A)               softmax over each row of (B Q Bᵀ) ∘ A
//	         (BlockEdgeWeightsSlots in A's slot layout on graphs with one: the same values)
//	h⁰ = X;  h^(l) = ReLU(BMGCNConv(Dropout(h^(l-1)), alpha))   for l < Layers
//	logits = BMGCNConv(h^(Layers-1), alpha)          (no dropout before the last layer)
//
// with MLP = Linear(F, Hidden) -> Dropout(MLPDropout) -> ReLU -> Linear(C)
// (xavier_uniform weights, zero biases), A = BMGCNAdjacency(SelfLoop) in
// "adj/bmgcn". The official training loss is NLL(logits) + NLL(log B) on the
// training nodes, after pre-training the MLP alone; see the zoo entry.
// Gradients reach the MLP through B, Ŷ, H, Q and alpha.
type BMGCN struct {
	// Hidden is the width of the MLP and of the GCN's hidden layers.
	Hidden int
	// Layers is the number of BMGCNConv layers (official num_gcn_layers).
	Layers int
	// Dropout is the GCN's dropout (official dropout_gcn); MLPDropout the
	// MLP's (dropout_mlp).
	Dropout, MLPDropout float64
	// Enhance is the diagonal weight of Q (official enhance); SelfLoop the
	// weight added to A's diagonal (official self_loop).
	Enhance, SelfLoop float64
}

// Name implements Model.
func (m BMGCN) Name() string { return "bmgcn" }

// RunBytes implements nn.Model: the MLP and Layers GCN layers of Hidden,
// plus the block-guided weights per edge (about 8 [E] buffers).
func (m BMGCN) RunBytes(g *graph.Graph) int64 {
	return nn.LayersRunBytes(g, m.Hidden, m.Layers+2, 8*int64(len(g.Src())))
}

// Scopes of the two parts (for optimizer groups and pre-training).
const (
	BMGCNScopeMLP = "mlp"
	BMGCNScopeGCN = "gcn"
)

// Prepare implements Model: features, labels and the weighted adjacency.
func (m BMGCN) Prepare(g *graph.Graph, in *nn.Inputs) error {
	if m.Hidden < 1 || m.Layers < 1 {
		return fmt.Errorf("models: BM-GCN needs hidden >= 1 and layers >= 1, got hidden %d, layers %d", m.Hidden, m.Layers)
	}
	if m.Enhance <= 0 {
		return fmt.Errorf("models: BM-GCN enhance must be positive, got %v", m.Enhance)
	}
	if err := nn.AddGraphBasics(in, g); err != nil {
		return err
	}
	return nn.AddBMGCNAdjacency(in, g, m.SelfLoop)
}

// Forward implements Model; it returns the GCN's logits.
func (m BMGCN) Forward(scope *model.Scope, in *nn.Nodes, train bool) *Node {
	logits, _ := m.ForwardBoth(scope, in, train)
	return logits
}

// MLPLogits returns the MLP's logits [N, C] (scope "mlp"; [N, R·C] for R
// runs, each built on its own, nn.EachRun).
func (m BMGCN) MLPLogits(scope *model.Scope, in *nn.Nodes, train bool) *Node {
	return nn.EachRunNode(scope, in, func(scope *model.Scope, in *nn.Nodes) *Node { return m.mlpLogits(scope, in, train) })
}

// mlpLogits is one run's MLPLogits.
func (m BMGCN) mlpLogits(scope *model.Scope, in *nn.Nodes, train bool) *Node {
	x := in.Features(nn.InputFeatures).ForPass(train)
	s := scope.In(BMGCNScopeMLP)
	f := x.NumCols()
	h := nn.SparseLinearWithInit(s.In("fc1"), x, m.Hidden, true, nn.GlorotInit(f, m.Hidden), nn.ZeroInit)
	h = nn.ReLU(nn.Dropout(scope, h, m.MLPDropout, train))
	c := numClasses(in)
	return nn.LinearWithInit(s.In("fc2"), h, c, true, nn.GlorotInit(m.Hidden, c), nn.ZeroInit)
}

// ForwardBoth returns the GCN's logits and the MLP's logits. The training
// labels ("labels", "mask/train") enter the block matrix in both training
// and evaluation passes, as in the official code.
// With R runs both are [N, R·C], each run built on its own (nn.EachRun).
func (m BMGCN) ForwardBoth(scope *model.Scope, in *nn.Nodes, train bool) (logits, mlpLogits *Node) {
	return nn.EachRunPair(scope, in, func(scope *model.Scope, in *nn.Nodes) (*Node, *Node) {
		return m.forwardBoth(scope, in, train)
	})
}

// forwardBoth is one run's ForwardBoth.
func (m BMGCN) forwardBoth(scope *model.Scope, in *nn.Nodes, train bool) (logits, mlpLogits *Node) {
	mlpLogits = m.mlpLogits(scope, in, train)
	dt := mlpLogits.DType()
	c := numClasses(in)
	b := Softmax(mlpLogits, -1)
	adj := sparse.FromNodes(in, nn.InputBMGCNAdj).ForPass(train)
	a := ConvertDType(in.Get(nn.InputBMGCNWeights), dt)
	isTrain := ExpandAxes(GreaterThan(ConvertDType(in.Get(nn.InputTrainMask), dt), ScalarZero(mlpLogits.Graph(), dt)), -1)
	yHat := Where(isTrain, OneHot(in.Get(nn.InputLabels), c, dt), b)
	q := nn.BlockCompatibility(nn.BlockMatrix(yHat, adj, a), m.Enhance)
	// The weights in the adjacency's slot layout where it has one (large
	// graphs); they are all 1 without added self loops (the entries are 0/1
	// edges and existing self loops).
	alpha := nn.BlockWeights{Adj: adj}
	if alpha.Slots = adj.RowSlots(); alpha.Slots != nil {
		var as sparse.SlotValues
		if m.SelfLoop != 0 {
			as = alpha.Slots.Entries(a)
		}
		alpha.Values = nn.BlockEdgeWeightsSlots(b, q, alpha.Slots, as)
	} else {
		alpha.Entries = nn.BlockEdgeWeights(b, q, adj, a)
	}

	s := scope.In(BMGCNScopeGCN)
	h := in.Features(nn.InputFeatures).ForPass(train)
	for l := range m.Layers {
		last := l == m.Layers-1
		out := m.Hidden
		if last {
			out = c
		} else {
			h = nn.DropoutFeatures(scope, h, m.Dropout, train)
		}
		y := nn.BMGCNConv(s.In("layer%d", l), h, alpha, out)
		if last {
			logits = y
		} else {
			h = nn.DenseFeatures(nn.ReLU(y))
		}
	}
	return logits, mlpLogits
}
