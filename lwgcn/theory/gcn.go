package theory

import (
	"fmt"
	"math"
)

// ProbSumTol is how far from 1 the neighbour class probabilities given to
// MeanAggregateMoments may sum (rounding of (1-h)/(C-1) terms).
const ProbSumTol = 1e-9

// MeanAggregateMoments returns the mean and variance of the average of d
// independent neighbours whose class is k with probability probs[k] and whose
// feature is then N(mu[k], sigma[k]^2): the mixture variance divided by d,
// sum_k p_k (sigma_k^2 + (mu_k - mean)^2) / d. The centred (two-pass) form
// keeps the variance exact when the means are large: E[x^2] - mean^2 loses
// it entirely once mean^2 is beyond 1/eps times the spread. It returns an
// error when d <= 0, the slices differ in length, a probability is outside
// [0, 1], they do not sum to 1 (within ProbSumTol), or a mean or standard
// deviation is not finite or a standard deviation is negative.
func MeanAggregateMoments(mu, sigma, probs []float64, d int) (mean, variance float64, err error) {
	fail := func(format string, args ...any) (float64, float64, error) {
		return math.NaN(), math.NaN(), fmt.Errorf("theory: MeanAggregateMoments: "+format, args...)
	}
	if d <= 0 {
		return fail("d = %d, need > 0", d)
	}
	if len(mu) != len(probs) || len(sigma) != len(probs) {
		return fail("%d means, %d standard deviations and %d probabilities, need as many of each", len(mu), len(sigma), len(probs))
	}
	var sum float64
	for k, pk := range probs {
		switch {
		case !(pk >= 0 && pk <= 1):
			return fail("probs[%d] = %v, need 0 <= p <= 1", k, pk)
		case math.IsNaN(mu[k]) || math.IsInf(mu[k], 0):
			return fail("mu[%d] = %v is not finite", k, mu[k])
		case !(sigma[k] >= 0) || math.IsInf(sigma[k], 0):
			return fail("sigma[%d] = %v, need a finite standard deviation >= 0", k, sigma[k])
		}
		sum += pk
	}
	if math.Abs(sum-1) > ProbSumTol {
		return fail("probabilities sum to %v, need 1", sum)
	}
	for k, pk := range probs {
		mean += pk * mu[k]
	}
	for k, pk := range probs {
		dm := mu[k] - mean
		variance += pk * (sigma[k]*sigma[k] + dm*dm)
	}
	return mean, variance / float64(d), nil
}

// GCNStats are Theorem 1's quantities for classes I and J at one (h, d).
type GCNStats struct {
	H      float64
	Degree int
	I, J   int
	// MeanI, MeanJ are E[z|y=i], E[z|y=j].
	MeanI, MeanJ float64
	// VarI, VarJ are Var(z|y=i), Var(z|y=j).
	VarI, VarJ float64
	// Gap is Delta_ij = |MeanI - MeanJ|.
	Gap float64
	// Ratio is Gap^2 / ((VarI+VarJ)/2); RatioI is Gap^2 / VarI (the paper's).
	Ratio, RatioI float64
}

// GCN returns the closed forms of Theorem 1 for the mean aggregation z_v.
func (p Params) GCN(i, j int) (GCNStats, error) {
	if err := p.checkPair(i, j); err != nil {
		return GCNStats{}, err
	}
	s := GCNStats{H: p.H, Degree: p.Degree, I: i, J: j}
	var err error
	if s.MeanI, s.VarI, err = MeanAggregateMoments(p.Mu[i], p.Sigma[i], p.NeighbourProbs(i), p.Degree); err != nil {
		return GCNStats{}, err
	}
	if s.MeanJ, s.VarJ, err = MeanAggregateMoments(p.Mu[j], p.Sigma[j], p.NeighbourProbs(j), p.Degree); err != nil {
		return GCNStats{}, err
	}
	s.Gap = math.Abs(s.MeanI - s.MeanJ)
	s.Ratio = fisherRatio(s.Gap, (s.VarI+s.VarJ)/2)
	s.RatioI = fisherRatio(s.Gap, s.VarI)
	return s, nil
}

// fisherRatio is gap^2/v with 0/0 = 0 (no gap, nothing to discriminate) and
// gap/0 = +Inf.
func fisherRatio(gap, v float64) float64 {
	if gap == 0 {
		return 0
	}
	if v <= 0 {
		return math.Inf(1)
	}
	return gap * gap / v
}

