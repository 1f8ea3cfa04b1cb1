package figures

import (
	"math"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/theory"
)

// settingsAB are the notebook's default settings: A = ContextMeans(3, 2, 1)
// (S = 0) and B = A with row 0's heterophilic entries raised by 0.5 (S = 1).
func settingsAB(t *testing.T) (a, b Setting) {
	t.Helper()
	mu := ContextMeans(3, 2, 1)
	var err error
	if a, err = NewSetting("A (S = 0)", mu, theory.ConstantMatrix(3, 1)); err != nil {
		t.Fatal(err)
	}
	if b, err = NewSetting("B (S ≠ 0)", ShiftHeterophilic(mu, 0, 0.5), theory.ConstantMatrix(3, 1)); err != nil {
		t.Fatal(err)
	}
	return a, b
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// checkSVG fails on an SVG that is empty, holds NaN/Inf coordinates or
// lacks one of the wanted strings.
func checkSVG(t *testing.T, name, svg string, want ...string) {
	t.Helper()
	if !strings.HasPrefix(svg, "<svg") || !strings.HasSuffix(strings.TrimSpace(svg), "</svg>") {
		t.Fatalf("%s: not one <svg> element: %.80q", name, svg)
	}
	for _, bad := range []string{"NaN", "Inf"} {
		if strings.Contains(svg, bad) {
			t.Errorf("%s: SVG contains %q", name, bad)
		}
	}
	for _, w := range want {
		if !strings.Contains(svg, w) {
			t.Errorf("%s: SVG lacks %q", name, w)
		}
	}
}

type recordedProgress struct {
	calls       int
	last, total int
	monotone    bool
}

func (r *recordedProgress) Update(done, total int, msg string) {
	if r.calls == 0 {
		r.monotone = true
	}
	if done <= r.last {
		r.monotone = false
	}
	r.calls++
	r.last, r.total = done, total
}

func TestSweepGCNClosedForm(t *testing.T) {
	a, b := settingsAB(t)
	s, err := SweepGCN([]Setting{a, b}, 0, 1, SweepOptions{Degrees: []int{2, 5}})
	if err != nil {
		t.Fatal(err)
	}
	// A: D = 2 - 0 = 2, S = 0 -> h* = 1/3. B: S = 2*0.5 = 1 -> h* = (2-1)/(6-1) = 0.2.
	if gl := s.GapLines[0]; gl.D != 2 || gl.S != 0 || !near(gl.HStar, 1.0/3, 1e-15) {
		t.Errorf("A gap line = %+v, want D=2 S=0 h*=1/3", gl)
	}
	if gl := s.GapLines[1]; gl.D != 2 || !near(gl.S, 1, 1e-12) || !near(gl.HStar, 0.2, 1e-12) {
		t.Errorf("B gap line = %+v, want D=2 S=1 h*=0.2", gl)
	}
	if s.MC != nil {
		t.Errorf("MC = %v without Monte Carlo points", s.MC)
	}
	// The grid holds both zeros, where the closed-form ratio is exactly 0.
	for si, hStar := range []float64{1.0 / 3, 0.2} {
		found := false
		for hi, h := range s.H {
			if near(h, hStar, 1e-12) {
				found = true
				if r := s.Lines[si][0][hi].Ratio; r > 1e-20 {
					t.Errorf("setting %d: ratio at h* = %v is %v, want 0", si, hStar, r)
				}
			}
		}
		if !found {
			t.Errorf("grid lacks h* = %v", hStar)
		}
	}
	// Setting A, d = 2, h = 0.5 by hand: class 0 has probs (0.5, 0.25, 0.25)
	// over means (2, 0.5, -1): E = 0.875, E[x^2] = 0.5*5 + 0.25*1.25 + 0.25*2
	// = 3.3125, Var(z|0) = (3.3125 - 0.875^2)/2 = 1.2734375. Class 1 has
	// probs (0.25, 0.5, 0.25) over (3, 0, -1.5): E = 0.375, E[x^2] = 3.8125,
	// Var(z|1) = (3.8125 - 0.140625)/2 = 1.8359375. Gap 0.5.
	for hi, h := range s.H {
		if h != 0.5 {
			continue
		}
		g := s.Lines[0][0][hi]
		if !near(g.MeanI, 0.875, 1e-12) || !near(g.MeanJ, 0.375, 1e-12) || !near(g.VarI, 1.2734375, 1e-12) ||
			!near(g.VarJ, 1.8359375, 1e-12) || !near(g.Ratio, 0.25/((1.2734375+1.8359375)/2), 1e-12) {
			t.Errorf("A at d=2 h=0.5 = %v", g)
		}
		// The ratio is proportional to d: d = 5 gives 5/2 times d = 2.
		if r2, r5 := g.Ratio, s.Lines[0][1][hi].Ratio; !near(r5, 2.5*r2, 1e-12) {
			t.Errorf("ratio d=5 %v, want 2.5 * ratio d=2 %v", r5, r2)
		}
	}
}

func TestSweepGCNMonteCarloMatchesClosedForm(t *testing.T) {
	a, b := settingsAB(t)
	rec := &recordedProgress{}
	mcH := []float64{0, 0.5, 1}
	s, err := SweepGCN([]Setting{a, b}, 0, 1, SweepOptions{Degrees: []int{3}, Lines: mcH, MC: mcH, Samples: 4000, Seed: 7, Progress: rec})
	if err != nil {
		t.Fatal(err)
	}
	if rec.calls != 6 || rec.last != 6 || rec.total != 6 || !rec.monotone {
		t.Errorf("progress: %d calls, last %d/%d, monotone %v; want 6 increasing calls to 6/6", rec.calls, rec.last, rec.total, rec.monotone)
	}
	for si := range s.Settings {
		for hi, h := range mcH {
			var exact theory.GCNStats
			for li, lh := range s.H {
				if lh == h {
					exact = s.Lines[si][0][li]
				}
			}
			e := s.MC[si][0][hi]
			if !e.Gap.Within(exact.Gap, 5) || !e.VarI.Within(exact.VarI, 5) || !e.Ratio.Within(exact.Ratio, 5) {
				t.Errorf("setting %d h=%v: Monte Carlo gap %v var %v ratio %v vs closed form %v", si, h, e.Gap, e.VarI, e.Ratio, exact)
			}
		}
	}
	// The same seed gives the same estimates.
	again, err := SweepGCN([]Setting{a, b}, 0, 1, SweepOptions{Degrees: []int{3}, Lines: mcH, MC: mcH, Samples: 4000, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if again.MC[1][0][1] != s.MC[1][0][1] {
		t.Errorf("same seed, different estimates: %v vs %v", again.MC[1][0][1], s.MC[1][0][1])
	}
}

func TestGCNFigures(t *testing.T) {
	a, b := settingsAB(t)
	s, err := SweepGCN([]Setting{a, b}, 0, 1, SweepOptions{Degrees: []int{2, 5, 10}, MC: HomophilyGrid(4), Samples: 300, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	svg := s.RatioFigure("ratio").SVG()
	checkSVG(t, "RatioFigure", svg, "A (S = 0) (closed form)", "B (S ≠ 0) (closed form)",
		"A (S = 0) (Monte Carlo ± 2 SE)", "d = 2", "d = 5", "d = 10", "h* = 1/C", ">h*<")
	if n := strings.Count(svg, `class="panel"`); n != 3 {
		t.Errorf("RatioFigure has %d panels, want 3", n)
	}
	checkSVG(t, "GapFigure", s.GapFigure("gap").SVG(), "A (S = 0): D = 2, S = 0", "B (S ≠ 0): D = 2, S = 1",
		"Monte Carlo, d = 10")
	tab, err := s.HStarTable("h*")
	if err != nil {
		t.Fatal(err)
	}
	html := tab.HTML()
	// h* column, then the numerical argmin at each of the 3 degrees.
	if strings.Count(html, "0.3333") != 6 || strings.Count(html, "0.2000") != 4 {
		t.Errorf("HStarTable: want 0.3333 six times (A: h*, 1/C, 3 argmins; B: 1/C) and 0.2000 four times:\n%s", tab.Markdown())
	}
}

func TestUniformThresholds(t *testing.T) {
	a, b := settingsAB(t)
	// B, row 0 = (2, 1, -0.5): sigma_0^2 = ((7/6)^2 + (1/6)^2 + (4/3)^2)/3 = 19/18;
	// gap |S|/C = 1/3; Var(z|0) at d = 1 is 1 + 19/18 = 37/18, so the exact
	// threshold is (37/18)/(1/9) = 18.5. max_k |mu_0k - mu_1k| = 1, so the
	// paper's is 19/18.
	th, err := UniformThresholds(b.Params, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !near(th.Exact, 18.5, 1e-12) || !near(th.Paper, 19.0/18, 1e-12) || !near(th.Gap, 1.0/3, 1e-12) {
		t.Errorf("B thresholds = %+v, want exact 18.5, paper 19/18, gap 1/3", th)
	}
	for d, want := range map[int]bool{18: true, 19: false} {
		u, err := b.Params.WithDegree(d).GCNAtUniformMixing(0, 1)
		if err != nil {
			t.Fatal(err)
		}
		if u.NonDiscriminable != want {
			t.Errorf("B at d = %d: non-discriminable %v, want %v (threshold 18.5)", d, u.NonDiscriminable, want)
		}
	}
	th, err = UniformThresholds(a.Params, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !math.IsInf(th.Exact, 1) || th.Gap != 0 {
		t.Errorf("A (S = 0) thresholds = %+v, want exact +Inf and gap 0", th)
	}
	fig, err := UniformMixingFigure("uniform", []Setting{a, b}, 0, 1, 40)
	if err != nil {
		t.Fatal(err)
	}
	checkSVG(t, "UniformMixingFigure", fig.SVG(), "d = 18.5", "A (S = 0): Δ = 0, ratio 0 at every d", "ratio 1")
	if _, err := UniformMixingFigure("", []Setting{a}, 0, 1, 1); err == nil || !strings.Contains(err.Error(), "maxDegree = 1") {
		t.Errorf("maxDegree 1: err = %v", err)
	}
	tab, err := UniformMixingTable("uniform", []Setting{b}, 0, 1, []int{18, 19})
	if err != nil {
		t.Fatal(err)
	}
	md := tab.Markdown()
	if !strings.Contains(md, "| B (S ≠ 0) | 18 | 0.3333 |") || !strings.Contains(md, "18.5") || strings.Count(md, "| yes |") != 1 {
		t.Errorf("UniformMixingTable:\n%s", md)
	}
}

func TestSweepOptionErrors(t *testing.T) {
	a, _ := settingsAB(t)
	for _, c := range []struct {
		opts SweepOptions
		want string
	}{
		{SweepOptions{}, "Degrees is empty"},
		{SweepOptions{Degrees: []int{3, 0}}, "d = 0"},
		{SweepOptions{Degrees: []int{3}, MC: []float64{1.5}, Samples: 10}, "h = 1.5 outside [0,1]"},
		{SweepOptions{Degrees: []int{3}, MC: []float64{0.5}}, "Samples = 0"},
	} {
		if _, err := SweepGCN([]Setting{a}, 0, 1, c.opts); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("SweepGCN(%+v): err = %v, want %q", c.opts, err, c.want)
		}
		if _, err := SweepLabelWise(a, 0, 1, c.opts); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("SweepLabelWise(%+v): err = %v, want %q", c.opts, err, c.want)
		}
	}
	if _, err := SweepGCN(nil, 0, 1, SweepOptions{Degrees: []int{2}}); err == nil || !strings.Contains(err.Error(), "no settings") {
		t.Errorf("no settings: err = %v", err)
	}
	if _, err := SweepGCN([]Setting{a}, 0, 0, SweepOptions{Degrees: []int{2}}); err == nil || !strings.Contains(err.Error(), `setting "A (S = 0)"`) {
		t.Errorf("i = j: err = %v, want the setting named", err)
	}
	if _, err := NewSetting("bad", [][]float64{{1, 2}, {3}}, theory.ConstantMatrix(2, 1)); err == nil ||
		!strings.Contains(err.Error(), `setting "bad"`) || !strings.Contains(err.Error(), "row 1") {
		t.Errorf("ragged mu: err = %v", err)
	}
	if _, err := NewSetting("nil", ContextMeans(1, 1, 1), nil); err == nil || !strings.Contains(err.Error(), "C >= 2") {
		t.Errorf("C = 1: err = %v", err)
	}
}
