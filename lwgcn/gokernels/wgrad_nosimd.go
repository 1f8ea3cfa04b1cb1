//go:build !goexperiment.simd

package gokernels

// wgradRows is the output rows of one task.
const wgradRows = 4

func xtvRows(o, x, v []float32, d *weightGradientData, a0, a1 int) {
	xtvRowsGeneric(o, x, v, d, a0, a1)
}
