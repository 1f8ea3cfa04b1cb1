//go:build goexperiment.simd && amd64

package gokernels

import "simd/archsimd"

// haveWeightGrad: compute runs its large AVX-512 product kernel here.
var haveWeightGrad = archsimd.X86.AVX512()

// tile8x32 sums n rows into an 8 x 32 tile (see the .s file): the loop of
// the weightgrad and largedot kernels.
//
//go:noescape
func tile8x32(a *float32, sa, sr uintptr, b *float32, sb uintptr, n int, out *float32, so uintptr, accumulate bool)

// weightGradBlock writes rows [r0, r1) and columns [k0, k1) (whole
// 32-column tiles) of out [m, k] = aᵀ·b for a [n, m] and b [n, k]. Each
// value is compute's large kernel's: per panel of productPanel rows of a
// and b, a fused multiply-add chain from zero in row order; the first
// panel's sum is stored, the next ones' added in order. The panels are the
// outer loop (each tile still sums its panels in order): a panel's rows of
// a and b are read from memory once for all tiles, where a tile at a time
// read them once per tile (on Squirrel's [5201, 256] twice as slow as the
// backend's packed product). The rows after the last whole tile are
// computed one at a time.
func weightGradBlock(out, a, b []float32, n, m, k, r0, r1, k0, k1 int) {
	// Bounds, checked once for the assembly: tile rows < r1 <= m and
	// columns < k1 <= k.
	if n <= 0 || r0 < 0 || r1 > m || k0 < 0 || k1 > k || k0%weightGradCols != 0 || (k1-k0)%weightGradCols != 0 ||
		len(a) < n*m || len(b) < n*k || len(out) < m*k {
		panic("gokernels: weightGradBlock: operands do not fit the product")
	}
	full := r0 + (r1-r0)/weightGradRows*weightGradRows
	for p0 := 0; p0 < n && full > r0; p0 += productPanel {
		rows := min(p0+productPanel, n) - p0
		for c := k0; c < k1; c += weightGradCols {
			for r := r0; r < full; r += weightGradRows {
				tile8x32(&a[p0*m+r], uintptr(4*m), 4, &b[p0*k+c], uintptr(4*k), rows, &out[r*k+c], uintptr(4*k), p0 > 0)
			}
		}
	}
	for r := full; r < r1; r++ {
		for c := k0; c < k1; c += weightGradCols {
			dotRow(out[r*k+c:], a[r:], m, b[c:], k, n)
		}
	}
}

// largeDotRows writes rows [r0, r1) of out [m, n] = lhs [m, k]·rhs [k, n],
// each value as compute's large kernel computes it (see weightGradBlock).
// Per 8 rows, the panels in order, each over every column tile: the 8
// output rows stay in the first-level cache while their panels are added
// (with the panels outermost, Squirrel's 5.3 MB output went through memory
// once per panel). The rows after the last whole tile are computed one at
// a time.
func largeDotRows(out, lhs, rhs []float32, m, k, n, r0, r1 int) {
	// Bounds, checked once for the assembly.
	if r0 < 0 || r1 > m || k <= 0 || len(lhs) < m*k || len(rhs) < k*n || len(out) < m*n || n%weightGradCols != 0 {
		panic("gokernels: largeDotRows: operands do not fit the product")
	}
	full := r0 + (r1-r0)/weightGradRows*weightGradRows
	for r := r0; r < full; r += weightGradRows {
		for p0 := 0; p0 < k; p0 += productPanel {
			rows := min(p0+productPanel, k) - p0
			for c := 0; c < n; c += weightGradCols {
				tile8x32(&lhs[r*k+p0], 4, uintptr(4*k), &rhs[p0*n+c], uintptr(4*n), rows, &out[r*n+c], uintptr(4*n), p0 > 0)
			}
		}
	}
	for r := full; r < r1; r++ {
		for c := 0; c < n; c += weightGradCols {
			dotRow(out[r*n+c:], lhs[r*k:], 1, rhs[c:], n, k)
		}
	}
}

// dotRow writes o[0:32] = Σ_i a[i·sa]·b[i·sb : i·sb+32] over i < rows, as
// one row of the tiles: a fused chain from zero per panel of productPanel
// rows, the panels added in order (a tile's last rows when there are not
// 8 of them).
func dotRow(o, a []float32, sa int, b []float32, sb, rows int) {
	for p0 := 0; p0 < rows; p0 += productPanel {
		var c0, c1 archsimd.Float32x16
		for i := p0; i < min(p0+productPanel, rows); i++ {
			rb := b[i*sb : i*sb+32]
			v := archsimd.BroadcastFloat32x16(a[i*sa])
			c0 = v.MulAdd(archsimd.LoadFloat32x16(rb), c0)
			c1 = v.MulAdd(archsimd.LoadFloat32x16(rb[16:]), c1)
		}
		weightGradStore(o, c0, c1, p0 == 0)
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
