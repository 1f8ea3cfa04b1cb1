//go:build !goexperiment.simd

package gokernels

func sumRowF32(o, x []float32, idx []int32, w []float32, j int, d *gatherSumData, n int, zero []float32, _ [][]float32) {
	sumRowGeneric(o, x, idx, w, j, d, n, zero)
}

func scaleRowF32(dst, src, cs []float32, at int) {
	for i, v := range src[:len(dst)] {
		dst[i] = v * cs[at]
	}
}
