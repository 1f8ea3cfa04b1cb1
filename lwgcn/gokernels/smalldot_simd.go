//go:build goexperiment.simd && amd64 && !amd64.v3 && !amd64.v4

package gokernels

import "simd/archsimd"

// haveSmallDot: compute runs its small AVX-512 product kernel here, and its
// scalar loops (s += l·r) are a multiply and an add apart, as in
// smallDotUnfused1 (built for amd64.v3 or later, Go may fuse them: then the
// kernel stays off).
var haveSmallDot = archsimd.X86.AVX512()

// The loops, in assembly (smalldot_amd64.s): written with the simd package
// they ran slower than compute's own kernel, its 16 accumulators spilled to
// the stack and every load bounds-checked.
//
//go:noescape
func smallDotChain4(l *float32, ls uintptr, cols *float32, cs uintptr, k int, out *float32, os uintptr, mask uint16, fused bool)

//go:noescape
func smallDotFused4x64(l *float32, ls uintptr, cols *float32, cs uintptr, k int, out *float32, os uintptr)

//go:noescape
func smallDotUnfused1(l *float32, cols *float32, cs uintptr, k int, out *float32, mask uint16)

//go:noescape
func smallDotTree1(l *float32, cols *float32, cs uintptr, k int, out *float32, mask uint16)

// smallDotWidth is the columns of one vector (AVX-512: 16 float32).
func smallDotWidth() int { return 16 }

// colsMask keeps the first w <= 16 columns of a vector.
func colsMask(w int) uint16 { return uint16(1<<w - 1) }

// smallDotRows writes rows [r0, r1) of out [m, n] = l [m, k] · cols [k, np]
// (rows of cols padded to np, a multiple of 16) in compute's small
// kernel's order (smallDotOrder), 16 columns at a time. r0 is a multiple of
// 4: rows below m - m%4 are compute's tiles' rows, the others its scalar
// loop's.
func smallDotRows(mode smallDotOrder, out, l, cols []float32, m, n, np, k, r0, r1 int) {
	if r0 >= r1 {
		return
	}
	// Bounds, checked once for the assembly.
	_, _, _ = l[r1*k-1], out[r1*n-1], cols[k*np-1]
	ls, cs, os := uintptr(4*k), uintptr(4*np), uintptr(4*n)
	m4 := min(r1, m-m%4)
	// nt: the columns of compute's tiles; from there its scalar loop.
	nt := n - n%4
	if mode == smallDotTiles4x16 {
		nt = n - n%16
	}
	// A tile of 4 x 16, or of 4 x 4 dot products shorter than its lanes:
	// each value a fused chain from zero.
	chain := mode == smallDotTiles4x16 || k < 16
	r := r0
	for ; r < m4; r += 4 {
		c := 0
		if chain {
			for ; c+64 <= nt; c += 64 {
				smallDotFused4x64(&l[r*k], ls, &cols[c], cs, k, &out[r*n+c], os)
			}
		}
		for ; c < nt; c += 16 {
			mask := colsMask(min(16, nt-c))
			if chain {
				smallDotChain4(&l[r*k], ls, &cols[c], cs, k, &out[r*n+c], os, mask, true)
				continue
			}
			for i := r; i < r+4; i++ {
				smallDotTree1(&l[i*k], &cols[c], cs, k, &out[i*n+c], mask)
			}
		}
		if nt < n {
			// From the vector that holds column nt (loads stay inside the
			// padded rows), storing only columns nt..n-1.
			c := nt &^ 15
			mask := colsMask(n-c) &^ colsMask(nt-c)
			smallDotChain4(&l[r*k], ls, &cols[c], cs, k, &out[r*n+c], os, mask, false)
		}
	}
	for ; r < r1; r++ {
		for c := 0; c < n; c += 16 {
			smallDotUnfused1(&l[r*k], &cols[c], cs, k, &out[r*n+c], colsMask(min(16, n-c)))
		}
	}
}
