package figures

import (
	"fmt"
	"math"
	"strings"

	"github.com/lwgcn/toolkit/lwgcn/plot"
	"github.com/lwgcn/toolkit/lwgcn/theory"
)

// LabelWiseSweep holds Theorem 2 (label-wise aggregation) for one setting
// over h and d, with Theorem 1 (GCN) on the same grid for comparison.
type LabelWiseSweep struct {
	I, J    int
	Degrees []int
	Setting Setting
	// H is the closed-form grid (the requested grid plus 1/C and the GCN's h*).
	H []float64
	// Lines[di][hi] is Theorem 2 at Degrees[di], H[hi]; GCN[di][hi] Theorem 1.
	Lines [][]theory.LabelWiseSummary
	GCN   [][]theory.GCNStats
	// GapLine is the GCN gap line of the setting (h*).
	GapLine theory.GapLine
	// MCH is the Monte Carlo grid, MC[di][hi] its estimates (GCN and every
	// a_k) and MCBest[di][hi] the closed form's best block (BestPooled) there.
	MCH    []float64
	MC     [][]theory.MonteCarlo
	MCBest [][]int
}

// SweepLabelWise evaluates Theorems 1 and 2 for classes i and j of setting
// at every degree of opts, in closed form and, when opts.MC is set, by Monte
// Carlo (one draw gives both aggregations).
func SweepLabelWise(setting Setting, i, j int, opts SweepOptions) (*LabelWiseSweep, error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	p := setting.Params
	gl, err := p.GCNGapLine(i, j)
	if err != nil {
		return nil, fmt.Errorf("figures: setting %q: %w", setting.Name, err)
	}
	s := &LabelWiseSweep{I: i, J: j, Degrees: append([]int(nil), opts.Degrees...), Setting: setting, GapLine: gl, MCH: opts.MC}
	extra := []float64{1 / float64(p.NumClasses())}
	if gl.HStarInRange { // as in SweepGCN: h* outside [0,1] (or NaN) is no grid point
		extra = append(extra, gl.HStar)
	}
	s.H = GridWith(opts.lines(), extra...)
	lw, err := theory.LabelWiseCurve(p, i, j, s.Degrees, s.H, nil)
	if err != nil {
		return nil, fmt.Errorf("figures: setting %q: %w", setting.Name, err)
	}
	g, err := theory.GCNCurve(p, i, j, s.Degrees, s.H, nil)
	if err != nil {
		return nil, fmt.Errorf("figures: setting %q: %w", setting.Name, err)
	}
	s.Lines = byDegree(lw, len(s.H), func(p theory.LabelWisePoint) theory.LabelWiseSummary { return p.LabelWiseSummary })
	s.GCN = byDegree(g, len(s.H), func(p theory.GCNPoint) theory.GCNStats { return p.GCNStats })
	mc := opts.monteCarlo(len(s.Degrees) * len(opts.MC))
	if mc == nil {
		return s, nil
	}
	mc.name = setting.Name
	pts, err := theory.LabelWiseCurve(p, i, j, s.Degrees, opts.MC, &mc.opts)
	if err != nil {
		return nil, fmt.Errorf("figures: Monte Carlo, setting %q: %w", setting.Name, err)
	}
	s.MC = byDegree(pts, len(opts.MC), func(p theory.LabelWisePoint) theory.MonteCarlo { return *p.MC })
	s.MCBest = byDegree(pts, len(opts.MC), func(p theory.LabelWisePoint) int { return p.BestPooled })
	return s, nil
}

func (s *LabelWiseSweep) degreeIndex(d int) (int, error) {
	for di, x := range s.Degrees {
		if x == d {
			return di, nil
		}
	}
	return 0, fmt.Errorf("figures: degree %d is not in the sweep's degrees %v", d, s.Degrees)
}

// className names neighbour class k relative to the centre classes.
func (s *LabelWiseSweep) className(k int) string {
	switch k {
	case s.I:
		return fmt.Sprintf("k = %d (= i)", k)
	case s.J:
		return fmt.Sprintf("k = %d (= j)", k)
	}
	return fmt.Sprintf("k = %d", k)
}

