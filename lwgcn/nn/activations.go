package nn

import (
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/layers/activation"
)

// ReLU is max(x, 0) (GoMLX's activation, fused when GOMLX_FUSION allows).
func ReLU(x *Node) *Node { return activation.Relu(x) }

// ELU is x for x > 0 and exp(x) - 1 otherwise (alpha = 1, as in the GAT paper).
func ELU(x *Node) *Node {
	zero := ZerosLike(x)
	// exp(x)-1 rather than Expm1: GoMLX defines no gradient for Expm1.
	return Where(GreaterThan(x, zero), x, AddScalar(Exp(Min(x, zero)), -1))
}

// LeakyReLU is x for x >= 0 and slope·x otherwise.
func LeakyReLU(x *Node, slope float64) *Node {
	return Where(GreaterOrEqual(x, ZerosLike(x)), x, MulScalar(x, slope))
}
