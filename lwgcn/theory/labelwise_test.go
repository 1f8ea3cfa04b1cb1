package theory

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestExpectedInverseCount(t *testing.T) {
	cases := []struct {
		d    int
		p    float64
		want float64
	}{
		{1, 0.3, 0.3},
		{2, 0.5, 2*0.25 + 0.25/2},               // P(1) = 1/2, P(2) = 1/4
		{3, 1.0 / 3, 36.0/81 + 9.0/81 + 1.0/81}, // P(1)=4/9, P(2)=2/9 (/2), P(3)=1/27 (/3)
		{5, 0, 0},
		{4, 1, 0.25},
	}
	for _, c := range cases {
		if got := ExpectedInverseCount(c.d, c.p); !near(got, c.want, 1e-14) {
			t.Errorf("E[1/n; n>=1] d=%d p=%v: %v, want %v", c.d, c.p, got, c.want)
		}
	}
	// Large d stays finite and close to 1/(dp) (leading correction (1-p)/(dp)^2).
	got := ExpectedInverseCount(5000, 0.2)
	lam := 1000.0
	if want := 1/lam + 0.8/(lam*lam); !near(got, want, 3/(lam*lam*lam)) {
		t.Errorf("d=5000 p=0.2: %v, want about %v", got, want)
	}
}

func TestApproximateVersusExactVariance(t *testing.T) {
	for _, d := range []int{20, 25, 40, 100, 400, 2000} {
		for _, p := range []float64{0.01, 0.05, 0.1, 0.2, 0.5, 0.8, 1} {
			dp := float64(d) * p
			if dp < 20 {
				continue
			}
			for _, mu := range []float64{0, 1.5} {
				m, err := LabelWiseClassMoments(mu, 1, p, d)
				if err != nil {
					t.Fatal(err)
				}
				if math.Abs(m.ApproxRelError) > 0.06 || math.Abs(m.ApproxRelError) > 1.2/dp {
					t.Errorf("d=%d p=%v mu=%v: relative error %v at d*p = %v", d, p, mu, m.ApproxRelError, dp)
				}
			}
		}
	}
	// d*p about 1: the expected count is a poor stand-in for the random count.
	for _, c := range []struct {
		d int
		p float64
	}{{2, 0.5}, {3, 1.0 / 3}, {10, 0.1}, {100, 0.01}} {
		for _, mu := range []float64{0, 1} {
			m, _ := LabelWiseClassMoments(mu, 1, c.p, c.d)
			if math.Abs(m.ApproxRelError) < 0.2 {
				t.Errorf("d=%d p=%v mu=%v: relative error only %v at d*p = 1", c.d, c.p, mu, m.ApproxRelError)
			}
		}
	}
	// d=2, p=1/2, mu=0: exact Var = E[1/n; n>=1] = 5/8, approx 1: error 0.6.
	m, _ := LabelWiseClassMoments(0, 1, 0.5, 2)
	if !near(m.ApproxRelError, 0.6, 1e-14) {
		t.Errorf("d=2 p=1/2: relative error %v, want 0.6", m.ApproxRelError)
	}
	if _, err := LabelWiseClassMoments(0, 1, 1.5, 2); err == nil {
		t.Error("p = 1.5 accepted")
	}
}

// The proof's chain: with the approximate variance the best class's ratio is
// at least the bound, for every h.
func TestApproxRatioAboveBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 200; trial++ {
		p := randomParams(rng, 2+rng.IntN(4), 1+rng.IntN(30))
		for _, h := range DefaultHomophilyGrid() {
			s, err := p.WithH(h).LabelWise(0, 1)
			if err != nil {
				t.Fatal(err)
			}
			if s.BestApproxRatio < s.Bound*(1-1e-12) {
				t.Fatalf("trial %d h=%v: approx ratio %v below bound %v", trial, h, s.BestApproxRatio, s.Bound)
			}
		}
	}
}

