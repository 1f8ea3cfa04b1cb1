package nn

import (
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// GCNConv is Kipf & Welling's graph convolution as PyG's GCNConv computes it,
// projecting before aggregating:
//
//	out = Â (X W) + b,   Â = D^-1/2 (A + I) D^-1/2   (GCNNormalized)
//
// Shapes: X N x F (dense or sparse Features), W [F, out] ("weight", glorot
// as in PyG), b [out] ("bias", zeros), adj N x N (Inputs "adj/gcn"),
// result [N, out].
func GCNConv(scope *model.Scope, x Features, adj *sparse.SpMat, out int) *Node {
	g := x.Graph()
	xw := SparseLinearWithInit(scope, x, out, false, GlorotInit(x.NumCols(), out), ZeroInit)
	y := adj.Mul(xw)
	b := Param(scope, g, "bias", x.DType(), ZeroInit, nil, out)
	return Add(y, ExpandAxes(b, 0))
}