// GapLine describes the signed GCN mean gap E[z|i]-E[z|j] = Slope*h + Intercept,
// so Delta_ij(h) = |Slope*h + Intercept| = |((hC-1)D + (1-h)S)/(C-1)|.
type GapLine struct {
	// D = mu_ii - mu_jj; S = sum_k (mu_ik - mu_jk).
	D, S float64
	// Slope = (CD - S)/(C-1); Intercept = (S - D)/(C-1).
	Slope, Intercept float64
	// HStar = (D-S)/(CD-S), the zero of the gap; NaN when the slope is 0
	// (then the gap is the constant |S-D|/(C-1), identically 0 iff D = S = 0).
	HStar float64
	// HStarInRange reports 0 <= HStar <= 1.
	HStarInRange bool
	// GapAtUniform is Delta at h = 1/C, |S|/C.
	GapAtUniform float64
}

// GCNGapLine returns the linear form of Theorem 1's gap and its zero h*.
func (p Params) GCNGapLine(i, j int) (GapLine, error) {
	if err := p.checkPair(i, j); err != nil {
		return GapLine{}, err
	}
	c := float64(len(p.Mu))
	g := GapLine{D: p.Mu[i][i] - p.Mu[j][j]}
	for k := range p.Mu {
		g.S += p.Mu[i][k] - p.Mu[j][k]
	}
	g.Slope = (c*g.D - g.S) / (c - 1)
	g.Intercept = (g.S - g.D) / (c - 1)
	g.HStar = math.NaN()
	switch den := c*g.D - g.S; {
	case g.S == 0 && g.D != 0:
		g.HStar = 1 / c // the paper's special case, free of rounding
	case den != 0:
		g.HStar = (g.D - g.S) / den
	}
	g.HStarInRange = g.HStar >= 0 && g.HStar <= 1
	g.GapAtUniform = math.Abs(g.S) / c
	return g, nil
}

// Gap evaluates Delta_ij(h).
func (g GapLine) Gap(h float64) float64 { return math.Abs(g.Slope*h + g.Intercept) }

// Grid sizes and tolerance of the numerical minimum search.
const (
	// RatioMinimumGrid is the number of grid intervals on [0,1] scanned before
	// golden-section refinement.
	RatioMinimumGrid = 1000
	// RatioMinimumTol is the final bracket width in h.
	RatioMinimumTol = 1e-12
)

// GCNRatioMinimum returns the h in [0,1] minimising the GCN ratio
// Delta^2/((Var_i+Var_j)/2) and the minimal ratio (the degree is p.Degree;
// p.H is ignored). It scans a grid of RatioMinimumGrid intervals and refines
// the best cell by golden-section search. When h* lies in [0,1] the ratio
// is 0 there, so the result is h* up to the tolerance.
func (p Params) GCNRatioMinimum(i, j int) (h, ratio float64, err error) {
	if err := p.checkPair(i, j); err != nil {
		return 0, 0, err
	}
	f := func(h float64) float64 {
		s, _ := p.WithH(h).GCN(i, j)
		return s.Ratio
	}
	best, bestV := 0, math.Inf(1)
	for g := 0; g <= RatioMinimumGrid; g++ {
		if v := f(float64(g) / RatioMinimumGrid); v < bestV {
			best, bestV = g, v
		}
	}
	lo := float64(max(best-1, 0)) / RatioMinimumGrid
	hi := float64(min(best+1, RatioMinimumGrid)) / RatioMinimumGrid
	h, ratio = goldenSection(f, lo, hi, RatioMinimumTol)
	if bestV < ratio { // keep the grid point if refinement did not improve
		h, ratio = float64(best)/RatioMinimumGrid, bestV
	}
	return h, ratio, nil
}

func goldenSection(f func(float64) float64, a, b, tol float64) (float64, float64) {
	invPhi := (math.Sqrt(5) - 1) / 2
	c := b - invPhi*(b-a)
	d := a + invPhi*(b-a)
	fc, fd := f(c), f(d)
	for b-a > tol {
		if fc <= fd {
			b, d, fd = d, c, fc
			c = b - invPhi*(b-a)
			fc = f(c)
		} else {
			a, c, fc = c, d, fd
			d = a + invPhi*(b-a)
			fd = f(d)
		}
	}
	x := (a + b) / 2
	return x, f(x)
}

