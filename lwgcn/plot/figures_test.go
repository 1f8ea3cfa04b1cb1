package plot

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"
)

var nan = math.NaN()

func TestLinePlotElements(t *testing.T) {
	x := []float64{0, 0.25, 0.5, 0.75, 1}
	p := NewLine(`Accuracy <vs> h & "C"`).XLabel("h").YLabel("accuracy (%)").
		Add(Series{Name: "GCN", X: x, Y: []float64{40, 55, 70, 85, 95}, Err: []float64{2, 2, 3, 2, 1}}).
		Add(Series{Name: "MLP", X: x, Y: []float64{72, 72, 73, 71, 72}, Dashed: true, Markers: true}).
		Add(Series{Name: "MC", X: x, Y: []float64{50, 60, 70, 80, 90}, Err: []float64{5, 5, 5, 5, 5}, NoLine: true}).
		VLine(0.2, "h = 1/C").HLine(50, "chance")
	svg := p.SVG()
	es := parseSVG(t, svg)

	if got := texts(byClass(es, "title")); len(got) != 1 || got[0] != `Accuracy <vs> h & "C"` {
		t.Errorf("title texts %q", got)
	}
	if !strings.Contains(svg, "Accuracy &lt;vs&gt; h &amp; &quot;C&quot;") {
		t.Errorf("title not escaped in the raw SVG")
	}
	if n := len(byClass(es, "line")); n != 2 {
		t.Errorf("%d line paths, want 2 (the markers-only series has none)", n)
	}
	if n := len(byClass(es, "band")); n != 1 {
		t.Errorf("%d bands, want 1", n)
	}
	if n := len(byClass(es, "errbar")); n != 1 {
		t.Errorf("%d error-bar paths, want 1 (markers-only series draws Err as bars)", n)
	}
	if n := len(byClass(es, "marker")); n != 10 {
		t.Errorf("%d markers, want 10", n)
	}
	if n := len(byClass(es, "refline")); n != 2 {
		t.Errorf("%d reference lines, want 2", n)
	}
	if got := strings.Join(texts(byClass(es, "reflabel")), "|"); got != "h = 1/C|chance" {
		t.Errorf("reference labels %q", got)
	}
	if got := strings.Join(texts(byClass(es, "legend-label")), "|"); got != "GCN|MLP|MC" {
		t.Errorf("legend labels %q", got)
	}
	if got := texts(byClass(es, "xlabel")); len(got) != 1 || got[0] != "h" {
		t.Errorf("x label %q", got)
	}
	if got := texts(byClass(es, "ylabel")); len(got) != 1 || got[0] != "accuracy (%)" {
		t.Errorf("y label %q", got)
	}
	// Dashed series is dashed.
	lines := byClass(es, "line")
	if lines[0].attr["stroke-dasharray"] != "" || lines[1].attr["stroke-dasharray"] == "" {
		t.Errorf("dash attributes %q, %q", lines[0].attr["stroke-dasharray"], lines[1].attr["stroke-dasharray"])
	}
	// Ticks cover the data including the error (38 .. 96).
	var yt, xt []float64
	for _, l := range texts(byClass(es, "ytick")) {
		yt = append(yt, parseTick(t, l))
	}
	for _, l := range texts(byClass(es, "xtick")) {
		xt = append(xt, parseTick(t, l))
	}
	checkNiceTicks(t, yt, 38, 96)
	checkNiceTicks(t, xt, 0, 1)
}

// The line path's points must map linearly from data to pixels.
func TestLinePlotGeometry(t *testing.T) {
	p := NewLine("").Add(Series{Name: "s", X: []float64{0, 1, 2}, Y: []float64{0, 10, 5}})
	es := parseSVG(t, p.SVG())
	_, _, pts := pathPoints(t, byClass(es, "line")[0].attr["d"])
	if len(pts) != 3 {
		t.Fatalf("%d points, want 3", len(pts))
	}
	// Equal x steps give equal pixel steps; y=10 is highest (smallest pixel y),
	// and y=5 is halfway between in pixels.
	if d1, d2 := pts[1][0]-pts[0][0], pts[2][0]-pts[1][0]; math.Abs(d1-d2) > 0.02 || d1 <= 0 {
		t.Errorf("x pixel steps %g, %g", d1, d2)
	}
	if mid := (pts[0][1] + pts[1][1]) / 2; math.Abs(pts[2][1]-mid) > 0.02 || pts[1][1] >= pts[0][1] {
		t.Errorf("y pixels %v not linear in the data", pts)
	}
}

