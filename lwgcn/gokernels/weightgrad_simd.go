//go:build goexperiment.simd && amd64

package gokernels

import "simd/archsimd"

// haveWeightGrad: compute runs its large AVX-512 product kernel here.
var haveWeightGrad = archsimd.X86.AVX512()

// weightGradKernel8x32 sums n rows into an 8 x 32 tile (see the .s file).
//
//go:noescape
func weightGradKernel8x32(a *float32, sa uintptr, b *float32, sb uintptr, n int, out *float32, so uintptr, accumulate bool)

// weightGradColumns writes columns [k0, k1) (whole 32-column tiles) of
// out [m, k] = aᵀ·b for a [n, m] and b [n, k]. Each value is compute's
// large kernel's: per panel of productPanel rows of a and b, a fused
// multiply-add chain from zero in row order; the first panel's sum is
// stored, the next ones' added in order. The panels are the outer loop
// (each tile still sums its panels in order): a panel's rows of a and b
// are read from memory once for all tiles, where a tile at a time read
// them once per tile (on Squirrel's [5201, 256] twice as slow as the
// backend's packed product).
func weightGradColumns(out, a, b []float32, n, m, k, k0, k1 int) {
	// Bounds, checked once for the assembly: tile rows < m - m%8 and
	// columns < k1 <= k.
	if n <= 0 || len(a) < n*m || len(b) < n*k || len(out) < m*k || k1 > k || k0%weightGradCols != 0 || (k1-k0)%weightGradCols != 0 {
		panic("gokernels: weightGradColumns: operands do not fit the product")
	}
	full := m - m%weightGradRows
	for p0 := 0; p0 < n && full > 0; p0 += productPanel {
		rows := min(p0+productPanel, n) - p0
		for c := k0; c < k1; c += weightGradCols {
			for r := 0; r < full; r += weightGradRows {
				weightGradKernel8x32(&a[p0*m+r], uintptr(4*m), &b[p0*k+c], uintptr(4*k), rows, &out[r*k+c], uintptr(4*k), p0 > 0)
			}
		}
	}
	for r := full; r < m; r++ {
		for c := k0; c < k1; c += weightGradCols {
			weightGradRow(out, a, b, n, m, k, r, c)
		}
	}
}

// weightGradRow is weightGradColumns for one row r of out (the tiles' last
// rows when m is not a multiple of 8).
func weightGradRow(out, a, b []float32, n, m, k, r, k0 int) {
	for p0 := 0; p0 < n; p0 += productPanel {
		p1 := min(p0+productPanel, n)
		var c0, c1 archsimd.Float32x16
		for i := p0; i < p1; i++ {
			rb := b[i*k+k0 : i*k+k0+32]
			v := archsimd.BroadcastFloat32x16(a[i*m+r])
			c0 = v.MulAdd(archsimd.LoadFloat32x16(rb), c0)
			c1 = v.MulAdd(archsimd.LoadFloat32x16(rb[16:]), c1)
		}
		weightGradStore(out[r*k+k0:], c0, c1, p0 == 0)
	}
}

// weightGradStore stores 32 values (c0, c1) at o, or adds them to o's.
func weightGradStore(o []float32, c0, c1 archsimd.Float32x16, first bool) {
	if !first {
		c0 = archsimd.LoadFloat32x16(o).Add(c0)
		c1 = archsimd.LoadFloat32x16(o[16:]).Add(c1)
	}
	c0.Store(o)
	c1.Store(o[16:])
}
