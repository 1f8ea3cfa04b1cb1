package sparse

import (
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
)

// ellRecord keeps the blocks an ELL product gathered, so that the gradient
// for the entry values can reuse them (see entryGradient).
type ellRecord struct {
	blocks []ellBlock
	rows   int   // rows of the concatenated bucket outputs
	pos    *Node // the ellNodes' pos (nil: bucket order is row order)
}

// ellBlock is one gathered block: x's rows for the chunk's slots [K, r, W]
// (before scaling by the entry values), the slots' entry indices [K, r]
// (padding: NNZ) and the chunk's first row in the concatenated output.
type ellBlock struct {
	blk, entry *Node
	at         int
}

// start begins recording a product over e (rec may be nil: no recording).
func (rec *ellRecord) start(e *ellNodes) {
	if rec == nil {
		return
	}
	*rec = ellRecord{rows: e.empty, pos: e.pos}
}

// add records the block of the next r output rows.
func (rec *ellRecord) add(blk, entry *Node, r int) {
	if rec == nil {
		return
	}
	rec.blocks = append(rec.blocks, ellBlock{blk: blk, entry: entry, at: rec.rows})
	rec.rows += r
}

// entryGradient is the gradient of the recorded product y = A_w·x for its
// entry values w ([NNZ, R] for R runs), given the gradient v of y
// ([rows, R·H]):
//
//	g_{e,r} = Σ_h v_{row(e), r·H+h} · x_{col(e), r·H+h}
//
// Per chunk it multiplies the block the forward pass gathered by the
// chunk's rows of v (no second gather of x) and reduces over H; one
// scatter then puts all slots' values at their entries.
func (rec *ellRecord) entryGradient(v *Node, nnz, runs int) *Node {
	g := v.Graph()
	dt := v.DType()
	width := v.Shape().Dimensions[1]
	h := width / runs
	vc := v
	if rec.pos != nil { // rows in bucket order
		vc = ScatterSum(Zeros(g, shapes.Make(dt, rec.rows, width)), rec.pos, v, false, false)
	}
	gs := make([]*Node, 0, len(rec.blocks))
	ents := make([]*Node, 0, len(rec.blocks))
	for _, b := range rec.blocks {
		d := b.blk.Shape().Dimensions
		k, r := d[0], d[1]
		vb := Reshape(Slice(vc, AxisRange(b.at, b.at+r)), 1, r, runs, h)
		p := ReduceSum(Mul(Reshape(b.blk, k, r, runs, h), vb), -1) // [K, r, R]
		gs = append(gs, Reshape(p, k*r, runs))
		ents = append(ents, Reshape(b.entry, k*r, 1))
	}
	gAll, eAll := gs[0], ents[0]
	if len(gs) > 1 {
		gAll, eAll = Concatenate(gs, 0), Concatenate(ents, 0)
	}
	out := ScatterSum(Zeros(g, shapes.Make(dt, nnz+1, runs)), eAll, gAll, false, false)
	return Slice(out, AxisRange(0, nnz)) // row nnz collects the padding slots
}

// weightedProduct returns fwd(rec), the ELL product A_w·x computed with
// gradients stopped (width W columns), carrying the gradient for the entry
// weights w ([NNZ, R]) that rec.entryGradient computes (flatGradCarrier),
// through the alternate-VJP mechanism of linearWithCustomGradient: the
// forward pass never evaluates the carrier.
func weightedProduct(fwd func(rec *ellRecord) *Node, w *Node, rows, width, runs int) *Node {
	var rec ellRecord
	nnz := w.Shape().Dimensions[0]
	n := nnz * runs
	outs, _ := InternalFusedOpCallerMulti(
		func() []*Node { return []*Node{fwd(&rec)} },
		func() []*Node {
			return []*Node{flatGradCarrier(Reshape(w, n), rows, width, func(v *Node) *Node {
				return Reshape(rec.entryGradient(v, nnz, runs), n)
			})}
		},
		true)
	return outs[0]
}

// flatGradCarrier returns an identity on the weights flat ([n]) laid out
// as [max(rows, ⌈n/width⌉), width] and sliced to the [rows, width] of the
// product they weight, so that it can stand in for the product in the
// backward pass (the alternate output of InternalFusedOpCallerMulti): its
// custom gradient hands the product's gradient v ([rows, width]) to grad,
// which returns the gradient for flat ([n]).
func flatGradCarrier(flat *Node, rows, width int, grad func(v *Node) *Node) *Node {
	g := flat.Graph()
	n := flat.Shape().Dimensions[0]
	cr := max(rows, (n+width-1)/width)
	if cr*width > n {
		flat = Concatenate([]*Node{flat, Zeros(g, shapes.Make(flat.DType(), cr*width-n))}, 0)
	}
	z := IdentityWithCustomGradient(Reshape(flat, cr, width), func(_, vz *Node) *Node {
		v := vz
		if cr > rows {
			v = Slice(vz, AxisRange(0, rows))
		}
		gw := grad(v)
		if cr*width > n {
			gw = Concatenate([]*Node{gw, Zeros(g, shapes.Make(gw.DType(), cr*width-n))}, 0)
		}
		return Reshape(gw, cr, width)
	})
	if cr > rows {
		z = Slice(z, AxisRange(0, rows))
	}
	return z
}
