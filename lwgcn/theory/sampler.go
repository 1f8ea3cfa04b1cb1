package theory

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Draw holds M sampled centres of one class under the paper's assumptions.
type Draw struct {
	Class int
	// Z[v] is the GCN mean aggregate of centre v.
	Z []float64
	// A[k][v] is the label-wise aggregate of class k for centre v, 0 when v
	// has no class-k neighbour.
	A [][]float64
	// Counts[k][v] is v's number of class-k neighbours.
	Counts [][]int32
}

// Sample draws m centres of class i: each has p.Degree neighbours whose class
// is k with probability p.NeighbourProbs(i)[k] and whose feature is
// N(Mu[i][k], Sigma[i][k]^2).
func (p Params) Sample(i, m int, rng *rand.Rand) (Draw, error) {
	if err := p.Validate(); err != nil {
		return Draw{}, err
	}
	c := len(p.Mu)
	if i < 0 || i >= c {
		return Draw{}, fmt.Errorf("theory: Sample: class %d outside [0,%d)", i, c)
	}
	if m <= 0 {
		return Draw{}, fmt.Errorf("theory: Sample: %d centres, need > 0", m)
	}
	if rng == nil {
		return Draw{}, fmt.Errorf("theory: Sample: nil *rand.Rand")
	}
	probs := p.NeighbourProbs(i)
	cum := make([]float64, c)
	acc := 0.0
	for k, pk := range probs {
		acc += pk
		cum[k] = acc
	}
	dr := Draw{Class: i, Z: make([]float64, m), A: make([][]float64, c), Counts: make([][]int32, c)}
	for k := range c {
		dr.A[k] = make([]float64, m)
		dr.Counts[k] = make([]int32, m)
	}
	sums := make([]float64, c)
	for v := range m {
		clear(sums)
		var total float64
		for range p.Degree {
			u := rng.Float64() * acc
			k := 0
			for k < c-1 && u >= cum[k] {
				k++
			}
			x := p.Mu[i][k] + p.Sigma[i][k]*rng.NormFloat64()
			sums[k] += x
			total += x
			dr.Counts[k][v]++
		}
		dr.Z[v] = total / float64(p.Degree)
		for k := range c {
			if n := dr.Counts[k][v]; n > 0 {
				dr.A[k][v] = sums[k] / float64(n)
			}
		}
	}
	return dr, nil
}

// Estimate is a Monte Carlo estimate with its standard error.
type Estimate struct {
	Value, SE float64
}

// Within reports |Value - x| <= n*SE.
func (e Estimate) Within(x, n float64) bool { return math.Abs(e.Value-x) <= n*e.SE }

func (e Estimate) String() string { return fmt.Sprintf("%.5g ± %.2g", e.Value, e.SE) }

// SampleMoments are the sample mean and variance of i.i.d. draws with their
// asymptotic standard errors: SE(mean) = sqrt(s^2/n),
// SE(var) = sqrt((m4 - s^4)/n), and Cov(mean, var) = m3/n (m3, m4 central
// moments).
type SampleMoments struct {
	N         int
	Mean, Var Estimate
	// CovMeanVar is the estimated covariance of the two estimates.
	CovMeanVar float64
}

// Moments computes SampleMoments of x (the variance uses n-1).
func Moments(x []float64) SampleMoments {
	n := len(x)
	if n < 2 {
		m := SampleMoments{N: n, Mean: Estimate{Value: math.NaN(), SE: math.NaN()}, Var: Estimate{Value: math.NaN(), SE: math.NaN()}}
		if n == 1 {
			m.Mean.Value = x[0]
		}
		return m
	}
	var mean float64
	for _, v := range x {
		mean += v
	}
	mean /= float64(n)
	var m2, m3, m4 float64
	for _, v := range x {
		d := v - mean
		d2 := d * d
		m2 += d2
		m3 += d2 * d
		m4 += d2 * d2
	}
	s2 := m2 / float64(n-1)
	m3 /= float64(n)
	m4 /= float64(n)
	fn := float64(n)
	return SampleMoments{
		N:          n,
		Mean:       Estimate{Value: mean, SE: math.Sqrt(s2 / fn)},
		Var:        Estimate{Value: s2, SE: math.Sqrt(max(m4-s2*s2, 0) / fn)},
		CovMeanVar: m3 / fn,
	}
}

