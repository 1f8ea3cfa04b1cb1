package explore

import (
	"fmt"

	"github.com/lwgcn/toolkit/lwgcn/figures"
	"github.com/lwgcn/toolkit/lwgcn/notebook"
	"github.com/lwgcn/toolkit/lwgcn/plot"
	"github.com/lwgcn/toolkit/lwgcn/theory"
)

// Theorem parameters shared by both explorers: the classes compared, the
// neighbour standard deviation and the own-class spread of the notebooks'
// settings (figures.ContextMeans).
const (
	classI, classJ = 0, 1
	sigma          = 1.0
	spread         = 2.0
)

// theoremControls are the sliders of both theorem explorers.
func theoremControls(context float64) []notebook.Control {
	return []notebook.Control{
		notebook.Slider("h", 0, 1, 0.05, 0.35),
		notebook.Slider("d", 1, 50, 1, 5),
		notebook.Slider("C", 2, 8, 1, 3),
		notebook.Slider("context", 0, 3, 0.25, context),
		notebook.Slider("tilt", -1, 1, 0.1, 0.5),
	}
}

// theoremSettings are the notebooks' settings A (context means, S = 0) and B
// (A with class I's heterophilic neighbours shifted by tilt) for the values.
func theoremSettings(v notebook.Values) ([]figures.Setting, error) {
	c := v.Int("C")
	muA := figures.ContextMeans(c, spread, v.Float("context"))
	muB := figures.ShiftHeterophilic(muA, classI, v.Float("tilt"))
	a, err := figures.NewSetting("A (S = 0)", muA, theory.ConstantMatrix(c, sigma))
	if err != nil {
		return nil, err
	}
	b, err := figures.NewSetting(fmt.Sprintf("B (tilt %g)", v.Float("tilt")), muB, theory.ConstantMatrix(c, sigma))
	if err != nil {
		return nil, err
	}
	return []figures.Setting{a, b}, nil
}

// Theorem1 explores Theorem 1 (GCN's mean aggregation) in closed form:
// sliders for h, d, C, the context shift and setting B's tilt redraw the
// discriminability and gap curves of settings A and B at degree d, and a
// table of both at the chosen h.
func Theorem1() *notebook.Explorer {
	return &notebook.Explorer{
		Title:    "Theorem 1, live: move h, d, C, the context shift and setting B's tilt",
		Controls: theoremControls(1),
		Draw:     DrawTheorem1,
	}
}

// DrawTheorem1 is Theorem1's view for the values v.
func DrawTheorem1(v notebook.Values) (*notebook.View, error) {
	settings, err := theoremSettings(v)
	if err != nil {
		return nil, err
	}
	d, h := v.Int("d"), v.Float("h")
	sweep, err := figures.SweepGCN(settings, classI, classJ, figures.SweepOptions{Degrees: []int{d}})
	if err != nil {
		return nil, err
	}
	t := plot.NewTable(fmt.Sprintf("Theorem 1 at h = %s, d = %d, C = %d (classes %d and %d)", fmtG(h), d, v.Int("C"), classI, classJ)).
		Header("setting", "h*", "Δ(h)", "Var(z|i)", "Δ²/pooled Var", "Δ²/Var(z|i)")
	for _, s := range settings {
		g, err := s.Params.WithDegree(d).WithH(h).GCN(classI, classJ)
		if err != nil {
			return nil, fmt.Errorf("setting %q: %w", s.Name, err)
		}
		gl, err := s.Params.GCNGapLine(classI, classJ)
		if err != nil {
			return nil, fmt.Errorf("setting %q: %w", s.Name, err)
		}
		t.Row(plot.Text(s.Name), plot.Num(gl.HStar, 3), plot.Num(g.Gap, 3), plot.Num(g.VarI, 3), plot.Num(g.Ratio, 3), plot.Num(g.RatioI, 3))
	}
	return notebook.NewView().
		Plot(sweep.RatioFigure(fmt.Sprintf("Discriminability of the GCN mean z, d = %d, C = %d", d, v.Int("C")))).
		Plot(sweep.GapFigure("The gap Δ(h), zero at h* = (D−S)/(CD−S)")).
		Table(t), nil
}

// Theorem2 explores Theorem 2 (label-wise aggregation) in closed form for
// the context-means setting with setting B's tilt: sliders redraw the GCN
// against label-wise comparison, the bound and the condition table at
// degree d, and a table of the per-class blocks at the chosen h.
func Theorem2() *notebook.Explorer {
	return &notebook.Explorer{
		Title:    "Theorem 2, live: move h, d, C, the context shift and the tilt",
		Controls: theoremControls(2),
		Draw:     DrawTheorem2,
	}
}

// DrawTheorem2 is Theorem2's view for the values v.
func DrawTheorem2(v notebook.Values) (*notebook.View, error) {
	settings, err := theoremSettings(v)
	if err != nil {
		return nil, err
	}
	s := settings[1] // B: tilt 0 is the plain context setting
	d, h := v.Int("d"), v.Float("h")
	sweep, err := figures.SweepLabelWise(s, classI, classJ, figures.SweepOptions{Degrees: []int{d}})
	if err != nil {
		return nil, err
	}
	cond, err := sweep.ConditionTable(fmt.Sprintf("Theorem 2's condition and the exact ratio, context %g, tilt %g", v.Float("context"), v.Float("tilt")))
	if err != nil {
		return nil, err
	}
	lw, err := s.Params.WithDegree(d).WithH(h).LabelWise(classI, classJ)
	if err != nil {
		return nil, err
	}
	g, err := s.Params.WithDegree(d).WithH(h).GCN(classI, classJ)
	if err != nil {
		return nil, err
	}
	t := plot.NewTable(fmt.Sprintf("At h = %s, d = %d: GCN against the label-wise blocks a_k", fmtG(h), d)).
		Header("representation", "Δ²/Var(·|i), exact", "paper's approximation")
	t.Row(plot.Text("GCN mean z"), plot.Num(g.RatioI, 3), plot.Text("–"))
	for k, st := range lw.PerClass {
		t.Row(plot.Text(fmt.Sprintf("a_%d", k)), plot.Num(st.RatioI, 3), plot.Num(st.ApproxRatioI, 3))
	}
	t.Row(plot.Text(fmt.Sprintf("bound (condition %s)", yesNo(lw.Condition))), plot.Text(""), plot.Num(lw.Bound, 3))
	return notebook.NewView().
		Plot(sweep.CompareFigure(fmt.Sprintf("GCN mean vs label-wise aggregation, d = %d, C = %d", d, v.Int("C")))).
		Plot(sweep.BoundFigure("Theorem 2's bound against the exact ratio")).
		Table(t).Table(cond), nil
}

func yesNo(b bool) string {
	if b {
		return "holds"
	}
	return "fails"
}

func fmtG(x float64) string { return fmt.Sprintf("%.3g", x) }
