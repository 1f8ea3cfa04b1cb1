package theory

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// tiny is C = 2, d = 1, h = 1/4 with hand-computed moments (see TestTinyCase).
func tiny(t *testing.T) Params {
	t.Helper()
	p, err := NewParams(1, 0.25, [][]float64{{1, 3}, {0, 2}}, [][]float64{{0.5, 1}, {2, 0.1}})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestValidateErrors(t *testing.T) {
	ok := func() Params {
		p, err := Symmetric(3, 5, 0.4, 1, 0, 1)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := []struct {
		name   string
		modify func(*Params)
		want   string
	}{
		{"one class", func(p *Params) { p.Mu = p.Mu[:1]; p.Sigma = p.Sigma[:1] }, "need C >= 2"},
		{"degree", func(p *Params) { p.Degree = 0 }, "Params.Degree = 0"},
		{"h high", func(p *Params) { p.H = 1.5 }, "Params.H = 1.5"},
		{"h NaN", func(p *Params) { p.H = math.NaN() }, "Params.H = NaN"},
		{"sigma rows", func(p *Params) { p.Sigma = p.Sigma[:2] }, "Params.Sigma has 2 rows, want C = 3"},
		{"mu ragged", func(p *Params) { p.Mu[1] = p.Mu[1][:2] }, "Params.Mu row 1 has 2 entries"},
		{"sigma negative", func(p *Params) { p.Sigma[2][0] = -1 }, "Params.Sigma[2][0] = -1"},
		{"mu inf", func(p *Params) { p.Mu[0][2] = math.Inf(1) }, "Params.Mu[0][2] = +Inf is not finite"},
	}
	for _, c := range cases {
		p := ok()
		c.modify(&p)
		err := p.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want error containing %q", c.name, err, c.want)
		}
	}
	p := ok()
	if _, err := p.GCN(0, 0); err == nil || !strings.Contains(err.Error(), "both 0") {
		t.Errorf("same classes: %v", err)
	}
	if _, err := p.GCN(0, 3); err == nil || !strings.Contains(err.Error(), "class j = 3 outside [0,3)") {
		t.Errorf("class out of range: %v", err)
	}
	if _, err := Symmetric(1, 5, 0.4, 1, 0, 1); err == nil {
		t.Error("Symmetric with one class accepted")
	}
}

// TestTinyCase checks C = 2, d = 1, h = 1/4 against hand computation.
// Class 0: p = (1/4, 3/4), E = 1/4*1 + 3/4*3 = 2.5,
// Var = 1/4*(0.25+1) + 3/4*(1+9) - 2.5^2 = 1.5625.
// Class 1: p = (3/4, 1/4), E = 0.5, Var = 3/4*4 + 1/4*(0.01+4) - 0.25 = 3.7525.
func TestTinyCase(t *testing.T) {
	p := tiny(t)
	s, err := p.GCN(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := GCNStats{H: 0.25, Degree: 1, I: 0, J: 1, MeanI: 2.5, MeanJ: 0.5, VarI: 1.5625, VarJ: 3.7525,
		Gap: 2, Ratio: 4 / ((1.5625 + 3.7525) / 2), RatioI: 4 / 1.5625}
	for _, c := range [][3]float64{{s.MeanI, want.MeanI}, {s.MeanJ, want.MeanJ}, {s.VarI, want.VarI},
		{s.VarJ, want.VarJ}, {s.Gap, want.Gap}, {s.Ratio, want.Ratio}, {s.RatioI, want.RatioI}} {
		if !near(c[0], c[1], 1e-12) {
			t.Errorf("got %+v, want %+v", s, want)
			break
		}
	}
	// D = 1-2 = -1, S = (1-0)+(3-2) = 2: slope (2*-1-2)/1 = -4, intercept 3,
	// h* = (D-S)/(CD-S) = -3/-4.
	g, err := p.GCNGapLine(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if g.D != -1 || g.S != 2 || g.Slope != -4 || g.Intercept != 3 || g.HStar != 0.75 || !g.HStarInRange || g.GapAtUniform != 1 {
		t.Errorf("gap line %+v", g)
	}
	// Label-wise, class 0, k = 0: p = 1/4, n in {0,1}: a = 0 w.p. 3/4 and
	// N(1, 0.25) w.p. 1/4, so E = 0.25 and Var = 1/4*(0.25+1) - 0.0625 = 0.25.
	lw, err := p.LabelWise(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	m := lw.PerClass[0].MomentsI
	if !near(m.Mean, 0.25, 1e-15) || !near(m.Var, 0.25, 1e-15) || !near(m.ApproxVar, 1, 1e-15) ||
		!near(m.ProbEmpty, 0.75, 1e-15) || !near(m.CondVar, 0.25, 1e-15) {
		t.Errorf("label-wise class 0 moments %+v", m)
	}
	// Class 1, k = 0: p = 3/4, mu = 0, sigma = 2: mean 0, Var = 4*3/4 = 3.
	m = lw.PerClass[0].MomentsJ
	if !near(m.Mean, 0, 1e-15) || !near(m.Var, 3, 1e-15) {
		t.Errorf("label-wise class 1 moments %+v", m)
	}
	if !near(lw.PerClass[0].Gap, 0.25, 1e-15) || lw.PerClass[0].PaperGap != 1 {
		t.Errorf("label-wise gaps %+v", lw.PerClass[0])
	}
}

// premisesExample satisfies both premises of Theorem 1 but has S = 1.3 != 0:
// D = 2, S = 0.5+0.5+0.3, so h* = (2-1.3)/(6-1.3) = 7/47, not 1/3.
func premisesExample(t *testing.T, d int) Params {
	t.Helper()
	p, err := NewParams(d, 0.5,
		[][]float64{{2, 0.5, 0.3}, {1.5, 0, 0}, {0, 1, 2}},
		[][]float64{{0.3, 1, 1}, {1, 0.2, 1}, {1, 1, 0.5}})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestGapVanishesAtHStar(t *testing.T) {
	p := premisesExample(t, 5)
	prem, err := p.Theorem1Premises(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !prem.MeanGapDominates || !prem.SpreadDominates {
		t.Fatalf("example should satisfy Theorem 1's premises: %+v", prem)
	}
	g, err := p.GCNGapLine(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !near(g.HStar, 7.0/47, 1e-15) {
		t.Fatalf("h* = %v, want 7/47", g.HStar)
	}
	// The gap from the class means (not the line) is 0 at h* and grows away from it.
	at := func(h float64) float64 {
		s, err := p.WithH(h).GCN(0, 1)
		if err != nil {
			t.Fatal(err)
		}
		return s.Gap
	}
	if v := at(g.HStar); v > 1e-14 {
		t.Errorf("gap at h* = %v", v)
	}
	best, bestGap := -1.0, math.Inf(1)
	for k := 0; k <= 1000; k++ {
		h := float64(k) / 1000
		if v := at(h); v < bestGap {
			best, bestGap = h, v
		}
		if v := at(h); !near(v, g.Gap(h), 1e-12) {
			t.Fatalf("gap line %v != gap %v at h=%v", g.Gap(h), v, h)
		}
	}
	if math.Abs(best-g.HStar) > 0.0005 {
		t.Errorf("grid argmin of the gap %v, want h* = %v", best, g.HStar)
	}
	if at(1.0/3) < 0.2 {
		t.Errorf("the gap at 1/C should not vanish when S != 0: %v", at(1.0/3))
	}

	// S = 0: h* = 1/C exactly.
	for c := 2; c <= 6; c++ {
		means := make([]float64, c)
		for k := range means {
			means[k] = 1.7 - 0.3*float64(k*k)
		}
		q, err := ClassMeans(4, 0.5, means, 0.8)
		if err != nil {
			t.Fatal(err)
		}
		g, _ := q.GCNGapLine(0, c-1)
		if g.S != 0 || g.HStar != 1/float64(c) || g.D == 0 {
			t.Errorf("C=%d: S = %v, D = %v, h* = %v, want 0, non-zero and exactly 1/C", c, g.S, g.D, g.HStar)
		}
		s, _ := q.WithH(1/float64(c)).GCN(0, c-1)
		if s.Gap > 1e-15 {
			t.Errorf("C=%d: gap at 1/C = %v", c, s.Gap)
		}
		h, _, _ := q.GCNRatioMinimum(0, c-1)
		if math.Abs(h-1/float64(c)) > 1e-6 {
			t.Errorf("C=%d: ratio minimum at %v, want 1/C", c, h)
		}
		// Symmetric has D = S = 0: the GCN gap is 0 for every h.
		sym, _ := Symmetric(c, 4, 0.3, 1.7, -0.3, 0.8)
		if g, _ := sym.GCNGapLine(0, 1); g.Slope != 0 || g.Intercept != 0 || !math.IsNaN(g.HStar) {
			t.Errorf("C=%d: symmetric gap line %+v", c, g)
		}
	}
}

func TestRatioMinimum(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	found := 0
	for trial := 0; trial < 40; trial++ {
		c := 2 + rng.IntN(4)
		p := randomParams(rng, c, 1+rng.IntN(20))
		g, err := p.GCNGapLine(0, 1)
		if err != nil {
			t.Fatal(err)
		}
		h, r, err := p.GCNRatioMinimum(0, 1)
		if err != nil {
			t.Fatal(err)
		}
		if g.HStarInRange {
			found++
			if math.Abs(h-g.HStar) > 1e-6 || r > 1e-10 {
				t.Errorf("trial %d: ratio minimum at %v (ratio %v), want h* = %v", trial, h, r, g.HStar)
			}
			continue
		}
		// Otherwise compare with a dense scan.
		scan := math.Inf(1)
		for k := 0; k <= 20000; k++ {
			s, _ := p.WithH(float64(k)/20000).GCN(0, 1)
			scan = min(scan, s.Ratio)
		}
		if r > scan*(1+1e-9)+1e-15 {
			t.Errorf("trial %d: minimum %v above the scan's %v", trial, r, scan)
		}
	}
	if found < 5 {
		t.Fatalf("only %d trials had h* in [0,1]", found)
	}
	// The premises example: minimum at 7/47, not 1/3.
	h, _, _ := premisesExample(t, 5).GCNRatioMinimum(0, 1)
	if math.Abs(h-7.0/47) > 1e-6 {
		t.Errorf("premises example: ratio minimum at %v, want 7/47", h)
	}
}

// randomParams draws means in [-2,2] and standard deviations in [0.2,1.5].
func randomParams(rng *rand.Rand, c, d int) Params {
	mu := make([][]float64, c)
	sigma := make([][]float64, c)
	for i := range c {
		mu[i] = make([]float64, c)
		sigma[i] = make([]float64, c)
		for k := range c {
			mu[i][k] = 4*rng.Float64() - 2
			sigma[i][k] = 0.2 + 1.3*rng.Float64()
		}
	}
	return Params{Degree: d, H: rng.Float64(), Mu: mu, Sigma: sigma}
}

func TestUniformMixing(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	withCondition := 0
	for trial := 0; trial < 500; trial++ {
		c := 2 + rng.IntN(4)
		p := randomParams(rng, c, 1+rng.IntN(10))
		// Make the class-j row close to row i so the paper's condition can hold.
		for k := range c {
			p.Mu[1][k] = p.Mu[0][k] + 0.2*(rng.Float64()-0.5)
		}
		u, err := p.GCNAtUniformMixing(0, 1)
		if err != nil {
			t.Fatal(err)
		}
		// Independent formulas at h = 1/C: Delta = |S|/C and
		// Var(z|i) = (mean_k sigma_ik^2 + sigma_i^2)/d.
		var s, ms2, mean float64
		for k := range c {
			s += p.Mu[0][k] - p.Mu[1][k]
			ms2 += p.Sigma[0][k] * p.Sigma[0][k] / float64(c)
			mean += p.Mu[0][k] / float64(c)
		}
		var spread float64
		for k := range c {
			spread += (p.Mu[0][k] - mean) * (p.Mu[0][k] - mean) / float64(c)
		}
		if !near(u.Gap, math.Abs(s)/float64(c), 1e-12) {
			t.Fatalf("gap %v, want |S|/C = %v", u.Gap, math.Abs(s)/float64(c))
		}
		if !near(u.VarI, (ms2+spread)/float64(p.Degree), 1e-12) || !near(u.SigmaI*u.SigmaI, spread, 1e-12) {
			t.Fatalf("VarI %v, want %v", u.VarI, (ms2+spread)/float64(p.Degree))
		}
		if u.NonDiscriminable != (float64(p.Degree)*s*s/float64(c*c) < ms2+spread) {
			t.Fatalf("NonDiscriminable %v disagrees with d(S/C)^2 < mean sigma^2 + sigma_i^2", u.NonDiscriminable)
		}
		if u.PaperCondition {
			withCondition++
			if !u.NonDiscriminable {
				t.Fatalf("corrected paper condition holds but the ratio is %v >= 1: %+v", u.RatioI, u)
			}
		}
	}
	if withCondition < 50 {
		t.Fatalf("only %d trials met the corrected condition", withCondition)
	}
}
