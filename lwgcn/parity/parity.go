package parity

import (
	"fmt"
	"math"
)

// Tolerance bounds the difference between two backends' float32 values:
// |got − want| ≤ Abs·scale + Rel·|want|, scale being the largest |want| in
// the compared tensor (or CompareAt's floor when larger).
type Tolerance struct{ Rel, Abs float64 }

// Defaults: see the package documentation. Outputs and losses pass through
// a few layers; gradients through twice as many (forward and backward) and
// sums over every node, hence their looser bound.
var (
	OutputTolerance   = Tolerance{Rel: 1e-4, Abs: 1e-5}
	GradientTolerance = Tolerance{Rel: 1e-3, Abs: 1e-4}
	// TrainingTolerance is for values after several Adam steps: Adam
	// divides by the running gradient magnitude, which amplifies rounding
	// where a gradient is near zero.
	TrainingTolerance = Tolerance{Rel: 1e-3, Abs: 1e-3}
)

// Diff describes the worst entry of a comparison.
type Diff struct {
	// Index of the worst entry (-1 when the lengths differ).
	Index int
	// Got, Want are its values; Excess is |got − want| divided by the
	// allowed difference (≤ 1 passes).
	Got, Want, Excess float64
	// MaxAbs is the largest |got − want| over all entries.
	MaxAbs float64
}

// OK reports whether every entry was within tolerance.
func (d Diff) OK() bool { return d.Index >= 0 && d.Excess <= 1 }

func (d Diff) String() string {
	if d.Index < 0 {
		return "lengths differ"
	}
	return fmt.Sprintf("worst [%d]: %.9g vs %.9g (%.3g× the tolerance), max |diff| %.3g", d.Index, d.Got, d.Want, d.Excess, d.MaxAbs)
}

// Compare compares got (XLA) with want (pure Go) entry by entry. A NaN or
// infinity where the other side has a finite value fails.
func Compare(got, want []float64, tol Tolerance) Diff { return CompareAt(got, want, tol, 0) }

// CompareAt is Compare with the absolute term's scale at least floor: a
// gradient tensor that is nearly zero as a whole (its terms cancel) carries
// rounding noise of the size of the other gradients' terms, so gradients
// are compared at the scale of the largest gradient of the model.
func CompareAt(got, want []float64, tol Tolerance, floor float64) Diff {
	if len(got) != len(want) {
		return Diff{Index: -1}
	}
	scale := max(1e-30, floor)
	for _, w := range want {
		if a := math.Abs(w); a > scale && !math.IsInf(a, 0) {
			scale = a
		}
	}
	d := Diff{}
	for i := range got {
		g, w := got[i], want[i]
		if g == w || (math.IsNaN(g) && math.IsNaN(w)) {
			continue
		}
		diff := math.Abs(g - w)
		if math.IsNaN(diff) || math.IsInf(diff, 0) {
			return Diff{Index: i, Got: g, Want: w, Excess: math.Inf(1), MaxAbs: math.Inf(1)}
		}
		d.MaxAbs = max(d.MaxAbs, diff)
		if e := diff / (tol.Abs*scale + tol.Rel*math.Abs(w)); e > d.Excess {
			d.Index, d.Got, d.Want, d.Excess = i, g, w, e
		}
	}
	return d
}
