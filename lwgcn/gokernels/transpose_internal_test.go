package gokernels

import (
	"fmt"
	"testing"
)

func BenchmarkTranspose2D(b *testing.B) {
	for _, c := range [][2]int{{2708, 64}, {5201, 256}} {
		in, out := make([]float32, c[0]*c[1]), make([]float32, c[0]*c[1])
		for _, tiles := range []bool{false, true} {
			b.Run(fmt.Sprintf("%v/simd-tiles=%v", c, tiles), func(b *testing.B) {
				if tiles && !haveTile8 {
					b.Skip("no SIMD tiles on this CPU or build")
				}
				for b.Loop() {
					if tiles {
						transpose2D32(out, in, c[0], c[1])
					} else {
						transpose2D(out, in, c[0], c[1])
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(c[0]*c[1]), "ns/value")
			})
		}
	}
}
