package nn

import (
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"
)

// Dropout is PyTorch's F.dropout: when train is true each entry of x is
// zeroed with probability rate and the others are scaled by 1/(1-rate);
// otherwise x is returned unchanged. Randomness comes from the store's RNG
// state (seeded with Store.SetRNGStateFromSeed), so runs repeat exactly.
//
// It multiplies x by DropoutMask: one pass over x forward and one backward
// (the gradient is the upstream gradient times the same mask).
func Dropout(scope *model.Scope, x *Node, rate float64, train bool) *Node {
	if !train || rate <= 0 {
		return x
	}
	if rate >= 1 {
		return ZerosLike(x)
	}
	return Mul(x, DropoutMask(scope, x.Graph(), x.Shape(), rate))
}

// DropoutMask returns a dropout mask of the given float shape, without
// gradient: 0 where a uniform draw u ∈ [0, 1) has u < rate, 1/(1-rate)
// elsewhere (0 < rate < 1). It draws from the store's RNG state.
func DropoutMask(scope *model.Scope, g *Graph, shape shapes.Shape, rate float64) *Node {
	dt := shape.DType
	keep := GreaterOrEqual(scope.RandomUniform(g, shape), Scalar(g, dt, rate))
	return StopGradient(Where(keep, Scalar(g, dt, 1/(1-rate)), Scalar(g, dt, 0)))
}

// DropoutFeatures applies Dropout to a feature matrix; for sparse features
// only the stored entries are dropped (Kipf & Welling's sparse_dropout),
// which has the same distribution as dropout on the dense matrix. The
// dropped matrix has explicit entry values: the mask (times the stored
// values, if any).
func DropoutFeatures(scope *model.Scope, f Features, rate float64, train bool) Features {
	if !train || rate <= 0 {
		return f
	}
	if f.Sparse == nil {
		return Features{Dense: Dropout(scope, f.Dense, rate, train)}
	}
	var vals *Node
	if rate >= 1 {
		vals = Zeros(f.Graph(), shapes.Make(f.DType(), f.Sparse.NNZ))
	} else {
		vals = DropoutMask(scope, f.Graph(), shapes.Make(f.DType(), f.Sparse.NNZ), rate)
		if f.Sparse.Vals != nil {
			vals = Mul(ConvertDType(f.Sparse.Vals, f.DType()), vals)
		}
	}
	return Features{Sparse: f.Sparse.WithVals(vals), dtype: f.dtype}
}
