package sparse

import (
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
	// entries caches ToEntries per SlotValues (keyed by its first node), so
	// that layers sharing one set of weights convert them once.
	entries map[*Node]*Node
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
// slots hold arbitrary values unless stated.
type SlotValues []*Node

// RowSlots returns m's slot layout, or nil when m has none (small matrices
// multiplied densely, SortedPadded views).
func (m *SpMat) RowSlots() *RowSlots {
	if m.byRow == nil || m.byRow.padded || m.sortedView {
		return nil
	}
	e := m.byRow
	s := &RowSlots{m: m, entries: map[*Node]*Node{}}
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

// mask returns, per bucket, which slots hold entries ([K, R, 1] bool).
func (s *RowSlots) mask(b int) *Node {
	bk := s.buckets[b]
	return LessThan(bk.entry, Scalar(bk.entry.Graph(), dtypes.Int32, s.m.NNZ))
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
		g := sc.Graph()
		keep := BroadcastToShape(s.mask(b), shapes.Make(dtypes.Bool, sc.Shape().Dimensions...))
		sm := Where(keep, sc, BroadcastToShape(Infinity(g, sc.DType(), -1), sc.Shape()))
		mx := StopGradient(ReduceAndKeep(sm, ReduceMax, 0)) // [1, R, W]
		ex := Exp(Sub(sm, mx))                              // padding: exp(-inf) = 0
		out[b] = Div(ex, ReduceAndKeep(ex, ReduceSum, 0))
	}
	return out
}

// ToEntries returns slot weights ([K, R, 1] per bucket) as an [NNZ] vector
// in the entry order (one scatter; padding slots are dropped). Gradients
// flow to w.
func (s *RowSlots) ToEntries(w SlotValues) *Node {
	s.check(w, "weights")
	if c, ok := s.entries[w[0]]; ok {
		return c
	}
	g := w[0].Graph()
	vals, ents := make([]*Node, len(w)), make([]*Node, len(w))
	for b, v := range w {
		bk := s.buckets[b]
		if v.Shape().Dimensions[2] != 1 {
			panicf("nn: ToEntries of slot values %s (want [%d, %d, 1])", v.Shape(), bk.k, bk.r)
		}
		vals[b] = Reshape(v, bk.k*bk.r)
		ents[b] = Reshape(bk.entry, bk.k*bk.r, 1)
	}
	all, ent := vals[0], ents[0]
	if len(w) > 1 {
		all, ent = Concatenate(vals, 0), Concatenate(ents, 0)
	}
	out := ScatterSum(Zeros(g, shapes.Make(all.DType(), s.m.NNZ+1)), ent, all, false, false)
	out = Slice(out, AxisRange(0, s.m.NNZ)) // entry NNZ collects the padding slots
	s.entries[w[0]] = out
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
// per bucket; padding slots must hold 0 or be multiplied by the zero row,
// which they are): the same product as SpMat.MulWeighted with w's values
// in the entry order, scales included,
//
//	out_v = RowScale_v · Σ_{entries (v, u)} w_e · ColScale_u · x_u
//
// without gathering w per slot. The gradient for x is Aᵀ_w·v on the ELL
// layout of Aᵀ (w converted to the entry order once per w, ToEntries); the
// gradient for w, per slot Σ_h v_{row,h}·x_{col,h}, stays in the slot layout
// and reuses the forward pass's gathered blocks. Shapes: x [NumCols, H];
// result [NumRows, H].
func (s *RowSlots) MulWeighted(x *Node, w SlotValues) *Node {
	m := s.m
	if x.Rank() != 2 || x.Shape().Dimensions[0] != m.NumCols {
		panicf("nn: sparse %d x %d matrix times %s", m.NumRows, m.NumCols, x.Shape())
	}
	s.check(w, "weights")
	dt := x.DType()
	cw := make(SlotValues, len(w))
	for b, v := range w {
		if v.Shape().Dimensions[2] != 1 {
			panicf("nn: slot weights of bucket %d: %s, want [%d, %d, 1]", b, v.Shape(), s.buckets[b].k, s.buckets[b].r)
		}
		cw[b] = ConvertDType(v, dt)
	}
	if m.ColScale != nil {
		x = Mul(x, ConvertDType(m.ColScale, dt))
	}
	h := x.Shape().Dimensions[1]
	sw := make(SlotValues, len(cw))
	for b, v := range cw {
		sw[b] = StopGradient(v)
	}
	var y *Node
	if m.noGrad {
		y = s.product(StopGradient(x), sw, nil)
	} else {
		sx := StopGradient(x)
		var rec slotRecord
		y = slotWeightedProduct(func() *Node { return s.product(sx, sw, &rec) }, cw, &rec, m.NumRows, h, s.buckets)
		y = Add(y, linearGradCarrier(x, m.NumRows, func(v *Node) *Node {
			return ellMul(v, m.byCol, StopGradient(ConvertDType(s.ToEntries(w), dt)))
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
}

// slotBlock is one gathered block [K, r, H] of bucket b, its first row
// within the bucket (at) and within the concatenated output (out).
type slotBlock struct {
	blk        *Node
	b, at, out int
	k, r       int
}

// product is Σ_slots w·x_{col} per row, in row order: per bucket (whole, or
// in the host's chunks when the whole [K, R, H] block exceeds ChunkBytes)
// gather x's rows at the slots, multiply by the slots' weights and sum over
// the leading axis K; then put the rows in order. x and w carry no
// gradients here; rec (may be nil) records the blocks.
func (s *RowSlots) product(x *Node, w SlotValues, rec *slotRecord) *Node {
	e := s.m.byRow
	g, dt := x.Graph(), x.DType()
	h := x.Shape().Dimensions[1]
	xp := Concatenate([]*Node{x, Zeros(g, shapes.Make(dt, 1, h))}, 0)
	var parts []*Node
	if e.empty > 0 {
		parts = append(parts, Zeros(g, shapes.Make(dt, e.empty, h)))
	}
	if rec != nil {
		*rec = slotRecord{rows: e.empty, pos: e.pos}
	}
	out := e.empty
	for b, chunks := range e.buckets {
		bk := s.buckets[b]
		if wh := e.whole[b]; wh != nil && dt.Size()*bk.k*bk.r*h <= ChunkBytes {
			chunks = []ellChunk{*wh}
		}
		at := 0
		for _, ch := range chunks {
			r := ch.idx.Shape().Dimensions[1]
			wc := w[b]
			if r != bk.r {
				wc = Slice(wc, AxisRange(), AxisRange(at, at+r))
			}
			blk := Gather(xp, ch.idx, false) // [K, r, H]
			if rec != nil {
				rec.blocks = append(rec.blocks, slotBlock{blk: blk, b: b, at: at, out: out, k: bk.k, r: r})
				rec.rows += r
			}
			blk = Mul(blk, wc)
			if bk.k == 1 {
				parts = append(parts, Reshape(blk, r, h))
			} else {
				parts = append(parts, Reshape(ReduceSum(Reshape(blk, bk.k, r*h), 0), r, h))
			}
			at += r
			out += r
		}
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
// weights, given the gradient v of the product ([rows, H], row order):
// per slot Σ_h v_{row,h}·x_{col,h}, from the blocks the forward pass
// gathered, as one flat vector in the order of the weights' buckets
// (slot-major [K, R] each, as slotWeightedProduct lays them out).
func (rec *slotRecord) slotGradient(v *Node, buckets []slotBucket) *Node {
	g := v.Graph()
	dt := v.DType()
	h := v.Shape().Dimensions[1]
	vc := v
	if rec.pos != nil { // rows in bucket order
		vc = ScatterSum(Zeros(g, shapes.Make(dt, rec.rows, h)), rec.pos, v, false, false)
	}
	per := make([][]*Node, len(buckets))
	for _, bl := range rec.blocks {
		vb := Reshape(Slice(vc, AxisRange(bl.out, bl.out+bl.r)), 1, bl.r, h)
		per[bl.b] = append(per[bl.b], ReduceSum(Mul(bl.blk, vb), -1)) // [K, r]
	}
	flat := make([]*Node, len(buckets))
	for b, ps := range per {
		p := ps[0]
		if len(ps) > 1 {
			p = Concatenate(ps, 1) // chunks are consecutive rows of the bucket
		}
		flat[b] = Reshape(p, buckets[b].k*buckets[b].r)
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
				parts[b] = Reshape(v, buckets[b].k*buckets[b].r)
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
