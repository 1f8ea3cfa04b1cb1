package nn

import (
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"
)

// Dropout is PyTorch's F.dropout: when train is true each entry of x is
// zeroed with probability rate and the others are scaled by 1/(1-rate);
// otherwise x is returned unchanged. Randomness comes from the run's random
// state (seeded by SeedRandom), so runs repeat exactly.
//
// It multiplies x by DropoutMask: one pass over x forward and one backward
// (the gradient is the upstream gradient times the same mask). With R runs,
// x is [d0, R·w] and each run's block gets its own [d0, w] mask.
func Dropout(scope *model.Scope, x *Node, rate float64, train bool) *Node {
	if !train || rate <= 0 {
		return x
	}
	if rate >= 1 {
		return ZerosLike(x)
	}
	return Mul(x, RunsDropoutMask(scope, x.Graph(), x.Shape(), rate))
}

// RunsDropoutMask returns the mask Dropout multiplies x of the given shape
// by (0 < rate < 1): DropoutMask for one run; for R runs (x [d0, R·w]) each
// run's [d0, w] block drawn from its own random state.
func RunsDropoutMask(scope *model.Scope, g *Graph, shape shapes.Shape, rate float64) *Node {
	r := Runs(scope)
	if r == 1 {
		return DropoutMask(scope, g, shape, rate)
	}
	if shape.Rank() != 2 {
		panicf("nn: Dropout of %s for %d runs: want [rows, runs·width]", shape, r)
	}
	n, w := shape.Dimensions[0], shape.Dimensions[1]
	return Reshape(StackRuns(Masks(scope, g, shape.DType, rate, n, w/r)), n, w)
}

// DropoutMask returns a dropout mask of the given float shape, without
// gradient: 0 where a uniform draw u ∈ [0, 1) has u < rate, 1/(1-rate)
// elsewhere (0 < rate < 1). It draws from the random state of the run being
// built (the one RunUniform draws from): on pure Go from the backend's
// generator, elsewhere from HashMask (UseHashMasks).
func DropoutMask(scope *model.Scope, g *Graph, shape shapes.Shape, rate float64) *Node {
	return drawMask(scope.Store(), g, max(runIndex(scope.Store()), 0), shape, rate)
}

// DropoutFeatures applies Dropout to a feature matrix; for sparse features
// only the stored entries are dropped (Kipf & Welling's sparse_dropout),
// which has the same distribution as dropout on the dense matrix. The
// dropped matrix has explicit entry values: the mask (times the stored
// values, if any). With R runs a shared matrix keeps its one copy and gets
// each run's mask, applied where it is multiplied (SparseLinear).
func DropoutFeatures(scope *model.Scope, f Features, rate float64, train bool) Features {
	if !train || rate <= 0 {
		return f
	}
	r := Runs(scope)
	if !f.shared() {
		f.Dense = Dropout(scope, f.Dense, rate, train)
		return f
	}
	g, dt := f.Graph(), f.DType()
	if f.Sparse == nil {
		if r == 1 {
			f.Dense = Dropout(scope, f.Dense, rate, train)
		} else {
			f.runMasks = Stack(Masks(scope, g, dt, rate, f.NumRows(), f.NumCols()), 0)
		}
		return f
	}
	masks := Masks(scope, g, dt, rate, f.Sparse.NNZ)
	if f.Sparse.Vals != nil { // dropout or explicit values: the same entry order
		for k := range masks {
			masks[k] = Mul(ConvertDType(f.Sparse.Vals, dt), masks[k])
		}
	}
	if r == 1 {
		f.Sparse = f.Sparse.WithVals(masks[0])
	} else {
		f.runVals = StackRuns(masks) // [NNZ, R]
	}
	return f
}
