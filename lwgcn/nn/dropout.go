package nn

import (
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"
)

// Dropout is PyTorch's F.dropout: when train is true each entry of x is
// zeroed with probability rate and the others are scaled by 1/(1-rate);
// otherwise x is returned unchanged. Randomness comes from the store's RNG
// state (seeded with Store.SetRNGStateFromSeed), so runs repeat exactly.
func Dropout(scope *model.Scope, x *Node, rate float64, train bool) *Node {
	if !train || rate <= 0 {
		return x
	}
	if rate >= 1 {
		return ZerosLike(x)
	}
	g := x.Graph()
	u := scope.RandomUniform(g, x.Shape()) // [0, 1)
	keep := GreaterOrEqual(u, Scalar(g, x.DType(), rate))
	return Where(keep, MulScalar(x, 1/(1-rate)), ZerosLike(x))
}

// DropoutFeatures applies Dropout to a feature matrix; for sparse features
// only the stored entries are dropped (Kipf & Welling's sparse_dropout),
// which has the same distribution as dropout on the dense matrix.
func DropoutFeatures(scope *model.Scope, f Features, rate float64, train bool) Features {
	if !train || rate <= 0 {
		return f
	}
	if f.Sparse == nil {
		return Features{Dense: Dropout(scope, f.Dense, rate, train)}
	}
	vals := Dropout(scope, f.Sparse.EntryValues(f.DType()), rate, train)
	return Features{Sparse: f.Sparse.WithVals(vals), dtype: f.dtype}
}
