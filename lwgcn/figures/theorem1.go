package figures

import (
	"fmt"
	"math"

	"github.com/lwgcn/toolkit/lwgcn/plot"
	"github.com/lwgcn/toolkit/lwgcn/theory"
)

// GCNSweep holds Theorem 1 (GCN mean aggregation) for several settings over
// the homophily ratio h and the degree d.
type GCNSweep struct {
	I, J     int
	Degrees  []int
	Settings []Setting
	// H is the closed-form grid (the requested grid plus every setting's 1/C
	// and h*, so the curves reach their exact zeros).
	H []float64
	// Lines[s][di][hi] is the closed form of setting s at Degrees[di], H[hi].
	Lines [][][]theory.GCNStats
	// GapLines[s] is setting s's gap line: D, S and h* = (D-S)/(CD-S).
	GapLines []theory.GapLine
	// MCH is the Monte Carlo grid and MC[s][di][hi] its estimates (nil
	// without Monte Carlo).
	MCH []float64
	MC  [][][]theory.GCNEstimates
}

// SweepGCN evaluates Theorem 1 for classes i and j of every setting at every
// degree of opts: the closed form on a fine h grid and, when opts.MC is set,
// Monte Carlo estimates (opts.Samples centres per class and point).
func SweepGCN(settings []Setting, i, j int, opts SweepOptions) (*GCNSweep, error) {
	if len(settings) == 0 {
		return nil, fmt.Errorf("figures: SweepGCN: no settings")
	}
	if err := opts.validate(); err != nil {
		return nil, err
	}
	s := &GCNSweep{I: i, J: j, Degrees: append([]int(nil), opts.Degrees...), Settings: settings, MCH: opts.MC}
	var extra []float64
	for _, st := range settings {
		gl, err := st.Params.GCNGapLine(i, j)
		if err != nil {
			return nil, fmt.Errorf("figures: setting %q: %w", st.Name, err)
		}
		s.GapLines = append(s.GapLines, gl)
		extra = append(extra, 1/float64(st.Params.NumClasses()))
		if gl.HStarInRange {
			extra = append(extra, gl.HStar)
		}
	}
	s.H = GridWith(opts.lines(), extra...)
	mc := opts.monteCarlo(len(settings) * len(s.Degrees) * len(opts.MC))
	s.Lines = make([][][]theory.GCNStats, len(settings))
	if mc != nil {
		s.MC = make([][][]theory.GCNEstimates, len(settings))
	}
	for si, st := range settings {
		lines, err := theory.GCNCurve(st.Params, i, j, s.Degrees, s.H, nil)
		if err != nil {
			return nil, fmt.Errorf("figures: setting %q: %w", st.Name, err)
		}
		s.Lines[si] = byDegree(lines, len(s.H), func(p theory.GCNPoint) theory.GCNStats { return p.GCNStats })
		if mc == nil {
			continue
		}
		mc.name = st.Name
		pts, err := theory.GCNCurve(st.Params, i, j, s.Degrees, opts.MC, &mc.opts)
		if err != nil {
			return nil, fmt.Errorf("figures: Monte Carlo, setting %q: %w", st.Name, err)
		}
		s.MC[si] = byDegree(pts, len(opts.MC), func(p theory.GCNPoint) theory.GCNEstimates { return *p.MC })
	}
	return s, nil
}

// hStarLines adds a vertical line at every distinct h* in [0,1], labelled
// "h*" (or "h* = 1/C" when it is 1/C), and one at 1/C labelled "1/C" when no
// h* is there. Labels are short because h* and 1/C are often close.
func (s *GCNSweep) hStarLines(p *plot.LinePlot) {
	var at []float64
	seen := func(x float64) bool {
		for _, y := range at {
			if math.Abs(x-y) < 1e-9 {
				return true
			}
		}
		return false
	}
	for si, gl := range s.GapLines {
		if !gl.HStarInRange || seen(gl.HStar) {
			continue
		}
		at = append(at, gl.HStar)
		label := "h*"
		if math.Abs(gl.HStar-1/float64(s.Settings[si].Params.NumClasses())) < 1e-9 {
			label = "h* = 1/C"
		}
		p.VLine(gl.HStar, label)
	}
	for _, st := range s.Settings {
		if u := 1 / float64(st.Params.NumClasses()); !seen(u) {
			at = append(at, u)
			p.VLine(u, "1/C")
		}
	}
}

