package bench

import (
	"testing"
)

// BenchmarkHardware measures what the machine itself allows one core, the
// floors docs/SPEED.md sets beside the backends' rates: memory bandwidth
// (a STREAM-style triad over arrays far larger than the caches) and the
// fused multiply-add peak (fmaPeak, with the simd package's widest vectors).
func BenchmarkHardware(b *testing.B) {
	// The triad's three arrays far larger than the caches (memory), within
	// the last-level cache (a Squirrel/Chameleon-sized operand) and within
	// L2 (a Texas-sized one): x = y + s·z moves 12 bytes per value.
	for _, c := range []struct {
		name string
		n    int
	}{{"memory-3x64MiB", 16 << 20}, {"llc-3x2MiB", 512 << 10}, {"l2-3x64KiB", 16 << 10}} {
		b.Run("stream-triad/"+c.name, func(b *testing.B) {
			x, y, z := make([]float32, c.n), make([]float32, c.n), make([]float32, c.n)
			for i := range y {
				y[i], z[i] = float32(i%7), float32(i%5)
			}
			b.ResetTimer()
			for range b.N {
				triad(x, y, z, 1.5)
			}
			values := float64(c.n) * float64(b.N)
			b.ReportMetric(12*values/b.Elapsed().Seconds()/1e9, "GB/s")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/values, "ns/value")
		})
	}
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
