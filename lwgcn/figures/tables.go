package figures

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/homophily"
	"github.com/lwgcn/toolkit/lwgcn/paper"
	"github.com/lwgcn/toolkit/lwgcn/plot"
	"github.com/lwgcn/toolkit/lwgcn/results"
)

// LatestProvenance returns the provenance of the most recent run (by date);
// the zero value when runs is empty.
func LatestProvenance(runs []results.Run) results.Provenance {
	var p results.Provenance
	for _, r := range runs {
		if r.Provenance.Date >= p.Date {
			p = r.Provenance
		}
	}
	return p
}

// ProvenanceLine is the footer of a figure or table built from runs:
// "<n> runs; commit ..., backend ..., machine, date" when one commit and
// machine recorded them all, else "<n> runs: <k> at commit ...; <m> at ..."
// (ProvenanceCounts), or "no runs".
func ProvenanceLine(runs []results.Run) string {
	if len(runs) == 0 {
		return "no runs"
	}
	if len(provenanceGroups(runs)) > 1 {
		return fmt.Sprintf("%d runs: %s", len(runs), ProvenanceCounts(runs))
	}
	return fmt.Sprintf("%d runs; %s", len(runs), LatestProvenance(runs))
}

// ProvenanceCounts names every commit and machine that recorded runs, with
// how many each, the latest first: "1080 at commit ..., backend ..., machine,
// date; 12 at ..." (each group's date is its latest run's).
func ProvenanceCounts(runs []results.Run) string {
	groups := provenanceGroups(runs)
	parts := make([]string, len(groups))
	for i, g := range groups {
		parts[i] = fmt.Sprintf("%d at %s", g.n, g.p)
	}
	return strings.Join(parts, "; ")
}

// provenanceGroup is the runs of one commit, machine and backend: their
// count and the latest one's provenance.
type provenanceGroup struct {
	p results.Provenance
	n int
}

// provenanceGroups groups runs by what their provenance line names but the
// date (commit, machine, backend, kernels, forms, XLA flags), the group
// with the latest run first.
func provenanceGroups(runs []results.Run) []*provenanceGroup {
	var groups []*provenanceGroup
	byKey := map[string]*provenanceGroup{}
	for _, r := range runs {
		p := r.Provenance
		p.Date = ""
		k := p.String()
		g := byKey[k]
		if g == nil {
			g = &provenanceGroup{p: r.Provenance}
			byKey[k] = g
			groups = append(groups, g)
		}
		g.n++
		if r.Provenance.Date > g.p.Date {
			g.p = r.Provenance
		}
	}
	slices.SortStableFunc(groups, func(a, b *provenanceGroup) int { return strings.Compare(b.p.Date, a.p.Date) })
	return groups
}

