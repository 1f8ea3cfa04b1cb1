package theory

import (
	"fmt"
	"math"
)

// Params are the assumptions of the paper's Section 3.2 for one feature
// dimension. C is len(Mu).
type Params struct {
	// Degree is d, the number of neighbours of every node (> 0).
	Degree int
	// H is the homophily ratio h in [0,1]: the probability that a neighbour
	// shares the centre's class.
	H float64
	// Mu[i][k] is the mean feature of a class-k neighbour of a class-i centre.
	Mu [][]float64
	// Sigma[i][k] is the standard deviation (>= 0) matching Mu[i][k].
	Sigma [][]float64
}

// NumClasses returns C.
func (p Params) NumClasses() int { return len(p.Mu) }

// Validate checks C >= 2, d > 0, 0 <= h <= 1, square C x C Mu and Sigma with
// finite entries and Sigma >= 0.
func (p Params) Validate() error {
	c := len(p.Mu)
	if c < 2 {
		return fmt.Errorf("theory: Params.Mu has %d rows, need C >= 2 classes", c)
	}
	if p.Degree <= 0 {
		return fmt.Errorf("theory: Params.Degree = %d, need d > 0", p.Degree)
	}
	if !(p.H >= 0 && p.H <= 1) {
		return fmt.Errorf("theory: Params.H = %v, need 0 <= h <= 1", p.H)
	}
	if len(p.Sigma) != c {
		return fmt.Errorf("theory: Params.Sigma has %d rows, want C = %d (len(Mu))", len(p.Sigma), c)
	}
	for i := range c {
		if len(p.Mu[i]) != c {
			return fmt.Errorf("theory: Params.Mu row %d has %d entries, want C = %d (square C x C)", i, len(p.Mu[i]), c)
		}
		if len(p.Sigma[i]) != c {
			return fmt.Errorf("theory: Params.Sigma row %d has %d entries, want C = %d (square C x C)", i, len(p.Sigma[i]), c)
		}
		for k := range c {
			if m := p.Mu[i][k]; math.IsNaN(m) || math.IsInf(m, 0) {
				return fmt.Errorf("theory: Params.Mu[%d][%d] = %v is not finite", i, k, m)
			}
			if s := p.Sigma[i][k]; !(s >= 0) || math.IsInf(s, 0) {
				return fmt.Errorf("theory: Params.Sigma[%d][%d] = %v, need a finite standard deviation >= 0", i, k, s)
			}
		}
	}
	return nil
}

// NewParams copies mu and sigma and validates the result.
func NewParams(degree int, h float64, mu, sigma [][]float64) (Params, error) {
	p := Params{Degree: degree, H: h, Mu: cloneMatrix(mu), Sigma: cloneMatrix(sigma)}
	return p, p.Validate()
}

// Symmetric returns the fully symmetric case mu_ii = muSame, mu_ik = muOther
// (k != i), sigma_ik = sigma. Here D = S = 0: every class has the same GCN
// mean for every h, while label-wise aggregation keeps the gap
// |muSame - muOther| for k = i or j.
func Symmetric(numClasses, degree int, h, muSame, muOther, sigma float64) (Params, error) {
	if numClasses < 2 {
		return Params{}, fmt.Errorf("theory: Symmetric: numClasses = %d, need >= 2", numClasses)
	}
	mu := make([][]float64, numClasses)
	for i := range mu {
		mu[i] = make([]float64, numClasses)
		for k := range mu[i] {
			mu[i][k] = muOther
		}
		mu[i][i] = muSame
	}
	return NewParams(degree, h, mu, ConstantMatrix(numClasses, sigma))
}

// ClassMeans returns the contextual-SBM case mu_ik = means[k] for every
// centre class i: a neighbour's feature depends on its own class only. Then
// S = 0 and D = means[i] - means[j], so the GCN gap vanishes exactly at
// h = 1/C, and the label-wise gaps |mu_ik - mu_jk| are all 0. sigma_ik = sigma.
func ClassMeans(degree int, h float64, means []float64, sigma float64) (Params, error) {
	c := len(means)
	if c < 2 {
		return Params{}, fmt.Errorf("theory: ClassMeans: %d class means, need >= 2", c)
	}
	mu := make([][]float64, c)
	for i := range mu {
		mu[i] = append([]float64(nil), means...)
	}
	return NewParams(degree, h, mu, ConstantMatrix(c, sigma))
}

