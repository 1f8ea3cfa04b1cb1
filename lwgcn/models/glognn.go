package models

import (
	"fmt"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// InputGloGNNAdj is GloGNN's adjacency: the row-normalised A + I of the
// symmetric binary adjacency (sparse.BinaryAdjacency with sparse.NormRow).
const InputGloGNNAdj = "glognn/adj"

// GloGNN is GloGNN++ (Li et al., ICML 2022) as the official small-graph code
// builds it (MLP_NORM with norm_func2):
//
//	hX = Linear(X)                                   ("fc1": F -> Hidden)
//	hA = Linear(Â)    (the rows of Â as features)    ("fc3": N -> Hidden)
//	h0 = Linear(Dropout(ReLU(δ hX + (1-δ) hA)))      ("fc2": Hidden -> C)
//	H  = GloGNNConv(H, h0)  NormLayers times, from H = h0 ("norm", shared)
//	output = log_softmax(H)
//
// Note the layers work in the C-dimensional output space, so the Woodbury
// solve is C x C. Shapes: X N x F, hidden [N, Hidden], output
// log-probabilities [N, C]. The official code computes a dropout of X that it
// never uses; there is no input dropout here either. When Delta is 1 (or 0)
// the official code still computes the unused branch; it is skipped here (the
// outputs are the same). Cost on Squirrel (5,201 nodes): the fc3 product is a
// sparse N x N by N x Hidden product (Â has 2 x 198k + 5k entries); the norm
// layers add Orders sparse products with C columns each.
type GloGNN struct {
	Hidden  int
	Dropout float64
	// Delta weighs the feature branch against the adjacency branch.
	Delta float64
	nn.GloGNNConfig

	NormLayers int
	// Float64 runs the model in float64, as the official code does
	// (torch.set_default_dtype(torch.float64)).
	Float64 bool
}

// Validate checks the configuration.
func (m GloGNN) Validate() error {
	if m.Hidden < 1 || m.NormLayers < 0 || m.Delta < 0 || m.Delta > 1 || m.Dropout < 0 || m.Dropout >= 1 {
		return fmt.Errorf("glognn: need hidden >= 1, norm layers >= 0, delta in [0, 1], dropout in [0, 1); got %d, %d, %v, %v",
			m.Hidden, m.NormLayers, m.Delta, m.Dropout)
	}
	return m.GloGNNConfig.Validate()
}

// Name implements Model.
func (m GloGNN) Name() string { return "glognn++" }

// RunBytes implements nn.Model: the MLP on features and adjacency (fc3's
// weight is [N, Hidden]), then NormLayers layers of C columns.
func (m GloGNN) RunBytes(g *graph.Graph) int64 {
	return nn.LayersRunBytes(g, m.Hidden, 2+m.NormLayers, 4*int64(g.NumNodes())*int64(m.Hidden))
}

// Prepare implements Model: features, labels and the row-normalised A + I
// of the symmetric binary adjacency (nx.from_dict_of_lists in the official
// loader; the graph's own self loops give a diagonal 2).
func (m GloGNN) Prepare(g *graph.Graph, in *nn.Inputs) error {
	if err := m.Validate(); err != nil {
		return err
	}
	if m.Float64 {
		in.DType = dtypes.Float64
	}
	if err := nn.AddGraphBasics(in, g); err != nil {
		return err
	}
	u := g.ToUndirected()
	adj, err := sparse.BinaryAdjacency(g.NumNodes(), u.Dst(), u.Src(), true, sparse.NormRow)
	if err != nil {
		return fmt.Errorf("models: graph %q: %w", g.Name(), err)
	}
	sparse.Set(in, InputGloGNNAdj, adj)
	return nil
}

// Forward implements Model; it returns log-probabilities. Each run builds its own
// layers (nn.EachRun).
func (m GloGNN) Forward(scope *model.Scope, in *nn.Nodes, train bool) *Node {
	return nn.EachRunNode(scope, in, func(scope *model.Scope, in *nn.Nodes) *Node { return m.forward(scope, in, train) })
}

// forward is one run's Forward.
func (m GloGNN) forward(scope *model.Scope, in *nn.Nodes, train bool) *Node {
	adj := sparse.FromNodes(in, InputGloGNNAdj).ForPass(train)
	var h *Node
	if m.Delta != 0 {
		x := in.Features(nn.InputFeatures).ForPass(train)
		h = MulScalar(nn.SparseLinear(scope.In("fc1"), x, m.Hidden, true), m.Delta)
	}
	if m.Delta != 1 {
		a := nn.SparseFeatures(adj, in.DType)
		ha := MulScalar(nn.SparseLinear(scope.In("fc3"), a, m.Hidden, true), 1-m.Delta)
		if h == nil {
			h = ha
		} else {
			h = Add(h, ha)
		}
	}
	h = nn.Dropout(scope, nn.ReLU(h), m.Dropout, train)
	h0 := nn.Linear(scope.In("fc2"), h, numClasses(in), true)
	out := h0
	norm := scope.In("norm") // one scope: the layers share w and θ
	for range m.NormLayers {
		out = nn.GloGNNConv(norm, out, h0, adj, m.GloGNNConfig)
	}
	return nn.ClassLogSoftmax(out)
}
