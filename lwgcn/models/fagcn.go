package models

import (
	"fmt"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// FAGCN is the frequency-adaptation GCN of Bo et al. (AAAI 2021) as the
// official bdy9527/FAGCN model computes it:
//
//	h⁰     = Dropout(ReLU(Linear_t1(Dropout(X))))
//	h^(l)  = FAConv(h^(l-1)) + Eps · h⁰            for l = 1..Layers
//	logits = Linear_t2(h^(Layers))
//
// Shapes: X N x F (sparse or dense), h [N, Hidden], logits [N, C]; edges
// "adj/fagcn" (FAEdges). Linear_t1 and Linear_t2 have biases; their weights
// are xavier_normal with gain 1.414 in the official code (here uniform with
// the same variance), their biases PyTorch's default. Dropout (one rate) is
// applied to the input, to h⁰ and to the edge coefficients of every layer.
type FAGCN struct {
	Hidden, Layers int
	// Eps is ε, the weight of the initial representation h⁰ added after
	// every layer.
	Eps     float64
	Dropout float64
}

// Name implements Model.
func (m FAGCN) Name() string { return "fagcn" }

// Prepare implements Model: features, labels and FAEdges.
func (m FAGCN) Prepare(g *graph.Graph, in *nn.Inputs) error {
	if m.Hidden < 1 || m.Layers < 1 {
		return fmt.Errorf("models: FAGCN needs hidden >= 1 and layers >= 1, got hidden %d, layers %d", m.Hidden, m.Layers)
	}
	return nn.AddGraphBasics(in, g, nn.AddFAEdges)
}

// RunBytes implements nn.Model: Layers+1 layers of Hidden, plus per edge
// and layer the score, tanh, mask, coefficient and their gradients (about 8
// [E] buffers).
func (m FAGCN) RunBytes(g *graph.Graph) int64 {
	return nn.LayersRunBytes(g, m.Hidden, m.Layers+1, 8*int64(len(g.Src()))*int64(m.Layers))
}

// Forward implements Model; it returns logits.
func (m FAGCN) Forward(scope *model.Scope, in *nn.Nodes, train bool) *Node {
	edges := sparse.FromNodes(in, nn.InputFAEdges)
	x := nn.DropoutFeatures(scope, in.Features(nn.InputFeatures).ForPass(train), m.Dropout, train)
	f := x.NumCols()
	h := nn.ReLU(nn.SparseLinearWithInit(scope.In("t1"), x, m.Hidden, true, nn.XavierNormalAsUniform(f, m.Hidden, 1.414),
		nn.LinearInit(f)))
	h = nn.Dropout(scope, h, m.Dropout, train)
	raw := h
	for l := range m.Layers {
		h = nn.FAConv(scope.In("layer%d", l), h, edges, nn.FAConfig{Dropout: m.Dropout}, train)
		h = Add(MulScalar(raw, m.Eps), h)
	}
	c := numClasses(in)
	return nn.LinearWithInit(scope.In("t2"), h, c, true, nn.XavierNormalAsUniform(m.Hidden, c, 1.414), nn.LinearInit(m.Hidden))
}
