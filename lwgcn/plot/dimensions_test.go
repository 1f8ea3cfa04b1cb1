package plot

import (
	"strconv"
	"testing"
)

// TestDimensionsMatchSVG: every figure type's Dimensions equal the width and
// height attributes of its rendered root <svg> (read back with an XML
// parser), for default sizes, sizes that depend on content (panels, cells)
// and set sizes, including one below the minimum that falls back.
func TestDimensionsMatchSVG(t *testing.T) {
	line := func() *LinePlot { return NewLine("p").Add(Series{Name: "s", Y: []float64{1, 3, 2}}) }
	cases := map[string]struct {
		fig  Figure
		w, h float64 // expected, by hand
	}{
		"line default":         {line(), DefaultWidth, DefaultHeight},
		"line set":             {line().Size(700, 333), 700, 333},
		"line too small":       {line().Size(50, 500), DefaultWidth, 500},
		"scatter":              {NewScatter("s").Add(Series{X: []float64{1, 2}, Y: []float64{2, 1}}).Size(300, 200), 300, 200},
		"facets 3 panels":      {NewFacets("f", line(), nil, line(), line()), 3*DefaultPanelWidth + 40, 360},
		"facets set":           {NewFacets("f", line()).Size(900, 410), 900, 410},
		"heatmap 2x3":          {NewHeatmap("h", [][]float64{{1, 2, 3}, {4, 5, 6}}), 60*3 + 260, 60*2 + 150},
		"heatmap 5 empty rows": {NewHeatmap("h", make([][]float64, 5)).Size(0, 0), 320, 60*5 + 150}, // no columns: the minimum width
		"heatmap set":          {NewHeatmap("h", [][]float64{{1}}).Size(410, 390), 410, 390},
		"histogram":            {NewHistogram("x").Add("a", []float64{1, 2, 2, 3}), DefaultWidth, DefaultHeight},
		"histogram set":        {NewHistogram("x").Add("a", []float64{1, 2}).Size(500, 260), 500, 260},
		"bars":                 {NewBars("b").Groups("a", "b").Add(Series{Name: "x", Y: []float64{1, 2}}), DefaultWidth, DefaultHeight},
		"bars set":             {NewBars("b").Add(Series{Y: []float64{1}}).Size(321, 123), 321, 123},
	}
	for name, c := range cases {
		w, h := c.fig.Dimensions()
		if w != c.w || h != c.h {
			t.Errorf("%s: Dimensions %v x %v, want %v x %v", name, w, h, c.w, c.h)
		}
		root := parseSVG(t, c.fig.SVG())[0]
		sw, err1 := strconv.ParseFloat(root.attr["width"], 64)
		sh, err2 := strconv.ParseFloat(root.attr["height"], 64)
		if root.name != "svg" || err1 != nil || err2 != nil || sw != w || sh != h {
			t.Errorf("%s: rendered <%s width=%q height=%q>, Dimensions %v x %v", name, root.name,
				root.attr["width"], root.attr["height"], w, h)
		}
	}
}