// ByNeighbourClass returns mu_ii = muSame and mu_ik = muOther[k] for k != i:
// heterophilic neighbours look the same whatever the centre's class, so
// S = muOther[j] - muOther[i] and the label-wise gap is 0 for k != i, j.
// sigma_ik = sigma.
func ByNeighbourClass(degree int, h, muSame float64, muOther []float64, sigma float64) (Params, error) {
	c := len(muOther)
	if c < 2 {
		return Params{}, fmt.Errorf("theory: ByNeighbourClass: %d classes in muOther, need >= 2", c)
	}
	mu := make([][]float64, c)
	for i := range mu {
		mu[i] = append([]float64(nil), muOther...)
		mu[i][i] = muSame
	}
	return NewParams(degree, h, mu, ConstantMatrix(c, sigma))
}

// Contextual returns the case of assumption (ii) where heterophilic
// neighbours carry the centre's identity: mu_ii = muSame and, for k != i,
// mu_ik = context * r/(C-1) with r = (k-i) mod C in 1..C-1 (a rotation
// pattern, so class-k neighbours of different centres differ by multiples of
// context/(C-1)). sigma_ik = sigma. Every row has the same sum, so S = 0.
func Contextual(numClasses, degree int, h, muSame, context, sigma float64) (Params, error) {
	if numClasses < 2 {
		return Params{}, fmt.Errorf("theory: Contextual: numClasses = %d, need >= 2", numClasses)
	}
	c := numClasses
	mu := make([][]float64, c)
	for i := range mu {
		mu[i] = make([]float64, c)
		for k := range mu[i] {
			r := ((k-i)%c + c) % c
			mu[i][k] = context * float64(r) / float64(c-1)
		}
		mu[i][i] = muSame
	}
	return NewParams(degree, h, mu, ConstantMatrix(c, sigma))
}

// ConstantMatrix returns a c x c matrix filled with v (e.g. a common sigma).
// For c < 1 it returns nil, which NewParams and every constructor reject with
// an error naming the matrix, so that it can be written inline:
// NewParams(d, h, mu, ConstantMatrix(c, sigma)).
func ConstantMatrix(c int, v float64) [][]float64 {
	if c < 1 {
		return nil
	}
	m := make([][]float64, c)
	for i := range m {
		m[i] = make([]float64, c)
		for k := range m[i] {
			m[i][k] = v
		}
	}
	return m
}

// WithH returns a copy with homophily h (matrices shared).
func (p Params) WithH(h float64) Params { p.H = h; return p }

// WithDegree returns a copy with degree d (matrices shared).
func (p Params) WithDegree(d int) Params { p.Degree = d; return p }

// NeighbourProbs returns p_ik, the class distribution of a neighbour of a
// class-i centre: h on k = i, (1-h)/(C-1) elsewhere. It returns nil when i is
// not a class index.
func (p Params) NeighbourProbs(i int) []float64 {
	c := len(p.Mu)
	if i < 0 || i >= c || c < 2 {
		return nil
	}
	probs := make([]float64, c)
	other := (1 - p.H) / float64(c-1)
	for k := range probs {
		probs[k] = other
	}
	probs[i] = p.H
	return probs
}

// PerDimension applies f to the Params of every independent feature
// dimension and collects the results (the vector form of the theorems).
func PerDimension[T any](dims []Params, f func(Params) (T, error)) ([]T, error) {
	out := make([]T, len(dims))
	for d, p := range dims {
		v, err := f(p)
		if err != nil {
			return nil, fmt.Errorf("theory: dimension %d: %w", d, err)
		}
		out[d] = v
	}
	return out, nil
}

func (p Params) checkPair(i, j int) error {
	if err := p.Validate(); err != nil {
		return err
	}
	c := len(p.Mu)
	if i < 0 || i >= c {
		return fmt.Errorf("theory: class i = %d outside [0,%d)", i, c)
	}
	if j < 0 || j >= c {
		return fmt.Errorf("theory: class j = %d outside [0,%d)", j, c)
	}
	if i == j {
		return fmt.Errorf("theory: classes i and j are both %d, need two different classes", i)
	}
	return nil
}

func cloneMatrix(m [][]float64) [][]float64 {
	if m == nil {
		return nil
	}
	out := make([][]float64, len(m))
	for i := range m {
		out[i] = append([]float64(nil), m[i]...)
	}
	return out
}
