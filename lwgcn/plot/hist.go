package plot

import (
	"io"
)

// DefaultBins is the histogram bin count when Bins is not called.
const DefaultBins = 30

// HistogramDensity bins values into bins equal-width bins over [lo, hi] and
// normalises them to a density (the bars integrate to 1), like numpy's
// histogram(density=True): values outside [lo, hi] and NaNs are ignored, hi
// falls in the last bin. It returns all zeros when no value is in range, and
// nil when bins < 1 or the range is empty.
func HistogramDensity(values []float64, bins int, lo, hi float64) []float64 {
	if bins < 1 || !finite(lo) || !finite(hi) || hi <= lo {
		return nil
	}
	dens := make([]float64, bins)
	width := (hi - lo) / float64(bins)
	n := 0
	for _, v := range values {
		if !finite(v) || v < lo || v > hi {
			continue
		}
		k := int((v - lo) / width)
		k = min(max(k, 0), bins-1)
		dens[k]++
		n++
	}
	if n == 0 {
		return dens
	}
	for k := range dens {
		dens[k] /= float64(n) * width
	}
	return dens
}

type distribution struct {
	name   string
	values []float64
}

// Histogram overlays two or more distributions, each normalised to density,
// as semi-transparent filled bars (default) or step outlines (Steps).
type Histogram struct {
	title, xLabel, yLabel string
	width, height         int
	bins                  int
	rng                   *[2]float64
	dists                 []distribution
	steps                 bool
	legend                LegendPos
}

// NewHistogram starts a histogram; the y axis is titled "density" by default.
func NewHistogram(title string) *Histogram {
	return &Histogram{title: title, yLabel: "density", bins: DefaultBins}
}

// Add appends a distribution; NaN and infinite values are ignored.
func (h *Histogram) Add(name string, values []float64) *Histogram {
	h.dists = append(h.dists, distribution{name, values})
	return h
}

// Bins sets the number of equal-width bins (values < 1 keep the default).
func (h *Histogram) Bins(n int) *Histogram {
	if n >= 1 {
		h.bins = n
	}
	return h
}

// Range sets the binned range (default: min to max over all distributions).
// Ignored unless lo < hi.
func (h *Histogram) Range(lo, hi float64) *Histogram {
	if lo < hi {
		h.rng = &[2]float64{lo, hi}
	}
	return h
}

// Steps draws each distribution as an unfilled step outline.
func (h *Histogram) Steps() *Histogram { h.steps = true; return h }

// XLabel sets the x axis title.
func (h *Histogram) XLabel(s string) *Histogram { h.xLabel = s; return h }

// YLabel sets the y axis title.
func (h *Histogram) YLabel(s string) *Histogram { h.yLabel = s; return h }

// Size sets the figure size in pixels.
func (h *Histogram) Size(width, height int) *Histogram { h.width, h.height = width, height; return h }

// Legend sets the legend placement.
func (h *Histogram) Legend(pos LegendPos) *Histogram { h.legend = pos; return h }

// WriteSVG writes the figure to w.
func (h *Histogram) WriteSVG(w io.Writer) error { return writeSVG(w, h.SVG()) }

// binRange returns the binned range.
func (h *Histogram) binRange() (lo, hi float64) {
	if h.rng != nil {
		return h.rng[0], h.rng[1]
	}
	var e extent
	for _, d := range h.dists {
		for _, v := range d.values {
			e.add(v)
		}
	}
	return padRange(e)
}

// Dimensions implements Figure.
func (h *Histogram) Dimensions() (w, ht float64) {
	iw, ih := h.size()
	return float64(iw), float64(ih)
}

func (h *Histogram) size() (w, ht int) {
	return sizeOr(h.width, DefaultWidth), sizeOr(h.height, DefaultHeight)
}

// SVG renders the figure.
func (h *Histogram) SVG() string {
	w, ht := h.size()
	lo, hi := h.binRange()
	dens := make([][]float64, len(h.dists))
	var ye extent
	ye.add(0)
	for i, d := range h.dists {
		dens[i] = HistogramDensity(d.values, h.bins, lo, hi)
		for _, v := range dens[i] {
			ye.add(v)
		}
	}
	if ye.hi == 0 {
		ye.add(1)
	}
	xe := extent{lo, hi, true}
	var entries []legendEntry
	opacity := 0.35
	if h.steps {
		opacity = 0
	}
	for i, d := range h.dists {
		if d.name != "" {
			entries = append(entries, legendEntry{name: d.name, color: Color(i), patch: true, opacity: opacity})
		}
	}
	pos := h.legend
	if len(entries) == 0 {
		pos = LegendNone
	}
	top := outerPad + titleHeight(h.title, float64(w))
	lw, lh := legendDims(entries)
	render := func(outside bool) (string, bool) {
		extra := 0.0
		if outside {
			extra = lw + legendGap
		}
		f := layoutXY(float64(w), float64(ht), top, xe, ye, h.rng != nil, false, false, h.xLabel, h.yLabel, extra)
		c := newCanvas(w, ht, h.title)
		drawTitle(c, h.title, float64(w)/2)
		drawAxes(c, f.area, &f.xa, &f.ya, axesStyle{xTitle: h.xLabel, yTitle: h.yLabel, noXGrid: true})
		var obs [][2]float64
		width := (hi - lo) / float64(h.bins)
		base := f.ya.px(0)
		c.printf(`<g class="data">` + "\n")
		for i, d := range dens {
			if len(d) == 0 {
				continue
			}
			var p pathBuilder
			p.move(f.xa.px(lo), base)
			for k, v := range d {
				x0, x1 := f.xa.px(lo+float64(k)*width), f.xa.px(lo+float64(k+1)*width)
				y := f.ya.px(v)
				p.to(x0, y)
				p.to(x1, y)
				for yy := y; yy <= base; yy += 6 {
					obs = sampleSegment(obs, x0, yy, x1, yy)
				}
			}
			p.to(f.xa.px(hi), base)
			col := Color(i)
			if h.steps {
				c.printf(`<path class="hist" d="%s" fill="none" stroke="%s" stroke-width="1.8" stroke-linejoin="miter"/>`+"\n", p.String(), col)
			} else {
				p.close()
				c.printf(`<path class="hist" d="%s" fill="%s" fill-opacity="%s" stroke="%s" stroke-width="1.2" stroke-linejoin="miter"/>`+"\n",
					p.String(), col, num(opacity), col)
			}
		}
		c.printf("</g>\n")
		if !drawLegend(c, f.area, pos, outside, lw, lh, obs, entries) {
			return "", false
		}
		return c.finish(), true
	}
	return withLegendFallback(pos, render)
}
