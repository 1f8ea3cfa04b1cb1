//go:build goexperiment.simd

package gokernels

import "simd"

// adamMomentF32 is adamMomentGeneric with the simd package's vectors (Mul
// and Add apart, never fused: the same roundings).
func adamMomentF32(o, state, grad, p []float32, beta, c1, c2, wd float32, second bool) {
	vl := simd.BroadcastFloat32s(0).Len()
	vb, vc1, vc2, vwd := simd.BroadcastFloat32s(beta), simd.BroadcastFloat32s(c1), simd.BroadcastFloat32s(c2), simd.BroadcastFloat32s(wd)
	n := len(o) - len(o)%vl
	i := 0
	for ; i < n; i += vl {
		g := simd.LoadFloat32s(grad[i:])
		if p != nil {
			g = g.Add(simd.LoadFloat32s(p[i:]).Mul(vwd))
		}
		a := g.Mul(vc1)
		if second {
			a = a.Mul(a).Mul(vc2)
		}
		simd.LoadFloat32s(state[i:]).Mul(vb).Add(a).Store(o[i:])
	}
	var pt []float32
	if p != nil {
		pt = p[i:]
	}
	adamMomentGeneric(o[i:], state[i:], grad[i:], pt, beta, c1, c2, wd, second)
}

// adamParamF32 is adamParamGeneric with the simd package's vectors (the
// hardware square root is IEEE's, as the backend's Sqrt).
func adamParamF32(o, p, m, v []float32, eps, s float32) {
	vl := simd.BroadcastFloat32s(0).Len()
	ve, vs := simd.BroadcastFloat32s(eps), simd.BroadcastFloat32s(s)
	n := len(o) - len(o)%vl
	i := 0
	for ; i < n; i += vl {
		den := simd.LoadFloat32s(v[i:]).Sqrt().Add(ve)
		u := simd.LoadFloat32s(m[i:]).Div(den).Mul(vs)
		simd.LoadFloat32s(p[i:]).Sub(u).Store(o[i:])
	}
	adamParamGeneric(o[i:], p[i:], m[i:], v[i:], eps, s)
}
