package sparse

import (
	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
)

// LoopMat is a sparse matrix for the body of a While loop (a layer stack
// run as one loop, e.g. GCNII's on XLA): a closure cannot read the nodes of
// the function around it, so the matrix's nodes travel in the loop's state
// (LoopOperands) and are rebuilt from the body's parameters (NewLoopMat).
// Its products are FormSegment's, written without GoMLX's per-graph scalar
// cache (a cached scalar belongs to the function that first built it) and
// without gradient: a loop's backward pass is its own loop, which calls
// MulT.
type LoopMat struct {
	NumRows, NumCols int
	// rows, cols [NNZ, 1] int32; vals [NNZ, 1], rs [NumRows, 1], cs
	// [NumCols, 1] in the products' dtype, or nil.
	rows, cols, vals, rs, cs *Node
}

// LoopOperands returns the nodes NewLoopMat needs, in the order it reads
// them (rows, cols, then the values and scales m has), with the values and
// scales in dtype dt and without gradient.
func (m *SpMat) LoopOperands(dt dtypes.DType) []*Node {
	ops := []*Node{m.Rows, m.Cols}
	if v := m.entryVals(dt); v != nil {
		ops = append(ops, ExpandAxes(v, -1))
	}
	rs, cs := m.scales(dt)
	for _, s := range []*Node{rs, cs} {
		if s != nil {
			ops = append(ops, StopGradient(s))
		}
	}
	return ops
}

// NewLoopMat rebuilds m from params, the loop body's parameters for
// m.LoopOperands (same order and shapes); it returns the matrix and how many
// parameters it read.
func NewLoopMat(m *SpMat, params []*Node) (*LoopMat, int) {
	l := &LoopMat{NumRows: m.NumRows, NumCols: m.NumCols, rows: params[0], cols: params[1]}
	k := 2
	if m.Vals != nil {
		l.vals = params[k]
		k++
	}
	if m.RowScale != nil {
		l.rs = params[k]
		k++
	}
	if m.ColScale != nil {
		l.cs = params[k]
		k++
	}
	return l, k
}

// Mul returns rs ⊙ (B·(cs ⊙ x)) for x [NumCols, W]: [NumRows, W].
func (l *LoopMat) Mul(x *Node) *Node {
	return scaledSegmentSum(x, l.cs, l.rs, l.cols, l.rows, l.vals, l.NumRows, 1, true)
}

// MulT returns the transposed product cs ⊙ (Bᵀ·(rs ⊙ v)) for v [NumRows,
// W]: [NumCols, W] (the gradient of Mul).
func (l *LoopMat) MulT(v *Node) *Node {
	return scaledSegmentSum(v, l.rs, l.cs, l.rows, l.cols, l.vals, l.NumCols, 1, false)
}
