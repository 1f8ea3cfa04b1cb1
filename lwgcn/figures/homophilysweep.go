package figures

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/lwgcn/toolkit/lwgcn/plot"
	"github.com/lwgcn/toolkit/lwgcn/results"
	"github.com/lwgcn/toolkit/lwgcn/synth"
)

// SweepPoint is one method's test accuracy on the graph generated at one
// (h, d) point of a homophily sweep (experiments.SweepHomophily, Fig. 2).
type SweepPoint struct {
	Method string
	// H and Degree are the targets; RealisedH and RealisedDegree what the
	// generator produced (NaN when not recorded).
	H, Degree, RealisedH, RealisedDegree float64
	// Acc is the test accuracy in % over the point's runs.
	Acc results.Stat
}

// SweepPoints groups the runs of one sweep base (experiments.SweepHomophily
// records Params h, degree, realised_h and realised_degree) into points,
// sorted by degree, method and h. Like report.SweepCurves, each
// (method, point) keeps the runs of the configuration of its most recent
// run.
func SweepPoints(runs []results.Run, base string) []SweepPoint {
	type pkey struct {
		method string
		h, d   float64
	}
	keyOf := func(r results.Run) pkey {
		return pkey{r.Model, math.Round(r.Params["h"]*1000) / 1000, r.Params["degree"]}
	}
	latest := map[pkey]results.Run{}
	for _, r := range runs {
		if r.Dataset != base {
			continue
		}
		k := keyOf(r)
		if old, ok := latest[k]; !ok || r.Provenance.Date >= old.Provenance.Date {
			latest[k] = r
		}
	}
	acc := map[pkey][]float64{}
	rh, rd := map[pkey][]float64{}, map[pkey][]float64{}
	for _, r := range runs {
		if r.Dataset != base {
			continue
		}
		k := keyOf(r)
		if r.Options["config"] != latest[k].Options["config"] {
			continue
		}
		acc[k] = append(acc[k], 100*r.TestAcc)
		if v, ok := r.Params["realised_h"]; ok {
			rh[k] = append(rh[k], v)
		}
		if v, ok := r.Params["realised_degree"]; ok {
			rd[k] = append(rd[k], v)
		}
	}
	var out []SweepPoint
	for k, xs := range acc {
		out = append(out, SweepPoint{Method: k.method, H: k.h, Degree: k.d,
			RealisedH: results.MeanStd(rh[k]).Mean, RealisedDegree: results.MeanStd(rd[k]).Mean, Acc: results.MeanStd(xs)})
	}
	sortPoints(out)
	return out
}

func sortPoints(ps []SweepPoint) {
	sort.Slice(ps, func(i, j int) bool {
		a, b := ps[i], ps[j]
		if a.Degree != b.Degree {
			return a.Degree < b.Degree
		}
		if a.Method != b.Method {
			return a.Method < b.Method
		}
		return a.H < b.H
	})
}

// SweepBases lists the bases (datasets, or "csbm") of sweep runs, sorted.
func SweepBases(runs []results.Run) []string {
	var out []string
	for _, r := range runs {
		if !slices.Contains(out, r.Dataset) {
			out = append(out, r.Dataset)
		}
	}
	slices.Sort(out)
	return out
}

// SweepFigure draws test accuracy against the target homophily h, one panel
// per average degree (the paper's Fig. 2 and its appendix figure), one line
// per method with a ±1 std band over the runs. numClasses >= 2 adds a
// reference line at h = 1/C; methodTitle names the methods (nil: as is).
func SweepFigure(title string, points []SweepPoint, numClasses int, methodTitle func(string) string) *plot.Facets {
	if methodTitle == nil {
		methodTitle = func(s string) string { return s }
	}
	var degrees []float64
	var methods []string
	for _, p := range points {
		if !slices.Contains(degrees, p.Degree) {
			degrees = append(degrees, p.Degree)
		}
		if !slices.Contains(methods, p.Method) {
			methods = append(methods, p.Method)
		}
	}
	slices.Sort(degrees)
	slices.Sort(methods)
	f := plot.NewFacets(title)
	for _, d := range degrees {
		panel := plot.NewLine(fmt.Sprintf("average degree %g", d)).XLabel("homophily h").YLabel("test accuracy (%)")
		for mi, m := range methods {
			var xs, ys, es []float64
			for _, p := range points {
				if p.Degree == d && p.Method == m {
					xs, ys, es = append(xs, p.H), append(ys, p.Acc.Mean), append(es, p.Acc.Std)
				}
			}
			if len(xs) > 0 {
				panel.Add(plot.Series{Name: methodTitle(m), X: xs, Y: ys, Err: es, Markers: true, Color: plot.Color(mi), Shape: plot.ShapeAt(mi)})
			}
		}
		if numClasses >= 2 {
			panel.VLine(1/float64(numClasses), "1/C")
		}
		f.Add(panel)
	}
	return f.Size(max(640, len(degrees)*320), 380)
}

