//go:build !(goexperiment.simd && amd64)

package gokernels

// haveTile8 is false without the simd experiment on amd64: transposes take
// the scalar tiles.
const haveTile8 = false

func transposeTile8(out, in []float32, h, w, r, c int) {
	panic("gokernels: transposeTile8 without SIMD")
}