// RatioFigure draws the discriminability Delta^2/((Var_i+Var_j)/2) of z
// against h on a log axis, one panel per degree: a line per setting (closed
// form), Monte Carlo markers with ErrorBarSE error bars in the same colour,
// dashed vertical lines at h* and 1/C and a dotted line at ratio 1. The exact
// zero at h* shows as the curve leaving the axis at LogFloor.
func (s *GCNSweep) RatioFigure(title string) *plot.Facets {
	f := plot.NewFacets(title).IndependentY()
	for di, d := range s.Degrees {
		p := plot.NewLine(fmt.Sprintf("d = %d", d)).XLabel("homophily h").LogY()
		var all [][]float64
		if di == 0 {
			p.YLabel("Δ² / ((Var_i + Var_j)/2)")
		}
		for si, st := range s.Settings {
			ys := make([]float64, len(s.H))
			for hi, g := range s.Lines[si][di] {
				ys[hi] = g.Ratio
			}
			p.Add(plot.Series{Name: st.Name + " (closed form)", X: s.H, Y: ys, Color: plot.Color(si)})
			all = append(all, ys)
		}
		for si, st := range s.Settings {
			if s.MC == nil {
				break
			}
			ys, se := make([]float64, len(s.MCH)), make([]float64, len(s.MCH))
			for hi, e := range s.MC[si][di] {
				ys[hi], se[hi] = e.Ratio.Value, e.Ratio.SE
			}
			p.Add(plot.Series{Name: st.Name + fmt.Sprintf(" (Monte Carlo ± %d SE)", ErrorBarSE), X: s.MCH, Y: ys,
				Err: errBars(se), NoLine: true, ErrorBars: true, Color: plot.Color(si), Shape: mcShape(si)})
			all = append(all, ys)
		}
		lo, hi := logRange(LogFloor, all...)
		p.YRange(lo, hi).HLine(1, "")
		s.hStarLines(p)
		f.Add(p)
	}
	return f.Size(max(250*len(s.Degrees), 500), 380)
}

// mcShape gives Monte Carlo markers of setting si a shape of their own.
func mcShape(si int) plot.Shape {
	return []plot.Shape{plot.Circle, plot.Square, plot.Diamond, plot.Triangle, plot.TriangleDown}[si%5]
}

// GapFigure draws the gap Delta(h) = |((hC-1)D + (1-h)S)/(C-1)| of every
// setting (it does not depend on d), with Monte Carlo estimates of the gap at
// the largest degree (the smallest standard errors) and lines at h* and 1/C.
func (s *GCNSweep) GapFigure(title string) *plot.LinePlot {
	p := plot.NewLine(title).XLabel("homophily h").YLabel("gap Δ(h) = |E[z|i] − E[z|j]|")
	for si, st := range s.Settings {
		ys := make([]float64, len(s.H))
		for hi, h := range s.H {
			ys[hi] = s.GapLines[si].Gap(h)
		}
		gl := s.GapLines[si]
		p.Add(plot.Series{Name: fmt.Sprintf("%s: D = %.3g, S = %.3g", st.Name, gl.D, gl.S), X: s.H, Y: ys, Color: plot.Color(si)})
	}
	if s.MC != nil {
		dl := len(s.Degrees) - 1
		for si := range s.Settings {
			ys, se := make([]float64, len(s.MCH)), make([]float64, len(s.MCH))
			for hi, e := range s.MC[si][dl] {
				ys[hi], se[hi] = e.Gap.Value, e.Gap.SE
			}
			name := ""
			if si == 0 {
				name = fmt.Sprintf("Monte Carlo, d = %d (± %d SE)", s.Degrees[dl], ErrorBarSE)
			}
			p.Add(plot.Series{Name: name, X: s.MCH, Y: ys, Err: errBars(se), NoLine: true, ErrorBars: true,
				Color: plot.Color(si), Shape: mcShape(si)})
		}
	}
	s.hStarLines(p)
	return p.Size(640, 400)
}

