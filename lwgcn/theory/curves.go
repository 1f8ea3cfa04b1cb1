package theory

import (
	"fmt"
	"math/rand/v2"
)

// MonteCarloOptions switch on Monte Carlo estimates in the curves.
type MonteCarloOptions struct {
	// Samples is the number of centres drawn per class and point (> 0).
	Samples int
	// Seed seeds a PCG generator; every point draws from the same stream in
	// order, so a curve is reproducible.
	Seed uint64
	// Rand, when set, is the source instead of a generator seeded by Seed
	// (Seed is then ignored): several curves drawn in turn from one Rand
	// continue a single stream, as a figure of several settings does.
	Rand *rand.Rand
	// Progress, when set, is called after every Monte Carlo point with the
	// point's degree and homophily ratio (long sweeps show progress).
	Progress func(d int, h float64)
}

// DefaultHomophilyGrid returns 0, 0.05, ..., 1.
func DefaultHomophilyGrid() []float64 {
	hs := make([]float64, 21)
	for i := range hs {
		hs[i] = float64(i) / 20
	}
	return hs
}

// GCNPoint is one point of a GCN curve: the closed form and, when asked, the
// Monte Carlo estimates.
type GCNPoint struct {
	GCNStats
	MC *GCNEstimates
}

// LabelWisePoint is one point of a label-wise curve: the closed form and,
// when asked, the Monte Carlo estimates (MC.LabelWise for every block a_k,
// MC.GCN for the GCN mean from the same draws).
type LabelWisePoint struct {
	LabelWiseSummary
	MC *MonteCarlo
}

// GCNCurve evaluates Theorem 1 for classes i, j at every degree in degrees
// (p.Degree when empty) and every h in hs, degree-major. mc may be nil.
func GCNCurve(p Params, i, j int, degrees []int, hs []float64, mc *MonteCarloOptions) ([]GCNPoint, error) {
	var out []GCNPoint
	err := sweep(p, i, j, degrees, hs, mc, func(q Params, rng *rand.Rand) error {
		s, err := q.GCN(i, j)
		if err != nil {
			return err
		}
		pt := GCNPoint{GCNStats: s}
		if rng != nil {
			est, err := q.MonteCarlo(i, j, mc.Samples, rng)
			if err != nil {
				return err
			}
			pt.MC = &est.GCN
		}
		out = append(out, pt)
		return nil
	})
	return out, err
}

// LabelWiseCurve evaluates Theorem 2 for classes i, j like GCNCurve.
func LabelWiseCurve(p Params, i, j int, degrees []int, hs []float64, mc *MonteCarloOptions) ([]LabelWisePoint, error) {
	var out []LabelWisePoint
	err := sweep(p, i, j, degrees, hs, mc, func(q Params, rng *rand.Rand) error {
		s, err := q.LabelWise(i, j)
		if err != nil {
			return err
		}
		pt := LabelWisePoint{LabelWiseSummary: s}
		if rng != nil {
			est, err := q.MonteCarlo(i, j, mc.Samples, rng)
			if err != nil {
				return err
			}
			pt.MC = &est
		}
		out = append(out, pt)
		return nil
	})
	return out, err
}

func sweep(p Params, i, j int, degrees []int, hs []float64, mc *MonteCarloOptions, f func(Params, *rand.Rand) error) error {
	if len(degrees) == 0 {
		degrees = []int{p.Degree}
	}
	var rng *rand.Rand
	if mc != nil {
		if mc.Samples <= 0 {
			return fmt.Errorf("theory: MonteCarloOptions.Samples = %d, need > 0", mc.Samples)
		}
		rng = mc.Rand
		if rng == nil {
			rng = rand.New(rand.NewPCG(mc.Seed, 0x9e3779b97f4a7c15))
		}
	}
	for _, d := range degrees {
		for _, h := range hs {
			if err := f(p.WithDegree(d).WithH(h), rng); err != nil {
				return fmt.Errorf("theory: curve point d=%d h=%v: %w", d, h, err)
			}
			if rng != nil && mc.Progress != nil {
				mc.Progress(d, h)
			}
		}
	}
	return nil
}
