package plot

import (
	"math"
	"strconv"
)

// axis maps data values to pixels and carries its ticks.
type axis struct {
	lo, hi float64 // data range shown
	log    bool    // base-10 logarithmic
	ticks  []float64
	labels []string
	p0, p1 float64 // pixel positions of lo and hi
}

// px maps a data value to a pixel coordinate.
func (a *axis) px(v float64) float64 {
	var t float64
	if a.log {
		t = (math.Log10(v) - math.Log10(a.lo)) / (math.Log10(a.hi) - math.Log10(a.lo))
	} else {
		t = (v - a.lo) / (a.hi - a.lo)
	}
	return a.p0 + t*(a.p1-a.p0)
}

// valid reports whether v can be placed on the axis.
func (a *axis) valid(v float64) bool { return finite(v) && (!a.log || v > 0) }

// extent accumulates the finite range of values.
type extent struct {
	lo, hi float64
	ok     bool
}

func (e *extent) add(v float64) {
	if !finite(v) {
		return
	}
	if !e.ok {
		e.lo, e.hi, e.ok = v, v, true
		return
	}
	e.lo = math.Min(e.lo, v)
	e.hi = math.Max(e.hi, v)
}

func (e *extent) merge(o extent) {
	if o.ok {
		e.add(o.lo)
		e.add(o.hi)
	}
}

// niceStep returns 1, 2 or 5 times a power of ten, close to span/target.
func niceStep(span float64, target int) float64 {
	if target < 1 {
		target = 1
	}
	raw := span / float64(target)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	f := raw / mag
	switch {
	case f < 1.5:
		return mag
	case f < 3:
		return 2 * mag
	case f < 7:
		return 5 * mag
	default:
		return 10 * mag
	}
}

// integerTicks replaces ticks closer than 1 apart by one tick at every
// whole number of the axis's range (the range is kept).
func integerTicks(a axis) axis {
	if len(a.ticks) < 2 || a.ticks[1]-a.ticks[0] >= 1 {
		return a
	}
	a.ticks, a.labels = nil, nil
	for v := math.Ceil(a.lo - 1e-9); v <= a.hi+1e-9; v++ {
		a.ticks = append(a.ticks, v)
		a.labels = append(a.labels, formatTick(v, 0))
	}
	return a
}

// padRange widens an empty or degenerate range so it can be drawn.
func padRange(e extent) (lo, hi float64) {
	if !e.ok {
		return 0, 1
	}
	lo, hi = e.lo, e.hi
	if hi-lo <= 1e-12*math.Max(math.Abs(lo), math.Abs(hi)) {
		d := 0.1 * math.Abs(lo)
		if d == 0 {
			d = 1
		}
		lo, hi = lo-d, hi+d
	}
	return lo, hi
}

// linearAxis builds a linear axis over e with about target ticks. Unless
// fixed, the range is widened to the enclosing ticks so the ticks cover the data.
func linearAxis(e extent, target int, fixed bool) axis {
	lo, hi := padRange(e)
	step := niceStep(hi-lo, target)
	const eps = 1e-9
	if !fixed {
		// Widening to whole steps may waste much of the axis (data in
		// [-0.2, 4.1] with step 1 shows [-1, 5]); take finer steps then.
		for t := target + 1; t <= 2*target; t++ {
			if (math.Ceil(hi/step-eps)-math.Floor(lo/step+eps))*step <= 1.25*(hi-lo) {
				break
			}
			step = math.Min(step, niceStep(hi-lo, t))
		}
		lo = math.Floor(lo/step+eps) * step
		hi = math.Ceil(hi/step-eps) * step
	}
	a := axis{lo: lo, hi: hi}
	dec := decimals(step)
	for k := math.Ceil(lo/step - eps); k*step <= hi+eps*step; k++ {
		v := k * step
		if math.Abs(v) < step*eps {
			v = 0
		}
		a.ticks = append(a.ticks, v)
		a.labels = append(a.labels, formatTick(v, dec))
	}
	return a
}

// decimals is the number of decimals needed to print multiples of step.
func decimals(step float64) int {
	d := -int(math.Floor(math.Log10(step) + 1e-9))
	return max(d, 0)
}

func formatTick(v float64, dec int) string {
	if v != 0 && (math.Abs(v) >= 1e6 || dec > 5) {
		return typographicMinus(strconv.FormatFloat(v, 'g', 4, 64))
	}
	return typographicMinus(strconv.FormatFloat(v, 'f', dec, 64))
}

// typographicMinus replaces a leading hyphen by U+2212 MINUS SIGN and drops
// the sign of a printed zero ("-0.0" becomes "0.0").
func typographicMinus(s string) string {
	if len(s) > 1 && s[0] == '-' {
		if isZero(s[1:]) {
			return s[1:]
		}
		return "\u2212" + s[1:]
	}
	return s
}

func isZero(s string) bool {
	for _, r := range s {
		if r != '0' && r != '.' {
			return false
		}
	}
	return true
}

// logAxis builds a base-10 axis over the positive range e. Unless fixed, the
// range is widened to whole decades.
func logAxis(e extent, fixed bool) axis {
	lo, hi := 1.0, 10.0
	if e.ok && e.lo > 0 {
		lo, hi = e.lo, e.hi
	}
	if hi <= lo {
		lo, hi = lo/2, hi*2
	}
	e0 := math.Floor(math.Log10(lo) + 1e-9)
	e1 := math.Ceil(math.Log10(hi) - 1e-9)
	if e1 <= e0 {
		e1 = e0 + 1
	}
	if !fixed {
		lo, hi = math.Pow(10, e0), math.Pow(10, e1)
	}
	a := axis{lo: lo, hi: hi, log: true}
	mults := []float64{1}
	if e1-e0 <= 2 {
		mults = []float64{1, 2, 5}
	}
	stride := math.Max(1, math.Ceil((e1-e0)/8))
	for d := e0; d <= e1; d += stride {
		for _, m := range mults {
			v := m * math.Pow(10, d)
			if v < lo*(1-1e-9) || v > hi*(1+1e-9) {
				continue
			}
			a.ticks = append(a.ticks, v)
			a.labels = append(a.labels, formatLogTick(v))
		}
	}
	return a
}

func formatLogTick(v float64) string {
	return strconv.FormatFloat(v, 'g', 6, 64)
}

// tickTarget picks a tick count for an axis of the given pixel length.
func tickTarget(pixels, spacing float64) int {
	return max(2, min(10, int(pixels/spacing)))
}