// GraphStatsTable lists, for every graph (one column each), its size, degree
// and every homophily measure of package homophily, with the paper's Table 4
// beside it when paperStats has the graph's name (Table 4 counts edges its
// own way: see datasets' package doc). Measures undefined for a graph print
// "n/a" with the reason in a note.
func GraphStatsTable(caption string, graphs []*graph.Graph, paperStats map[string]paper.Stats) *plot.Table {
	type col struct {
		g     *graph.Graph
		s     graph.Stats
		m     homophily.Measures
		paper *paper.Stats
	}
	var cols []col
	header := []string{"measure"}
	for _, g := range graphs {
		if g == nil {
			continue
		}
		c := col{g: g, s: g.Stats(), m: homophily.All(g)}
		header = append(header, g.Name())
		if p, ok := paperStats[g.Name()]; ok {
			c.paper = &p
			header = append(header, "paper")
		}
		cols = append(cols, c)
	}
	t := plot.NewTable(caption).Header(header...)
	var notes []string
	row := func(name string, ours func(c col) plot.Cell, theirs func(p *paper.Stats) plot.Cell) {
		cells := []plot.Cell{plot.Text(name)}
		for _, c := range cols {
			cells = append(cells, ours(c))
			if c.paper != nil {
				if theirs == nil {
					cells = append(cells, plot.Text(""))
				} else {
					cells = append(cells, theirs(c.paper))
				}
			}
		}
		t.Row(cells...)
	}
	intCell := func(v int) plot.Cell { return plot.Num(float64(v), 0) }
	row("nodes", func(c col) plot.Cell { return intCell(c.s.Nodes) }, func(p *paper.Stats) plot.Cell { return intCell(p.Nodes) })
	row("edges (directed, as stored)", func(c col) plot.Cell { return intCell(c.s.Edges) }, func(p *paper.Stats) plot.Cell { return intCell(p.Edges) })
	row("undirected pairs (no self loops)", func(c col) plot.Cell { return intCell(c.s.UndirectedEdges) }, nil)
	row("self loops", func(c col) plot.Cell { return intCell(c.s.SelfLoops) }, nil)
	row("symmetric edge list", func(c col) plot.Cell { return plot.Text(fmt.Sprint(c.s.Symmetric)) }, nil)
	row("classes", func(c col) plot.Cell { return intCell(c.s.Classes) }, func(p *paper.Stats) plot.Cell { return intCell(p.Classes) })
	row("labelled nodes", func(c col) plot.Cell { return intCell(c.s.LabeledNodes) }, nil)
	row("features", func(c col) plot.Cell {
		kind := "dense"
		if c.s.SparseFeatures {
			kind = "sparse"
		}
		return plot.Text(fmt.Sprintf("%d (%s, %.1f%% non-zero)", c.s.Features, kind, 100*c.s.FeatureDensity))
	}, nil)
	row("average degree (edges/nodes)", func(c col) plot.Cell { return plot.Num(c.s.AverageDegree, 2) }, func(p *paper.Stats) plot.Cell {
		if p.AverageDegree == 0 {
			return plot.Text("–")
		}
		return plot.Num(p.AverageDegree, 2)
	})
	row("isolated nodes", func(c col) plot.Cell { return intCell(c.s.IsolatedNodes) }, nil)
	row("splits", func(c col) plot.Cell { return intCell(c.s.Splits) }, nil)
	measure := func(name, field string, v func(m homophily.Measures) float64, theirs func(p *paper.Stats) plot.Cell) {
		row(name, func(c col) plot.Cell {
			x := v(c.m)
			if math.IsNaN(x) {
				if err := c.m.Undefined[field]; err != nil {
					notes = append(notes, fmt.Sprintf("%s, %s: %v", c.g.Name(), name, err))
				}
				return plot.Text("n/a")
			}
			return plot.Num(x, 3)
		}, theirs)
	}
	measure("edge homophily h (Definition 1)", "Edge", func(m homophily.Measures) float64 { return m.Edge },
		func(p *paper.Stats) plot.Cell { return plot.Num(p.Homophily, 2) })
	measure("node homophily (Pei et al.)", "Node", func(m homophily.Measures) float64 { return m.Node }, nil)
	measure("class-insensitive homophily (Lim et al.)", "ClassInsensitive", func(m homophily.Measures) float64 { return m.ClassInsensitive }, nil)
	measure("adjusted homophily (Platonov et al.)", "Adjusted", func(m homophily.Measures) float64 { return m.Adjusted }, nil)
	measure("label informativeness (Platonov et al.)", "LabelInformativeness", func(m homophily.Measures) float64 { return m.LabelInformativeness }, nil)
	if len(notes) > 0 {
		t.Footer("n/a: " + strings.Join(notes, "; "))
	}
	return t
}

// CompatibilityHeatmap draws the class compatibility matrix: row k is the
// share of class-k centres' neighbours in each class l (rows sum to 1; a
// homophilic graph has a heavy diagonal). classNames label the classes (nil:
// 0..C-1).
func CompatibilityHeatmap(title string, c *homophily.Compatibility, classNames []string) *plot.Heatmap {
	n := len(c.Fractions)
	rows, cols := make([]string, n), make([]string, n)
	for k := range n {
		name := fmt.Sprint(k)
		if k < len(classNames) {
			name = classNames[k]
		}
		rows[k], cols[k] = name, name
	}
	vals := make([][]float64, n)
	for k := range vals {
		vals[k] = append([]float64(nil), c.Fractions[k]...)
		if slices.Contains(c.EmptyRows, k) {
			for l := range vals[k] {
				vals[k][l] = math.NaN()
			}
		}
	}
	return plot.NewHeatmap(title, vals).Rows(rows...).Cols(cols...).Range(0, 1).Annotate("%.2f").
		XLabel("neighbour class l").YLabel("centre class k").ColorLabel("share of neighbours")
}

