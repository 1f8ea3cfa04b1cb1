//go:build !goexperiment.simd

package gokernels

func gatherSumF32(out, x []float32, idx []int32, w []float32, d *gatherSumData, n int) {
	gatherSumGeneric(out, x, idx, w, d, n)
}
