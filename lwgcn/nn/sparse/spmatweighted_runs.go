package sparse

import (
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
)

// MulWeightedRuns is MulWeighted for R runs sharing m's sparsity pattern
// and scales, each with its own entry weights computed in the graph (the
// batched aggregation of attention-like layers such as FAConv):
//
//	out_r = RowScale ⊙ A_{w_r} · (ColScale ⊙ x_r)
//
// Gradients flow to x (Aᵀ_{w_r}·v_r on the transposed ELL layout, gathers
// only) and to w (ellRecord.entryGradient, per run). Small matrices (DenseMaxElements) scatter each run's
// weights into a dense matrix and use one batched Dot when MulWeighted
// would (denseFor, on the R·H columns).
//
// Shapes: x [NumCols, R·H], run r owning columns r·H … (r+1)·H-1; w
// [NNZ, R], the entries' weights per run in the row-sorted entry order;
// result [NumRows, R·H] in x's column layout.
func (m *SpMat) MulWeightedRuns(x, w *Node, runs int) *Node {
	if x.Rank() != 2 || x.Shape().Dimensions[0] != m.NumCols || runs < 1 || x.Shape().Dimensions[1]%runs != 0 {
		panicf("nn: MulWeightedRuns: sparse %d x %d matrix times %s for %d runs", m.NumRows, m.NumCols, x.Shape(), runs)
	}
	if d := w.Shape().Dimensions; w.Rank() != 2 || d[0] != m.NNZ || d[1] != runs {
		panicf("nn: MulWeightedRuns: entry weights %s, want [%d, %d]", w.Shape(), m.NNZ, runs)
	}
	if m.dense != nil && !m.denseFor(x.Shape().Dimensions[1]) {
		return m.wide().MulWeightedRuns(x, w, runs)
	}
	dt := x.DType()
	w = ConvertDType(w, dt)
	if m.ColScale != nil {
		x = Mul(x, ConvertDType(m.ColScale, dt))
	}
	h := x.Shape().Dimensions[1] / runs
	pad := func(w *Node) *Node { // padding slots read 0
		return Concatenate([]*Node{w, Zeros(x.Graph(), shapes.Make(dt, 1, runs))}, 0)
	}
	var y *Node
	switch {
	case m.dense != nil:
		b := m.runsDense(w, runs, false) // [R, rows, cols]
		if m.noGrad {
			b, x = StopGradient(b), StopGradient(x)
		}
		y = DotGeneral(b, []int{2}, []int{0}, Reshape(x, m.NumCols, runs, h), []int{0}, []int{1}) // [R, rows, H]
		y = Reshape(TransposeAllDims(y, 1, 0, 2), m.NumRows, runs*h)
	case m.noGrad:
		m.mustHaveELL("MulWeightedRuns")
		y = ellMulRuns(StopGradient(x), m.byRow, pad(StopGradient(w)), runs, true)
	default:
		m.mustHaveELL("MulWeightedRuns")
		// Value with the gradient for w (entryGradient); the gradient for x
		// rides on a zero-valued term carrying Aᵀ_w·v.
		sx := StopGradient(x)
		y = weightedProduct(func(rec *ellRecord) *Node {
			return ellMulRunsRecord(sx, m.byRow, pad(StopGradient(w)), runs, true, rec)
		}, w, m.NumRows, x.Shape().Dimensions[1], runs)
		sw := pad(StopGradient(w))
		y = Add(y, linearGradCarrier(x, m.NumRows, func(v *Node) *Node { return ellMulRuns(v, m.byCol, sw, runs, false) }))
	}
	if m.RowScale != nil {
		y = Mul(y, ConvertDType(m.RowScale, dt))
	}
	return y
}
