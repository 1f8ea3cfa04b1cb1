package sparse

import (
	"fmt"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
)

// RowSlots is the slot layout of a sparse matrix's rows, for per-entry
// computations that end in a per-row reduction: attention-like scores, their
// softmax over each row, and the product weighted by them. It is A's
// row-bucketed ELL layout (see buildELL): per bucket, [K, R, 1] arrays whose
// slot (k, r) holds the k-th entry of the bucket's r-th row, slots past a
// row's degree being padding.
//
// Per-entry values kept in this layout (SlotValues) need no gather or
// scatter per entry: a row's maximum and sum are reductions over the
// leading axis, and the weighted product multiplies the gathered [K, r, H]
// block by them as they are. Kept as [NNZ] vectors in the entries' order
// (InEdgeSoftmax, MulWeighted), every such step gathers or scatters NNZ
// narrow rows, which the Go backend pays per row: BM-GCN on Squirrel (400k
// entries) took 436-504 ms per epoch that way, 303-321 ms with its weights
// in this layout (the same results; Go backend, two threads, AVX2 host).
//
// A RowSlots exists only for matrices with the ELL layout (not the small
// ones multiplied densely, nor SortedPadded views): SpMat.RowSlots returns
// nil otherwise, and callers use the entry-order functions.
type RowSlots struct {
	m       *SpMat
	buckets []slotBucket
	// entries caches ToEntries per SlotValues (keyed by its nodes' ids), so
	// that layers sharing one set of weights convert them once.
	entries map[string]*Node
}

// slotBucket is one bucket of the layout, whole: column indices (padding:
// NumCols, the operand's appended zero row) and entry indices (padding:
// NNZ), both [K, R, 1] int32.
type slotBucket struct {
	idx, entry *Node
	k, r       int
}

// SlotValues are values per slot of a RowSlots: one [K, R, W] node per
// bucket (W = 1 for entry weights, W heads or features otherwise). Padding
// slots hold values that stand for no entry (zeros from Cols, Entries and
// Softmax, scores computed from them elsewhere).
type SlotValues []*Node

// ids returns the nodes' ids (the identity of a set of slot values).
func (v SlotValues) ids() []NodeId {
	ids := make([]NodeId, len(v))
	for i, x := range v {
		ids[i] = x.Id()
	}
	return ids
}

// RowSlots returns m's slot layout, or nil when m has none (small matrices
// multiplied densely, SortedPadded views).
func (m *SpMat) RowSlots() *RowSlots {
	if m.byRow == nil || m.byRow.padded || m.sortedView {
		return nil
	}
	e := m.byRow
	s := &RowSlots{m: m, entries: map[string]*Node{}}
	for b, chunks := range e.buckets {
		ch := chunks[0]
		if w := e.whole[b]; w != nil {
			ch = *w
		}
		d := ch.idx.Shape().Dimensions
		s.buckets = append(s.buckets, slotBucket{idx: ch.idx, entry: ch.entry, k: d[0], r: d[1]})
	}
	return s
}

// Cols returns x's rows at the slots' columns: per bucket [K, R, W] with
// x_{col(slot)} (zeros at padding slots). Shapes: x [NumCols, W].
// Gradients flow to x.
func (s *RowSlots) Cols(x *Node) SlotValues {
	m := s.m
	if x.Rank() != 2 || x.Shape().Dimensions[0] != m.NumCols {
		panicf("nn: slot columns of a %d x %d matrix from %s (want [%d, W])", m.NumRows, m.NumCols, x.Shape(), m.NumCols)
	}
	xp := Concatenate([]*Node{x, Zeros(x.Graph(), shapes.Make(x.DType(), 1, x.Shape().Dimensions[1]))}, 0)
	out := make(SlotValues, len(s.buckets))
	for b, bk := range s.buckets {
		out[b] = Gather(xp, bk.idx, false)
	}
	return out
}

// Rows returns x's rows at the slots' rows: per bucket [1, R, W] with
// x_{row} for each of the bucket's rows (to broadcast over its K slots).
// Shapes: x [NumRows, W]. Gradients flow to x.
func (s *RowSlots) Rows(x *Node) SlotValues {
	m := s.m
	if x.Rank() != 2 || x.Shape().Dimensions[0] != m.NumRows {
		panicf("nn: slot rows of a %d x %d matrix from %s (want [%d, W])", m.NumRows, m.NumCols, x.Shape(), m.NumRows)
	}
	out := make(SlotValues, len(s.buckets))
	for b, bk := range s.buckets {
		// Slot 0 of every bucket row is a real entry (empty rows are in no
		// bucket); its entry's row is the bucket row's index.
		rows := Gather(m.Rows, Slice(bk.entry, AxisRange(0, 1)), false) // [1, R, 1]
		out[b] = Gather(x, rows, false)
	}
	return out
}

