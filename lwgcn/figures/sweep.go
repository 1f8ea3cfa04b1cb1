package figures

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/lwgcn/toolkit/lwgcn/theory"
)

// Defaults of the sweeps.
const (
	// DefaultLinePoints is the number of intervals of the closed-form h grid
	// (the curves are exact, so a fine grid only costs microseconds).
	DefaultLinePoints = 200
	// ErrorBarSE is the half-width of Monte Carlo error bars in standard
	// errors (about a 95 % interval).
	ErrorBarSE = 2
	// LogFloor is the lowest value shown on the log-scale ratio axes: a
	// ratio below 1e-3 is "not discriminable" for every purpose here, and the
	// exact zeros at h* would otherwise stretch the axis without bound.
	LogFloor = 1e-3
)

// Progress receives progress updates; notebook.Bar.Reporter() satisfies it.
type Progress interface {
	Update(done, total int, msg string)
}

// Setting is a named parameter set of the paper's model (one feature
// dimension); its Degree and H are overridden by the sweeps.
type Setting struct {
	Name   string
	Params theory.Params
}

// NewSetting validates mu and sigma (C x C, sigma a standard deviation) and
// names them.
func NewSetting(name string, mu, sigma [][]float64) (Setting, error) {
	p, err := theory.NewParams(1, 0, mu, sigma)
	if err != nil {
		return Setting{}, fmt.Errorf("figures: setting %q: %w", name, err)
	}
	return Setting{Name: name, Params: p}, nil
}

// SweepOptions configure the homophily sweeps of Theorems 1 and 2.
type SweepOptions struct {
	// Degrees are the degrees d, one panel each (required).
	Degrees []int
	// Lines is the h grid of the closed-form curves (nil: HomophilyGrid(
	// DefaultLinePoints)).
	Lines []float64
	// MC is the h grid of the Monte Carlo markers (nil: no Monte Carlo).
	MC []float64
	// Samples is the number of centres drawn per class and Monte Carlo point.
	Samples int
	// Seed seeds the Monte Carlo stream; every point draws from it in order.
	Seed uint64
	// Progress, when set, is told after every Monte Carlo point.
	Progress Progress
}

func (o SweepOptions) validate() error {
	if len(o.Degrees) == 0 {
		return fmt.Errorf("figures: SweepOptions.Degrees is empty, need at least one degree")
	}
	for _, d := range o.Degrees {
		if d <= 0 {
			return fmt.Errorf("figures: SweepOptions.Degrees has d = %d, need d > 0", d)
		}
	}
	for _, grid := range [][]float64{o.Lines, o.MC} {
		for _, h := range grid {
			if !(h >= 0 && h <= 1) {
				return fmt.Errorf("figures: SweepOptions h = %v outside [0,1]", h)
			}
		}
	}
	if len(o.MC) > 0 && o.Samples <= 0 {
		return fmt.Errorf("figures: SweepOptions.Samples = %d, need > 0 for Monte Carlo", o.Samples)
	}
	return nil
}

func (o SweepOptions) lines() []float64 {
	if o.Lines == nil {
		return HomophilyGrid(DefaultLinePoints)
	}
	return o.Lines
}

// HomophilyGrid returns n+1 equally spaced points 0, 1/n, ..., 1 (n < 1
// gives {0, 1}).
func HomophilyGrid(n int) []float64 {
	n = max(n, 1)
	hs := make([]float64, n+1)
	for i := range hs {
		hs[i] = float64(i) / float64(n)
	}
	return hs
}

// GridWith returns grid with the points extra merged in (sorted, without
// duplicates), e.g. a homophily grid plus 1/C and h* so that the curves reach
// their exact zeros.
func GridWith(grid []float64, extra ...float64) []float64 {
	out := append([]float64(nil), grid...)
	for _, x := range extra {
		if math.IsNaN(x) {
			continue
		}
		out = append(out, x)
	}
	slices.Sort(out)
	k := 0
	for i, x := range out {
		if i == 0 || x-out[k-1] > 1e-12 {
			out[k] = x
			k++
		}
	}
	return out[:k]
}

// mcStream is the second PCG word of the Monte Carlo generator, so that a
// seed gives the same stream in every sweep.
const mcStream = 0x5eed1a2b3c4d5e6f

// sweepMC is the Monte Carlo part of a sweep: theory's curve options with one
// generator for all the sweep's curves (seeded by SweepOptions.Seed, drawn in
// order: settings, then degrees, then h) and progress counted over them all.
type sweepMC struct {
	opts        theory.MonteCarloOptions
	name        string // the setting whose curve is being drawn
	done, total int
}

// monteCarlo returns the sweep's Monte Carlo options for total points, or
// nil without a Monte Carlo grid.
func (o SweepOptions) monteCarlo(total int) *sweepMC {
	if len(o.MC) == 0 {
		return nil
	}
	m := &sweepMC{total: total}
	m.opts = theory.MonteCarloOptions{Samples: o.Samples, Rand: rand.New(rand.NewPCG(o.Seed, mcStream))}
	if o.Progress != nil {
		m.opts.Progress = func(d int, h float64) {
			m.done++
			o.Progress.Update(m.done, m.total, fmt.Sprintf("%s, d = %d, h = %s", m.name, d, fmtH(h)))
		}
	}
	return m
}

// byDegree splits a degree-major curve of n points per degree into rows,
// keeping what f picks from each point.
func byDegree[P, T any](pts []P, n int, f func(P) T) [][]T {
	var out [][]T
	if n <= 0 {
		return nil
	}
	for start := 0; start < len(pts); start += n {
		row := make([]T, n)
		for k := range row {
			row[k] = f(pts[start+k])
		}
		out = append(out, row)
	}
	return out
}

// fmtH prints a homophily value compactly ("0.333", "0.2").
func fmtH(h float64) string {
	s := fmt.Sprintf("%.3f", h)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "" || s == "-0" {
		return "0"
	}
	return s
}

// finite reports whether x is neither NaN nor infinite.
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// errBars scales standard errors to ErrorBarSE.
func errBars(se []float64) []float64 {
	out := make([]float64, len(se))
	for i, s := range se {
		out[i] = ErrorBarSE * s
	}
	return out
}

// logRange returns a y range for a log axis over values, in whole decades:
// from the smallest positive finite value (but not below floor) to the
// largest.
func logRange(floor float64, values ...[]float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, vs := range values {
		for _, v := range vs {
			if finite(v) && v > 0 {
				lo, hi = min(lo, v), max(hi, v)
			}
		}
	}
	if !finite(lo) {
		return floor, 1
	}
	lo = max(lo, floor)
	if hi <= lo {
		hi = lo * 10
	}
	return math.Pow(10, math.Floor(math.Log10(lo))), math.Pow(10, math.Ceil(math.Log10(hi)))
}
