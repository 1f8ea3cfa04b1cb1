package bench

import (
	"testing"
)

// BenchmarkHardware measures what the machine itself allows one core, the
// floors docs/SPEED.md sets beside the backends' rates: memory bandwidth
// (a STREAM-style triad over arrays far larger than the caches) and the
// fused multiply-add peak (fmaPeak, with the simd package's widest vectors).
func BenchmarkHardware(b *testing.B) {
	b.Run("stream-triad", func(b *testing.B) {
		const n = 16 << 20 // 3 arrays of 64 MiB
		x, y, z := make([]float32, n), make([]float32, n), make([]float32, n)
		for i := range y {
			y[i], z[i] = float32(i%7), float32(i%5)
		}
		b.ResetTimer()
		for range b.N {
			triad(x, y, z, 1.5)
		}
		bytes := float64(3*4*n) * float64(b.N)
		b.ReportMetric(bytes/b.Elapsed().Seconds()/1e9, "GB/s")
	})
	b.Run("fma-peak", func(b *testing.B) {
		const iters = 1 << 20
		var sink float32
		b.ResetTimer()
		for range b.N {
			sink += fmaPeak(iters)
		}
		macs, lanes := fmaPeakWork(iters)
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(macs), "ns/multiply-add")
		b.ReportMetric(float64(lanes), "lanes")
		if sink == 42 {
			b.Log(sink)
		}
	})
}

// triad is x = y + s·z.
func triad(x, y, z []float32, s float32) {
	for i := range x {
		x[i] = y[i] + s*z[i]
	}
}
