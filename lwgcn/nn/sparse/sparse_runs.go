package sparse

import (
	. "github.com/gomlx/gomlx/core/graph"
)

// MulRuns returns the products A_r·x_r of R runs sharing m's sparsity
// pattern, each with its own entry values (a different dropout of sparse
// features per run, for instance), in one pass over the pattern.
//
// Shapes: x [NumCols, R·H], run r owning columns r·H … (r+1)·H-1 (a fused
// projection); vals [NNZ, R], the entries' values per run in the row-sorted
// entry order (they replace m's values; the row and column scales still
// apply); result [NumRows, R·H] in the same column layout. With vals nil
// every run uses m's own values: one aggregation over all runs' columns,
// m.Mul(x) with the ELL chunks split to keep the R-times-wider blocks in
// cache. Gradients flow to x only (Aᵀ_r·v_r on the transposed layout), as
// in Mul.
func (m *SpMat) MulRuns(x *Node, runs int, vals *Node) *Node {
	f := m.form()
	if f != FormELL && vals == nil {
		return m.Mul(x)
	}
	if f == FormELL && m.dense != nil && !m.denseFor(x.Shape().Dimensions[1]) {
		return m.wide().MulRuns(x, runs, vals)
	}
	if vals == nil && m.dense != nil {
		return m.Mul(x)
	}
	if x.Rank() != 2 || x.Shape().Dimensions[0] != m.NumCols || runs < 1 || x.Shape().Dimensions[1]%runs != 0 {
		panicf("nn: MulRuns: sparse %d x %d matrix times %s for %d runs", m.NumRows, m.NumCols, x.Shape(), runs)
	}
	dt := x.DType()
	if vals != nil {
		if d := vals.Shape().Dimensions; vals.Rank() != 2 || d[0] != m.NNZ || d[1] != runs {
			panicf("nn: MulRuns: values %s, want [%d, %d]", vals.Shape(), m.NNZ, runs)
		}
		vals = StopGradient(ConvertDType(vals, dt))
	}
	switch {
	case f == FormSegment:
		return m.mulRunsSegment(x, vals, runs)
	case f == FormDense || m.dense != nil:
		rs, cs := m.scales(dt)
		return m.mulRunsDense(x, vals, rs, cs, runs)
	}
	m.mustHaveELL("MulRuns")
	var vp *Node // nil: m's own values (pre-arranged per chunk) or ones
	if vals != nil {
		vp = padEntryVals(vals)
	}
	return m.ellProduct(x, m.byRow, m.byCol, vp, runs)
}
