package gokernels

import (
	"fmt"
	"testing"
)

func BenchmarkTranspose2D(b *testing.B) {
	for _, c := range [][2]int{{2708, 64}, {5201, 256}} {
		in, out := make([]float32, c[0]*c[1]), make([]float32, c[0]*c[1])
		b.Run(fmt.Sprint(c), func(b *testing.B) {
			for b.Loop() {
				transpose2D(out, in, c[0], c[1])
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(c[0]*c[1]), "ns/value")
		})
	}
}