// PerClassFigure draws, at one degree of the sweep, every block a_k against h:
// left the gap |E[a_k|i] - E[a_k|j]| with the paper's zero-embedding
// convention (solid) and the paper's gap |mu_ik - mu_jk| (dashed); right
// Var(a_k|y=i), exact (solid) and the paper's sigma_ik^2/(d p_k) (dashed), on a
// log axis. Monte Carlo markers check the exact curves.
func (s *LabelWiseSweep) PerClassFigure(title string, degree int) (*plot.Facets, error) {
	di, err := s.degreeIndex(degree)
	if err != nil {
		return nil, err
	}
	c := s.Setting.Params.NumClasses()
	gap := plot.NewLine("gap between classes i and j").XLabel("homophily h").YLabel("|E[a_k|i] − E[a_k|j]|")
	vr := plot.NewLine("variance for class-i centres").XLabel("homophily h").YLabel("Var(a_k | y = i)").LogY()
	for k := range c {
		g, pg := make([]float64, len(s.H)), make([]float64, len(s.H))
		v, av := make([]float64, len(s.H)), make([]float64, len(s.H))
		for hi, lw := range s.Lines[di] {
			st := lw.PerClass[k]
			g[hi], pg[hi] = st.Gap, st.PaperGap
			v[hi], av[hi] = st.MomentsI.Var, st.MomentsI.ApproxVar
		}
		name := s.className(k)
		col := plot.Color(k)
		gap.Add(plot.Series{Name: name + ", exact", X: s.H, Y: g, Color: col},
			plot.Series{Name: name + ", paper", X: s.H, Y: pg, Color: col, Dashed: true})
		vr.Add(plot.Series{Name: name + ", exact", X: s.H, Y: v, Color: col},
			plot.Series{Name: name + ", paper", X: s.H, Y: av, Color: col, Dashed: true})
	}
	if s.MC != nil {
		for k := range c {
			g, gse := make([]float64, len(s.MCH)), make([]float64, len(s.MCH))
			v, vse := make([]float64, len(s.MCH)), make([]float64, len(s.MCH))
			for hi, mc := range s.MC[di] {
				e := mc.LabelWise[k]
				g[hi], gse[hi] = e.Gap.Value, e.Gap.SE
				v[hi], vse[hi] = e.VarI.Value, e.VarI.SE
			}
			name := ""
			if k == 0 {
				name = fmt.Sprintf("Monte Carlo (± %d SE)", ErrorBarSE)
			}
			gap.Add(plot.Series{Name: name, X: s.MCH, Y: g, Err: errBars(gse), NoLine: true, ErrorBars: true,
				Color: plot.Color(k), Shape: plot.Circle})
			vr.Add(plot.Series{Name: name, X: s.MCH, Y: v, Err: errBars(vse), NoLine: true, ErrorBars: true,
				Color: plot.Color(k), Shape: plot.Circle})
		}
	}
	return plot.NewFacets(title, gap, vr).IndependentY().Size(900, 420), nil
}

// CompareFigure draws, one panel per degree on a log axis, the pooled ratio
// Delta^2/((Var_i+Var_j)/2) of the GCN mean z and of the best label-wise
// block a_k* (exact, zero-embedding convention), with Monte Carlo markers and
// lines at the GCN's h* and 1/C. Ratios below LogFloor are clipped.
func (s *LabelWiseSweep) CompareFigure(title string) *plot.Facets {
	f := plot.NewFacets(title).IndependentY()
	for di, d := range s.Degrees {
		p := plot.NewLine(fmt.Sprintf("d = %d", d)).XLabel("homophily h").LogY()
		if di == 0 {
			p.YLabel("Δ² / ((Var_i + Var_j)/2)")
		}
		g, lw := make([]float64, len(s.H)), make([]float64, len(s.H))
		for hi := range s.H {
			g[hi], lw[hi] = s.GCN[di][hi].Ratio, s.Lines[di][hi].BestPooledRatio
		}
		p.Add(plot.Series{Name: "GCN mean z", X: s.H, Y: g, Color: plot.Color(0)},
			plot.Series{Name: "label-wise, best block a_k*", X: s.H, Y: lw, Color: plot.Color(1)})
		var mg, ml []float64
		if s.MC != nil {
			mg, ml = make([]float64, len(s.MCH)), make([]float64, len(s.MCH))
			mgse, mlse := make([]float64, len(s.MCH)), make([]float64, len(s.MCH))
			for hi, mc := range s.MC[di] {
				mg[hi], mgse[hi] = mc.GCN.Ratio.Value, mc.GCN.Ratio.SE
				e := mc.LabelWise[s.MCBest[di][hi]].Ratio
				ml[hi], mlse[hi] = e.Value, e.SE
			}
			p.Add(plot.Series{Name: fmt.Sprintf("Monte Carlo (± %d SE)", ErrorBarSE), X: s.MCH, Y: mg, Err: errBars(mgse),
				NoLine: true, ErrorBars: true, Color: plot.Color(0), Shape: plot.Circle},
				plot.Series{X: s.MCH, Y: ml, Err: errBars(mlse), NoLine: true, ErrorBars: true, Color: plot.Color(1), Shape: plot.Square})
		}
		lo, hi := logRange(LogFloor, g, lw, mg, ml)
		p.YRange(lo, hi)
		if s.GapLine.HStarInRange {
			p.VLine(s.GapLine.HStar, "GCN h* = "+fmtH(s.GapLine.HStar))
		}
		if c := float64(s.Setting.Params.NumClasses()); math.Abs(s.GapLine.HStar-1/c) > 1e-9 {
			p.VLine(1/c, "1/C")
		}
		p.HLine(1, "")
		f.Add(p)
	}
	return f.Size(max(250*len(s.Degrees), 500), 400)
}

