//go:build goexperiment.simd

package gokernels

import "simd"

// wgradRows is the output rows of one task: a tile of 4 rows by 2 vectors
// of columns keeps its 8 accumulators in registers over a chunk of rows.
const wgradRows = 4

// xtvRows adds to rows [a0, a1) of o = xᵀ·v: for each chunk of rows n, each
// tile of 4 output rows and 2 vectors of columns is summed in registers
// (fused multiply-adds, n in order) and then added to o.
func xtvRows(o, x, v []float32, d *weightGradientData, a0, a1 int) {
	vl := simd.BroadcastFloat32s(0).Len()
	if a1-a0 != 4 || d.b < 2*vl {
		xtvRowsGeneric(o, x, v, d, a0, a1)
		return
	}
	A, B := d.a, d.b
	cols := B - B%(2*vl)
	for n0 := 0; n0 < d.n; n0 += wgradChunk {
		n1 := min(n0+wgradChunk, d.n)
		for c := 0; c < cols; c += 2 * vl {
			var z simd.Float32s
			a00, a01, a10, a11, a20, a21, a30, a31 := z, z, z, z, z, z, z, z
			for n := n0; n < n1; n++ {
				vr := v[n*B+c:]
				v0, v1 := simd.LoadFloat32s(vr), simd.LoadFloat32s(vr[vl:])
				xr := x[n*A+a0 : n*A+a0+4]
				s0, s1, s2, s3 := simd.BroadcastFloat32s(xr[0]), simd.BroadcastFloat32s(xr[1]), simd.BroadcastFloat32s(xr[2]), simd.BroadcastFloat32s(xr[3])
				a00, a01 = s0.MulAdd(v0, a00), s0.MulAdd(v1, a01)
				a10, a11 = s1.MulAdd(v0, a10), s1.MulAdd(v1, a11)
				a20, a21 = s2.MulAdd(v0, a20), s2.MulAdd(v1, a21)
				a30, a31 = s3.MulAdd(v0, a30), s3.MulAdd(v1, a31)
			}
			for r, pair := range [4][2]simd.Float32s{{a00, a01}, {a10, a11}, {a20, a21}, {a30, a31}} {
				row := o[(a0+r)*B+c:]
				simd.LoadFloat32s(row).Add(pair[0]).Store(row)
				simd.LoadFloat32s(row[vl:]).Add(pair[1]).Store(row[vl:])
			}
		}
		// Columns past the last full tile.
		if cols < B {
			for a := a0; a < a1; a++ {
				for n := n0; n < n1; n++ {
					s := x[n*A+a]
					for j := cols; j < B; j++ {
						o[a*B+j] += s * v[n*B+j]
					}
				}
			}
		}
	}
}
