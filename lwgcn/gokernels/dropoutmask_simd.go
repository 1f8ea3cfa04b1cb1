//go:build goexperiment.simd

package gokernels

import "simd"

// dropoutMaskF32 is dropoutMaskGeneric with the simd package's vectors: an
// unsigned comparison of the draws with the threshold selects keep or drop.
func dropoutMaskF32(out []float32, bits []uint32, d *dropoutMaskData) {
	if d.threshold > 1<<32-1 { // nothing kept
		for i := range out {
			out[i] = d.drop
		}
		return
	}
	vl := simd.BroadcastFloat32s(0).Len()
	t := simd.BroadcastUint32s(uint32(d.threshold))
	keep, drop := simd.BroadcastFloat32s(d.keep), simd.BroadcastFloat32s(d.drop)
	n := len(out) - len(out)%vl
	for i := 0; i < n; i += vl {
		keep.IfElse(simd.LoadUint32s(bits[i:]).GreaterEqual(t), drop).Store(out[i:])
	}
	dropoutMaskGeneric(out[n:], bits[n:], d)
}
