//go:build goexperiment.simd && !amd64

package gokernels

// sumRowF32 is sumRowF32Vec where there is no assembly.
func sumRowF32(o, x []float32, idx []int32, w []float32, j int, d *gatherSumData, n int, zero []float32, srcs [][]float32) {
	sumRowF32Vec(o, x, idx, w, j, d, n, zero, srcs)
}
