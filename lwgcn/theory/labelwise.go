package theory

import (
	"fmt"
	"math"
)

// ExpectedInverseCount returns E[1/n; n >= 1] = sum_{n=1}^{d} P(n)/n for
// n ~ Binomial(d, p), summing the pmf exactly (in log space, so large d is
// safe). It is 0 for p = 0 and 1/d for p = 1.
func ExpectedInverseCount(d int, p float64) float64 {
	switch {
	case d <= 0 || p <= 0:
		return 0
	case p >= 1:
		return 1 / float64(d)
	}
	lgD, _ := math.Lgamma(float64(d + 1))
	lp, lq := math.Log(p), math.Log1p(-p)
	var sum float64
	for n := 1; n <= d; n++ {
		lgN, _ := math.Lgamma(float64(n + 1))
		lgR, _ := math.Lgamma(float64(d - n + 1))
		sum += math.Exp(lgD-lgN-lgR+float64(n)*lp+float64(d-n)*lq) / float64(n)
	}
	return sum
}

// LabelWiseMoments are the moments of a_{v,k}, the mean of v's class-k
// neighbours, when their count is n ~ Binomial(d, p) and each has feature
// N(mu, sigma^2).
type LabelWiseMoments struct {
	Prob   float64 // p = p_k
	Degree int     // d
	// ExpectedCount is d p.
	ExpectedCount float64
	// ProbEmpty is q = (1-p)^d, the chance of no class-k neighbour.
	ProbEmpty float64
	// InverseCount is E[1/n; n >= 1].
	InverseCount float64
	// Mean = (1-q) mu and Var = sigma^2 E[1/n; n>=1] + mu^2 q (1-q): the exact
	// moments with the paper's zero embedding when n = 0.
	Mean, Var float64
	// CondMean = mu and CondVar = sigma^2 E[1/n | n >= 1]: the moments given
	// at least one class-k neighbour (NaN when p = 0).
	CondMean, CondVar float64
	// ApproxVar = sigma^2/(d p), the paper's approximation (+Inf when p = 0).
	ApproxVar float64
	// ApproxRelError = (ApproxVar - Var)/Var (NaN when Var = 0).
	ApproxRelError float64
}

// LabelWiseClassMoments returns the exact and approximate moments of one
// label-wise aggregate.
func LabelWiseClassMoments(mu, sigma, p float64, d int) (LabelWiseMoments, error) {
	if d <= 0 {
		return LabelWiseMoments{}, fmt.Errorf("theory: LabelWiseClassMoments: d = %d, need > 0", d)
	}
	if !(p >= 0 && p <= 1) {
		return LabelWiseMoments{}, fmt.Errorf("theory: LabelWiseClassMoments: p = %v, need 0 <= p <= 1", p)
	}
	if !(sigma >= 0) || math.IsInf(sigma, 0) {
		return LabelWiseMoments{}, fmt.Errorf("theory: LabelWiseClassMoments: sigma = %v, need a finite sigma >= 0", sigma)
	}
	if math.IsNaN(mu) || math.IsInf(mu, 0) {
		return LabelWiseMoments{}, fmt.Errorf("theory: LabelWiseClassMoments: mu = %v is not finite", mu)
	}
	m := LabelWiseMoments{Prob: p, Degree: d, ExpectedCount: float64(d) * p}
	m.ProbEmpty = math.Pow(1-p, float64(d))
	m.InverseCount = ExpectedInverseCount(d, p)
	s2 := sigma * sigma
	m.Mean = (1 - m.ProbEmpty) * mu
	m.Var = s2*m.InverseCount + mu*mu*m.ProbEmpty*(1-m.ProbEmpty)
	m.CondMean, m.CondVar = math.NaN(), math.NaN()
	if m.ProbEmpty < 1 {
		m.CondMean = mu
		m.CondVar = s2 * m.InverseCount / (1 - m.ProbEmpty)
	}
	m.ApproxVar = math.Inf(1)
	if p > 0 {
		m.ApproxVar = s2 / (float64(d) * p)
	}
	m.ApproxRelError = math.NaN()
	if m.Var > 0 {
		m.ApproxRelError = (m.ApproxVar - m.Var) / m.Var
	}
	return m, nil
}

// LabelWiseStats are Theorem 2's quantities for neighbour class K and the
// pair of centre classes I, J.
type LabelWiseStats struct {
	H       float64
	Degree  int
	I, J, K int
	// MomentsI, MomentsJ are the moments of a_{v,K} for class-I and class-J
	// centres (neighbour probabilities p_IK and p_JK).
	MomentsI, MomentsJ LabelWiseMoments
	// PaperGap is |mu_IK - mu_JK|, the gap of the theorem (means given at
	// least one class-K neighbour).
	PaperGap float64
	// Gap is |E[a|I] - E[a|J]| under the zero-embedding convention.
	Gap float64
	// ApproxRatioI is PaperGap^2 / (sigma_IK^2/(d p_IK)), the paper's ratio.
	ApproxRatioI float64
	// RatioI is Gap^2/Var(a|I) and Ratio is Gap^2/((Var(a|I)+Var(a|J))/2),
	// both exact.
	RatioI, Ratio float64
}