func TestLabelWiseConditionKeepsDiscriminability(t *testing.T) {
	// C = 2, d = 40, mu = [[2, 2.5], [0, 0]], sigma = 1: b_0 = 40*4/2 = 80,
	// b_1 = 40*6.25/2 = 125, so the condition holds with margin. Class-1
	// centres see mean-0 neighbours, so the zero embedding does not shrink
	// the gap when they lack a class.
	p, err := NewParams(40, 0, [][]float64{{2, 2.5}, {0, 0}}, ConstantMatrix(2, 1))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := p.LabelWiseBounds(0, 1)
	if b[0] != 80 || b[1] != 125 {
		t.Fatalf("bounds %v, want [80 125]", b)
	}
	if ok, _ := p.LabelWiseCondition(0, 1); !ok {
		t.Fatal("condition should hold")
	}
	for _, h := range DefaultHomophilyGrid() {
		s, err := p.WithH(h).LabelWise(0, 1)
		if err != nil {
			t.Fatal(err)
		}
		if !s.Condition || s.Bound <= 1 {
			t.Fatalf("h=%v: condition %v bound %v", h, s.Condition, s.Bound)
		}
		if s.BestExactRatio < s.Bound || s.BestApproxRatio < s.Bound {
			t.Errorf("h=%v: exact %v / approx %v below bound %v", h, s.BestExactRatio, s.BestApproxRatio, s.Bound)
		}
		if s.BestPooledRatio <= 1 {
			t.Errorf("h=%v: pooled exact ratio %v <= 1", h, s.BestPooledRatio)
		}
	}
}

func TestLabelWiseConditionFails(t *testing.T) {
	// Gaps of 0.3 sigma with d = 5, C = 3: sqrt(C/d) = 0.77 > 0.3.
	p, err := NewParams(5, 0.5, [][]float64{{1, 0, 0.3}, {0.7, 0.3, 0}, {0, 0, 1}}, ConstantMatrix(3, 1))
	if err != nil {
		t.Fatal(err)
	}
	if ok, _ := p.LabelWiseCondition(0, 1); ok {
		t.Fatal("condition should fail")
	}
	below := 0
	for _, h := range DefaultHomophilyGrid() {
		s, _ := p.WithH(h).LabelWise(0, 1)
		if s.BestExactRatio < 1 && s.BestApproxRatio < 1 {
			below++
		}
	}
	if below == 0 {
		t.Error("with the condition failing the ratio should drop below 1 somewhere")
	}
}

// With few neighbours the exact (zero-embedding) ratio can fall below 1 even
// though the theorem's condition holds: the theorem's gap |mu_ik - mu_jk|
// assumes both centres have class-k neighbours.
// C = 2, d = 2, mu = [[2,0],[0,2]], sigma = 1, h = 0.1 (i=0, j=1):
// k=0: class 0 has p=0.1, q=0.81, E[1/n;n>=1] = 0.18+0.005 = 0.185,
// mean 0.19*2 = 0.38, Var = 0.185 + 4*0.81*0.19 = 0.8006; class 1 mean 0;
// ratio 0.38^2/0.8006. k=1: class 0 has p=0.9, mu=0: Var = 0.18+0.405 =
// 0.585; class 1 mean 0.38; ratio 0.38^2/0.585.
func TestLabelWiseExactBelowBoundAtSmallDegree(t *testing.T) {
	p, err := NewParams(2, 0.1, [][]float64{{2, 0}, {0, 2}}, ConstantMatrix(2, 1))
	if err != nil {
		t.Fatal(err)
	}
	s, err := p.LabelWise(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Condition || s.Bound != 4 {
		t.Fatalf("condition %v bound %v, want true and 4", s.Condition, s.Bound)
	}
	r0, r1 := 0.38*0.38/0.8006, 0.38*0.38/0.585
	if !near(s.PerClass[0].RatioI, r0, 1e-12) || !near(s.PerClass[1].RatioI, r1, 1e-12) {
		t.Errorf("exact ratios %v, %v; want %v, %v", s.PerClass[0].RatioI, s.PerClass[1].RatioI, r0, r1)
	}
	if s.BestExact != 1 || !near(s.BestExactRatio, r1, 1e-12) || s.BestExactRatio >= 1 {
		t.Errorf("best exact k=%d ratio %v", s.BestExact, s.BestExactRatio)
	}
	// The paper's approximate ratio for k=1: d(1-h)|0-2|^2/sigma^2 = 7.2.
	if !near(s.BestApproxRatio, 7.2, 1e-12) {
		t.Errorf("approx ratio %v, want 7.2", s.BestApproxRatio)
	}
}