// BoundFigure draws, one panel per degree on a log axis, the paper's ratio
// of the best block (approximate variance, conditional gap; dashed), the
// exact ratio Delta^2/Var(a_k|i) of the best block (solid), the proof's bound
// (LabelWiseBound: d |mu_ik - mu_jk|^2/(C sigma_ik^2), k = i above 1/C and the
// best k != i below) and the line ratio = 1. Each panel title says whether
// Theorem 2's condition holds at that degree.
func (s *LabelWiseSweep) BoundFigure(title string) *plot.Facets {
	f := plot.NewFacets(title).IndependentY()
	for di, d := range s.Degrees {
		cond := "fails"
		if len(s.Lines[di]) > 0 && s.Lines[di][0].Condition {
			cond = "holds"
		}
		p := plot.NewLine(fmt.Sprintf("d = %d: condition %s", d, cond)).XLabel("homophily h").LogY()
		if di == 0 {
			p.YLabel("Δ² / Var(a_k* | y = i)")
		}
		ex, ap, bd := make([]float64, len(s.H)), make([]float64, len(s.H)), make([]float64, len(s.H))
		for hi, lw := range s.Lines[di] {
			ex[hi], ap[hi], bd[hi] = lw.BestExactRatio, lw.BestApproxRatio, lw.Bound
		}
		p.Add(plot.Series{Name: "exact (binomial count, zero embedding)", X: s.H, Y: ex, Color: plot.Color(1)},
			plot.Series{Name: "paper: d p_k |μ_ik − μ_jk|² / σ_ik²", X: s.H, Y: ap, Color: plot.Color(0), Dashed: true},
			plot.Series{Name: "bound d |μ_ik − μ_jk|² / (C σ_ik²)", X: s.H, Y: bd, Color: "#555555", Dashed: true})
		lo, hi := logRange(LogFloor, ex, ap, bd, []float64{1})
		p.YRange(lo, hi)
		p.HLine(1, "ratio 1")
		f.Add(p)
	}
	return f.Size(max(250*len(s.Degrees), 500), 400)
}

// ConditionTable summarises Theorem 2 per degree: the per-class bounds
// b_k = d |mu_ik - mu_jk|^2/(C sigma_ik^2), whether the condition
// |mu_ik - mu_jk| > sqrt(C/d) sigma_ik holds for every k (every b_k > 1), the
// minimum over h of the paper's ratio and of the exact ratio of the best
// block, and the h where the exact ratio is below 1.
func (s *LabelWiseSweep) ConditionTable(caption string) (*plot.Table, error) {
	c := s.Setting.Params.NumClasses()
	head := []string{"d", "√(C/d)"}
	for k := range c {
		head = append(head, fmt.Sprintf("b_%d", k))
	}
	head = append(head, "condition", "min_h paper ratio", "min_h exact ratio", "at h", "h with exact ratio < 1")
	t := plot.NewTable(caption).Header(head...)
	for di, d := range s.Degrees {
		b, err := s.Setting.Params.WithDegree(d).LabelWiseBounds(s.I, s.J)
		if err != nil {
			return nil, fmt.Errorf("figures: setting %q: %w", s.Setting.Name, err)
		}
		row := []plot.Cell{plot.Num(float64(d), 0), plot.Num(math.Sqrt(float64(c)/float64(d)), 3)}
		for _, v := range b {
			row = append(row, plot.Num(v, 3))
		}
		minA, minE, argE := math.Inf(1), math.Inf(1), math.NaN()
		below := make([]bool, len(s.H))
		for hi, lw := range s.Lines[di] {
			minA = min(minA, lw.BestApproxRatio)
			if lw.BestExactRatio < minE {
				minE, argE = lw.BestExactRatio, s.H[hi]
			}
			below[hi] = lw.BestExactRatio < 1
		}
		cond := len(s.Lines[di]) > 0 && s.Lines[di][0].Condition
		row = append(row, plot.Text(yesNo(cond)), plot.Num(minA, 3), plot.Num(minE, 3), plot.Num(argE, 3),
			plot.Text(intervals(s.H, below)))
		t.Row(row...)
	}
	return t, nil
}

