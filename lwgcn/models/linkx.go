package models

import (
	"fmt"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// InputLINKXAdj is LINKX's adjacency input: the binary A (row = source) of
// the graph as given to the model (the zoo symmetrises it).
const InputLINKXAdj = "linkx/adj"

// LINKX is the model of Lim et al., "Large Scale Learning on Non-Homophilous
// Graphs: New Benchmarks and Strong Simple Methods" (NeurIPS 2021), as the
// official code builds it (CUAI/Non-Homophily-Large-Scale, models.LINKX):
//
//	hA = MLP_A(A)       the adjacency rows as sparse input features (LINKXMLP, LayersA, no dropout)
//	hX = MLP_X(X)       (LINKXMLP, LayersX, no dropout)
//	h  = ReLU(W [hA; hX] + hA + hX)                     ("W": 2·Hidden -> Hidden)
//	logits = MLP_f(h)   (LINKXMLP, Layers, Dropout; Hidden -> C)
//
// A is never dense: MLP_A's first layer is a SparseLinear over the N x N
// binary A (A[i, j] = 1 for an edge i -> j, distinct pairs, the graph's own
// self loops kept, no normalisation), so its cost is one gather-sum over the
// edges (Squirrel: 397k entries x Hidden) and its weight is N x Hidden.
// Shapes: X N x F, hidden [N, Hidden], logits [N, C].
type LINKX struct {
	Hidden int
	// Layers of MLP_f (num_layers), LayersA and LayersX of MLP_A and MLP_X
	// (init_layers_A/X); 1 means one Linear.
	Layers, LayersA, LayersX int
	// Dropout inside MLP_f (between its hidden layers only).
	Dropout float64
}

// Validate checks the configuration.
func (m LINKX) Validate() error {
	if m.Hidden < 1 || m.Layers < 1 || m.LayersA < 1 || m.LayersX < 1 || m.Dropout < 0 || m.Dropout >= 1 {
		return fmt.Errorf("linkx: need hidden, layers, layers_a, layers_x >= 1 and dropout in [0, 1); got %d, %d, %d, %d, %v",
			m.Hidden, m.Layers, m.LayersA, m.LayersX, m.Dropout)
	}
	return nil
}

// Name implements Model.
func (m LINKX) Name() string { return "linkx" }

// RunBytes implements nn.Model: its three MLPs (mlpA's first weight is
// [N, Hidden]).
func (m LINKX) RunBytes(g *graph.Graph) int64 {
	return nn.LayersRunBytes(g, m.Hidden, m.LayersA+m.LayersX+m.Layers+1, 4*int64(g.NumNodes())*int64(m.Hidden))
}

// Prepare implements Model: features, labels and A.
func (m LINKX) Prepare(g *graph.Graph, in *nn.Inputs) error {
	if err := m.Validate(); err != nil {
		return err
	}
	if err := nn.AddGraphBasics(in, g); err != nil {
		return err
	}
	a, err := sparse.BinaryAdjacency(g.NumNodes(), g.Src(), g.Dst(), false, sparse.NormNone)
	if err != nil {
		return fmt.Errorf("models: graph %q: %w", g.Name(), err)
	}
	sparse.Set(in, InputLINKXAdj, a)
	return nil
}

// Forward implements Model; it returns logits. Each run builds its own
// layers (nn.EachRun).
func (m LINKX) Forward(scope *model.Scope, in *nn.Nodes, train bool) *Node {
	return nn.EachRunNode(scope, in, func(scope *model.Scope, in *nn.Nodes) *Node { return m.forward(scope, in, train) })
}

// forward is one run's Forward.
func (m LINKX) forward(scope *model.Scope, in *nn.Nodes, train bool) *Node {
	a := nn.SparseFeatures(sparse.FromNodes(in, InputLINKXAdj), in.DType).ForPass(train)
	x := in.Features(nn.InputFeatures).ForPass(train)
	ha := LINKXMLP(scope.In("mlpA"), a, m.Hidden, m.Hidden, m.LayersA, 0, train)
	hx := LINKXMLP(scope.In("mlpX"), x, m.Hidden, m.Hidden, m.LayersX, 0, train)
	h := nn.Linear(scope.In("W"), Concatenate([]*Node{ha, hx}, 1), m.Hidden, true)
	h = nn.ReLU(Add(Add(h, ha), hx))
	return LINKXMLP(scope.In("mlpf"), nn.DenseFeatures(h), m.Hidden, numClasses(in), m.Layers, m.Dropout, train)
}
