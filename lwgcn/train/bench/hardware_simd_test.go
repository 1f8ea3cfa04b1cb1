//go:build goexperiment.simd

package bench

import "simd"

// fmaPeak runs iters rounds of 8 independent fused multiply-adds on
// register-resident vectors (enough in flight to hide their latency) and
// returns a value that depends on all of them.
func fmaPeak(iters int) float32 {
	a := simd.BroadcastFloat32s(0.999)
	c := simd.BroadcastFloat32s(1e-3)
	s0 := simd.BroadcastFloat32s(0)
	s1, s2, s3, s4, s5, s6, s7 := s0, s0, s0, s0, s0, s0, s0
	for i := 0; i < iters; i++ { // not "range iters": go1.27.4 fails to compile simd loop variables carried by it
		s0 = s0.MulAdd(a, c)
		s1 = s1.MulAdd(a, c)
		s2 = s2.MulAdd(a, c)
		s3 = s3.MulAdd(a, c)
		s4 = s4.MulAdd(a, c)
		s5 = s5.MulAdd(a, c)
		s6 = s6.MulAdd(a, c)
		s7 = s7.MulAdd(a, c)
	}
	out := make([]float32, a.Len())
	s0.Add(s1).Add(s2).Add(s3).Add(s4).Add(s5).Add(s6).Add(s7).Store(out)
	return out[0]
}

// fmaPeakWork is fmaPeak's multiply-adds (lanes x 8 x iters) and lanes.
func fmaPeakWork(iters int) (macs, lanes int) {
	lanes = simd.BroadcastFloat32s(0).Len()
	return lanes * 8 * iters, lanes
}

// triad is x = y + s·z with the widest vectors (a scalar loop measures the
// core's instruction rate, not the memory's).
func triad(x, y, z []float32, s float32) {
	vs := simd.BroadcastFloat32s(s)
	vl := vs.Len()
	i := 0
	for ; i+vl <= len(x); i += vl {
		simd.LoadFloat32s(z[i:]).MulAdd(vs, simd.LoadFloat32s(y[i:])).Store(x[i:])
	}
	for ; i < len(x); i++ {
		x[i] = y[i] + s*z[i]
	}
}
