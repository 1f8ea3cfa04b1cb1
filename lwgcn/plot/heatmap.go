package plot

import (
	"fmt"
	"io"
	"math"
)

// Heatmap draws a matrix as coloured cells with row and column labels, a
// colour bar, and optional value annotations. Missing cells (NaN, or short
// rows of a ragged matrix) are drawn light grey.
type Heatmap struct {
	title, xLabel, yLabel string
	colorLabel            string
	width, height         int
	values                [][]float64
	rows, cols            []string
	diverging             bool
	center                float64
	rng                   *[2]float64
	annotate              string
}

// NewHeatmap starts a heatmap of values[row][col] with a sequential colour
// scale (viridis) spanning the data's min and max.
func NewHeatmap(title string, values [][]float64) *Heatmap {
	return &Heatmap{title: title, values: values}
}

// Rows sets the row labels (top to bottom).
func (h *Heatmap) Rows(labels ...string) *Heatmap { h.rows = labels; return h }

// Cols sets the column labels (left to right).
func (h *Heatmap) Cols(labels ...string) *Heatmap { h.cols = labels; return h }

// XLabel sets the title under the column labels.
func (h *Heatmap) XLabel(s string) *Heatmap { h.xLabel = s; return h }

// YLabel sets the title left of the row labels.
func (h *Heatmap) YLabel(s string) *Heatmap { h.yLabel = s; return h }

// ColorLabel sets the colour bar's title.
func (h *Heatmap) ColorLabel(s string) *Heatmap { h.colorLabel = s; return h }

// Diverging switches to a blue-white-red scale centred on center; unless
// Range is set, it spans center ± the largest distance of the data from it.
func (h *Heatmap) Diverging(center float64) *Heatmap {
	h.diverging, h.center = true, center
	return h
}

// Range fixes the colour scale's range; values outside are clamped to its
// end colours. Ignored unless lo < hi.
func (h *Heatmap) Range(lo, hi float64) *Heatmap {
	if lo < hi {
		h.rng = &[2]float64{lo, hi}
	}
	return h
}

// Annotate writes every cell's value with the fmt format (e.g. "%.2f").
func (h *Heatmap) Annotate(format string) *Heatmap { h.annotate = format; return h }

// Size sets the figure size in pixels (default: 60 px cells, at most 640 x 560).
func (h *Heatmap) Size(width, height int) *Heatmap { h.width, h.height = width, height; return h }

// WriteSVG writes the figure to w.
func (h *Heatmap) WriteSVG(w io.Writer) error { return writeSVG(w, h.SVG()) }

func (h *Heatmap) dims() (nr, nc int) {
	nr = len(h.values)
	for _, r := range h.values {
		nc = max(nc, len(r))
	}
	return nr, nc
}

func (h *Heatmap) at(r, c int) float64 {
	if c < len(h.values[r]) {
		return h.values[r][c]
	}
	return math.NaN()
}

// scaleRange returns the colour scale's range.
func (h *Heatmap) scaleRange() (lo, hi float64) {
	if h.rng != nil {
		return h.rng[0], h.rng[1]
	}
	var e extent
	for _, r := range h.values {
		for _, v := range r {
			e.add(v)
		}
	}
	if h.diverging {
		m := 0.0
		if e.ok {
			m = math.Max(math.Abs(e.lo-h.center), math.Abs(e.hi-h.center))
		}
		if m == 0 {
			m = 1
		}
		return h.center - m, h.center + m
	}
	return padRange(e)
}

func (h *Heatmap) cmap() colormap {
	if h.diverging {
		return blueRed
	}
	return viridis
}

func label(labels []string, i int) string {
	if i < len(labels) {
		return labels[i]
	}
	return ""
}

// Dimensions implements Figure.
func (h *Heatmap) Dimensions() (w, ht float64) {
	iw, ih := h.size()
	return float64(iw), float64(ih)
}

// size is the set size, else one that grows with the number of cells.
func (h *Heatmap) size() (w, ht int) {
	nr, nc := h.dims()
	defW := min(640, max(320, 60*nc+260))
	defH := min(560, max(240, 60*nr+150))
	return sizeOr(h.width, defW), sizeOr(h.height, defH)
}