// intervals prints the runs of grid points where in[i] holds, e.g.
// "0.4–0.62, 0.95–1" ("none" when there is none).
func intervals(xs []float64, in []bool) string {
	var parts []string
	for i := 0; i < len(xs); i++ {
		if !in[i] {
			continue
		}
		j := i
		for j+1 < len(xs) && in[j+1] {
			j++
		}
		if i == j {
			parts = append(parts, fmtH(xs[i]))
		} else {
			parts = append(parts, fmtH(xs[i])+"–"+fmtH(xs[j]))
		}
		i = j
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// ApproxStep is the spacing of the expected-count grid d p of the
// approximation figures and tables.
const ApproxStep = 0.02

// approxErrors returns the expected counts d p (ApproxStep apart, from
// ApproxStep to min(d, maxDP)) and the relative error (approx - exact)/exact
// of the paper's variance sigma^2/(d p) there.
func approxErrors(mu, sigma float64, d int, maxDP float64) (dp, rel []float64, err error) {
	top := min(float64(d), maxDP)
	for n := 1; float64(n)*ApproxStep <= top+1e-9; n++ {
		x := float64(n) * ApproxStep
		m, err := theory.LabelWiseClassMoments(mu, sigma, min(x/float64(d), 1), d)
		if err != nil {
			return nil, nil, err
		}
		dp, rel = append(dp, x), append(rel, m.ApproxRelError)
	}
	return dp, rel, nil
}

// ApproxErrorFigure draws the relative error (approx - exact)/exact of the
// paper's variance sigma^2/(d p_k) of a label-wise block against the expected
// count d p_k, one line per degree and one panel per mean mu (in units of
// sigma: the zero embedding adds mu^2 q(1-q) to the exact variance), with
// dashed lines at ±tol.
func ApproxErrorFigure(title string, mus []float64, sigma float64, degrees []int, maxDP, tol float64) (*plot.Facets, error) {
	if !(sigma > 0) || !(maxDP > 0) {
		return nil, fmt.Errorf("figures: ApproxErrorFigure: sigma = %v and maxDP = %v, need both > 0", sigma, maxDP)
	}
	f := plot.NewFacets(title)
	for mi, mu := range mus {
		p := plot.NewLine(fmt.Sprintf("μ_ik = %.3g σ_ik", mu/sigma)).XLabel("expected count d·p_k").
			XRange(0, maxDP).YRange(-0.6, 1)
		if mi == 0 {
			p.YLabel("(σ²/(d p_k) − Var) / Var")
		}
		for di, d := range degrees {
			if d <= 0 {
				return nil, fmt.Errorf("figures: ApproxErrorFigure: degree %d, need > 0", d)
			}
			x, y, err := approxErrors(mu, sigma, d, maxDP)
			if err != nil {
				return nil, err
			}
			p.Add(plot.Series{Name: fmt.Sprintf("d = %d", d), X: x, Y: y, Color: plot.Color(di)})
		}
		p.HLine(tol, fmt.Sprintf("+%g%%", 100*tol)).HLine(-tol, fmt.Sprintf("−%g%%", 100*tol))
		f.Add(p)
	}
	return f.Size(max(300*len(mus), 500), 400), nil
}

// ApproxValidFrom returns the smallest expected count d p (on the ApproxStep
// grid) from which on the paper's variance sigma^2/(d p) is within tol
// (relative) of the exact one for every larger d p up to d.
func ApproxValidFrom(mu, sigma float64, d int, tol float64) (float64, error) {
	x, y, err := approxErrors(mu, sigma, d, float64(d))
	if err != nil {
		return 0, err
	}
	from := float64(d)
	for n := len(x) - 1; n >= 0; n-- {
		if !(math.Abs(y[n]) <= tol) {
			break
		}
		from = x[n]
	}
	return from, nil
}

// ApproxValidityTable lists ApproxValidFrom for every degree (rows) and mean
// (columns).
func ApproxValidityTable(caption string, mus []float64, sigma float64, degrees []int, tol float64) (*plot.Table, error) {
	head := []string{"d"}
	for _, mu := range mus {
		head = append(head, fmt.Sprintf("μ = %.3g σ", mu/sigma))
	}
	t := plot.NewTable(caption).Header(head...)
	for _, d := range degrees {
		row := []plot.Cell{plot.Num(float64(d), 0)}
		for _, mu := range mus {
			v, err := ApproxValidFrom(mu, sigma, d, tol)
			if err != nil {
				return nil, fmt.Errorf("figures: ApproxValidityTable d=%d mu=%v: %w", d, mu, err)
			}
			row = append(row, plot.Num(v, 2))
		}
		t.Row(row...)
	}
	return t, nil
}