// RealisedFigure shows what the generator produced against its targets:
// realised against target homophily (left) and average degree (right), one
// marker per generated graph, with the identity line. Points of different
// methods on one graph are drawn once.
func RealisedFigure(title string, points []SweepPoint) *plot.Facets {
	type g struct{ h, d float64 }
	seen := map[g]bool{}
	byDeg := map[float64][][2][2]float64{} // per degree: {target h, realised h}, {target d, realised d}
	var degrees []float64
	for _, p := range points {
		k := g{p.H, p.Degree}
		if seen[k] || math.IsNaN(p.RealisedH) {
			continue
		}
		seen[k] = true
		if _, ok := byDeg[p.Degree]; !ok {
			degrees = append(degrees, p.Degree)
		}
		byDeg[p.Degree] = append(byDeg[p.Degree], [2][2]float64{{p.H, p.RealisedH}, {p.Degree, p.RealisedDegree}})
	}
	slices.Sort(degrees)
	hp := plot.NewLine("edge homophily").XLabel("target h").YLabel("realised")
	dp := plot.NewLine("average degree").XLabel("target d").YLabel("realised")
	hp.Add(plot.Series{Name: "realised = target", X: []float64{0, 1}, Y: []float64{0, 1}, Dashed: true, Color: "#999999"})
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, d := range degrees {
		lo, hi = min(lo, d), max(hi, d)
	}
	if len(degrees) > 0 {
		dp.Add(plot.Series{Name: "realised = target", X: []float64{lo * 0.8, hi * 1.1}, Y: []float64{lo * 0.8, hi * 1.1}, Dashed: true, Color: "#999999"})
	}
	for i, d := range degrees {
		var th, rh, td, rd []float64
		for _, q := range byDeg[d] {
			th, rh = append(th, q[0][0]), append(rh, q[0][1])
			td, rd = append(td, q[1][0]), append(rd, q[1][1])
		}
		name := fmt.Sprintf("d = %g", d)
		hp.Add(plot.Series{Name: name, X: th, Y: rh, NoLine: true, Color: plot.Color(i)})
		dp.Add(plot.Series{Name: name, X: td, Y: rd, NoLine: true, Color: plot.Color(i)})
	}
	return plot.NewFacets(title, hp, dp).IndependentY().Size(700, 360)
}

// RealisedTable lists the generator's outcome at every point: targets,
// realised homophily and degree, the number of undirected edges and how
// many random pairs had to be added because the base had too few edges of a
// kind (Algorithm 2's top-up).
func RealisedTable(caption string, rs []synth.Realised) *plot.Table {
	t := plot.NewTable(caption).Header("target h", "realised h", "|error| h", "target d", "realised d",
		"undirected edges", "homophilic", "heterophilic", "homophilic added", "heterophilic added")
	for _, r := range rs {
		t.Row(plot.Num(r.TargetH, 2), plot.Num(r.H, 4), plot.Num(math.Abs(r.H-r.TargetH), 4), plot.Num(r.TargetDegree, 1),
			plot.Num(r.AverageDegree, 3), plot.Num(float64(r.UndirectedEdges), 0), plot.Num(float64(r.Homophilic), 0),
			plot.Num(float64(r.Heterophilic), 0), plot.Num(float64(r.HomophilicAdded), 0), plot.Num(float64(r.HeterophilicAdded), 0))
	}
	return t
}

// DepthFigure draws test accuracy against the number of layers, one panel
// per dataset and one line per method (±1 std band), from
// report.DepthCurves (dataset -> method -> layers -> accuracy in %).
// datasets orders the panels (nil: every dataset, sorted); the titles
// functions name datasets and methods (nil: as is).
func DepthFigure(title string, curves map[string]map[string]map[int]results.Stat, datasets []string,
	datasetTitle, methodTitle func(string) string) *plot.Facets {
	if datasetTitle == nil {
		datasetTitle = func(s string) string { return s }
	}
	if methodTitle == nil {
		methodTitle = func(s string) string { return s }
	}
	if datasets == nil {
		for d := range curves {
			datasets = append(datasets, d)
		}
		slices.Sort(datasets)
	}
	var methods []string
	for _, d := range datasets {
		for m := range curves[d] {
			if !slices.Contains(methods, m) {
				methods = append(methods, m)
			}
		}
	}
	slices.Sort(methods)
	f := plot.NewFacets(title)
	n := 0
	for _, d := range datasets {
		byM, ok := curves[d]
		if !ok {
			continue
		}
		n++
		panel := plot.NewLine(datasetTitle(d)).XLabel("layers").YLabel("test accuracy (%)").IntegerX()
		for mi, m := range methods {
			byL := byM[m]
			var ls []int
			for l := range byL {
				ls = append(ls, l)
			}
			slices.Sort(ls)
			var xs, ys, es []float64
			for _, l := range ls {
				xs, ys, es = append(xs, float64(l)), append(ys, byL[l].Mean), append(es, byL[l].Std)
			}
			if len(xs) > 0 {
				panel.Add(plot.Series{Name: methodTitle(m), X: xs, Y: ys, Err: es, Markers: true, Color: plot.Color(mi), Shape: plot.ShapeAt(mi)})
			}
		}
		f.Add(panel)
	}
	return f.Size(max(640, n*320), 360)
}