// LabelWiseSummary collects Theorem 2 over all neighbour classes k.
type LabelWiseSummary struct {
	H      float64
	Degree int
	I, J   int
	// PerClass[k] are the statistics of a_{v,k}.
	PerClass []LabelWiseStats
	// BestApprox is the paper's k* = argmax_k ApproxRatioI and
	// BestApproxRatio its ratio.
	BestApprox      int
	BestApproxRatio float64
	// BestExact = argmax_k RatioI (exact variance) and its ratio. It is +Inf
	// at h = 0 and h = 1 for almost every pair: some block a_k is then
	// identically 0 for class-i centres (no class-k neighbour can occur, k = i
	// at h = 0, k != i at h = 1) but not for class-j ones, so the one-class
	// variance of the paper's ratio is 0 under a non-zero gap. That is the
	// exact value, not an overflow; BestPooledRatio stays finite there. Plots
	// skip non-finite points (plot.Series), so the exact curve has no point at
	// those h, and tables print ∞.
	BestExact      int
	BestExactRatio float64
	// BestPooled = argmax_k Ratio (exact, pooled variance) and its ratio.
	BestPooled      int
	BestPooledRatio float64
	// Bound is LabelWiseBound at this h; BestApproxRatio >= Bound always.
	Bound float64
	// Condition is the theorem's |mu_ik - mu_jk| > sqrt(C/d) sigma_ik, all k.
	Condition bool
}

// LabelWise returns Theorem 2's statistics for centre classes i and j.
func (p Params) LabelWise(i, j int) (LabelWiseSummary, error) {
	if err := p.checkPair(i, j); err != nil {
		return LabelWiseSummary{}, err
	}
	c := len(p.Mu)
	pi, pj := p.NeighbourProbs(i), p.NeighbourProbs(j)
	s := LabelWiseSummary{H: p.H, Degree: p.Degree, I: i, J: j, PerClass: make([]LabelWiseStats, c),
		BestApproxRatio: -1, BestExactRatio: -1, BestPooledRatio: -1}
	for k := range c {
		mi, err := LabelWiseClassMoments(p.Mu[i][k], p.Sigma[i][k], pi[k], p.Degree)
		if err != nil {
			return LabelWiseSummary{}, err
		}
		mj, err := LabelWiseClassMoments(p.Mu[j][k], p.Sigma[j][k], pj[k], p.Degree)
		if err != nil {
			return LabelWiseSummary{}, err
		}
		st := LabelWiseStats{H: p.H, Degree: p.Degree, I: i, J: j, K: k, MomentsI: mi, MomentsJ: mj,
			PaperGap: math.Abs(p.Mu[i][k] - p.Mu[j][k]), Gap: math.Abs(mi.Mean - mj.Mean)}
		st.ApproxRatioI = fisherRatio(st.PaperGap, mi.ApproxVar)
		st.RatioI = fisherRatio(st.Gap, mi.Var)
		st.Ratio = fisherRatio(st.Gap, (mi.Var+mj.Var)/2)
		s.PerClass[k] = st
		if st.ApproxRatioI > s.BestApproxRatio {
			s.BestApprox, s.BestApproxRatio = k, st.ApproxRatioI
		}
		if st.RatioI > s.BestExactRatio {
			s.BestExact, s.BestExactRatio = k, st.RatioI
		}
		if st.Ratio > s.BestPooledRatio {
			s.BestPooled, s.BestPooledRatio = k, st.Ratio
		}
	}
	s.Bound = p.labelWiseBound(i, j)
	s.Condition = p.labelWiseCondition(i, j)
	return s, nil
}

// LabelWiseBounds returns b_k = d |mu_ik - mu_jk|^2 / (C sigma_ik^2) for every
// k (+Inf when sigma_ik = 0 and the gap is not, 0 when both are 0).
func (p Params) LabelWiseBounds(i, j int) ([]float64, error) {
	if err := p.checkPair(i, j); err != nil {
		return nil, err
	}
	return p.labelWiseBounds(i, j), nil
}

func (p Params) labelWiseBounds(i, j int) []float64 {
	c := len(p.Mu)
	b := make([]float64, c)
	for k := range c {
		r := fisherRatio(math.Abs(p.Mu[i][k]-p.Mu[j][k]), p.Sigma[i][k]*p.Sigma[i][k])
		b[k] = float64(p.Degree) / float64(c) * r
	}
	return b
}

// LabelWiseBound returns the proof's lower bound on the paper's k* ratio at
// p.H: b_i for h >= 1/C (the proof's Eq. with k = i, |mu_ii - mu_ji|) and
// max_{k != i} b_k for h < 1/C (its Eq. with any k != i), where b_k is
// LabelWiseBounds[k]. min(b_i, max_{k!=i} b_k) bounds every h; under the
// theorem's condition every b_k > 1.
func (p Params) LabelWiseBound(i, j int) (float64, error) {
	if err := p.checkPair(i, j); err != nil {
		return 0, err
	}
	return p.labelWiseBound(i, j), nil
}

func (p Params) labelWiseBound(i, j int) float64 {
	b := p.labelWiseBounds(i, j)
	if p.H >= 1/float64(len(p.Mu)) {
		return b[i]
	}
	best := 0.0
	for k, v := range b {
		if k != i {
			best = max(best, v)
		}
	}
	return best
}

// LabelWiseCondition reports Theorem 2's condition
// |mu_ik - mu_jk| > sqrt(C/d) sigma_ik for all k.
func (p Params) LabelWiseCondition(i, j int) (bool, error) {
	if err := p.checkPair(i, j); err != nil {
		return false, err
	}
	return p.labelWiseCondition(i, j), nil
}

func (p Params) labelWiseCondition(i, j int) bool {
	scale := math.Sqrt(float64(len(p.Mu)) / float64(p.Degree))
	for k := range p.Mu {
		if !(math.Abs(p.Mu[i][k]-p.Mu[j][k]) > scale*p.Sigma[i][k]) {
			return false
		}
	}
	return true
}