// Entries returns per-entry values w ([NNZ] or [NNZ, W], the row-sorted
// entry order) in the slot layout: per bucket [K, R, 1] or [K, R, W], zeros
// at padding slots. Gradients flow to w.
func (s *RowSlots) Entries(w *Node) SlotValues {
	m := s.m
	if (w.Rank() != 1 && w.Rank() != 2) || w.Shape().Dimensions[0] != m.NNZ {
		panicf("nn: entry values %s for a sparse matrix with %d entries (want [%d] or [%d, W])", w.Shape(), m.NNZ, m.NNZ, m.NNZ)
	}
	wide := w
	if w.Rank() == 1 {
		wide = ExpandAxes(w, -1)
	}
	wp := Concatenate([]*Node{wide, Zeros(w.Graph(), shapes.Make(w.DType(), 1, wide.Shape().Dimensions[1]))}, 0)
	out := make(SlotValues, len(s.buckets))
	for b, bk := range s.buckets {
		out[b] = Gather(wp, bk.entry, false) // [K, R, W]
	}
	return out
}

// padBias returns, per bucket, 0 at slots that hold entries and -inf at
// padding slots ([K, R, 1] in dt): added to scores, it takes the padding
// out of a softmax without a Where over the scores' width (a Where with a
// broadcast operand runs element by element in the Go backend).
func (s *RowSlots) padBias(b int, dt dtypes.DType) *Node {
	bk := s.buckets[b]
	g := bk.entry.Graph()
	pad := GreaterOrEqual(bk.entry, Scalar(g, dtypes.Int32, s.m.NNZ))
	sh := shapes.Make(dt, bk.k, bk.r, 1)
	return Where(pad, BroadcastToShape(Infinity(g, dt, -1), sh), Zeros(g, sh))
}

// Softmax returns the softmax of scores over each row's entries, per
// column w of [K, R, W]:
//
//	alpha_{v,e,w} = exp(s_{e,w}) / Σ_{entries e' of row v} exp(s_{e',w})
//
// as InEdgeSoftmax computes it in the entry order (rows are destinations);
// padding slots get 0. Every bucket row has at least one entry. Gradients
// flow to scores.
func (s *RowSlots) Softmax(scores SlotValues) SlotValues {
	s.check(scores, "scores")
	out := make(SlotValues, len(scores))
	for b, sc := range scores {
		sm := Add(sc, s.padBias(b, sc.DType()))             // padding: -inf
		mx := StopGradient(ReduceAndKeep(sm, ReduceMax, 0)) // [1, R, W]
		ex := Exp(Sub(sm, mx))                              // padding: exp(-inf) = 0
		out[b] = Div(ex, ReduceAndKeep(ex, ReduceSum, 0))
	}
	return out
}

// ToEntries returns slot values ([K, R, W] per bucket) in the entry order,
// [NNZ] for W = 1 and [NNZ, W] otherwise (one scatter; padding slots are
// dropped). Gradients flow to w.
func (s *RowSlots) ToEntries(w SlotValues) *Node {
	s.check(w, "values")
	key := fmt.Sprint(w.ids())
	if c, ok := s.entries[key]; ok {
		return c
	}
	g := w[0].Graph()
	cols := w[0].Shape().Dimensions[2]
	vals, ents := make([]*Node, len(w)), make([]*Node, len(w))
	for b, v := range w {
		bk := s.buckets[b]
		if v.Shape().Dimensions[2] != cols {
			panicf("nn: ToEntries: slot values %s of bucket %d, want [%d, %d, %d]", v.Shape(), b, bk.k, bk.r, cols)
		}
		vals[b] = Reshape(v, bk.k*bk.r, cols)
		ents[b] = Reshape(bk.entry, bk.k*bk.r, 1)
	}
	all, ent := vals[0], ents[0]
	if len(w) > 1 {
		all, ent = Concatenate(vals, 0), Concatenate(ents, 0)
	}
	out := ScatterSum(Zeros(g, shapes.Make(all.DType(), s.m.NNZ+1, cols)), ent, all, false, false)
	out = Slice(out, AxisRange(0, s.m.NNZ)) // entry NNZ collects the padding slots
	if cols == 1 {
		out = Reshape(out, s.m.NNZ)
	}
	s.entries[key] = out
	return out
}

// check panics unless v has one [K, R, W] node per bucket.
func (s *RowSlots) check(v SlotValues, what string) {
	if len(v) != len(s.buckets) {
		panicf("nn: %d slot %s for %d buckets", len(v), what, len(s.buckets))
	}
	for b, x := range v {
		d := x.Shape().Dimensions
		if len(d) != 3 || d[0] != s.buckets[b].k || d[1] != s.buckets[b].r {
			panicf("nn: slot %s of bucket %d: %s, want [%d, %d, W]", what, b, x.Shape(), s.buckets[b].k, s.buckets[b].r)
		}
	}
}

