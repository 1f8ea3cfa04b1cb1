//go:build !goexperiment.simd

package bench

// fmaPeak without the simd package: scalar multiply-adds (8 chains).
func fmaPeak(iters int) float32 {
	var s [8]float32
	for range iters {
		for j := range s {
			s[j] = s[j]*0.999 + 1e-3
		}
	}
	return s[0] + s[7]
}

func fmaPeakWork(iters int) (macs, lanes int) { return 8 * iters, 1 }

// triad is x = y + s·z.
func triad(x, y, z []float32, s float32) {
	for i := range x {
		x[i] = y[i] + s*z[i]
	}
}
