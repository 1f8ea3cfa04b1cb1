package sparse

import (
	"github.com/gomlx/compute/shapes"
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
	var rs, cs *Node
	if m.RowScale != nil {
		rs = ConvertDType(m.RowScale, dt)
	}
	if m.ColScale != nil {
		cs = ConvertDType(m.ColScale, dt)
	}
	switch {
	case f == FormSegment:
		return m.mulRunsSegment(x, vals, runs)
	case f == FormDense || m.dense != nil:
		return m.mulRunsDense(x, vals, rs, cs, runs)
	}
	m.mustHaveELL("MulRuns")
	var vp *Node // nil: m's own values (pre-arranged per chunk) or ones
	if vals != nil {
		vp = Concatenate([]*Node{vals, Zeros(x.Graph(), shapes.Make(dt, 1, runs))}, 0) // padding slots read 0
	}
	fwd := func(x *Node) *Node {
		if cs != nil {
			x = StopGradient(Mul(x, cs))
		}
		y := ellMulRuns(x, m.byRow, vp, runs, cs == nil)
		if rs != nil {
			y = Mul(y, rs)
		}
		return y
	}
	if m.noGrad {
		return fwd(x)
	}
	bwd := func(v *Node) *Node {
		if rs != nil {
			v = Mul(v, rs)
		}
		g := ellMulRuns(v, m.byCol, vp, runs, false)
		if cs != nil {
			g = Mul(g, cs)
		}
		return g
	}
	return linearWithCustomGradient(x, fwd, bwd)
}

// ellMulRuns is ellMulStop for R runs with per-run entry values vp
// ([NNZ+1, R], the last row 0 for padding slots; nil: the matrix's own
// values): each chunk's gathered block [K, rows, R·H] is scaled by its
// slots' values [K, rows, R, 1] and summed over K. Chunks are split so that
// their blocks stay within ChunkBytes.
func ellMulRuns(x *Node, e *ellNodes, vp *Node, runs int, stop bool) *Node {
	return ellMulRunsRecord(x, e, vp, runs, stop, nil)
}

// ellMulRunsRecord is ellMulRuns; a non-nil rec records the gathered blocks
// (for ellRecord.entryGradient).
func ellMulRunsRecord(x *Node, e *ellNodes, vp *Node, runs int, stop bool, rec *ellRecord) *Node {
	xp := x
	if !e.padded {
		xp = Concatenate([]*Node{x, Zeros(x.Graph(), shapes.Make(x.DType(), 1, x.Shape().Dimensions[1]))}, 0)
	}
	if stop {
		xp = StopGradient(xp)
	}
	g := xp.Graph()
	dt := xp.DType()
	w := xp.Shape().Dimensions[1]
	h := w / runs
	var parts []*Node
	if e.empty > 0 {
		parts = append(parts, Zeros(g, shapes.Make(dt, e.empty, w)))
	}
	rec.start(e)
	for b, chunks := range e.buckets {
		k := chunks[0].idx.Shape().Dimensions[0]
		if wh := e.whole[b]; wh != nil && dt.Size()*k*wh.idx.Shape().Dimensions[1]*w <= ChunkBytes {
			chunks = []ellChunk{*wh}
		}
		for _, ch := range chunks {
			rows := ch.idx.Shape().Dimensions[1]
			// A chunk's block is R times wider than in a run alone: split its
			// rows so that each block stays within ChunkBytes (in cache).
			step := max(1, min(rows, ChunkBytes/max(1, dt.Size()*k*w)))
			for a := 0; a < rows; a += step {
				idx, ent := ch.idx, ch.entry
				if step < rows {
					idx = Slice(idx, AxisRange(), AxisRange(a, min(a+step, rows)))
					ent = Slice(ent, AxisRange(), AxisRange(a, min(a+step, rows)))
				}
				r := idx.Shape().Dimensions[1]
				blk := Gather(xp, idx, false) // [K, r, R·H]
				rec.add(blk, ent, r)
				switch {
				case vp != nil:
					v := Reshape(Gather(vp, ent, false), k, r, runs, 1) // [K, r, R, 1]
					blk = Reshape(Mul(Reshape(blk, k, r, runs, h), v), k, r*w)
				case ch.val != nil:
					cv := ch.val
					if step < rows {
						cv = Slice(cv, AxisRange(), AxisRange(a, min(a+step, rows)))
					}
					blk = Reshape(Mul(blk, ConvertDType(cv, dt)), k, r*w)
				default:
					blk = Reshape(blk, k, r*w)
				}
				parts = append(parts, Reshape(ReduceSum(blk, 0), r, w))
			}
		}
	}
	if e.padded {
		parts = append(parts, Zeros(g, shapes.Make(dt, 1, w)))
	}
	cat := parts[0]
	if len(parts) > 1 {
		cat = Concatenate(parts, 0)
	}
	if e.pos == nil {
		return cat
	}
	return Gather(cat, e.pos, false)
}
