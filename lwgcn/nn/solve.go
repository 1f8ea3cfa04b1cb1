package nn

import (
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
)

// SolveSPD returns A⁻¹ B for a symmetric positive-definite A [d, d] and
// B [d, m], by Gauss-Jordan elimination of [A | B] without pivoting,
// unrolled over the d pivots. GoMLX v0.28 has no linear-algebra ops (no
// Cholesky, triangular solve or matrix inverse), so the solve is written with
// slices, one-hot vectors and outer products, which keeps it differentiable
// with GoMLX's own gradients (what torch.inverse gives the official GloGNN++
// code). Pivoting is unnecessary for SPD matrices: every pivot is a ratio of
// leading principal minors, hence positive. Cost: d steps of O(d (d + m)),
// meant for small d (GloGNN++ solves C x C systems, C the number of classes).
func SolveSPD(a, b *Node) *Node {
	g := a.Graph()
	d := a.Shape().Dimensions[0]
	if a.Rank() != 2 || a.Shape().Dimensions[1] != d || b.Rank() != 2 || b.Shape().Dimensions[0] != d {
		panicf("nn.SolveSPD: want A [d, d] and B [d, m], got %s and %s", a.Shape(), b.Shape())
	}
	m := b.Shape().Dimensions[1]
	aug := Concatenate([]*Node{a, b}, 1) // [d, d+m]
	rowIdx := Iota(g, shapes.Make(dtypes.Int32, d, 1), 0)
	for k := range d {
		row := Slice(aug, AxisRange(k, k+1), AxisRange())   // [1, d+m]
		pivot := Slice(row, AxisRange(), AxisRange(k, k+1)) // [1, 1]
		row = Div(row, pivot)
		// Row k becomes row/pivot, every other row i loses A[i,k]·row:
		// aug -= (col - e_k) ⊗ row.
		col := Slice(aug, AxisRange(), AxisRange(k, k+1)) // [d, 1]
		ek := ConvertDType(Equal(rowIdx, Scalar(g, dtypes.Int32, k)), a.DType())
		aug = Sub(aug, Mul(Sub(col, ek), row))
	}
	return Slice(aug, AxisRange(), AxisRange(d, d+m))
}