// HStarTable lists, per setting, D, S, the zero h* = (D-S)/(CD-S) of the gap,
// 1/C, the h minimising the ratio found numerically at every degree (it is h*
// whatever d, since the ratio is 0 there), and Theorem 1's premises.
func (s *GCNSweep) HStarTable(caption string) (*plot.Table, error) {
	t := plot.NewTable(caption)
	head := []string{"setting", "D = μ_ii − μ_jj", "S = Σ_k (μ_ik − μ_jk)", "h* = (D−S)/(CD−S)", "1/C"}
	for _, d := range s.Degrees {
		head = append(head, fmt.Sprintf("d = %d", d))
	}
	head = append(head, "|μ_ii−μ_jj| > |μ_ik−μ_jk| ∀k", "σ_i > σ_ii, σ_j > σ_jj")
	t.Groups(plot.Group{Label: "", Span: 5}, plot.Group{Label: "numerical argmin of the ratio", Span: len(s.Degrees)},
		plot.Group{Label: "Theorem 1's premises", Span: 2})
	t.Header(head...)
	for si, st := range s.Settings {
		gl := s.GapLines[si]
		row := []plot.Cell{plot.Text(st.Name), plot.Num(gl.D, 3), plot.Num(gl.S, 3), plot.Num(gl.HStar, 4),
			plot.Num(1/float64(st.Params.NumClasses()), 4)}
		for _, d := range s.Degrees {
			h, _, err := st.Params.WithDegree(d).GCNRatioMinimum(s.I, s.J)
			if err != nil {
				return nil, fmt.Errorf("figures: setting %q: %w", st.Name, err)
			}
			row = append(row, plot.Num(h, 4))
		}
		pr, err := st.Params.Theorem1Premises(s.I, s.J)
		if err != nil {
			return nil, fmt.Errorf("figures: setting %q: %w", st.Name, err)
		}
		row = append(row, plot.Text(yesNo(pr.MeanGapDominates)), plot.Text(yesNo(pr.SpreadDominates)))
		t.Row(row...)
	}
	return t, nil
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// UniformThreshold are the degree thresholds of non-discriminability at
// h = 1/C for one setting.
type UniformThreshold struct {
	// Exact: the paper's ratio Delta^2/Var(z|i) is below 1 iff d < Exact,
	// where Exact = ((1/C) sum_k sigma_ik^2 + sigma_i^2) / (S/C)^2 (+Inf when
	// S = 0: the gap is 0 and z is non-discriminable at every degree).
	Exact float64
	// Paper is sigma_i^2 / max_k |mu_ik - mu_jk|^2: the corrected statement
	// "d < sigma_i^2/|mu_ik - mu_jk|^2 for all k" is d < Paper, a sufficient
	// condition (Paper <= Exact).
	Paper float64
	// Gap is |S|/C and UnitVar is Var(z|i) at d = 1 (Var(z|i) = UnitVar/d).
	Gap, UnitVar float64
	// SigmaI is the paper's sigma_i and MaxNeighbourGap max_k |mu_ik - mu_jk|.
	SigmaI, MaxNeighbourGap float64
}

// UniformThresholds returns the thresholds of Theorem 1 at h = 1/C. The gap
// is |S|/C from the gap line, with S below 1e-12 times the size of the means
// taken as 0, so that rounding in S = 0 settings does not turn the infinite
// threshold into a huge finite one.
func UniformThresholds(p theory.Params, i, j int) (UniformThreshold, error) {
	u, err := p.WithDegree(1).GCNAtUniformMixing(i, j)
	if err != nil {
		return UniformThreshold{}, err
	}
	gl, err := p.GCNGapLine(i, j)
	if err != nil {
		return UniformThreshold{}, err
	}
	var scale float64
	for k := range p.Mu[i] {
		scale = max(scale, math.Abs(p.Mu[i][k]), math.Abs(p.Mu[j][k]))
	}
	t := UniformThreshold{Gap: gl.GapAtUniform, UnitVar: u.VarI, SigmaI: u.SigmaI, MaxNeighbourGap: u.MaxNeighbourGap,
		Exact: math.Inf(1), Paper: math.Inf(1)}
	if math.Abs(gl.S) <= 1e-12*scale*float64(len(p.Mu)) {
		t.Gap = 0
	}
	if t.Gap > 0 {
		t.Exact = u.VarI / (t.Gap * t.Gap)
	}
	if u.MaxNeighbourGap > 0 {
		t.Paper = u.SigmaI * u.SigmaI / (u.MaxNeighbourGap * u.MaxNeighbourGap)
	}
	return t, nil
}

// UniformMixingFigure draws the paper's ratio Delta^2/Var(z|i) at h = 1/C
// against d = 1..maxDegree for every setting, with the line ratio = 1 and a
// vertical line at each setting's exact threshold (UniformThresholds.Exact)
// that falls in range. The paper's thresholds, usually close to 1, are in
// UniformMixingTable.
func UniformMixingFigure(title string, settings []Setting, i, j, maxDegree int) (*plot.LinePlot, error) {
	if maxDegree < 2 {
		return nil, fmt.Errorf("figures: UniformMixingFigure: maxDegree = %d, need >= 2", maxDegree)
	}
	p := plot.NewLine(title).XLabel("degree d").YLabel("Δ² / Var(z|i) at h = 1/C")
	for si, st := range settings {
		th, err := UniformThresholds(st.Params, i, j)
		if err != nil {
			return nil, fmt.Errorf("figures: setting %q: %w", st.Name, err)
		}
		xs, ys := make([]float64, maxDegree), make([]float64, maxDegree)
		for d := 1; d <= maxDegree; d++ {
			u, err := st.Params.WithDegree(d).GCNAtUniformMixing(i, j)
			if err != nil {
				return nil, fmt.Errorf("figures: setting %q d=%d: %w", st.Name, d, err)
			}
			xs[d-1], ys[d-1] = float64(d), u.RatioI
		}
		name := st.Name
		if th.Gap == 0 {
			name += ": Δ = 0, ratio 0 at every d"
		}
		p.Add(plot.Series{Name: name, X: xs, Y: ys, Color: plot.Color(si), Markers: maxDegree <= 30})
		if th.Exact <= float64(maxDegree) {
			p.VLine(th.Exact, fmt.Sprintf("d = %.3g", th.Exact))
		}
	}
	p.HLine(1, "ratio 1")
	return p.Size(640, 400), nil
}

// UniformMixingTable evaluates Theorem 1 at h = 1/C for every setting and
// degree: the gap |S|/C, Var(z|i), the paper's ratio, whether z is
// non-discriminable (ratio < 1), whether the corrected sufficient condition
// sigma_i > sqrt(d) max_k |mu_ik - mu_jk| holds, and both degree thresholds
// (UniformThresholds).
func UniformMixingTable(caption string, settings []Setting, i, j int, degrees []int) (*plot.Table, error) {
	t := plot.NewTable(caption).Header("setting", "d", "Δ(1/C) = |S|/C", "Var(z|i)", "Δ²/Var(z|i)",
		"non-discriminable (ratio < 1)", "σ_i > √d · max_k |μ_ik − μ_jk|", "exact: ratio < 1 iff d <",
		"paper: σ_i²/max_k |μ_ik − μ_jk|²")
	for _, st := range settings {
		th, err := UniformThresholds(st.Params, i, j)
		if err != nil {
			return nil, fmt.Errorf("figures: setting %q: %w", st.Name, err)
		}
		for _, d := range degrees {
			u, err := st.Params.WithDegree(d).GCNAtUniformMixing(i, j)
			if err != nil {
				return nil, fmt.Errorf("figures: setting %q d=%d: %w", st.Name, d, err)
			}
			t.Row(plot.Text(st.Name), plot.Num(float64(d), 0), plot.Num(th.Gap, 4), plot.Num(u.VarI, 4),
				plot.Num(u.RatioI, 4), plot.Text(yesNo(u.NonDiscriminable)), plot.Text(yesNo(u.PaperCondition)),
				plot.Num(th.Exact, 3), plot.Num(th.Paper, 3))
		}
	}
	return t, nil
}
