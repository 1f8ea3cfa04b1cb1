package parity

import (
	"math"
	"testing"
)

// Compare is checked against hand-computed cases (each can fail).
func TestCompare(t *testing.T) {
	tol := Tolerance{Rel: 1e-3, Abs: 1e-4}
	// scale 10: allowed |diff| = 1e-3 + 1e-3·|want|.
	if d := Compare([]float64{10.009, 1.0019}, []float64{10, 1}, tol); !d.OK() {
		t.Fatalf("within tolerance: %v", d)
	}
	d := Compare([]float64{10, 1.0021}, []float64{10, 1}, tol)
	if d.OK() || d.Index != 1 || math.Abs(d.Excess-0.0021/0.002) > 1e-9 {
		t.Fatalf("1.0021 vs 1 at scale 10: %v, want index 1 failing at 1.05×", d)
	}
	if d := Compare([]float64{math.NaN()}, []float64{1}, tol); d.OK() {
		t.Fatal("NaN vs 1 passed")
	}
	if d := Compare([]float64{1}, []float64{1, 2}, tol); d.OK() || d.Index != -1 {
		t.Fatal("different lengths passed")
	}
	// Near-zero entries in a large tensor pass on the absolute term
	// (1e-4·100 = 1e-2).
	if d := Compare([]float64{100, 3e-3}, []float64{100, 1e-3}, tol); !d.OK() {
		t.Fatalf("2e-3 off at scale 100: %v, want a pass", d)
	}
	if d := Compare([]float64{100, 2e-2}, []float64{100, 1e-3}, tol); d.OK() {
		t.Fatalf("1.9e-2 off at scale 100: %v, want a failure", d)
	}
	// A nearly-zero tensor is compared at the floor's scale.
	if d := CompareAt([]float64{1e-10}, []float64{3e-10}, tol, 0.1); !d.OK() {
		t.Fatalf("2e-10 off at floor 0.1: %v, want a pass", d)
	}
	if d := CompareAt([]float64{1e-10}, []float64{3e-10}, tol, 0); d.OK() {
		t.Fatalf("2e-10 off at the tensor's own scale 3e-10: %v, want a failure", d)
	}
}
