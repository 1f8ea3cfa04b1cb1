package figures

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/lwgcn/toolkit/lwgcn/analysis"
	"github.com/lwgcn/toolkit/lwgcn/plot"
)

// DefaultSimilarityBins is the number of histogram bins over [-1, 1].
const DefaultSimilarityBins = 40

// SimilarityPanel is one model's pair similarities (Fig. 4 panel).
type SimilarityPanel struct {
	Name  string
	Pairs analysis.PairSimilarities
}

// SimilarityHistograms draws, one panel per model, the densities of the
// cosine similarity of intra-class and inter-class node pairs over [-1, 1]
// as step outlines (the paper's Fig. 4). bins < 1 uses
// DefaultSimilarityBins.
func SimilarityHistograms(title string, panels []SimilarityPanel, bins int) *plot.Facets {
	if bins < 1 {
		bins = DefaultSimilarityBins
	}
	f := plot.NewFacets(title)
	for _, p := range panels {
		lp := plot.NewLine(p.Name).XLabel("cosine similarity").YLabel("density").XRange(-1, 1)
		for i, d := range []struct {
			name string
			xs   []float64
		}{{"intra-class pairs", p.Pairs.Intra}, {"inter-class pairs", p.Pairs.Inter}} {
			xs, ys := stepHistogram(d.xs, bins, -1, 1)
			lp.Add(plot.Series{Name: d.name, X: xs, Y: ys, Color: plot.Color(i)})
		}
		f.Add(lp)
	}
	return f.Size(max(1, len(panels))*340, 360)
}

// stepHistogram returns the outline of a density histogram: two points per
// bin edge so that a line draws the steps, starting and ending at 0.
func stepHistogram(values []float64, bins int, lo, hi float64) (xs, ys []float64) {
	dens := plot.HistogramDensity(values, bins, lo, hi)
	if dens == nil {
		return nil, nil
	}
	w := (hi - lo) / float64(bins)
	xs, ys = []float64{lo}, []float64{0}
	for k, d := range dens {
		x0, x1 := lo+float64(k)*w, lo+float64(k+1)*w
		xs = append(xs, x0, x1)
		ys = append(ys, d, d)
	}
	return append(xs, hi), append(ys, 0)
}

// SimilarityTable summarises each panel: the number of pairs, the mean
// cosine of intra- and inter-class pairs, their difference, and the
// probability that a random intra-class pair is more similar than a random
// inter-class one (the area under the ROC curve of the similarity as a
// same-class score; 0.5 means no separation).
func SimilarityTable(caption string, panels []SimilarityPanel) *plot.Table {
	t := plot.NewTable(caption).Header("representation", "intra-class pairs", "inter-class pairs",
		"mean cos (intra)", "mean cos (inter)", "difference", "AUC intra vs inter")
	for _, p := range panels {
		mi, me := p.Pairs.Mean()
		t.Row(plot.Text(p.Name), plot.Num(float64(len(p.Pairs.Intra)), 0), plot.Num(float64(len(p.Pairs.Inter)), 0),
			plot.Num(mi, 3), plot.Num(me, 3), plot.Num(mi-me, 3), plot.Num(AUC(p.Pairs.Intra, p.Pairs.Inter), 3))
	}
	return t.MarkBest(plot.Higher, 5, 6)
}

// AUC is the probability that a value drawn from pos exceeds one drawn from
// neg, ties counting one half (the Mann-Whitney statistic over
// len(pos)*len(neg)); NaN when either is empty.
func AUC(pos, neg []float64) float64 {
	if len(pos) == 0 || len(neg) == 0 {
		return math.NaN()
	}
	type v struct {
		x   float64
		pos bool
	}
	all := make([]v, 0, len(pos)+len(neg))
	for _, x := range pos {
		all = append(all, v{x, true})
	}
	for _, x := range neg {
		all = append(all, v{x, false})
	}
	slices.SortFunc(all, func(a, b v) int {
		switch {
		case a.x < b.x:
			return -1
		case a.x > b.x:
			return 1
		}
		return 0
	})
	// Sum of the (mid-)ranks of pos.
	var rankSum float64
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].x == all[i].x {
			j++
		}
		mid := float64(i+j+1) / 2 // ranks i+1..j
		for k := i; k < j; k++ {
			if all[k].pos {
				rankSum += mid
			}
		}
		i = j
	}
	np, nn := float64(len(pos)), float64(len(neg))
	return (rankSum - np*(np+1)/2) / (np * nn)
}

// NeighbourSimilarityFigure draws, side by side, the C x C similarity
// matrices s(X_ik, X_jk) of the neighbour classes ks (nil: every class);
// distinct draws SimDistinct (pairs of two different nodes) instead of Sim.
// Each panel has its own colour scale, since what matters is the contrast
// within a panel (diagonal against off-diagonal); cells are annotated with
// their values for comparisons across panels. classNames label the classes
// (nil: 0..C-1).
func NeighbourSimilarityFigure(title string, s *analysis.NeighbourSimilarity, ks []int, classNames []string, distinct bool) *Row {
	sim := s.Sim
	if distinct {
		sim = s.SimDistinct
	}
	if ks == nil {
		for k := range s.NumClasses {
			ks = append(ks, k)
		}
	}
	name := func(c int) string {
		if c < len(classNames) {
			return classNames[c]
		}
		return strconv.Itoa(c)
	}
	labels := make([]string, s.NumClasses)
	for c := range labels {
		labels[c] = name(c)
	}
	var figs []plot.Figure
	for _, k := range ks {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, row := range sim[k] {
			for _, x := range row {
				if !math.IsNaN(x) {
					lo, hi = min(lo, x), max(hi, x)
				}
			}
		}
		format := "%.2f"
		switch {
		case hi-lo < 0.005:
			format = "%.4f"
		case hi-lo < 0.05:
			format = "%.3f"
		}
		cell := 48
		if s.NumClasses > 6 {
			cell = 30
		}
		h := plot.NewHeatmap(fmt.Sprintf("neighbours of class %s", name(k)), sim[k]).Rows(labels...).Cols(labels...).
			XLabel("centre class j").YLabel("centre class i").ColorLabel("mean cosine").
			Size(cell*s.NumClasses+170, cell*s.NumClasses+110)
		if s.NumClasses <= 8 {
			h.Annotate(format)
		}
		figs = append(figs, h)
	}
	return NewRow(title, figs...)
}

