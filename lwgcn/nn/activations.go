package nn

import (
	"github.com/gomlx/compute/support/envutil"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/layers/activation"
)

// ReLU is max(x, 0).
//
// With GOMLX_FUSION on it is GoMLX's fused activation. Otherwise it is
// Max(x, 0) (one SIMD pass; GoMLX's decomposed form first materialises a
// zero tensor) with the gradient v·sign(relu(x)) (two SIMD passes, where
// the autodiff of Max takes five), attached through the alternate-gradient
// mechanism of linearWithCustomGradient.
func ReLU(x *Node) *Node {
	if fusionOn() {
		return activation.Relu(x)
	}
	var y *Node
	outs, _ := InternalFusedOpCallerMulti(
		func() []*Node { return []*Node{Max(x, ScalarZero(x.Graph(), x.DType()))} },
		func() []*Node {
			return []*Node{IdentityWithCustomGradient(x, func(_, v *Node) *Node { return Mul(v, Sign(y)) })}
		},
		true)
	y = outs[0]
	return y
}

// fusionOn reports whether GOMLX_FUSION enables GoMLX's fused ops (the
// default when unset, as GoMLX reads it).
func fusionOn() bool {
	v, err := envutil.ReadBool(FusionEnv, true)
	return err == nil && v
}

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
