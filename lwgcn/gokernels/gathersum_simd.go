//go:build goexperiment.simd

package gokernels

import "simd"

// gatherSumF32 is gatherSumGeneric for float32 with the simd package's
// vectors: each value's operations are the same (Mul then Add, never a
// fused multiply-add), so the result is bit-identical.
func gatherSumF32(out, x []float32, idx []int32, w []float32, d *gatherSumData, n int) {
	k, r, h := d.k, d.r, d.h
	vl := simd.BroadcastFloat32s(0).Len()
	if h < vl {
		gatherSumGeneric(out, x, idx, w, d, n)
		return
	}
	zero := make([]float32, h)
	main := h - h%vl
	for j := range r {
		o := out[j*h : (j+1)*h]
		for kk := range k {
			src := row(x, idx[kk*r+j], n, h, d.zeroRow, zero)
			if w == nil {
				if kk == 0 {
					copy(o, src)
					continue
				}
				i := 0
				for ; i < main; i += vl {
					simd.LoadFloat32s(o[i:]).Add(simd.LoadFloat32s(src[i:])).Store(o[i:])
				}
				for ; i < h; i++ {
					o[i] += src[i]
				}
				continue
			}
			wv := w[kk*r+j]
			bw := simd.BroadcastFloat32s(wv)
			i := 0
			if kk == 0 {
				for ; i < main; i += vl {
					simd.LoadFloat32s(src[i:]).Mul(bw).Store(o[i:])
				}
				for ; i < h; i++ {
					o[i] = float32(src[i] * wv)
				}
				continue
			}
			for ; i < main; i += vl {
				simd.LoadFloat32s(o[i:]).Add(simd.LoadFloat32s(src[i:]).Mul(bw)).Store(o[i:])
			}
			for ; i < h; i++ {
				o[i] += float32(src[i] * wv)
			}
		}
	}
}