func TestNaNPointsAreSkipped(t *testing.T) {
	p := NewLine("nan").Add(Series{Name: "s", X: []float64{0, 1, 2, 3, 4, 5},
		Y: []float64{1, nan, 3, math.Inf(1), 5, 6}, Markers: true})
	es := parseSVG(t, p.SVG())
	if n := len(byClass(es, "marker")); n != 4 {
		t.Errorf("%d markers, want 4 (NaN and Inf skipped)", n)
	}
	moves, lines, _ := pathPoints(t, byClass(es, "line")[0].attr["d"])
	// Points 0 | 2 | 4-5: three runs, one segment.
	if moves != 3 || lines != 1 {
		t.Errorf("line has %d moves and %d segments, want 3 and 1", moves, lines)
	}
	// NaN in X too, and a NaN error skips the band there.
	// Only points 3-4 have a neighbour with x, y and error all finite.
	q := NewLine("").Add(Series{X: []float64{0, nan, 2, 3, 4}, Y: []float64{1, 2, 3, 4, 5}, Err: []float64{1, 1, nan, 1, 1}})
	es = parseSVG(t, q.SVG())
	if n := len(byClass(es, "band")); n != 1 {
		t.Fatalf("%d bands, want 1", n)
	}
	if moves, lines, _ := pathPoints(t, byClass(es, "band")[0].attr["d"]); moves != 1 || lines != 3 {
		t.Errorf("band has %d sub-paths and %d segments, want 1 and 3 (a quadrilateral)", moves, lines)
	}
}

func TestLogYSkipsNonPositive(t *testing.T) {
	p := NewLine("").LogY().Add(Series{Name: "loss", X: []float64{1, 2, 3, 4}, Y: []float64{0.5, 0, -1, 0.002}, Markers: true})
	es := parseSVG(t, p.SVG())
	if n := len(byClass(es, "marker")); n != 2 {
		t.Errorf("%d markers, want 2", n)
	}
	var yt []float64
	for _, l := range texts(byClass(es, "ytick")) {
		yt = append(yt, parseTick(t, l))
	}
	if yt[0] > 0.002 || yt[len(yt)-1] < 0.5 {
		t.Errorf("log ticks %v do not cover [0.002, 0.5]", yt)
	}
	for i := 1; i < len(yt); i++ {
		if r := yt[i] / yt[i-1]; math.Abs(r-10) > 1e-9 && math.Abs(r-2) > 1e-9 && math.Abs(r-2.5) > 1e-9 {
			t.Errorf("log ticks %v not at 1, 2, 5 x 10^k", yt)
		}
	}
}

