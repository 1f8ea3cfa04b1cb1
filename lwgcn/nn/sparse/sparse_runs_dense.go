package sparse

import (
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
)

// mulRunsDense is MulRuns on a small matrix held dense, with per-run entry
// values vals [NNZ, R]: the runs' matrices B_r laid out run-major
// [R, rows, cols] (and, for the gradient, Bᵀ_r as [R, cols, rows], from
// the same coordinates) so that every product is one the pure-Go backend
// multiplies after at most an [N, R, H] ↔ [R, N, H] transpose (its fast
// path); a [rows, cols, R] layout needs general 3-D transposes of B and of
// the gradient, which cost more than the products on Texas-sized graphs.
// rs and cs are the row and column scales (nil: none). The gradient flows
// to x only, as in MulRuns.
func (m *SpMat) mulRunsDense(x, vals, rs, cs *Node, runs int) *Node {
	h := x.Shape().Dimensions[1] / runs
	// prod is B·y for B [R, r, c] and y [c, R·H]: [r, R·H]. y is moved to
	// [R, c, H] first (the fast transpose): handed over as [c, R, H], GoMLX
	// transposes it to [R, H, c] in the slow general way (Texas, 10 runs of
	// 128 columns: 4.1 ms per product against 1.7).
	prod := func(b, y *Node) *Node {
		c := y.Shape().Dimensions[0]
		yr := TransposeAllDims(Reshape(y, c, runs, h), 1, 0, 2)          // [R, c, H]
		out := DotGeneral(b, []int{2}, []int{0}, yr, []int{1}, []int{0}) // [R, r, H]
		return Reshape(TransposeAllDims(out, 1, 0, 2), b.Shape().Dimensions[1], runs*h)
	}
	b := m.runsDense(vals, runs, false)
	fwd := func(x *Node) *Node {
		if cs != nil {
			x = Mul(x, cs)
		}
		y := prod(b, StopGradient(x))
		if rs != nil {
			y = Mul(y, rs)
		}
		return y
	}
	if m.noGrad {
		return fwd(StopGradient(x))
	}
	bt := m.runsDense(vals, runs, true)
	bwd := func(v *Node) *Node {
		if rs != nil {
			v = Mul(v, rs)
		}
		gx := prod(bt, v)
		if cs != nil {
			gx = Mul(gx, cs)
		}
		return gx
	}
	return linearWithCustomGradient(x, fwd, bwd)
}

// runsDense scatters the per-run entry values vals [NNZ, R] into the runs'
// dense matrices [R, rows, cols] (duplicate entries summed), or their
// transposes [R, cols, rows].
func (m *SpMat) runsDense(vals *Node, runs int, transposed bool) *Node {
	g := vals.Graph()
	r, c, nr, nc := m.Rows, m.Cols, m.NumRows, m.NumCols
	if transposed {
		r, c, nr, nc = c, r, nc, nr
	}
	cell := Reshape(Add(MulScalar(ConvertDType(r, dtypes.Int32), float64(nc)), ConvertDType(c, dtypes.Int32)), 1, m.NNZ) // [1, NNZ]
	base := MulScalar(Iota(g, shapes.Make(dtypes.Int32, runs, 1), 0), float64(nr*nc))                                    // [R, 1]
	idx := Add(BroadcastToDims(base, runs, m.NNZ), BroadcastToDims(cell, runs, m.NNZ))
	upd := Transpose(vals, 0, 1) // [R, NNZ]
	flat := Scatter(Reshape(idx, runs*m.NNZ, 1), Reshape(upd, runs*m.NNZ), shapes.Make(vals.DType(), runs*nr*nc), false, false)
	return Reshape(flat, runs, nr, nc)
}
