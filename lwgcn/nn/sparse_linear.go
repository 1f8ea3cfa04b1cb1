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
//
// With R runs, X shared by the runs (the node features) is multiplied once
// for all runs, the runs' weights side by side, W [F, R·out] (FusedCols),
// each run with its own dropout of X (DropoutFeatures); the runs' own
// matrices [N, R·F] go through Linear. y is [N, R·out].
func SparseLinear(scope *model.Scope, x Features, out int, bias bool) *Node {
	in := x.colsPerRun(Runs(scope))
	return SparseLinearWithInit(scope, x, out, bias, LinearInit(in), LinearInit(in))
}

// SparseLinearWithInit is SparseLinear with explicit initialisations.
func SparseLinearWithInit(scope *model.Scope, x Features, out int, bias bool, wInit, bInit Init) *Node {
	r := Runs(scope)
	if x.Sparse == nil && (r == 1 || !x.Shared) {
		return LinearWithInit(scope, x.Dense, out, bias, wInit, bInit)
	}
	g := x.Graph()
	w := RunsParam(scope, g, "weight", x.DType(), wInit, nil, FusedCols, x.NumCols(), out)
	y := x.mulShared(w, r)
	if bias {
		y = Add(y, ExpandAxes(RunsParam(scope, g, "bias", x.DType(), bInit, nil, FusedCols, out), 0))
	}
	return y
}
