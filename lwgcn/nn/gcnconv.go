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
// result [N, out]. With R runs the projection is SparseLinear's and the
// aggregation runs once over the runs' [N, R·out] columns.
func GCNConv(scope *model.Scope, x Features, adj *sparse.SpMat, out int) *Node {
	g := x.Graph()
	r := Runs(scope)
	xw := SparseLinearWithInit(scope, x, out, false, GlorotInit(x.colsPerRun(r), out), ZeroInit)
	y := runsMul(adj, xw, r, nil)
	b := RunsParam(scope, g, "bias", x.DType(), ZeroInit, nil, FusedCols, out)
	return Add(y, ExpandAxes(b, 0))
}
