//go:build goexperiment.simd && amd64

package gokernels

import "simd/archsimd"

// haveWeightGrad: compute runs its large AVX-512 product kernel here.
var haveWeightGrad = archsimd.X86.AVX512()

// weightGradKernel8x32 sums n rows into an 8 x 32 tile (see the .s file).
//
//go:noescape
func weightGradKernel8x32(a *float32, sa uintptr, b *float32, sb uintptr, n int, out *float32, so uintptr, accumulate bool)

// weightGradTile writes rows [m0, m1) (at most 8), columns [k0, k0+32) of
// out [m, k] = aᵀ·b for a [n, m] and b [n, k]. Each value is compute's
// large kernel's: per panel of productPanel rows of a and b, a fused
// multiply-add chain from zero in row order; the first panel's sum is
// stored, the next ones' added in order.
func weightGradTile(out, a, b []float32, n, m, k, m0, m1, k0 int) {
	if m1-m0 < weightGradRows {
		for r := m0; r < m1; r++ {
			weightGradRow(out, a, b, n, m, k, r, k0)
		}
		return
	}
	// Bounds, checked once for the assembly.
	_ = a[(n-1)*m+m0+7]
	_ = b[(n-1)*k+k0+31]
	_ = out[(m0+7)*k+k0+31]
	for p0 := 0; p0 < n; p0 += productPanel {
		p1 := min(p0+productPanel, n)
		weightGradKernel8x32(&a[p0*m+m0], uintptr(4*m), &b[p0*k+k0], uintptr(4*k), p1-p0, &out[m0*k+k0], uintptr(4*k), p0 > 0)
	}
}

// weightGradRow is weightGradTile for one row r of out (the tiles' last
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
