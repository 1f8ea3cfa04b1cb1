//go:build !goexperiment.simd

package gokernels

func adamMomentF32(o, state, grad, p []float32, beta, c1, c2, wd float32, second bool) {
	adamMomentGeneric(o, state, grad, p, beta, c1, c2, wd, second)
}

func adamParamF32(o, p, m, v []float32, eps, s float32) { adamParamGeneric(o, p, m, v, eps, s) }
