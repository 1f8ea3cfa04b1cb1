package figures

import (
	"encoding/xml"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/analysis"
	"github.com/lwgcn/toolkit/lwgcn/plot"
)

func TestAUC(t *testing.T) {
	// Pairs: 2>1, 2=2 (1/2), 3>1, 3>2: 3.5 of 4.
	if got := AUC([]float64{2, 3}, []float64{1, 2}); got != 0.875 {
		t.Errorf("AUC = %v, want 0.875", got)
	}
	if got := AUC([]float64{1}, []float64{1}); got != 0.5 {
		t.Errorf("AUC of ties = %v, want 0.5", got)
	}
	if !math.IsNaN(AUC(nil, []float64{1})) {
		t.Error("AUC of empty group is not NaN")
	}
}

func TestSimilarityHistograms(t *testing.T) {
	xs, ys := stepHistogram([]float64{-0.5, 0.5, 0.7}, 2, -1, 1)
	// Densities: 1/3 and 2/3 of the mass over bins of width 1.
	wantX := []float64{-1, -1, 0, 0, 1, 1}
	wantY := []float64{0, 1.0 / 3, 1.0 / 3, 2.0 / 3, 2.0 / 3, 0}
	if !slices.Equal(xs, wantX) || len(ys) != len(wantY) {
		t.Fatalf("step x %v y %v", xs, ys)
	}
	for i := range ys {
		if math.Abs(ys[i]-wantY[i]) > 1e-12 {
			t.Errorf("step y %v, want %v", ys, wantY)
		}
	}
	panels := []SimilarityPanel{
		{Name: "GCN", Pairs: analysis.PairSimilarities{Intra: []float64{0.9, 0.8}, Inter: []float64{0.85, 0.9}}},
		{Name: "LW-GCN", Pairs: analysis.PairSimilarities{Intra: []float64{0.9, 0.8}, Inter: []float64{-0.2, 0.1}}},
	}
	checkSVG(t, "SimilarityHistograms", SimilarityHistograms("sim", panels, 20).SVG(), "GCN", "LW-GCN", "intra-class pairs", "inter-class pairs")
	md := SimilarityTable("sim", panels).Markdown()
	// GCN: intra mean 0.85, inter 0.875; AUC: 0.9 vs {0.85: 1, 0.9: .5}, 0.8 vs {0, 0} -> 1.5/4.
	for _, want := range []string{"| GCN | 2 | 2 | 0.850 | 0.875 | <ins>-0.025</ins> | <ins>0.375</ins> |", "| LW-GCN | 2 | 2 | 0.850 | -0.050 | **0.900** | **1.000** |"} {
		if !strings.Contains(md, want) {
			t.Errorf("SimilarityTable lacks %q:\n%s", want, md)
		}
	}
}

func TestNeighbourSimilarityFigure(t *testing.T) {
	s := &analysis.NeighbourSimilarity{NumClasses: 2,
		Sim:         [][][]float64{{{1, 0.2}, {0.2, 0.9}}, {{0.5, math.NaN()}, {math.NaN(), math.NaN()}}},
		SimDistinct: [][][]float64{{{0.8, 0.1}, {0.1, 0.7}}, {{0.25, math.NaN()}, {math.NaN(), math.NaN()}}},
		Counts:      [][]int{{3, 1}, {2, 0}}}
	row := NeighbourSimilarityFigure("sims", s, nil, []string{"a", "b"}, false)
	svg := row.SVG()
	checkSVG(t, "NeighbourSimilarityFigure", svg, "neighbours of class a", "neighbours of class b", "0.90", "centre class j")
	if n := strings.Count(svg, "<svg"); n != 3 {
		t.Errorf("%d <svg> elements, want the row and 2 panels", n)
	}
	if !strings.Contains(svg, `<svg x="0" y="30" `) {
		t.Errorf("first panel not placed under the title:\n%.300s", svg)
	}
	// Wrapped: the second panel goes under the first.
	wrapped := NeighbourSimilarityFigure("sims", s, nil, nil, true).Wrap(1).SVG()
	if !strings.Contains(wrapped, ">0.80<") || strings.Contains(wrapped, ">0.90<") {
		t.Errorf("distinct panels do not show SimDistinct")
	}
	if !strings.Contains(wrapped, `<svg x="0" y="30" `) || strings.Count(wrapped, `<svg x="0" y="`) != 2 {
		t.Errorf("Wrap(1) does not stack the panels:\n%.400s", wrapped)
	}
	md := NeighbourContrastTable("contrast", []string{"g"}, []*analysis.NeighbourSimilarity{s}).Markdown()
	// k = 0: diagonal (1 + 0.9)/2 = 0.95, off-diagonal 0.2 (ratio 4.75); distinct 0.75 and 0.1 (7.5).
	if !strings.Contains(md, "| g | 0 | 0.9500 | 0.2000 | 4.75 | 0.7500 | 0.1000 | 7.50 | 3, 2 |") ||
		!strings.Contains(md, "| g | 1 | 0.5000 | – | – | 0.2500 | – | – | 1, 0 |") {
		t.Errorf("NeighbourContrastTable:\n%s", md)
	}
}

// TestRowDimensions: a Row's Dimensions equal its rendered width and height
// (read back with an XML parser) and follow from its figures' own sizes:
// 300 + 12 + 200 wide on one line; wrapped after 1, the widest figure and
// the two heights plus the gap, under the 30-pixel title band.
func TestRowDimensions(t *testing.T) {
	a := plot.NewLine("a").Add(plot.Series{Y: []float64{1, 2}}).Size(300, 150)
	b := plot.NewHeatmap("b", [][]float64{{1, 2}, {3, 4}}).Size(200, 180)
	for _, c := range []struct {
		row  *Row
		w, h float64
	}{
		{NewRow("", a, nil, b), 300 + 12 + 200, 180},
		{NewRow("title", a, b).Wrap(1), 300, 30 + 150 + 12 + 180},
		{NewRow("empty"), 0, 30},
	} {
		w, h := c.row.Dimensions()
		if w != c.w || h != c.h {
			t.Errorf("row %q: Dimensions %v x %v, want %v x %v", c.row.title, w, h, c.w, c.h)
		}
		var root struct {
			XMLName xml.Name
			Width   float64 `xml:"width,attr"`
			Height  float64 `xml:"height,attr"`
		}
		if err := xml.Unmarshal([]byte(c.row.SVG()), &root); err != nil {
			t.Fatalf("row %q: %v", c.row.title, err)
		}
		if root.XMLName.Local != "svg" || root.Width != w || root.Height != h {
			t.Errorf("row %q: rendered <%s width=%v height=%v>, Dimensions %v x %v", c.row.title, root.XMLName.Local,
				root.Width, root.Height, w, h)
		}
	}
}
