package nn

import (
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"
)

// SparseLinear is nn.Linear applied to a (possibly sparse) feature matrix:
// y = X·W + b.
//
// Shapes: X N x F (Features: sparse CSR from graph.Features.COO(), or
// dense), W [F, out] (variable "weight"), b [out] ("bias", optional),
// y [N, out]. For sparse X the product gathers the rows of W at each row's
// non-zeros, scales them by the values and sums them (sparse.SpMat.Mul; never a
// dense N x F product); its gradient with respect to W does the same over
// the columns of X. Dense X uses Linear. Initialisation: PyTorch's
// nn.Linear, U(-1/sqrt(F), 1/sqrt(F)).
func SparseLinear(scope *model.Scope, x Features, out int, bias bool) *Node {
	if x.Sparse == nil {
		return Linear(scope, x.Dense, out, bias)
	}
	in := x.NumCols()
	return SparseLinearWithInit(scope, x, out, bias, LinearInit(in), LinearInit(in))
}

// SparseLinearWithInit is SparseLinear with explicit initialisations.
func SparseLinearWithInit(scope *model.Scope, x Features, out int, bias bool, wInit, bInit Init) *Node {
	if x.Sparse == nil {
		return LinearWithInit(scope, x.Dense, out, bias, wInit, bInit)
	}
	g := x.Graph()
	w := Param(scope, g, "weight", x.DType(), wInit, nil, x.NumCols(), out)
	y := x.Sparse.Mul(w)
	if bias {
		y = Add(y, ExpandAxes(Param(scope, g, "bias", x.DType(), bInit, nil, out), 0))
	}
	return y
}