func TestDegenerateInputsDoNotPanic(t *testing.T) {
	figs := map[string]Figure{
		"empty line":      NewLine(""),
		"empty series":    NewLine("e").Add(Series{Name: "nothing"}),
		"all NaN":         NewLine("n").Add(Series{Name: "n", Y: []float64{nan, nan}}),
		"single point":    NewLine("1").Add(Series{Name: "one", X: []float64{3}, Y: []float64{2}, Err: []float64{0.5}, Markers: true}),
		"constant":        NewLine("c").Add(Series{Name: "c", Y: []float64{2, 2, 2}}),
		"constant zero":   NewLine("z").Add(Series{Name: "z", Y: []float64{0, 0}}),
		"short X":         NewLine("").Add(Series{X: []float64{1}, Y: []float64{1, 2, 3}, Err: []float64{1}}),
		"log empty":       NewLine("").LogY().Add(Series{Y: []float64{-1, 0}}),
		"bad ranges":      NewLine("").XRange(1, 0).YRange(nan, 1).Add(Series{Y: []float64{1, 2}}),
		"tiny size":       NewLine("").Size(1, 1).Add(Series{Y: []float64{1, 2}}),
		"scatter empty":   NewScatter(""),
		"facets empty":    NewFacets("f"),
		"facets nil":      NewFacets("f", nil, NewLine("")),
		"hist empty":      NewHistogram(""),
		"hist NaN":        NewHistogram("").Add("a", []float64{nan}).Add("b", nil),
		"hist constant":   NewHistogram("").Add("a", []float64{1, 1, 1}),
		"heatmap empty":   NewHeatmap("", nil),
		"heatmap ragged":  NewHeatmap("", [][]float64{{1}, {}, {nan, 2, 3}}).Annotate("%.1f"),
		"heatmap const":   NewHeatmap("", [][]float64{{4, 4}}).Diverging(4),
		"bars empty":      NewBars(""),
		"bars NaN":        NewBars("").Groups("a").Add(Series{Name: "x", Y: []float64{nan}}),
		"bars no groups":  NewBars("").Add(Series{Y: []float64{1, -2}, Err: []float64{0.5}}).ValueLabels("%.0f"),
		"bars fixed":      NewBars("").YRange(50, 100).Add(Series{Y: []float64{40, 70, 120}}),
		"many series":     manySeries(),
		"long legend row": NewFacets("", NewLine("").Add(manySeries().series...)),
	}
	for name, f := range figs {
		t.Run(name, func(t *testing.T) {
			es := parseSVG(t, f.SVG())
			for _, e := range es {
				for k, v := range e.attr {
					if strings.Contains(v, "NaN") || strings.Contains(v, "Inf") {
						t.Errorf("<%s %s=%q> carries a non-finite number", e.name, k, v)
					}
				}
			}
		})
	}
}

func manySeries() *LinePlot {
	p := NewLine("many")
	for i := range 12 {
		p.Add(Series{Name: fmt.Sprintf("series number %d", i), Y: []float64{float64(i), float64(i + 1)}, Markers: true})
	}
	return p
}

func TestConstantYGetsPaddedRange(t *testing.T) {
	es := parseSVG(t, NewLine("").Add(Series{Name: "c", Y: []float64{2, 2, 2}}).SVG())
	var yt []float64
	for _, l := range texts(byClass(es, "ytick")) {
		yt = append(yt, parseTick(t, l))
	}
	if len(yt) < 2 || yt[0] >= 2 || yt[len(yt)-1] <= 2 {
		t.Errorf("constant y=2 gets ticks %v, want a range strictly around 2", yt)
	}
}

func TestDeterministicOutput(t *testing.T) {
	build := func() []Figure {
		return []Figure{
			NewLine("a").Add(Series{Name: "s", Y: []float64{1, 3, 2}, Err: []float64{0.1, 0.2, 0.1}}).VLine(1, "v"),
			NewFacets("f", NewLine("p").Add(Series{Name: "s", Y: []float64{1, 2}})),
			NewHistogram("h").Add("a", []float64{1, 2, 2, 3}),
			NewHeatmap("m", [][]float64{{1, 2}, {3, 4}}).Annotate("%.0f"),
			NewBars("b").Groups("g").Add(Series{Name: "s", Y: []float64{1}}),
			NewScatter("s").Add(Series{Name: "s", X: []float64{1, 2}, Y: []float64{1, 2}}),
		}
	}
	a, b := build(), build()
	ids := map[string]bool{}
	for i := range a {
		s1 := a[i].SVG()
		if s1 != b[i].SVG() {
			t.Errorf("figure %d renders differently on two calls", i)
		}
		var buf bytes.Buffer
		if err := a[i].WriteSVG(&buf); err != nil || buf.String() != s1 {
			t.Errorf("figure %d: WriteSVG differs from SVG (err %v)", i, err)
		}
		for _, e := range parseSVG(t, s1) {
			if id := e.attr["id"]; id != "" {
				if ids[id] {
					t.Errorf("id %q used by two figures (would collide when inlined in one page)", id)
				}
				ids[id] = true
			}
		}
	}
}

// legendBox is the legend's frame among a figure's elements.
func legendBox(t *testing.T, es []*elem) *elem {
	t.Helper()
	for _, e := range es {
		if e.name == "rect" && e.inside("legend") {
			return e
		}
	}
	t.Fatal("no legend box")
	return nil
}

