package nn

import (
	"math"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// GCN2Conv is one layer of GCNII (Chen et al., 2020) as in the official
// GCNII code (GraphConvolution, variant=False, residual=False), which
// LW-GCN uses as f_G:
//
//	S      = (1 - alpha) Â h + alpha h0
//	theta  = log(lambda / layer + 1)
//	out    = theta (S W) + (1 - theta) S
//
// The model applies ReLU to out (h_{l+1} = ReLU(out)). layer counts from 1.
// Shapes: h, h0 [N, H], W [H, H] ("weight", U(-1/sqrt(H), 1/sqrt(H)), no
// bias), adj Â N x N (Inputs "adj/gcn"), result [N, H].
//
// alphaH0 is alpha·h0, passed precomputed since every layer uses it. The
// two terms are folded into one product, out = S (theta W + (1-theta) I),
// and (1 - alpha) into Â's row scale: per layer there is one sparse product
// and one dense product of N x H matrices. With R runs (h, h0 [N, R·H]) the
// aggregation runs once over every run's columns and the runs' products
// are one batched product (W held transposed; I is its own transpose).
func GCN2Conv(scope *model.Scope, h, alphaH0 *Node, adj *sparse.SpMat, alpha, lambda float64, layer int) *Node {
	g := h.Graph()
	r := Runs(scope)
	hdim := h.Shape().Dimensions[1] / r
	theta := math.Log(lambda/float64(layer) + 1)
	w := RunsParam(scope, g, "weight", h.DType(), Uniform(1/math.Sqrt(float64(hdim))), nil, RunsTransposed, hdim, hdim)
	s := Add(runsMul(gcn2Adjacency(adj, alpha, h.DType()), h, r, nil), alphaH0)
	eye := MulScalar(identity(g, h.DType(), hdim), 1-theta)
	if r > 1 {
		eye = ExpandAxes(eye, 0)
	}
	return runsProject(s, Add(MulScalar(w, theta), eye), r)
}

type identityKey struct {
	dtype dtypes.DType
	n     int
}

// identity returns the n x n identity matrix, built once per graph.
func identity(g *Graph, dtype dtypes.DType, n int) *Node {
	key := identityKey{dtype, n}
	if v, ok := g.State(key).(*Node); ok && v != nil {
		return v
	}
	eye := ConvertDType(Equal(Iota(g, shapes.Make(dtypes.Int32, n, n), 0), Iota(g, shapes.Make(dtypes.Int32, n, n), 1)), dtype)
	g.AttachState(key, eye)
	return eye
}