// MulWeighted returns A_w·x for weights w in the slot layout ([K, R, 1]
// per bucket; padding slots may hold any finite value, they multiply the
// zero row): the same product as SpMat.MulWeighted with w's values in the entry
// order, scales included,
//
//	out_v = RowScale_v · Σ_{entries (v, u)} w_e · ColScale_u · x_u
//
// without gathering w per slot. The gradient for x is Aᵀ_w·v on the ELL
// layout of Aᵀ (w converted to the entry order once per w, ToEntries); the
// gradient for w, per slot Σ_h v_{row,h}·x_{col,h}, stays in the slot layout
// and reuses the forward pass's gathered blocks. Shapes: x [NumCols, H];
// result [NumRows, H].
func (s *RowSlots) MulWeighted(x *Node, w SlotValues) *Node { return s.MulWeightedRuns(x, w, 1) }

// MulWeightedRuns is MulWeighted for R weightings of one pattern (runs of
// a batch, attention heads, or both): w has R columns ([K, R_b, R] per
// bucket), x [NumCols, R·H] holds column group r·H … (r+1)·H-1 for
// weighting r, and the result [NumRows, R·H] holds A_{w_r}·x_r there, as
// SpMat.MulWeightedRuns with w in the entry order.
func (s *RowSlots) MulWeightedRuns(x *Node, w SlotValues, runs int) *Node {
	m := s.m
	if x.Rank() != 2 || x.Shape().Dimensions[0] != m.NumCols || runs < 1 || x.Shape().Dimensions[1]%runs != 0 {
		panicf("nn: sparse %d x %d matrix times %s for %d weightings", m.NumRows, m.NumCols, x.Shape(), runs)
	}
	s.check(w, "weights")
	dt := x.DType()
	cw, sw := make(SlotValues, len(w)), make(SlotValues, len(w))
	for b, v := range w {
		if v.Shape().Dimensions[2] != runs {
			panicf("nn: slot weights of bucket %d: %s, want [%d, %d, %d]", b, v.Shape(), s.buckets[b].k, s.buckets[b].r, runs)
		}
		cw[b] = ConvertDType(v, dt)
		sw[b] = StopGradient(cw[b])
	}
	if m.ColScale != nil {
		x = Mul(x, ConvertDType(m.ColScale, dt))
	}
	width := x.Shape().Dimensions[1]
	var y *Node
	if m.noGrad {
		y = s.product(StopGradient(x), sw, runs, nil)
	} else {
		sx := StopGradient(x)
		var rec slotRecord
		y = slotWeightedProduct(func() *Node { return s.product(sx, sw, runs, &rec) }, cw, &rec, m.NumRows, width, s.buckets)
		y = Add(y, linearGradCarrier(x, m.NumRows, func(v *Node) *Node {
			we := StopGradient(ConvertDType(s.ToEntries(w), dt))
			if runs == 1 {
				we = ExpandAxes(we, -1)
			}
			return ellMul(v, m.byCol, padEntryVals(we), runs, false, nil)
		}))
	}
	if m.RowScale != nil {
		y = Mul(y, ConvertDType(m.RowScale, dt))
	}
	return y
}

// slotRecord keeps the blocks a slot product gathered, for the weights'
// gradient (slotGradient).
type slotRecord struct {
	blocks []slotBlock
	rows   int   // rows of the concatenated bucket outputs
	pos    *Node // the layout's pos (nil: bucket order is row order)
	runs   int   // weightings (columns of the slot weights)
}

// slotBlock is one gathered block [K, r, R·H] of bucket b and its first
// row within the concatenated output (out).
type slotBlock struct {
	blk       *Node
	b, out, r int
}