// PairGapRatio estimates Delta = |mean_a - mean_b| and the pooled ratio
// Delta^2/((var_a+var_b)/2) from two independent samples, with delta-method
// standard errors.
func PairGapRatio(a, b SampleMoments) (gap, ratio Estimate) {
	ds := a.Mean.Value - b.Mean.Value
	gap = Estimate{Value: math.Abs(ds), SE: math.Hypot(a.Mean.SE, b.Mean.SE)}
	v := (a.Var.Value + b.Var.Value) / 2
	if v <= 0 {
		return gap, Estimate{Value: fisherRatio(gap.Value, v), SE: math.NaN()}
	}
	gm := 2 * ds / v
	gv := -ds * ds / (2 * v * v)
	part := func(s SampleMoments, gm float64) float64 {
		return gm*gm*s.Mean.SE*s.Mean.SE + gv*gv*s.Var.SE*s.Var.SE + 2*gm*gv*s.CovMeanVar
	}
	varR := part(a, gm) + part(b, -gm)
	return gap, Estimate{Value: ds * ds / v, SE: math.Sqrt(max(varR, 0))}
}

// GCNEstimates are Monte Carlo estimates of Theorem 1's quantities.
type GCNEstimates struct {
	MeanI, MeanJ, VarI, VarJ, Gap, Ratio Estimate
}

// LabelWiseEstimates are Monte Carlo estimates of the moments of a_{v,K}
// (zero-embedding convention) for centres of classes I and J.
type LabelWiseEstimates struct {
	K                                    int
	MeanI, MeanJ, VarI, VarJ, Gap, Ratio Estimate
}

// MonteCarlo are the estimates from one pair of draws.
type MonteCarlo struct {
	Samples   int
	GCN       GCNEstimates
	LabelWise []LabelWiseEstimates
}

// MinMonteCarloSamples is the fewest centres per class MonteCarlo accepts: a
// sample variance needs two.
const MinMonteCarloSamples = 2

// MonteCarlo samples m centres of class i and m of class j and estimates the
// GCN and label-wise moments, gaps and pooled ratios (m >=
// MinMonteCarloSamples).
func (p Params) MonteCarlo(i, j, m int, rng *rand.Rand) (MonteCarlo, error) {
	if err := p.checkPair(i, j); err != nil {
		return MonteCarlo{}, err
	}
	if m < MinMonteCarloSamples {
		return MonteCarlo{}, fmt.Errorf("theory: MonteCarlo: %d samples per class, need >= %d for a variance",
			m, MinMonteCarloSamples)
	}
	di, err := p.Sample(i, m, rng)
	if err != nil {
		return MonteCarlo{}, err
	}
	dj, err := p.Sample(j, m, rng)
	if err != nil {
		return MonteCarlo{}, err
	}
	return EstimateFromDraws(di, dj)
}

// EstimateFromDraws computes the estimates of MonteCarlo from two draws of
// the same classes count and number of centres (at least
// MinMonteCarloSamples), as Params.Sample makes them.
func EstimateFromDraws(di, dj Draw) (MonteCarlo, error) {
	fail := func(format string, args ...any) (MonteCarlo, error) {
		return MonteCarlo{}, fmt.Errorf("theory: EstimateFromDraws: "+format, args...)
	}
	if len(di.A) != len(dj.A) {
		return fail("draws of %d and %d classes (class %d and %d centres), need the same Params", len(di.A), len(dj.A),
			di.Class, dj.Class)
	}
	if len(di.Z) != len(dj.Z) {
		return fail("draws of %d and %d centres, need as many of each class", len(di.Z), len(dj.Z))
	}
	if len(di.Z) < MinMonteCarloSamples {
		return fail("%d centres per class, need >= %d for a variance", len(di.Z), MinMonteCarloSamples)
	}
	for _, dr := range []Draw{di, dj} {
		for k, a := range dr.A {
			if len(a) != len(dr.Z) {
				return fail("class %d draw: %d label-wise aggregates of class %d for %d centres", dr.Class, len(a), k, len(dr.Z))
			}
		}
	}
	out := MonteCarlo{Samples: len(di.Z)}
	mi, mj := Moments(di.Z), Moments(dj.Z)
	gap, ratio := PairGapRatio(mi, mj)
	out.GCN = GCNEstimates{MeanI: mi.Mean, MeanJ: mj.Mean, VarI: mi.Var, VarJ: mj.Var, Gap: gap, Ratio: ratio}
	for k := range di.A {
		ai, aj := Moments(di.A[k]), Moments(dj.A[k])
		gap, ratio := PairGapRatio(ai, aj)
		out.LabelWise = append(out.LabelWise, LabelWiseEstimates{K: k, MeanI: ai.Mean, MeanJ: aj.Mean,
			VarI: ai.Var, VarJ: aj.Var, Gap: gap, Ratio: ratio})
	}
	return out, nil
}