// The legend must not cover data: build data that fills the top right and
// check the legend box avoids every marker.
func TestLegendAvoidsData(t *testing.T) {
	var x, y []float64
	for i := range 21 {
		v := float64(i) / 20
		x, y = append(x, v), append(y, v) // diagonal: bottom-left to top-right
	}
	p := NewLine("").Add(Series{Name: "diagonal", X: x, Y: y, Markers: true, Shape: Square})
	es := parseSVG(t, p.SVG())
	legend := legendBox(t, es)
	lx, ly, lw, lh := attrF(t, legend, "x"), attrF(t, legend, "y"), attrF(t, legend, "width"), attrF(t, legend, "height")
	for _, m := range byClass(es, "marker") {
		_, _, pts := pathPoints(t, m.attr["d"])
		for _, q := range pts {
			if q[0] >= lx && q[0] <= lx+lw && q[1] >= ly && q[1] <= ly+lh {
				t.Fatalf("marker corner %v inside legend box (%g, %g, %g, %g)", q, lx, ly, lw, lh)
			}
		}
	}
}

// With data in every corner there is no free place inside the plot: the
// legend goes right of it, past every marker.
func TestLegendMovesOutsideWhenDataFillsThePlot(t *testing.T) {
	var x, y []float64
	for i := range 21 {
		for j := range 21 {
			x, y = append(x, float64(i)/20), append(y, float64(j)/20)
		}
	}
	p := NewScatter("").Add(Series{Name: "grid", X: x, Y: y})
	es := parseSVG(t, p.SVG())
	legend := legendBox(t, es)
	lx := attrF(t, legend, "x")
	for _, m := range byClass(es, "marker") {
		_, _, pts := pathPoints(t, m.attr["d"])
		for _, q := range pts {
			if q[0] >= lx {
				t.Fatalf("marker corner %v at or right of the legend's left edge %g: the legend is inside the plot", q, lx)
			}
		}
	}
}

func TestScatterDrawsMarkersOnly(t *testing.T) {
	p := NewScatter("").Add(Series{Name: "a", X: []float64{1, 2, 3}, Y: []float64{1, 2, nan}}, Series{Name: "b", X: []float64{1}, Y: []float64{3}})
	es := parseSVG(t, p.SVG())
	if n := len(byClass(es, "line")); n != 0 {
		t.Errorf("scatter draws %d lines", n)
	}
	ms := byClass(es, "marker")
	if len(ms) != 3 {
		t.Fatalf("%d markers, want 3", len(ms))
	}
	if ms[0].attr["fill"] != Palette[0] || ms[2].attr["fill"] != Palette[1] {
		t.Errorf("groups not coloured by palette: %q, %q", ms[0].attr["fill"], ms[2].attr["fill"])
	}
}

func TestFacetsShareYAndLegend(t *testing.T) {
	mk := func(title string, scale float64) *LinePlot {
		return NewLine(title).XLabel("h").YLabel("disc").
			Add(Series{Name: "closed form", X: []float64{0, 1}, Y: []float64{0, scale}}).
			Add(Series{Name: "", X: []float64{0, 1}, Y: []float64{0.1, scale}, NoLine: true, Color: Color(0)})
	}
	f := NewFacets("Discriminability", mk("d = 5", 1), mk("d = 10", 2), mk("d = 20", 4))
	es := parseSVG(t, f.SVG())
	if n := len(byClass(es, "panel")); n != 3 {
		t.Fatalf("%d panels, want 3", n)
	}
	if got := strings.Join(texts(byClass(es, "panel-title")), "|"); got != "d = 5|d = 10|d = 20" {
		t.Errorf("panel titles %q", got)
	}
	if got := texts(byClass(es, "legend-label")); len(got) != 1 || got[0] != "closed form" {
		t.Errorf("shared legend %q, want one deduplicated entry", got)
	}
	if n := len(byClass(es, "ylabel")); n != 1 {
		t.Errorf("%d y titles, want 1 (first panel only)", n)
	}
	var yt []float64
	for _, l := range texts(byClass(es, "ytick")) {
		yt = append(yt, parseTick(t, l))
	}
	checkNiceTicks(t, yt, 0, 4) // the union of the panels' ranges
	if n := len(byClass(es, "line")); n != 3 {
		t.Errorf("%d lines, want 3", n)
	}
	// Same data height -> same pixel y in every panel: the top points (y = 1
	// in panel 1 and y = 4 in panel 3) differ, the bottoms (y = 0) agree.
	lines := byClass(es, "line")
	_, _, p1 := pathPoints(t, lines[0].attr["d"])
	_, _, p3 := pathPoints(t, lines[2].attr["d"])
	if p1[0][1] != p3[0][1] || p1[1][1] <= p3[1][1] {
		t.Errorf("panels do not share the y scale: %v vs %v", p1, p3)
	}

	ind := parseSVG(t, NewFacets("", mk("a", 1), mk("b", 100)).IndependentY().SVG())
	if n := len(byClass(ind, "ylabel")); n != 2 {
		t.Errorf("independent y: %d y titles, want 2", n)
	}
}