// UniformMixing are Theorem 1's quantities at h = 1/C, where every neighbour
// class has probability 1/C.
type UniformMixing struct {
	GCNStats
	// SigmaI is the paper's sigma_i = sqrt((1/C) sum_k (mu_ik - mean_k mu_ik)^2),
	// the spread of class i's neighbour means.
	SigmaI float64
	// MaxNeighbourGap is max_k |mu_ik - mu_jk|.
	MaxNeighbourGap float64
	// NonDiscriminable reports Gap^2 < VarI (RatioI < 1), the paper's notion.
	// Exactly: d (S/C)^2 < (1/C) sum_k sigma_ik^2 + sigma_i^2.
	NonDiscriminable bool
	// PaperCondition is the corrected sufficient condition of the proof,
	// sigma_i > sqrt(d) |mu_ik - mu_jk| for all k (the paper prints
	// |mu_ik - mu_ik|). It implies NonDiscriminable, since then
	// Var(z|i) >= sigma_i^2/d > max_k |mu_ik - mu_jk|^2 >= (S/C)^2 = Gap^2.
	PaperCondition bool
}

// GCNAtUniformMixing evaluates Theorem 1 at h = 1/C (p.H is ignored).
func (p Params) GCNAtUniformMixing(i, j int) (UniformMixing, error) {
	if err := p.checkPair(i, j); err != nil {
		return UniformMixing{}, err
	}
	c := len(p.Mu)
	s, err := p.WithH(1/float64(c)).GCN(i, j)
	if err != nil {
		return UniformMixing{}, err
	}
	// At h = 1/C the gap is exactly |S|/C; use it rather than the difference
	// of two means, which leaves ~1e-16 of rounding when S = 0.
	line, err := p.GCNGapLine(i, j)
	if err != nil {
		return UniformMixing{}, err
	}
	s.Gap = math.Abs(line.S) / float64(c)
	// The same 0/0 = 0 convention as GCN: identical classes (no gap, no
	// variance) are not discriminable.
	s.Ratio = fisherRatio(s.Gap, (s.VarI+s.VarJ)/2)
	s.RatioI = fisherRatio(s.Gap, s.VarI)
	u := UniformMixing{GCNStats: s, SigmaI: neighbourMeanSpread(p.Mu[i])}
	for k := range c {
		u.MaxNeighbourGap = max(u.MaxNeighbourGap, math.Abs(p.Mu[i][k]-p.Mu[j][k]))
	}
	u.NonDiscriminable = s.RatioI < 1
	u.PaperCondition = u.SigmaI > math.Sqrt(float64(p.Degree))*u.MaxNeighbourGap
	return u, nil
}

// neighbourMeanSpread is sigma_i, the population standard deviation of row.
func neighbourMeanSpread(row []float64) float64 {
	var mean float64
	for _, m := range row {
		mean += m
	}
	mean /= float64(len(row))
	var v float64
	for _, m := range row {
		v += (m - mean) * (m - mean)
	}
	return math.Sqrt(v / float64(len(row)))
}

// Theorem1Premises are the hypotheses of Theorem 1 for a pair of classes.
type Theorem1Premises struct {
	// MeanGapDominates: |mu_ii - mu_jj| > |mu_ik - mu_jk| for all k.
	MeanGapDominates bool
	// SpreadDominates: sigma_i > sigma_ii and sigma_j > sigma_jj (the proof
	// needs both classes' variances to grow as h decreases).
	SpreadDominates bool
}

// Theorem1Premises checks the hypotheses of Theorem 1. Even when both hold
// the gap vanishes at h* (GCNGapLine), not at 1/C, unless S = 0.
func (p Params) Theorem1Premises(i, j int) (Theorem1Premises, error) {
	if err := p.checkPair(i, j); err != nil {
		return Theorem1Premises{}, err
	}
	d := math.Abs(p.Mu[i][i] - p.Mu[j][j])
	var t Theorem1Premises
	t.MeanGapDominates = true
	for k := range p.Mu { // k = i and k = j give |mu_ii - mu_ji| and |mu_ij - mu_jj|
		if !(d > math.Abs(p.Mu[i][k]-p.Mu[j][k])) {
			t.MeanGapDominates = false
		}
	}
	t.SpreadDominates = neighbourMeanSpread(p.Mu[i]) > p.Sigma[i][i] && neighbourMeanSpread(p.Mu[j]) > p.Sigma[j][j]
	return t, nil
}

// String gives a one-line summary.
func (s GCNStats) String() string {
	return fmt.Sprintf("GCN h=%.3g d=%d (%d,%d): gap %.4g, var %.4g/%.4g, ratio %.4g",
		s.H, s.Degree, s.I, s.J, s.Gap, s.VarI, s.VarJ, s.Ratio)
}
