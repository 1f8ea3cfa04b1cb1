//go:build goexperiment.simd

package gokernels

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// wideF32 returns n values with random signs and exponents over ±2^±8 (so
// that a fused product-sum or another order shows in the bits).
func wideF32(rng *rand.Rand, n int, positive bool) []float32 {
	v := make([]float32, n)
	for i := range v {
		x := float32(math.Ldexp(1+rng.Float64(), rng.IntN(17)-8))
		if !positive && rng.IntN(2) == 0 {
			x = -x
		}
		v[i] = x
	}
	return v
}

// Adam's passes (the simd loop) give the bits of their value-by-value
// definitions, with and without decay, for lengths with and without a tail
// short of a vector, on values whose magnitudes make another order or a
// fused multiply-add show (TestAdamSameAsBackend's realistic ones hide
// them: a·(a·c2) for (a·a)·c2 passed it, and fails this).
func TestAdamPassesMatchGeneric(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 31))
	for _, n := range []int{16, 1000, 1037} {
		for _, decay := range []bool{false, true} {
			for _, second := range []bool{false, true} {
				state, grad := wideF32(rng, n, second), wideF32(rng, n, false)
				var p []float32
				wd := float32(0)
				if decay {
					p, wd = wideF32(rng, n, false), float32(0.1+rng.Float64())
				}
				beta, c1, c2 := float32(rng.Float64()), float32(0.5+rng.Float64()), float32(0.5+rng.Float64())
				got, want := make([]float32, n), make([]float32, n)
				adamMomentF32(got, state, grad, p, beta, c1, c2, wd, second)
				adamMomentGeneric(want, state, grad, p, beta, c1, c2, wd, second)
				for i := range got {
					if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
						t.Fatalf("moment n=%d decay=%v second=%v value %d: %v, want %v", n, decay, second, i, got[i], want[i])
					}
				}
			}
		}
		pv, m, v := wideF32(rng, n, false), wideF32(rng, n, false), wideF32(rng, n, true)
		got, want := make([]float32, n), make([]float32, n)
		adamParamF32(got, pv, m, v, 1e-3, 0.7)
		adamParamGeneric(want, pv, m, v, 1e-3, 0.7)
		for i := range got {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("param n=%d value %d: %v, want %v", n, i, got[i], want[i])
			}
		}
	}
}

// BenchmarkAdamPasses times a moment's and the parameter's pass (ns per value).
func BenchmarkAdamPasses(b *testing.B) {
	rng := rand.New(rand.NewPCG(32, 33))
	for _, n := range []int{150_000, 2_000_000} {
		o, st, g, p := make([]float32, n), wideF32(rng, n, true), wideF32(rng, n, false), wideF32(rng, n, false)
		b.Run(fmt.Sprint("moment/n=", n), func(b *testing.B) {
			for b.Loop() {
				adamMomentF32(o, st, g, p, 0.9, 0.1, 0.2, 5e-4, true)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/value")
		})
		b.Run(fmt.Sprint("param/n=", n), func(b *testing.B) {
			for b.Loop() {
				adamParamF32(o, p, g, st, 1e-8, 0.01)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/value")
		})
	}
}
