package batched

import (
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/support/exceptions"
)

// PerRun is each run's h_r·W_r for h [N, R·in] (run r in columns
// r·in … (r+1)·in-1) and the runs' weights held transposed, wT [R, out, in]
// (RunsTransposed): one product batched over the runs, [N, R·out].
//
// Why the transposed weights and a hand-written gradient: the pure-Go
// backend multiplies only with the batch axis first and the contracted
// axis last on the left, and GoMLX's automatic gradient of the forward
// product asks for the weight gradient as [R, out, N]·[R, N, in]-shaped
// operands, which costs general 3-D transposes of the activations (the
// slow element-by-element path, measured at a quarter of a batched LW-GCN
// epoch on Texas). Here every transpose is one the backend does fast
// (2-D, or [N, R, X] ↔ [R, N, X]):
//
//	forward  y  = (h as [R, N, in]) · wTᵀ               → [N, R, out]
//	dh          = (v as [R, N, out]) · wT               → [N, R, in]
//	dwT         = (vᵀ as [R, out, N]) · (h as [R, N, in])
//
// with vᵀ the 2-D transpose of v [N, R·out]. The same numbers as alone
// (the same products per run).
func (b *Builder) PerRun(h, wT *Node) *Node {
	r := b.Runs
	n, width := h.Shape().Dimensions[0], h.Shape().Dimensions[1]
	if wT.Rank() != 3 || wT.Shape().Dimensions[0] != r || width != r*wT.Shape().Dimensions[2] {
		exceptions.Panicf("batched: PerRun of %s with weights %s for %d runs (want [%d, out, %d])", h.Shape(), wT.Shape(), r, r, width/max(r, 1))
	}
	in, out := wT.Shape().Dimensions[2], wT.Shape().Dimensions[1]
	// fwd is y with the gradient for h only: [R, N, in]·[R, out, in]ᵀ.
	fwd := func(h, wT *Node) *Node {
		y := DotGeneral(Reshape(h, n, r, in), []int{2}, []int{1}, wT, []int{2}, []int{0}) // [R, N, out]
		return Reshape(TransposeAllDims(y, 1, 0, 2), n, r*out)
	}
	outs, _ := InternalFusedOpCallerMulti(
		func() []*Node { return []*Node{fwd(h, wT)} },
		func() []*Node {
			// Only the gradients of this sum are used (its value, 2y, is
			// never computed): the first term's for h, the second's for wT.
			hr := TransposeAllDims(Reshape(StopGradient(h), n, r, in), 1, 0, 2) // [R, N, in]
			yT := DotGeneral(wT, []int{2}, []int{0}, hr, []int{2}, []int{0})    // [R, out, N]
			yw := Transpose(Reshape(yT, r*out, n), 0, 1)                        // [N, R·out]
			return []*Node{Add(fwd(h, StopGradient(wT)), yw)}
		},
		true)
	return outs[0]
}