func TestHistogramDensity(t *testing.T) {
	// In range: 0, 0.1 | 0.5, 0.9, 1.0 (hi goes in the last bin); 2 and NaN ignored.
	got := HistogramDensity([]float64{0, 0.1, 0.5, 0.9, 1.0, 2.0, nan, -0.5}, 2, 0, 1)
	want := []float64{2 / (5 * 0.5), 3 / (5 * 0.5)}
	if len(got) != 2 || math.Abs(got[0]-want[0]) > 1e-12 || math.Abs(got[1]-want[1]) > 1e-12 {
		t.Errorf("density %v, want %v", got, want)
	}
	// Integrates to one.
	vals := make([]float64, 1000)
	for i := range vals {
		vals[i] = math.Sin(float64(i))
	}
	d := HistogramDensity(vals, 17, -1, 1)
	sum := 0.0
	for _, v := range d {
		sum += v * 2 / 17
	}
	if math.Abs(sum-1) > 1e-12 {
		t.Errorf("density integrates to %g", sum)
	}
	if HistogramDensity(vals, 0, 0, 1) != nil || HistogramDensity(vals, 3, 1, 1) != nil {
		t.Errorf("invalid bins/range should give nil")
	}
	if z := HistogramDensity([]float64{5}, 2, 0, 1); z[0] != 0 || z[1] != 0 {
		t.Errorf("no value in range: %v", z)
	}
}

func TestHistogramSVG(t *testing.T) {
	h := NewHistogram("Cosine similarity").XLabel("cos").Bins(4).Range(-1, 1).
		Add("intra-class", []float64{0.6, 0.7, 0.8, 0.9}).
		Add("inter-class", []float64{-0.5, 0.1, 0.2, nan})
	es := parseSVG(t, h.SVG())
	hs := byClass(es, "hist")
	if len(hs) != 2 {
		t.Fatalf("%d histogram paths, want 2", len(hs))
	}
	if hs[0].attr["fill-opacity"] == "" || hs[0].attr["fill"] == "none" {
		t.Errorf("default histogram should be filled and translucent")
	}
	// The intra-class values all fall in bin [0.5, 1): density 4/(4*0.5) = 2,
	// so the y ticks must reach 2.
	var yt []float64
	for _, l := range texts(byClass(es, "ytick")) {
		yt = append(yt, parseTick(t, l))
	}
	checkNiceTicks(t, yt, 0, 2)
	if got := texts(byClass(es, "ylabel")); len(got) != 1 || got[0] != "density" {
		t.Errorf("y label %q", got)
	}
	steps := parseSVG(t, h.Steps().SVG())
	for _, p := range byClass(steps, "hist") {
		if p.attr["fill"] != "none" {
			t.Errorf("step histogram is filled")
		}
	}
}

