package gokernels

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The threshold on the bits makes the same decisions as the float chain of
// RandomUniform and the comparison, for every kind of rate: at the
// threshold and below it, and on random draws.
func TestDropoutThreshold(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 17))
	top := math.Nextafter32(1, 0)
	for _, rate := range []float32{0, 1e-9, 0.1, 0.25, 0.5, 0.6, 0.9, top, 1, 2, -1} {
		d := &dropoutMaskData{scale: float32(1.0 / (1 << 32)), top: top, rate: rate, keep: 2.5, drop: 0}
		d.setThreshold()
		if d.threshold < 1<<32 && !d.keeps(uint32(d.threshold)) {
			t.Errorf("rate %v: threshold %d is not kept", rate, d.threshold)
		}
		if d.threshold > 0 && d.threshold <= 1<<32 && d.keeps(uint32(d.threshold-1)) {
			t.Errorf("rate %v: %d below the threshold is kept", rate, d.threshold-1)
		}
		bits := make([]uint32, 10007)
		for i := range bits {
			bits[i] = rng.Uint32()
		}
		bits[0], bits[1], bits[2] = 0, math.MaxUint32, uint32(min(d.threshold, math.MaxUint32))
		out := make([]float32, len(bits))
		dropoutMaskF32(out, bits, d)
		for i, b := range bits {
			want := d.drop
			if d.keeps(b) {
				want = d.keep
			}
			if out[i] != want {
				t.Fatalf("rate %v, draw %d: %v, want %v", rate, b, out[i], want)
			}
		}
	}
}
