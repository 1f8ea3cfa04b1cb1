package nn

import (
	"github.com/gomlx/compute"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"
	gnn "github.com/gomlx/gomlx/ml/nn"
)

// Linear is PyTorch's nn.Linear: y = x·W + b.
//
// Shapes: x [N, in], W [in, out] (variable "weight"), b [out] (variable
// "bias", omitted when bias is false), y [N, out]. Initialisation: PyTorch's
// default, U(-1/sqrt(in), 1/sqrt(in)) for both W and b. With R runs x is
// [N, R·in] and y [N, R·out]; the runs' weights are multiplied in one
// batched product (PerRun).
//
// With GOMLX_FUSION on it goes through GoMLX's nn.Dense (the backend's
// fused kernel); otherwise through Project (cheaper weight gradient).
func Linear(scope *model.Scope, x *Node, out int, bias bool) *Node {
	in := x.Shape().Dimensions[x.Rank()-1] / Runs(scope)
	return LinearWithInit(scope, x, out, bias, LinearInit(in), LinearInit(in))
}

// LinearWithInit is Linear with explicit initialisations for W and b.
func LinearWithInit(scope *model.Scope, x *Node, out int, bias bool, wInit, bInit Init) *Node {
	g := x.Graph()
	r := Runs(scope)
	in := x.Shape().Dimensions[x.Rank()-1] / r
	w := RunsParam(scope, g, "weight", x.DType(), wInit, nil, RunsTransposed, in, out)
	var b *Node
	if bias {
		b = RunsParam(scope, g, "bias", x.DType(), bInit, nil, FusedCols, out)
	}
	if r == 1 && (x.Rank() != 2 || hasFusedDense(g)) {
		return gnn.Dense(x, w, b, compute.DenseLayoutInputOutputs)
	}
	y := runsProject(x, w, r)
	if b != nil {
		y = Add(y, ExpandAxes(b, 0))
	}
	return y
}

// hasFusedDense says whether g's backend differentiates nn.Dense with its
// own fused kernel (as GoMLX's nn.Dense checks).
func hasFusedDense(g *Graph) bool {
	b := g.Backend()
	return b != nil && b.Capabilities().Operations[compute.OpTypeFusedDenseVJP]
}