func TestHeatmap(t *testing.T) {
	m := [][]float64{{0.1, 0.5, -0.3}, {0.2, nan, 0.9}}
	h := NewHeatmap("compat <C>", m).Rows("r0", "r1").Cols("c0", "c1", "c2").Annotate("%.1f").ColorLabel("fraction")
	svg := h.SVG()
	es := parseSVG(t, svg)
	cells := byClass(es, "cell")
	if len(cells) != 6 {
		t.Fatalf("%d cells, want 6", len(cells))
	}
	if cells[4].attr["fill"] != inkNaN {
		t.Errorf("NaN cell filled %q, want the missing colour", cells[4].attr["fill"])
	}
	// Extremes get the colour map's end colours.
	if cells[2].attr["fill"] != "#440154" || cells[5].attr["fill"] != "#fde725" {
		t.Errorf("min/max cells filled %q/%q, want viridis ends", cells[2].attr["fill"], cells[5].attr["fill"])
	}
	ann := texts(byClass(es, "annotation"))
	if strings.Join(ann, " ") != "0.1 0.5 \u22120.3 0.2 0.9" {
		t.Errorf("annotations %q", ann)
	}
	var cb *elem
	for _, e := range es {
		if e.class() == "colorbar" {
			cb = e
		}
	}
	if cb == nil || cb.attr["data-min"] != "-0.3" || cb.attr["data-max"] != "0.9" {
		t.Fatalf("colour bar range %v, want data min -0.3 and max 0.9", cb.attr)
	}
	var ct []float64
	for _, l := range texts(byClass(es, "cbtick")) {
		v := parseTick(t, l)
		if v < -0.3-1e-12 || v > 0.9+1e-12 {
			t.Errorf("colour bar tick %g outside the data range", v)
		}
		ct = append(ct, v)
	}
	if len(ct) < 2 {
		t.Errorf("colour bar ticks %v", ct)
	}
	if !strings.Contains(svg, "compat &lt;C&gt;") {
		t.Errorf("title not escaped")
	}
	if got := strings.Join(texts(byClass(es, "rowlabel")), ",") + ";" + strings.Join(texts(byClass(es, "collabel")), ","); got != "r0,r1;c0,c1,c2" {
		t.Errorf("labels %q", got)
	}

	// Diverging: symmetric around the centre; the centre is the white middle.
	d := parseSVG(t, NewHeatmap("", [][]float64{{-0.2, 0, 0.5}}).Diverging(0).SVG())
	for _, e := range d {
		if e.class() == "colorbar" && (e.attr["data-min"] != "-0.5" || e.attr["data-max"] != "0.5") {
			t.Errorf("diverging range %v, want ±0.5", e.attr)
		}
	}
	if c := byClass(d, "cell"); c[1].attr["fill"] != "#f7f7f7" || c[2].attr["fill"] != "#67001f" {
		t.Errorf("diverging fills %q %q", c[1].attr["fill"], c[2].attr["fill"])
	}
}

func TestBars(t *testing.T) {
	b := NewBars("Ablation").Groups("Cora", "Texas").YLabel("acc").
		Add(Series{Name: "LW-GCN", Y: []float64{80, 40}, Err: []float64{2, 4}}).
		Add(Series{Name: "w/o selection", Y: []float64{60, nan}}).
		ValueLabels("%.1f")
	es := parseSVG(t, b.SVG())
	bars := byClass(es, "bar")
	if len(bars) != 3 {
		t.Fatalf("%d bars, want 3 (NaN skipped)", len(bars))
	}
	// Heights are proportional to the values (bars start at 0).
	h0, h1, h2 := attrF(t, bars[0], "height"), attrF(t, bars[1], "height"), attrF(t, bars[2], "height")
	if math.Abs(h0/h1-2) > 0.01 || math.Abs(h2/h0-0.75) > 0.01 {
		t.Errorf("bar heights %g %g %g not proportional to 80 40 60", h0, h1, h2)
	}
	// Bars of the same series share its colour.
	if bars[0].attr["fill"] != bars[1].attr["fill"] || bars[0].attr["fill"] == bars[2].attr["fill"] {
		t.Errorf("bar colours %q %q %q", bars[0].attr["fill"], bars[1].attr["fill"], bars[2].attr["fill"])
	}
	if n := len(byClass(es, "errbar")); n != 1 {
		t.Errorf("%d error-bar paths, want 1", n)
	}
	if got := strings.Join(texts(byClass(es, "value-label")), " "); got != "80.0 40.0 60.0" {
		t.Errorf("value labels %q", got)
	}
	if got := strings.Join(texts(byClass(es, "xtick")), " "); got != "Cora Texas" {
		t.Errorf("group labels %q", got)
	}
	if got := strings.Join(texts(byClass(es, "legend-label")), "|"); got != "LW-GCN|w/o selection" {
		t.Errorf("legend %q", got)
	}
	var yt []float64
	for _, l := range texts(byClass(es, "ytick")) {
		yt = append(yt, parseTick(t, l))
	}
	checkNiceTicks(t, yt, 0, 82)
}
