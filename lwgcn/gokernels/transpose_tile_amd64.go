//go:build goexperiment.simd && amd64

package gokernels

import "simd/archsimd"

// haveTile8 says transposeTile8 can run here (AVX2; the shuffles are AVX's).
var haveTile8 = archsimd.X86.AVX2()

// transposeTile8 writes the 8 x 8 tile of in [h, w] at (r, c) transposed
// into out [w, h]: 8 row loads, 16 shuffles within 128-bit halves (a 4 x 4
// transpose in each), 8 half swaps and 8 stores, where the scalar copy does
// 64 loads and 64 stores. Shuffles move bits unchanged (NaN payloads too).
func transposeTile8(out, in []float32, h, w, r, c int) {
	i := r*w + c
	r0 := archsimd.LoadFloat32x8(in[i:])
	r1 := archsimd.LoadFloat32x8(in[i+w:])
	r2 := archsimd.LoadFloat32x8(in[i+2*w:])
	r3 := archsimd.LoadFloat32x8(in[i+3*w:])
	r4 := archsimd.LoadFloat32x8(in[i+4*w:])
	r5 := archsimd.LoadFloat32x8(in[i+5*w:])
	r6 := archsimd.LoadFloat32x8(in[i+6*w:])
	r7 := archsimd.LoadFloat32x8(in[i+7*w:])
	// Rows 0-3: per half, s0 = [a0 a1 b0 b1], s1 = [a2 a3 b2 b3] (a = r0, b = r1), ...
	s0 := r0.ConcatPermuteScalarsGrouped(0, 1, 4, 5, r1)
	s1 := r0.ConcatPermuteScalarsGrouped(2, 3, 6, 7, r1)
	s2 := r2.ConcatPermuteScalarsGrouped(0, 1, 4, 5, r3)
	s3 := r2.ConcatPermuteScalarsGrouped(2, 3, 6, 7, r3)
	// ... then u_j holds column j (low half) and j+4 (high half) of rows 0-3.
	u0 := s0.ConcatPermuteScalarsGrouped(0, 2, 4, 6, s2)
	u1 := s0.ConcatPermuteScalarsGrouped(1, 3, 5, 7, s2)
	u2 := s1.ConcatPermuteScalarsGrouped(0, 2, 4, 6, s3)
	u3 := s1.ConcatPermuteScalarsGrouped(1, 3, 5, 7, s3)
	// The same for rows 4-7.
	s4 := r4.ConcatPermuteScalarsGrouped(0, 1, 4, 5, r5)
	s5 := r4.ConcatPermuteScalarsGrouped(2, 3, 6, 7, r5)
	s6 := r6.ConcatPermuteScalarsGrouped(0, 1, 4, 5, r7)
	s7 := r6.ConcatPermuteScalarsGrouped(2, 3, 6, 7, r7)
	v0 := s4.ConcatPermuteScalarsGrouped(0, 2, 4, 6, s6)
	v1 := s4.ConcatPermuteScalarsGrouped(1, 3, 5, 7, s6)
	v2 := s5.ConcatPermuteScalarsGrouped(0, 2, 4, 6, s7)
	v3 := s5.ConcatPermuteScalarsGrouped(1, 3, 5, 7, s7)
	// Output row j = column j of the tile: low halves for j < 4, high for j >= 4.
	o := c*h + r
	u0.ConcatPermute128Scalars(0, 2, v0).Store(out[o:])
	u1.ConcatPermute128Scalars(0, 2, v1).Store(out[o+h:])
	u2.ConcatPermute128Scalars(0, 2, v2).Store(out[o+2*h:])
	u3.ConcatPermute128Scalars(0, 2, v3).Store(out[o+3*h:])
	u0.ConcatPermute128Scalars(1, 3, v0).Store(out[o+4*h:])
	u1.ConcatPermute128Scalars(1, 3, v1).Store(out[o+5*h:])
	u2.ConcatPermute128Scalars(1, 3, v2).Store(out[o+6*h:])
	u3.ConcatPermute128Scalars(1, 3, v3).Store(out[o+7*h:])
}
