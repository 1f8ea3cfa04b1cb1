//go:build !(goexperiment.simd && amd64)

package gokernels

// haveWeightGrad is false without the simd experiment on amd64: compute's
// product runs in another order there, so no product is rewritten.
const haveWeightGrad = false

func weightGradBlock(out, a, b []float32, n, m, k, r0, r1, k0, k1 int) {
	panic("gokernels: weightGradBlock without SIMD")
}

func largeDotRows(out, lhs, rhs []float32, m, k, n, r0, r1 int) {
	panic("gokernels: largeDotRows without SIMD")
}
