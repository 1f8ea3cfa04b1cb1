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
// default, U(-1/sqrt(in), 1/sqrt(in)) for both W and b.
//
// It goes through GoMLX's nn.Dense, which uses the backend's fused kernel
// when GOMLX_FUSION is on.
func Linear(scope *model.Scope, x *Node, out int, bias bool) *Node {
	in := x.Shape().Dimensions[x.Rank()-1]
	return LinearWithInit(scope, x, out, bias, LinearInit(in), LinearInit(in))
}

// LinearWithInit is Linear with explicit initialisations for W and b.
func LinearWithInit(scope *model.Scope, x *Node, out int, bias bool, wInit, bInit Init) *Node {
	g := x.Graph()
	in := x.Shape().Dimensions[x.Rank()-1]
	w := Param(scope, g, "weight", x.DType(), wInit, nil, in, out)
	var b *Node
	if bias {
		b = Param(scope, g, "bias", x.DType(), bInit, nil, out)
	}
	return gnn.Dense(x, w, b, compute.DenseLayoutInputOutputs)
}
