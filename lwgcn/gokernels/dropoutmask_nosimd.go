//go:build !goexperiment.simd

package gokernels

func dropoutMaskF32(out []float32, bits []uint32, d *dropoutMaskData) {
	dropoutMaskGeneric(out, bits, d)
}
