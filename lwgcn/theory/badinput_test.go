package theory

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// Large means, small spread: E[x^2] - m^2 cancels to 0 at 1e8 (the ratio then
// came out +Inf). Hand computation at h = 0.5, d = 1, sigma = 0: class 0's
// neighbour is 1e8 or 1e8+1 with probability 1/2 (mean 1e8+0.5, variance
// 0.25), class 1's is 1e8+1 or 1e8+3 (mean 1e8+2, variance 1); the gap is 1.5,
// so Ratio = 2.25/((0.25+1)/2) = 3.6 and RatioI = 2.25/0.25 = 9.
func TestGCNVarianceWithLargeMeans(t *testing.T) {
	p, err := NewParams(1, 0.5, [][]float64{{1e8, 1e8 + 1}, {1e8 + 1, 1e8 + 3}}, ConstantMatrix(2, 0))
	if err != nil {
		t.Fatal(err)
	}
	s, err := p.GCN(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if s.VarI != 0.25 || s.VarJ != 1 || s.Gap != 1.5 {
		t.Errorf("variances %v, %v and gap %v; want 0.25, 1 and 1.5", s.VarI, s.VarJ, s.Gap)
	}
	if math.Abs(s.Ratio-3.6) > 1e-12 || math.Abs(s.RatioI-9) > 1e-12 {
		t.Errorf("ratio %v, ratio_i %v; want 3.6 and 9", s.Ratio, s.RatioI)
	}
}

func TestMeanAggregateMomentsRejectsBadInput(t *testing.T) {
	one := []float64{1, 2}
	for _, c := range []struct {
		mu, sigma, probs []float64
		d                int
		want             string
	}{
		{one, []float64{1, 1}, []float64{1, 1}, 1, "probabilities sum to 2, need 1"},
		{one, []float64{1, 1}, []float64{0.3, 0.3}, 1, "probabilities sum to 0.6, need 1"},
		{one, []float64{1, 1}, []float64{1.5, -0.5}, 1, "probs[0] = 1.5, need 0 <= p <= 1"},
		{one, []float64{-1, 1}, []float64{0.5, 0.5}, 1, "sigma[0] = -1, need a finite standard deviation >= 0"},
		{[]float64{math.NaN(), 1}, []float64{1, 1}, []float64{0.5, 0.5}, 1, "mu[0] = NaN is not finite"},
		{one, []float64{1, 1}, []float64{0.5, 0.5}, 0, "d = 0, need > 0"},
		{one, []float64{1}, []float64{0.5, 0.5}, 1, "2 means, 1 standard deviations and 2 probabilities"},
	} {
		_, _, err := MeanAggregateMoments(c.mu, c.sigma, c.probs, c.d)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v %v %v d=%d: error %v, want %q", c.mu, c.sigma, c.probs, c.d, err, c.want)
		}
	}
	// A valid mixture against its hand value: 1 or 3 with probability 1/2 and
	// sigma 1: variance (1 + 1)/2 + 1 = 2, over d = 4.
	m, v, err := MeanAggregateMoments([]float64{1, 3}, []float64{1, 1}, []float64{0.5, 0.5}, 4)
	if err != nil || m != 2 || v != 0.5 {
		t.Errorf("mean %v variance %v (%v), want 2 and 0.5", m, v, err)
	}
}

func TestLabelWiseClassMomentsRejectsBadInput(t *testing.T) {
	for _, c := range []struct {
		mu, sigma, p float64
		d            int
		want         string
	}{
		{1, math.Inf(1), 0.5, 3, "sigma = +Inf, need a finite sigma >= 0"},
		{1, -1, 0.5, 3, "sigma = -1, need a finite sigma >= 0"},
		{math.NaN(), 1, 0.5, 3, "mu = NaN is not finite"},
		{1, 1, 1.5, 3, "p = 1.5, need 0 <= p <= 1"},
		{1, 1, 0.5, 0, "d = 0, need > 0"},
	} {
		if _, err := LabelWiseClassMoments(c.mu, c.sigma, c.p, c.d); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want %q", c, err, c.want)
		}
	}
}

