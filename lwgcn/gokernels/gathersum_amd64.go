//go:build goexperiment.simd && amd64

package gokernels

import "simd/archsimd"

// haveGatherSumAsm: the gather-sum's rows run in assembly here (AVX-512:
// masked loads and stores for a row's columns).
var haveGatherSumAsm = archsimd.X86.AVX512()

// gatherSumChunk sums one output row's columns [c, c+64) (see the .s file).
//
//go:noescape
func gatherSumChunk(o *float32, x *float32, rowBytes uintptr, idx *int32, stride uintptr, k int, w *float32, rows int, zeroRow int, zero *float32, masks uint64)

// sumRowF32 is sumRowGeneric for float32: the same operations in the same
// order (each slot's row, times its weight when there are weights, added
// in slot order; never a fused multiply-add), in assembly on AVX-512 hosts
// (with the simd package, building the slots' row slices cost as much as
// the sums), else with the simd package (sumRowF32Vec).
func sumRowF32(o, x []float32, idx []int32, w []float32, j int, d *gatherSumData, n int, zero []float32, srcs [][]float32) {
	if !haveGatherSumAsm || n == 0 || d.k == 0 || d.h == 0 {
		sumRowF32Vec(o, x, idx, w, j, d, n, zero, srcs)
		return
	}
	k, r, h := d.k, d.r, d.h
	rows := n
	if d.zeroRow >= 0 {
		rows = n + 1
	}
	// Bounds, checked once for the assembly.
	_, _, _, _ = idx[(k-1)*r+j], o[h-1], x[n*h-1], zero[h-1]
	var wp *float32
	if w != nil {
		_ = w[(k-1)*r+j]
		wp = &w[j]
	}
	for i, masks := range d.masks {
		c := 64 * i
		gatherSumChunk(&o[c], &x[c], uintptr(4*h), &idx[j], uintptr(4*r), k, wp, rows, d.zeroRow, &zero[c], masks)
	}
}