// Column is one named column of per-split values (NaN: missing), printed
// with Prec decimals.
type Column struct {
	Name   string
	Values []float64
	Prec   int
}

// SplitTable lists per-split values (one row per split, one column per
// Column) and a last row with mean ± population std over the splits.
func SplitTable(caption string, splits []int, cols []Column) *plot.Table {
	header := []string{"split"}
	for _, c := range cols {
		header = append(header, c.Name)
	}
	t := plot.NewTable(caption).Header(header...)
	for i, s := range splits {
		cells := []plot.Cell{plot.Text(fmt.Sprint(s))}
		for _, c := range cols {
			v := math.NaN()
			if i < len(c.Values) {
				v = c.Values[i]
			}
			cells = append(cells, plot.Num(v, c.Prec))
		}
		t.Row(cells...)
	}
	cells := []plot.Cell{plot.Text("mean ± std")}
	for _, c := range cols {
		var xs []float64
		for _, v := range c.Values {
			if !math.IsNaN(v) {
				xs = append(xs, v)
			}
		}
		if len(xs) == 0 {
			cells = append(cells, plot.Num(math.NaN(), c.Prec))
			continue
		}
		st := results.MeanStd(xs)
		cells = append(cells, plot.MeanStd(st.Mean, st.Std, c.Prec))
	}
	return t.Row(cells...)
}

// SplitBars draws per-split values as grouped bars (one group per split,
// one bar per column) with value labels.
func SplitBars(title, yLabel string, splits []int, cols []Column) *plot.Bars {
	groups := make([]string, len(splits))
	for i, s := range splits {
		groups[i] = fmt.Sprintf("split %d", s)
	}
	b := plot.NewBars(title).Groups(groups...).YLabel(yLabel).ValueLabels("%.1f")
	for _, c := range cols {
		b.Add(plot.Series{Name: c.Name, Y: c.Values})
	}
	return b.Size(max(360, 110*len(splits)+160), 360)
}

// EpochCurve is one value per epoch (epoch 1 first) of one run, with the
// run's selected epoch Best (1-based; 0: none).
type EpochCurve struct {
	Name string
	Y    []float64
	Best int
}

// EpochFigure draws curves against the epoch, with a marker at each curve's
// selected epoch (the epoch of best validation accuracy).
func EpochFigure(title, yLabel string, curves []EpochCurve) *plot.LinePlot {
	p := plot.NewLine(title).XLabel("epoch").YLabel(yLabel)
	for i, c := range curves {
		xs := make([]float64, len(c.Y))
		for e := range xs {
			xs[e] = float64(e + 1)
		}
		p.Add(plot.Series{Name: c.Name, X: xs, Y: c.Y, Color: plot.Color(i)})
		if c.Best >= 1 && c.Best <= len(c.Y) {
			p.Add(plot.Series{X: []float64{float64(c.Best)}, Y: []float64{c.Y[c.Best-1]}, Color: plot.Color(i),
				NoLine: true, Shape: plot.Diamond})
		}
	}
	return p.Size(640, 380)
}

// RefineTable lists the refinement extension (results of experiment
// "refine": metrics round<k>_test_acc and round<k>_pseudo_acc per run): per
// dataset and method, the test accuracy after every round and the accuracy
// of the pseudo-labels each round used, in %.
func RefineTable(caption string, runs []results.Run, datasetTitle func(string) string) *plot.Table {
	if datasetTitle == nil {
		datasetTitle = func(s string) string { return s }
	}
	type key struct{ dataset, model string }
	groups := map[key][]results.Run{}
	var keys []key
	rounds := 0
	for _, r := range runs {
		k := key{r.Dataset, r.Model}
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], r)
		for m := range r.Metrics {
			var n int
			if _, err := fmt.Sscanf(m, "round%d_test_acc", &n); err == nil {
				rounds = max(rounds, n+1)
			}
		}
	}
	slices.SortFunc(keys, func(a, b key) int { return strings.Compare(a.dataset+"/"+a.model, b.dataset+"/"+b.model) })
	header := []string{"dataset", "method", "runs"}
	for range 2 {
		for k := range rounds {
			header = append(header, fmt.Sprintf("round %d", k))
		}
	}
	t := plot.NewTable(caption).Header(header...)
	if rounds > 0 {
		t.Groups(plot.Group{Span: 3}, plot.Group{Label: "test accuracy (%)", Span: rounds},
			plot.Group{Label: "pseudo-label accuracy on test nodes (%)", Span: rounds})
	}
	stat := func(rs []results.Run, metric string) plot.Cell {
		var xs []float64
		for _, r := range rs {
			if v, ok := r.Metrics[metric]; ok {
				xs = append(xs, 100*v)
			}
		}
		if len(xs) == 0 {
			return plot.Text("–")
		}
		s := results.MeanStd(xs)
		return plot.MeanStd(s.Mean, s.Std, 1)
	}
	for _, k := range keys {
		rs := groups[k]
		cells := []plot.Cell{plot.Text(datasetTitle(k.dataset)), plot.Text(k.model), plot.Num(float64(len(rs)), 0)}
		for r := range rounds {
			cells = append(cells, stat(rs, fmt.Sprintf("round%d_test_acc", r)))
		}
		for r := range rounds {
			cells = append(cells, stat(rs, fmt.Sprintf("round%d_pseudo_acc", r)))
		}
		t.Row(cells...)
	}
	if len(runs) > 0 {
		t.Footer(ProvenanceLine(runs))
	}
	return t
}