// sigma = 0 and equal means: no gap and no variance. GCN and
// GCNAtUniformMixing agree on ratio 0 (GCNAtUniformMixing returned NaN and
// then called the identical classes discriminable).
func TestUniformMixingOfIdenticalClasses(t *testing.T) {
	p, err := NewParams(3, 0.5, ConstantMatrix(3, 2), ConstantMatrix(3, 0))
	if err != nil {
		t.Fatal(err)
	}
	g, err := p.WithH(1.0/3).GCN(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	u, err := p.GCNAtUniformMixing(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if g.Ratio != 0 || u.Ratio != 0 || u.RatioI != 0 || g.RatioI != 0 {
		t.Errorf("ratios: GCN %v/%v, uniform mixing %v/%v; want 0", g.Ratio, g.RatioI, u.Ratio, u.RatioI)
	}
	if !u.NonDiscriminable {
		t.Error("identical classes reported discriminable")
	}
}

func TestConstantMatrixOfNoClasses(t *testing.T) {
	for _, c := range []int{-1, 0} {
		if m := ConstantMatrix(c, 1); m != nil {
			t.Errorf("ConstantMatrix(%d) = %v, want nil", c, m)
		}
		_, err := NewParams(2, 0.5, ConstantMatrix(2, 1), ConstantMatrix(c, 1))
		if err == nil || !strings.Contains(err.Error(), "Params.Sigma has 0 rows, want C = 2") {
			t.Errorf("ConstantMatrix(%d) as sigma: error %v", c, err)
		}
	}
	if _, err := Symmetric(-1, 2, 0.5, 1, 0, 1); err == nil {
		t.Error("Symmetric with -1 classes accepted")
	}
}

func TestMonteCarloNeedsTwoSamples(t *testing.T) {
	p, err := Symmetric(2, 3, 0.5, 1, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	if _, err := p.MonteCarlo(0, 1, 1, rng); err == nil || !strings.Contains(err.Error(), "1 samples per class, need >= 2") {
		t.Errorf("one sample: error %v", err)
	}
	mc, err := p.MonteCarlo(0, 1, 2, rng)
	if err != nil || math.IsNaN(mc.GCN.VarI.Value) {
		t.Errorf("two samples: %v, variance %v", err, mc.GCN.VarI.Value)
	}
}

func TestEstimateFromDrawsRejectsMismatchedDraws(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	p2, _ := Symmetric(2, 3, 0.5, 1, 0, 1)
	p3, _ := Symmetric(3, 3, 0.5, 1, 0, 1)
	a, _ := p2.Sample(0, 10, rng)
	b, _ := p3.Sample(1, 10, rng)
	c, _ := p2.Sample(1, 5, rng)
	one, _ := p2.Sample(1, 1, rng)
	for _, tc := range []struct {
		di, dj Draw
		want   string
	}{
		{a, b, "draws of 2 and 3 classes"},
		{a, c, "draws of 10 and 5 centres"},
		{one, one, "1 centres per class, need >= 2"},
	} {
		if _, err := EstimateFromDraws(tc.di, tc.dj); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want %q", err, tc.want)
		}
	}
}

// At h = 0 the label-wise block k = i is identically 0 for class-i centres
// but not for class-j ones: the paper's one-class exact ratio is +Inf there
// (documented on LabelWiseSummary.BestExact), the pooled one finite.
func TestBestExactRatioAtTheEnds(t *testing.T) {
	p, err := NewParams(4, 0, [][]float64{{2, 0.5}, {0.3, 1}}, ConstantMatrix(2, 1))
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []float64{0, 1} {
		s, err := p.WithH(h).LabelWise(0, 1)
		if err != nil {
			t.Fatal(err)
		}
		if !math.IsInf(s.BestExactRatio, 1) {
			t.Errorf("h = %v: BestExactRatio %v, want +Inf", h, s.BestExactRatio)
		}
		if math.IsInf(s.BestPooledRatio, 0) || math.IsNaN(s.BestPooledRatio) {
			t.Errorf("h = %v: BestPooledRatio %v, want finite", h, s.BestPooledRatio)
		}
	}
}

// FisherRatios' class variances are centred too: a column at 1e8 with a
// spread of 1 keeps its variance.
func TestFisherRatiosWithLargeMeans(t *testing.T) {
	x := NewMatrix(4, 1)
	for v, val := range []float64{1e8, 1e8 + 2, 1e8 + 4, 1e8 + 6} {
		x.Row(v)[0] = val
	}
	// Classes {1e8, 1e8+2} and {1e8+4, 1e8+6}: variances 2 and 2 (n-1), gap 4,
	// ratio 16/2 = 8.
	f, err := FisherRatios(x, []int32{0, 0, 1, 1}, 2, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if f.Pair[0][1] != 8 {
		t.Errorf("Fisher ratio %v, want 8", f.Pair[0][1])
	}
}
