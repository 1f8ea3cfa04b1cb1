package sparse

import (
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
)

// MulWeighted returns A_w·x: the product with the matrix that has m's
// sparsity pattern and scales but the entry values w ([NNZ], row-sorted
// order, replacing Vals), with gradients flowing to x and to w. It is the
// aggregation of attention-like layers (FAConv, BM-GCN) whose per-edge
// weights are computed in the graph:
//
//	out_v = RowScale_v · Σ_{entries (v, u)} w_e · ColScale_u · x_u
//
// Large matrices use the gather-only ELL layout: the forward pass and the
// gradient for x (Aᵀ_w·v, on the ELL layout of Aᵀ) gather rows and never
// scatter them; the gradient for w, g_e = Σ_h v_{dst(e),h}·x_{src(e),h},
// reuses the forward pass's gathered blocks (ellRecord.entryGradient).
// Small matrices (DenseMaxElements) scatter w into a dense matrix and
// use one Dot, for narrow products or dense-enough matrices (denseFor;
// BenchmarkDenseMulWeighted); wider ones use their ELL layouts.
// Evaluation passes (NoGrad) skip the gradient scaffolding.
// Shapes: x [NumCols, H], w [NNZ]; result [NumRows, H].
func (m *SpMat) MulWeighted(x, w *Node) *Node {
	if w.Rank() != 1 || w.Shape().Dimensions[0] != m.NNZ {
		panicf("nn: entry weights %s for a sparse matrix with %d entries (want [%d])", w.Shape(), m.NNZ, m.NNZ)
	}
	return m.MulWeightedRuns(x, ExpandAxes(w, -1), 1)
}

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
	var y *Node
	switch {
	case m.dense != nil && runs == 1:
		b := Scatter(m.coo, Reshape(w, m.NNZ), shapes.Make(dt, m.NumRows, m.NumCols), false, false)
		y = Dot(b, x).Product()
	case m.dense != nil:
		b := m.runsDense(w, runs, false) // [R, rows, cols]
		if m.noGrad {
			b, x = StopGradient(b), StopGradient(x)
		}
		y = DotGeneral(b, []int{2}, []int{0}, Reshape(x, m.NumCols, runs, h), []int{0}, []int{1}) // [R, rows, H]
		y = Reshape(TransposeAllDims(y, 1, 0, 2), m.NumRows, runs*h)
	case m.noGrad:
		m.mustHaveELL("MulWeightedRuns")
		y = ellMul(StopGradient(x), m.byRow, padEntryVals(StopGradient(w)), runs, false, nil)
	default:
		m.mustHaveELL("MulWeightedRuns")
		// Value with the gradient for w (entryGradient); the gradient for x
		// rides on a zero-valued term carrying Aᵀ_w·v.
		sx := StopGradient(x)
		y = weightedProduct(func(rec *ellRecord) *Node {
			return ellMul(sx, m.byRow, padEntryVals(StopGradient(w)), runs, false, rec)
		}, w, m.NumRows, x.Shape().Dimensions[1], runs)
		sw := padEntryVals(StopGradient(w))
		y = Add(y, linearGradCarrier(x, m.NumRows, func(v *Node) *Node { return ellMul(v, m.byCol, sw, runs, false, nil) }))
	}
	if m.RowScale != nil {
		y = Mul(y, ConvertDType(m.RowScale, dt))
	}
	return y
}

// linearGradCarrier returns a zero [outRows, H] term whose gradient with
// respect to x ([inRows, H]) is bwd(v) for an incoming gradient v: the
// gradient half of withCustomLinearGradient, for products whose value is
// computed separately.
func linearGradCarrier(x *Node, outRows int, bwd func(*Node) *Node) *Node {
	g := x.Graph()
	inRows, h := x.Shape().Dimensions[0], x.Shape().Dimensions[1]
	rows := max(inRows, outRows)
	xp := x
	if rows > inRows {
		xp = Concatenate([]*Node{x, Zeros(g, shapes.Make(x.DType(), rows-inRows, h))}, 0)
	}
	z := IdentityWithCustomGradient(xp, func(_, v *Node) *Node {
		if rows > outRows {
			v = Slice(v, AxisRange(0, outRows))
		}
		gx := bwd(v)
		if rows > inRows {
			gx = Concatenate([]*Node{gx, Zeros(g, shapes.Make(gx.DType(), rows-inRows, h))}, 0)
		}
		return gx
	})
	if rows > outRows {
		z = Slice(z, AxisRange(0, outRows))
	}
	return Sub(z, StopGradient(z))
}