// SVG renders the figure.
func (h *Heatmap) SVG() string {
	nr, nc := h.dims()
	w, ht := h.size()
	fw, fh := float64(w), float64(ht)
	c := newCanvas(w, ht, h.title)
	drawTitle(c, h.title, fw/2)
	top := outerPad + titleHeight(h.title, fw)
	lo, hi := h.scaleRange()
	cm := h.cmap()

	// Colour bar on the right: bar, tick labels, title.
	cbAxis := linearAxis(extent{lo, hi, true}, 5, true)
	cbW := 14.0
	cbRight := 8 + maxWidth(cbAxis.labels, tickSize) + 8
	if h.colorLabel != "" {
		cbRight += labelSize + 6
	}
	rowLabelW := 0.0
	for i := range nr {
		rowLabelW = math.Max(rowLabelW, textWidth(label(h.rows, i), tickSize))
	}
	left := outerPad + rowLabelW + 8
	if h.yLabel != "" {
		left += labelSize + 10
	}
	right := outerPad + cbRight + cbW + 18
	colLabelW := 0.0
	for j := range nc {
		colLabelW = math.Max(colLabelW, textWidth(label(h.cols, j), tickSize))
	}
	layout := func(rotate bool) (cell, bottomM float64) {
		bottomM = outerPad + 18
		if rotate {
			bottomM = outerPad + 10 + colLabelW*0.82 + 6
		}
		if h.xLabel != "" {
			bottomM += labelSize + 8
		}
		cell = math.Min((fw-left-right)/float64(max(nc, 1)), (fh-top-6-bottomM)/float64(max(nr, 1)))
		return math.Max(cell, 1), bottomM
	}
	cell, bottomM := layout(false)
	rotate := colLabelW > cell-4
	if rotate {
		cell, bottomM = layout(true)
	}
	gridW, gridH := cell*float64(nc), cell*float64(nr)
	x0 := left + (fw-left-right-gridW)/2
	y0 := top + 6 + (fh-top-6-bottomM-gridH)/2

	c.printf(`<g class="cells">` + "\n")
	for r := range nr {
		for j := range nc {
			v := h.at(r, j)
			fill := inkNaN
			if finite(v) {
				fill = rgbHex(cm.at((v - lo) / (hi - lo)))
			}
			c.rect(x0+float64(j)*cell, y0+float64(r)*cell, cell, cell, fill,
				fmt.Sprintf(` class="cell" stroke="#ffffff" stroke-width="%s"`, num(math.Min(1, cell/20))))
		}
	}
	c.printf("</g>\n")
	if h.annotate != "" {
		c.printf(`<g class="annotations">` + "\n")
		for r := range nr {
			for j := range nc {
				v := h.at(r, j)
				if !finite(v) {
					continue
				}
				s := typographicMinus(fmt.Sprintf(h.annotate, v))
				size := math.Min(noteSize+1, math.Min(cell*0.32, (cell-4)/math.Max(1, textWidth(s, 1))))
				if size < 6 {
					continue
				}
				// Black or white, whichever contrasts more (WCAG ratio).
				ink := "#000000"
				if l := luminance(cm.at((v - lo) / (hi - lo))); 1.05/(l+0.05) > (l+0.05)/0.05 {
					ink = "#ffffff"
				}
				c.text(x0+(float64(j)+0.5)*cell, y0+(float64(r)+0.5)*cell+size*0.35, s, size, "middle",
					fmt.Sprintf(` class="annotation" fill="%s"`, ink))
			}
		}
		c.printf("</g>\n")
	}

	c.printf(`<g class="tick-labels">` + "\n")
	for r := range nr {
		c.text(x0-6, y0+(float64(r)+0.5)*cell+tickSize*0.35, label(h.rows, r), tickSize, "end", ` class="rowlabel"`)
	}
	for j := range nc {
		x := x0 + (float64(j)+0.5)*cell
		if rotate {
			y := y0 + gridH + 10
			c.printf(`<text class="collabel" x="%s" y="%s" font-size="%s" text-anchor="end" transform="rotate(-40 %s %s)">%s</text>`+"\n",
				num(x), num(y), num(tickSize), num(x), num(y), escape(label(h.cols, j)))
		} else {
			c.text(x, y0+gridH+15, label(h.cols, j), tickSize, "middle", ` class="collabel"`)
		}
	}
	c.printf("</g>\n")
	if h.xLabel != "" {
		c.text(x0+gridW/2, fh-outerPad-2, h.xLabel, labelSize, "middle", ` class="xlabel"`)
	}
	if h.yLabel != "" {
		c.vtext(x0-6-rowLabelW-10, y0+gridH/2, h.yLabel, labelSize, ` class="ylabel"`)
	}

	// Colour bar: a vertical gradient sampled from the colour map.
	cbX := fw - outerPad - cbRight - cbW
	cbAxis.p0, cbAxis.p1 = y0+gridH, y0
	gid := c.id("cbar")
	c.printf(`<defs><linearGradient id="%s" x1="0" y1="1" x2="0" y2="0">`, gid)
	const stops = 16
	for k := 0; k <= stops; k++ {
		t := float64(k) / stops
		c.printf(`<stop offset="%s" stop-color="%s"/>`, num(t), rgbHex(cm.at(t)))
	}
	c.printf("</linearGradient></defs>\n")
	c.printf(`<g class="colorbar" data-min="%s" data-max="%s">`+"\n", fmtData(lo), fmtData(hi))
	c.printf(`<rect x="%s" y="%s" width="%s" height="%s" fill="url(#%s)" stroke="%s" stroke-width="0.8"/>`+"\n",
		num(cbX), num(y0), num(cbW), num(gridH), gid, inkAxis)
	for i, t := range cbAxis.ticks {
		y := cbAxis.px(t)
		c.line(cbX+cbW, y, cbX+cbW+tickLen, y, inkAxis, 1, "")
		c.text(cbX+cbW+tickLen+tickGap, y+tickSize*0.35, cbAxis.labels[i], tickSize, "start", ` class="cbtick"`)
	}
	if h.colorLabel != "" {
		c.vtext(fw-outerPad-2, y0+gridH/2, h.colorLabel, labelSize, ` class="cblabel"`)
	}
	c.printf("</g>\n")
	return c.finish()
}

// fmtData prints a value exactly (shortest round-trip form) for data attributes.
func fmtData(v float64) string { return fmt.Sprint(v) }
