package figures

import (
	"fmt"
	"math"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/homophily"
	"github.com/lwgcn/toolkit/lwgcn/plot"
	"github.com/lwgcn/toolkit/lwgcn/theory"
)

// ProbeRow is the empirical discriminability probe of one graph.
type ProbeRow struct {
	Name string
	// H is the graph's edge homophily and Degree its average degree.
	H, Degree float64
	// Oracle groups neighbours by their true labels (Theorem 2's setting).
	Oracle theory.DiscriminabilityReport
	// Pseudo groups them by theory.PseudoLabels (LW-GCN's setting: true
	// labels on training nodes, a logistic regression's predictions
	// elsewhere); nil when not asked for.
	Pseudo *theory.DiscriminabilityReport
}

// Probe runs theory.Discriminability on g with opts (opts.Labels is
// ignored): once with the true labels for the label-wise aggregation and,
// when pseudo is set, once with theory.PseudoLabels.
func Probe(g *graph.Graph, opts theory.DiscriminabilityOptions, pseudo bool) (ProbeRow, error) {
	if g == nil {
		return ProbeRow{}, fmt.Errorf("figures: Probe: nil graph")
	}
	h, err := homophily.EdgeHomophily(g)
	if err != nil {
		return ProbeRow{}, fmt.Errorf("figures: Probe %q: %w", g.Name(), err)
	}
	row := ProbeRow{Name: g.Name(), H: h, Degree: g.AverageDegree()}
	opts.Labels = nil
	if row.Oracle, err = theory.Discriminability(g, opts); err != nil {
		return row, fmt.Errorf("figures: Probe %q: %w", g.Name(), err)
	}
	if !pseudo {
		return row, nil
	}
	if opts.Labels, err = theory.PseudoLabels(g, opts); err != nil {
		return row, fmt.Errorf("figures: Probe %q pseudo labels: %w", g.Name(), err)
	}
	rep, err := theory.Discriminability(g, opts)
	if err != nil {
		return row, fmt.Errorf("figures: Probe %q with pseudo labels: %w", g.Name(), err)
	}
	row.Pseudo = &rep
	return row, nil
}

// ProbeTable lists, per graph, its homophily and degree, the mean Fisher
// ratio per dimension of the raw, GCN and label-wise (oracle) features, and
// the test accuracy of a logistic regression on each (plus label-wise with
// pseudo labels when probed).
func ProbeTable(caption string, rows []ProbeRow) *plot.Table {
	pseudo := false
	for _, r := range rows {
		pseudo = pseudo || r.Pseudo != nil
	}
	accCols := []string{"raw", "GCN", "label-wise"}
	if pseudo {
		accCols = append(accCols, "label-wise (pseudo)")
	}
	t := plot.NewTable(caption).Groups(plot.Group{Label: "", Span: 3},
		plot.Group{Label: "mean Fisher ratio per dimension", Span: 3},
		plot.Group{Label: "test accuracy (%), logistic regression", Span: len(accCols)})
	head := append([]string{"graph", "edge homophily", "avg degree", "raw", "GCN", "label-wise"}, accCols...)
	t.Header(head...)
	for _, r := range rows {
		o := r.Oracle
		cells := []plot.Cell{plot.Text(r.Name), plot.Num(r.H, 3), plot.Num(r.Degree, 1),
			plot.Num(o.Raw.Fisher.Mean, 3), plot.Num(o.GCN.Fisher.Mean, 3), plot.Num(o.LabelWise.Fisher.Mean, 3),
			plot.Num(100*o.Raw.Logistic.Test, 1), plot.Num(100*o.GCN.Logistic.Test, 1), plot.Num(100*o.LabelWise.Logistic.Test, 1)}
		if pseudo {
			v := math.NaN()
			if r.Pseudo != nil {
				v = 100 * r.Pseudo.LabelWise.Logistic.Test
			}
			cells = append(cells, plot.Num(v, 1))
		}
		t.Row(cells...)
	}
	return t
}

// ProbeFigure draws the test accuracy of a logistic regression on the raw,
// GCN and label-wise features against the graphs' edge homophily; with
// numClasses >= 2 it adds reference lines at h = 1/C and at chance accuracy
// 100/C %.
func ProbeFigure(title string, rows []ProbeRow, numClasses int) *plot.LinePlot {
	xs := make([]float64, len(rows))
	raw, gcn, lw, ps := make([]float64, len(rows)), make([]float64, len(rows)), make([]float64, len(rows)), make([]float64, len(rows))
	pseudo := false
	for i, r := range rows {
		xs[i] = r.H
		raw[i], gcn[i], lw[i] = 100*r.Oracle.Raw.Logistic.Test, 100*r.Oracle.GCN.Logistic.Test, 100*r.Oracle.LabelWise.Logistic.Test
		ps[i] = math.NaN()
		if r.Pseudo != nil {
			ps[i], pseudo = 100*r.Pseudo.LabelWise.Logistic.Test, true
		}
	}
	p := plot.NewLine(title).XLabel("edge homophily h").YLabel("test accuracy (%)").
		Add(plot.Series{Name: "raw features x", X: xs, Y: raw, Markers: true},
			plot.Series{Name: "GCN mean z", X: xs, Y: gcn, Markers: true},
			plot.Series{Name: "label-wise (true labels)", X: xs, Y: lw, Markers: true})
	if pseudo {
		p.Add(plot.Series{Name: "label-wise (pseudo labels)", X: xs, Y: ps, Markers: true, Dashed: true})
	}
	if numClasses >= 2 {
		p.VLine(1/float64(numClasses), "1/C").HLine(100/float64(numClasses), "chance")
	}
	return p.YRange(0, 100).Legend(plot.LegendBottomLeft).Size(640, 400)
}

// PredictionTable lists a theory.Prediction's predicted and measured
// ratios.
func PredictionTable(d theory.Prediction) *plot.Table {
	t := plot.NewTable(fmt.Sprintf("Discriminability of classes %d and %d along their mean direction: the theorems (h = %.2f, d = %d, μ and σ from the graph) against the graph", d.I, d.J, d.H, d.Degree)).
		Header("aggregation", "predicted Δ²/pooled Var", "measured", "best block (predicted, measured)")
	t.Row(plot.Text("GCN mean (Theorem 1)"), plot.Num(d.PredictedGCN, 3), plot.Num(d.MeasuredGCN, 3), plot.Text("–"))
	t.Row(plot.Text("label-wise, best a_k (Theorem 2)"), plot.Num(d.PredictedLW, 3), plot.Num(d.MeasuredLW, 3),
		plot.Text(fmt.Sprintf("a_%d, a_%d", d.BestLW, d.BestMeasuredLW)))
	return t
}