// Row draws figures side by side in one SVG, under a title (each figure
// keeps its own axes and legend); Wrap starts a new line after every n
// figures.
type Row struct {
	title string
	figs  []plot.Figure
	wrap  int
}

// NewRow starts a row of figures.
func NewRow(title string, figs ...plot.Figure) *Row { return &Row{title: title, figs: figs} }

// Wrap puts at most n figures on a line (n < 1: all on one line).
func (r *Row) Wrap(n int) *Row {
	r.wrap = n
	return r
}

// rowGap is the space between figures of a Row, rowTitleH the title band.
const rowGap, rowTitleH = 12.0, 30.0

// rowPlace is where layout puts one figure of a Row.
type rowPlace struct {
	fig  plot.Figure
	x, y float64
}

// layout places the figures from their Dimensions and returns the row's
// width and height.
func (r *Row) layout() (places []rowPlace, width, height float64) {
	top := 0.0
	if r.title != "" {
		top = rowTitleH
	}
	y, x, lineH, inLine := top, 0.0, 0.0, 0
	for _, f := range r.figs {
		if f == nil {
			continue
		}
		w, h := f.Dimensions()
		if r.wrap > 0 && inLine == r.wrap {
			y += lineH + rowGap
			x, lineH, inLine = 0, 0, 0
		}
		if inLine > 0 {
			x += rowGap
		}
		places = append(places, rowPlace{fig: f, x: x, y: y})
		x += w
		width, lineH = max(width, x), max(lineH, h)
		inLine++
	}
	return places, width, y + lineH
}

// Dimensions implements plot.Figure.
func (r *Row) Dimensions() (w, h float64) {
	_, w, h = r.layout()
	return w, h
}

// SVG renders the row: the figures' own <svg> elements nested at their
// offsets (their ids are already unique per figure).
func (r *Row) SVG() string {
	places, width, height := r.layout()
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="%g" viewBox="0 0 %g %g" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">`+"\n",
		width, height, width, height)
	fmt.Fprintf(&b, `<rect x="0" y="0" width="%g" height="%g" fill="#ffffff"/>`+"\n", width, height)
	if r.title != "" {
		t := htmlEscape(r.title)
		fmt.Fprintf(&b, "<title>%s</title>\n", t)
		fmt.Fprintf(&b, `<text x="%g" y="20" font-size="14.5" font-weight="bold" text-anchor="middle" fill="#222222">%s</text>`+"\n", width/2, t)
	}
	for _, p := range places {
		inner := strings.Replace(strings.TrimSpace(p.fig.SVG()), `<svg xmlns="http://www.w3.org/2000/svg" `, "<svg ", 1)
		inner = strings.Replace(inner, "<svg ", fmt.Sprintf(`<svg x="%s" y="%s" `,
			strconv.FormatFloat(p.x, 'g', -1, 64), strconv.FormatFloat(p.y, 'g', -1, 64)), 1)
		b.WriteString(inner)
		b.WriteString("\n")
	}
	b.WriteString("</svg>\n")
	return b.String()
}

// WriteSVG writes the row to w.
func (r *Row) WriteSVG(w io.Writer) error {
	_, err := io.WriteString(w, r.SVG())
	return err
}

func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}

// NeighbourContrastTable summarises similarity matrices, one row per graph
// and neighbour class k: the mean similarity of same-class centres
// (diagonal) and of different-class centres (off-diagonal) and their ratio,
// over all pairs (the paper's average) and over pairs of two different
// nodes, and |X_ik| for each centre class i. Assumption (ii) holds where the
// diagonal is clearly above the off-diagonal (ratio above 1).
func NeighbourContrastTable(caption string, names []string, sims []*analysis.NeighbourSimilarity) *plot.Table {
	t := plot.NewTable(caption).Groups(plot.Group{Span: 2}, plot.Group{Label: "all pairs (the paper's average)", Span: 3},
		plot.Group{Label: "pairs of different nodes", Span: 3}, plot.Group{Span: 1}).
		Header("graph", "neighbour class k", "i = j", "i ≠ j", "ratio", "i = j", "i ≠ j", "ratio", "|X_ik| for i = 0..C-1")
	for g, s := range sims {
		if s == nil || g >= len(names) {
			continue
		}
		for k := range s.NumClasses {
			d, o := analysis.Contrast(s.Sim[k])
			dd, od := analysis.Contrast(s.SimDistinct[k])
			counts := make([]string, s.NumClasses)
			for i := range counts {
				counts[i] = strconv.Itoa(s.Counts[i][k])
			}
			t.Row(plot.Text(names[g]), plot.Text(strconv.Itoa(k)), plot.Num(d, 4), plot.Num(o, 4), plot.Num(d/o, 2),
				plot.Num(dd, 4), plot.Num(od, 4), plot.Num(dd/od, 2), plot.Text(strings.Join(counts, ", ")))
		}
	}
	return t
}
