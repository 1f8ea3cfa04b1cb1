//go:build !(goexperiment.simd && amd64 && !amd64.v3 && !amd64.v4)

package gokernels

// haveSmallDot is false here: without the simd experiment on amd64 compute
// runs another kernel, and from amd64.v3 on Go may fuse its scalar loops.
const haveSmallDot = false

func smallDotWidth() int { return 1 }

func smallDotRows(mode smallDotOrder, out, l, cols []float32, m, n, np, k, r0, r1 int) {
	panic("gokernels: smallDotRows without SIMD")
}
