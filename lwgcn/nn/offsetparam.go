package nn

import (
	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"
)

// offsetKeyPrefix + variable name (in the variable's scope) holds the
// constant of an OffsetParam (a float64).
const offsetKeyPrefix = "lwgcn_offset#"

// OffsetParam returns c + δ, where δ is a Param (variable name, dims,
// initialised to zeros): a weight that starts at the constant c, like
// PyTorch's ones_ or fill_ initialisations (batch-norm scales, GloGNN++'s
// 1/orders and 1/C weights, SimP-GCN's bias_init). Init specs only describe
// uniform draws, hence the offset; Reinitialize resets δ to zero, so every
// run starts at c again.
//
// The offset is recorded with the variable (ParamOffset) so that training
// can decay the effective value c + δ, not δ, when it matters (see the zoo's
// weight-decay helpers): PyTorch decays the parameter itself.
func OffsetParam(scope *model.Scope, g *Graph, name string, dtype dtypes.DType, c float64, dims ...int) *Node {
	delta := Param(scope, g, name, dtype, ZeroInit, nil, dims...)
	scope.SetParam(offsetKeyPrefix+name, c)
	if c == 0 {
		return delta
	}
	return AddScalar(delta, c)
}

// ParamOffset returns the constant c of a variable created by OffsetParam
// (ok false for other variables).
func ParamOffset(store *model.Store, v *model.Variable) (c float64, ok bool) {
	x, found := store.GetParam(model.JoinPath(v.Scope(), offsetKeyPrefix+v.Name()))
	if !found {
		return 0, false
	}
	c, ok = x.(float64)
	return c, ok
}