// SpeedRow is one measured full LW-GCN epoch against the authors' PyTorch
// time on the same kind of CPU.
type SpeedRow struct {
	Dataset string
	// MsPerEpoch is wall time, CPUMs process CPU time (all threads).
	MsPerEpoch, CPUMs float64
	PeakRSS           uint64
	// PyTorchMs is the authors' code's epoch and Goal the speed-up asked
	// for (0: unknown).
	PyTorchMs, Goal float64
	Provenance      results.Provenance
}

// ReadSpeedRows reads the benchmark file `lwgcn bench` writes
// (results/bench-lwgcn.json, read by results.ReadEpochBench) and
// attaches the PyTorch times of pytorch (report.PyTorchEpochMs).
func ReadSpeedRows(path string, pytorch map[string]struct{ Ms, Goal float64 }) ([]SpeedRow, error) {
	recs, err := results.ReadEpochBench(path)
	if err != nil {
		return nil, fmt.Errorf("figures: %w", err)
	}
	rows := make([]SpeedRow, len(recs))
	for i, r := range recs {
		t := pytorch[r.Dataset]
		rows[i] = SpeedRow{Dataset: r.Dataset, MsPerEpoch: r.MsPerEpoch, CPUMs: r.CPUMs, PeakRSS: r.PeakRSS,
			PyTorchMs: t.Ms, Goal: t.Goal, Provenance: r.Provenance}
	}
	return rows, nil
}

// SpeedTable lists ours against PyTorch per dataset: ms per epoch (wall and
// CPU), peak memory, the speed-up PyTorch/ours and whether it meets the goal.
func SpeedTable(caption string, rows []SpeedRow, datasetTitle func(string) string) *plot.Table {
	if datasetTitle == nil {
		datasetTitle = func(s string) string { return s }
	}
	t := plot.NewTable(caption).Header("dataset", "ours ms/epoch", "CPU ms/epoch", "peak RSS (MiB)",
		"PyTorch ms/epoch", "speed-up", "goal", "met?")
	var prov results.Provenance
	for _, r := range rows {
		speed, goal, met := plot.Text("–"), plot.Text("–"), plot.Text("–")
		pt := plot.Text("–")
		if r.PyTorchMs > 0 {
			sp := r.PyTorchMs / r.MsPerEpoch
			pt = plot.Num(r.PyTorchMs, 0)
			speed = plot.Text(fmt.Sprintf("%.1f×", sp))
			if r.Goal > 0 {
				goal = plot.Text(fmt.Sprintf("%g×", r.Goal))
				met = plot.Text(map[bool]string{true: "yes", false: "no"}[sp >= r.Goal])
			}
		}
		t.Row(plot.Text(datasetTitle(r.Dataset)), plot.Num(r.MsPerEpoch, 1), plot.Num(r.CPUMs, 1),
			plot.Num(float64(r.PeakRSS)/(1<<20), 0), pt, speed, goal, met)
		if r.Provenance.Date >= prov.Date {
			prov = r.Provenance
		}
	}
	if prov.Date != "" {
		t.Footer(prov.String())
	}
	return t
}