// product is Σ_slots w·x_{col} per row and weighting, in row order: per
// bucket (whole, or in the host's chunks when the whole [K, R_b, R·H] block
// exceeds ChunkBytes, and these split further into blocks within
// ChunkBytes) gather x's rows at the slots, multiply each weighting's
// columns by its slot weights and sum over the leading axis K; then put the
// rows in order. x and w carry no gradients here; rec (may be nil) records
// the blocks.
func (s *RowSlots) product(x *Node, w SlotValues, runs int, rec *slotRecord) *Node {
	e := s.m.byRow
	g, dt := x.Graph(), x.DType()
	width := x.Shape().Dimensions[1]
	h := width / runs
	xp := Concatenate([]*Node{x, Zeros(g, shapes.Make(dt, 1, width))}, 0)
	var parts []*Node
	if e.empty > 0 {
		parts = append(parts, Zeros(g, shapes.Make(dt, e.empty, width)))
	}
	out := e.empty // rows of the concatenated outputs so far
	for b, chunks := range e.buckets {
		bk := s.buckets[b]
		k := bk.k
		if wh := e.whole[b]; wh != nil && dt.Size()*k*bk.r*width <= ChunkBytes {
			chunks = []ellChunk{*wh}
		}
		at := 0 // the chunk's first row in the bucket
		for _, ch := range chunks {
			rows := ch.idx.Shape().Dimensions[1]
			// With several weightings a block is wider than the host sized the
			// chunk for: split its rows so that blocks stay within ChunkBytes.
			step := rows
			if runs > 1 {
				step = max(1, min(rows, ChunkBytes/max(1, dt.Size()*k*width)))
			}
			for a := 0; a < rows; a += step {
				r := min(step, rows-a)
				idx, wc := ch.idx, w[b]
				if r != rows {
					idx = Slice(idx, AxisRange(), AxisRange(a, a+r))
				}
				if r != bk.r {
					wc = Slice(wc, AxisRange(), AxisRange(at+a, at+a+r))
				}
				blk := Gather(xp, idx, false) // [K, r, R·H]
				if rec != nil {
					rec.blocks = append(rec.blocks, slotBlock{blk: blk, b: b, out: out, r: r})
				}
				blk = Reshape(Mul(Reshape(blk, k, r, runs, h), Reshape(wc, k, r, runs, 1)), k, r*width)
				if k == 1 {
					parts = append(parts, Reshape(blk, r, width))
				} else {
					parts = append(parts, Reshape(ReduceSum(blk, 0), r, width))
				}
				out += r
			}
			at += rows
		}
	}
	if rec != nil {
		rec.rows, rec.pos, rec.runs = out, e.pos, runs
	}
	cat := parts[0]
	if len(parts) > 1 {
		cat = Concatenate(parts, 0)
	}
	if e.pos != nil {
		return Gather(cat, e.pos, false)
	}
	return cat
}

// slotGradient is the gradient of the recorded product for its slot
// weights, given the gradient v of the product ([rows, R·H], row order):
// per slot and weighting r, Σ_h v_{row,r·H+h}·x_{col,r·H+h}, from the blocks
// the forward pass gathered, as one flat vector in the order of the
// weights' buckets (slot-major [K, R_b, R] each, as slotWeightedProduct
// lays them out).
func (rec *slotRecord) slotGradient(v *Node, buckets []slotBucket) *Node {
	g := v.Graph()
	dt := v.DType()
	width := v.Shape().Dimensions[1]
	runs := rec.runs
	h := width / runs
	vc := v
	if rec.pos != nil { // rows in bucket order
		vc = ScatterSum(Zeros(g, shapes.Make(dt, rec.rows, width)), rec.pos, v, false, false)
	}
	per := make([][]*Node, len(buckets))
	for _, bl := range rec.blocks {
		vb := Reshape(Slice(vc, AxisRange(bl.out, bl.out+bl.r)), 1, bl.r, runs, h)
		k := buckets[bl.b].k
		per[bl.b] = append(per[bl.b], ReduceSum(Mul(Reshape(bl.blk, k, bl.r, runs, h), vb), -1)) // [K, r, R]
	}
	flat := make([]*Node, len(buckets))
	for b, ps := range per {
		p := ps[0]
		if len(ps) > 1 {
			p = Concatenate(ps, 1) // blocks are consecutive rows of the bucket
		}
		flat[b] = Reshape(p, buckets[b].k*buckets[b].r*runs)
	}
	if len(flat) == 1 {
		return flat[0]
	}
	return Concatenate(flat, 0)
}

// slotWeightedProduct returns fwd(), the slot product with gradients
// stopped (width columns), carrying the gradient for the slot weights w
// that rec.slotGradient computes, as weightedProduct does for entry
// weights (flatGradCarrier on w's buckets flattened in order).
func slotWeightedProduct(fwd func() *Node, w SlotValues, rec *slotRecord, rows, width int, buckets []slotBucket) *Node {
	outs, _ := InternalFusedOpCallerMulti(
		func() []*Node { return []*Node{fwd()} },
		func() []*Node {
			parts := make([]*Node, len(w))
			for b, v := range w {
				parts[b] = Reshape(v, v.Shape().Size())
			}
			flat := parts[0]
			if len(parts) > 1 {
				flat = Concatenate(parts, 0)
			}
			return []*Node{flatGradCarrier(flat, rows, width, func(v *Node) *Node { return rec.slotGradient(v, buckets) })}
		},
		true)
	return outs[0]
}
