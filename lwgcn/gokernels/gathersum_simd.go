//go:build goexperiment.simd

package gokernels

import "simd"

// blockVectors is how many vectors of a row gatherSumF32 keeps in
// registers while it sums over k (4 x 16 floats with AVX-512).
const blockVectors = 4

// sumRowF32Vec is sumRowGeneric for float32 with the simd package's vectors:
// the row is summed in blocks of up to blockVectors vectors held in
// registers across k, so that o is written once. Each value's operations
// are sumRowGeneric's (Mul then Add in k order, never a fused
// multiply-add): the result is bit-identical. srcs is scratch of at least
// d.k rows.
func sumRowF32Vec(o, x []float32, idx []int32, w []float32, j int, d *gatherSumData, n int, zero []float32, srcs [][]float32) {
	k, r, h := d.k, d.r, d.h
	vl := simd.BroadcastFloat32s(0).Len()
	srcs = srcs[:k]
	rows := n // the gathered operand's rows: x's, and the zero row if any
	if d.zeroRow >= 0 {
		rows = n + 1
	}
	// row(), inlined: it ran once per slot and cost as much as the sums.
	for kk := range srcs {
		jj := int(idx[kk*r+j])
		if uint(jj) >= uint(rows) {
			jj = clampIndex(jj, rows)
		}
		if jj == d.zeroRow {
			srcs[kk] = zero
		} else {
			srcs[kk] = x[jj*h : jj*h+h : jj*h+h]
		}
	}
	main := h - h%vl
	i := 0
	for ; i+blockVectors*vl <= main; i += blockVectors * vl {
		sumBlock4(o[i:], srcs, w, j, r, i, vl)
	}
	for ; i < main; i += vl {
		sumBlock1(o[i:], srcs, w, j, r, i)
	}
	if i < h {
		sumRowTail(o[i:h], srcs, w, j, r, i)
	}
}

// sumBlock4 writes to o the sum over k of 4 vectors of srcs[k] at offset i
// (each times w[k·r+j] when w is not nil).
func sumBlock4(o []float32, srcs [][]float32, w []float32, j, r, i, vl int) {
	s := srcs[0][i:]
	a0, a1 := simd.LoadFloat32s(s), simd.LoadFloat32s(s[vl:])
	a2, a3 := simd.LoadFloat32s(s[2*vl:]), simd.LoadFloat32s(s[3*vl:])
	if w == nil {
		for _, src := range srcs[1:] {
			s = src[i:]
			a0 = a0.Add(simd.LoadFloat32s(s))
			a1 = a1.Add(simd.LoadFloat32s(s[vl:]))
			a2 = a2.Add(simd.LoadFloat32s(s[2*vl:]))
			a3 = a3.Add(simd.LoadFloat32s(s[3*vl:]))
		}
	} else {
		b := simd.BroadcastFloat32s(w[j])
		a0, a1, a2, a3 = a0.Mul(b), a1.Mul(b), a2.Mul(b), a3.Mul(b)
		for kk := 1; kk < len(srcs); kk++ {
			s = srcs[kk][i:]
			b = simd.BroadcastFloat32s(w[kk*r+j])
			a0 = a0.Add(simd.LoadFloat32s(s).Mul(b))
			a1 = a1.Add(simd.LoadFloat32s(s[vl:]).Mul(b))
			a2 = a2.Add(simd.LoadFloat32s(s[2*vl:]).Mul(b))
			a3 = a3.Add(simd.LoadFloat32s(s[3*vl:]).Mul(b))
		}
	}
	a0.Store(o)
	a1.Store(o[vl:])
	a2.Store(o[2*vl:])
	a3.Store(o[3*vl:])
}

// sumRowTail is sumBlock1 for the last len(o) < vector length columns of a
// row, from column i (all of a row shorter than a vector: a GCN's second
// layer, a row per class), with partial loads and stores: the same
// operations on the values as the scalar loop (sumRowGeneric), which took
// a fifth of GCN's epoch on Squirrel. A scalar loop after vector code is
// also what the Intel Xeon host (family 6 model 207) runs slowest: see
// scaleRowF32.
func sumRowTail(o []float32, srcs [][]float32, w []float32, j, r, i int) {
	h := i + len(o)
	a, _ := simd.LoadFloat32sPart(srcs[0][i:h])
	if w == nil {
		for _, src := range srcs[1:] {
			v, _ := simd.LoadFloat32sPart(src[i:h])
			a = a.Add(v)
		}
	} else {
		a = a.Mul(simd.BroadcastFloat32s(w[j]))
		for kk := 1; kk < len(srcs); kk++ {
			v, _ := simd.LoadFloat32sPart(srcs[kk][i:h])
			a = a.Add(v.Mul(simd.BroadcastFloat32s(w[kk*r+j])))
		}
	}
	a.StorePart(o)
}

// sumBlock1 is sumBlock4 for one vector.
func sumBlock1(o []float32, srcs [][]float32, w []float32, j, r, i int) {
	a := simd.LoadFloat32s(srcs[0][i:])
	if w == nil {
		for _, src := range srcs[1:] {
			a = a.Add(simd.LoadFloat32s(src[i:]))
		}
	} else {
		a = a.Mul(simd.BroadcastFloat32s(w[j]))
		for kk := 1; kk < len(srcs); kk++ {
			a = a.Add(simd.LoadFloat32s(srcs[kk][i:]).Mul(simd.BroadcastFloat32s(w[kk*r+j])))
		}
	}
	a.Store(o)
}

// scaleRowF32 is dst = src · cs[at] with vectors (a multiply per value, as
// the scalar loop: bit-identical). The scale is read here, from memory,
// not passed as a float32 argument, and a row's last columns short of a
// vector are a partial (masked) vector op, not a scalar loop: on the Intel
// Xeon host (family 6 model 207) scalar float code right after the
// function's vector code (a float argument, or the loop) cost about 220 ns
// a call: 14x a row of 64, a tenth of Cora's LW-GCN epoch; 20x a row of 5
// (GCN's second layer, a row per class), a tenth of GCN's epoch on the
// sweep's graphs (BenchmarkScaleRow).
func scaleRowF32(dst, src, cs []float32, at int) {
	vc := simd.BroadcastFloat32s(cs[at])
	vl := vc.Len()
	src = src[:len(dst)]
	i := 0
	for ; i+vl <= len(dst); i += vl {
		simd.LoadFloat32s(src[i:]).Mul(vc).Store(dst[i:])
	}
	if i < len(dst) {
		v, _ := simd.LoadFloat32sPart(src[i:])
		v.Mul(vc).StorePart(dst[i:])
	}
}
