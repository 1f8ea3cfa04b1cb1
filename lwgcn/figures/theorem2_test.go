package figures

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/theory"
)

func counterexample(t *testing.T) Setting {
	t.Helper()
	s, err := NewSetting("counterexample", [][]float64{{2, 0}, {0, 2}}, theory.ConstantMatrix(2, 1))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSweepLabelWiseCounterexample(t *testing.T) {
	s, err := SweepLabelWise(counterexample(t), 0, 1, SweepOptions{Degrees: []int{2, 20}, Lines: []float64{0, 0.1, 0.5, 1}})
	if err != nil {
		t.Fatal(err)
	}
	// d = 2, h = 0.1 by hand. Block k = 1: class-0 centres have class-1
	// neighbours w.p. 0.9 (mean mu_01 = 0), class-1 centres w.p. 0.1 (mean 2,
	// none w.p. 0.81): E[a_1|0] = 0, E[a_1|1] = 0.19*2 = 0.38, and
	// Var(a_1|0) = P(n=1) + P(n=2)/2 = 0.18 + 0.405 = 0.585 (mu_01 = 0, so no
	// zero-embedding term). Block k = 0: gap 0.38 again, Var(a_0|0) =
	// 0.18 + 0.01/2 + 4*0.81*0.19 = 0.8006. Best: k = 1, 0.38^2/0.585.
	var got theory.LabelWiseSummary
	for hi, h := range s.H {
		if h == 0.1 {
			got = s.Lines[0][hi]
		}
	}
	if got.BestExact != 1 || !near(got.BestExactRatio, 0.38*0.38/0.585, 1e-12) ||
		!near(got.PerClass[0].RatioI, 0.38*0.38/0.8006, 1e-12) {
		t.Errorf("d=2 h=0.1: best exact k=%d ratio %v (k=0: %v), want k=1 %v (k=0: %v)",
			got.BestExact, got.BestExactRatio, got.PerClass[0].RatioI, 0.38*0.38/0.585, 0.38*0.38/0.8006)
	}
	// The paper's ratio of k = 1: d p |mu_01 - mu_11|^2 / sigma^2 = 2*0.9*4 = 7.2,
	// the bound below 1/C = 0.5 is d*4/(C*1) = 4, and the condition holds.
	if !near(got.BestApproxRatio, 7.2, 1e-12) || got.Bound != 4 || !got.Condition {
		t.Errorf("d=2 h=0.1: paper %v bound %v condition %v, want 7.2, 4, true", got.BestApproxRatio, got.Bound, got.Condition)
	}
	// At h = 0 every block has mean 0 for both classes: ratio 0 at every d.
	for di := range s.Degrees {
		if r := s.Lines[di][0].BestExactRatio; r != 0 {
			t.Errorf("d=%d h=0: best exact ratio %v, want 0", s.Degrees[di], r)
		}
	}
	tab, err := s.ConditionTable("counterexample")
	if err != nil {
		t.Fatal(err)
	}
	md := tab.Markdown()
	// Row d = 2: sqrt(2/2) = 1, b_k = 2*4/2 = 4; condition yes; the exact
	// ratio is below 1 at h = 0 and h = 0.1 but not at 0.5 or 1.
	if !strings.Contains(md, "| 2 | 1.000 | 4.000 | 4.000 | yes | 4.000 | 0.000 | 0.000 | 0–0.1 |") {
		t.Errorf("ConditionTable:\n%s", md)
	}
	if _, err := s.PerClassFigure("", 7); err == nil || !strings.Contains(err.Error(), "degree 7 is not in") {
		t.Errorf("PerClassFigure(7): err = %v", err)
	}
}

func TestSweepLabelWiseMonteCarlo(t *testing.T) {
	mu := ContextMeans(3, 2, 2)
	st, err := NewSetting("context 2", mu, theory.ConstantMatrix(3, 1))
	if err != nil {
		t.Fatal(err)
	}
	rec := &recordedProgress{}
	mcH := []float64{0.2, 0.6}
	s, err := SweepLabelWise(st, 0, 1, SweepOptions{Degrees: []int{4}, MC: mcH, Samples: 4000, Seed: 3, Progress: rec})
	if err != nil {
		t.Fatal(err)
	}
	if rec.calls != 2 || rec.total != 2 {
		t.Errorf("progress: %d calls of total %d, want 2 of 2", rec.calls, rec.total)
	}
	for hi, h := range mcH {
		exact, err := st.Params.WithDegree(4).WithH(h).LabelWise(0, 1)
		if err != nil {
			t.Fatal(err)
		}
		if s.MCBest[0][hi] != exact.BestPooled {
			t.Errorf("h=%v: MCBest %d, want %d", h, s.MCBest[0][hi], exact.BestPooled)
		}
		for k, e := range s.MC[0][hi].LabelWise {
			ex := exact.PerClass[k]
			if !e.Gap.Within(ex.Gap, 5) || !e.VarI.Within(ex.MomentsI.Var, 5) {
				t.Errorf("h=%v k=%d: Monte Carlo gap %v var %v, exact %v %v", h, k, e.Gap, e.VarI, ex.Gap, ex.MomentsI.Var)
			}
		}
	}
	pc, err := s.PerClassFigure("per class", 4)
	if err != nil {
		t.Fatal(err)
	}
	checkSVG(t, "PerClassFigure", pc.SVG(), "k = 0 (= i), exact", "k = 1 (= j), paper", "k = 2, exact", "Monte Carlo (± 2 SE)",
		"variance for class-i centres")
	checkSVG(t, "CompareFigure", s.CompareFigure("compare").SVG(), "GCN mean z", "label-wise, best block a_k*", "GCN h* = 0.333", "d = 4")
	checkSVG(t, "BoundFigure", s.BoundFigure("bound").SVG(), "d = 4: condition holds", "bound d |μ_ik − μ_jk|² / (C σ_ik²)", "ratio 1")
}

// inverseCount is E[1/n; n >= 1] for n ~ Binomial(d, p), summed directly.
func inverseCount(d int, p float64) float64 {
	var s, binom float64 = 0, 1
	for n := 1; n <= d; n++ {
		binom = binom * float64(d-n+1) / float64(n)
		s += binom * math.Pow(p, float64(n)) * math.Pow(1-p, float64(d-n)) / float64(n)
	}
	return s
}

func TestApproxValidFrom(t *testing.T) {
	// d = 2, p = 0.5, mu = 0: E[1/n; n>=1] = 0.5 + 0.25/2 = 0.625 against the
	// paper's 1/(d p) = 1: relative error 0.6.
	_, rel, err := approxErrors(0, 1, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !near(rel[len(rel)-1], 0.6, 1e-12) {
		t.Errorf("d=2 dp=1 relative error %v, want 0.6", rel[len(rel)-1])
	}
	const tol = 0.1
	for _, d := range []int{5, 20} {
		for _, mu := range []float64{0, 2} {
			from, err := ApproxValidFrom(mu, 1, d, tol)
			if err != nil {
				t.Fatal(err)
			}
			// Independent check from the binomial sum: within tol from 'from'
			// on, outside just below it.
			rel := func(dp float64) float64 {
				p := dp / float64(d)
				q := math.Pow(1-p, float64(d))
				exact := inverseCount(d, p) + mu*mu*q*(1-q)
				return (1/dp - exact) / exact
			}
			for dp := from; dp <= float64(d)+1e-9; dp += ApproxStep {
				if math.Abs(rel(dp)) > tol+1e-9 {
					t.Errorf("d=%d mu=%v: from %v but |error| at dp=%v is %v", d, mu, from, dp, rel(dp))
					break
				}
			}
			if below := from - ApproxStep; below > 0 && math.Abs(rel(below)) <= tol {
				t.Errorf("d=%d mu=%v: from %v, but dp=%v is within tol too (%v)", d, mu, from, below, rel(below))
			}
			if from < 1 || from > float64(d) {
				t.Errorf("d=%d mu=%v: from = %v outside [1, d]", d, mu, from)
			}
		}
	}
	fig, err := ApproxErrorFigure("approx", []float64{0, 2}, 1, []int{5, 10}, 30, tol)
	if err != nil {
		t.Fatal(err)
	}
	checkSVG(t, "ApproxErrorFigure", fig.SVG(), "μ_ik = 0 σ_ik", "μ_ik = 2 σ_ik", "d = 5", "d = 10", "+10%")
	if _, err := ApproxErrorFigure("", []float64{0}, 0, []int{5}, 30, tol); err == nil || !strings.Contains(err.Error(), "sigma = 0") {
		t.Errorf("sigma 0: err = %v", err)
	}
	if _, err := ApproxErrorFigure("", []float64{0}, 1, []int{0}, 30, tol); err == nil || !strings.Contains(err.Error(), "degree 0") {
		t.Errorf("degree 0: err = %v", err)
	}
	tab, err := ApproxValidityTable("valid", []float64{0}, 1, []int{5}, tol)
	if err != nil {
		t.Fatal(err)
	}
	from, _ := ApproxValidFrom(0, 1, 5, tol)
	if md := tab.Markdown(); !strings.Contains(md, fmt.Sprintf("| 5 | %.2f |", from)) {
		t.Errorf("ApproxValidityTable lacks %v:\n%s", from, md)
	}
}

func TestIntervals(t *testing.T) {
	xs := []float64{0, 0.1, 0.2, 0.3, 0.4, 1}
	for _, c := range []struct {
		in   []bool
		want string
	}{
		{[]bool{false, false, false, false, false, false}, "none"},
		{[]bool{true, true, false, true, false, true}, "0–0.1, 0.3, 1"},
		{[]bool{false, true, true, true, true, true}, "0.1–1"},
	} {
		if got := intervals(xs, c.in); got != c.want {
			t.Errorf("intervals(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}
