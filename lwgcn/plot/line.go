package plot

import (
	"io"
	"math"
)

// Series is one named data series. Line plots and scatter plots use X, Y and
// Err; bar charts use Y (one value per group) and Err.
type Series struct {
	// Name is the legend entry; a series with an empty name is left out of
	// the legend (e.g. Monte Carlo markers that share a line's colour).
	Name string
	// X and Y are the coordinates; points where either is NaN or infinite
	// are skipped and break the line. A nil X means 0, 1, 2, ...
	X, Y []float64
	// Err is an optional symmetric error (e.g. one std) per point, drawn as a
	// translucent band, or as error bars when ErrorBars is set.
	Err []float64
	// Color is any CSS colour; empty picks Palette by the series' position.
	Color string
	// Dashed draws the line dashed.
	Dashed bool
	// Markers draws a marker at every point.
	Markers bool
	// NoLine draws markers only (implies Markers).
	NoLine bool
	// ErrorBars draws Err as capped vertical bars instead of a band.
	ErrorBars bool
	// Shape is the marker shape; ShapeAuto cycles by the series' position.
	Shape Shape
}

// point returns the i-th point of s.
func (s *Series) point(i int) (x, y, e float64) {
	x = float64(i)
	if s.X != nil {
		x = s.X[i]
	}
	y = s.Y[i]
	e = math.NaN()
	if i < len(s.Err) {
		e = s.Err[i]
	}
	return x, y, e
}

// len is the number of points of s.
func (s *Series) len() int {
	if s.X == nil {
		return len(s.Y)
	}
	return min(len(s.X), len(s.Y))
}

// refLine is a labelled reference line.
type refLine struct {
	at    float64
	label string
}

// LinePlot draws series of (x, y) points as lines and/or markers. Build it
// with NewLine or NewScatter and the chained setters.
type LinePlot struct {
	title, xLabel, yLabel string
	width, height         int
	series                []Series
	vlines, hlines        []refLine
	logY                  bool
	xRange, yRange        *[2]float64
	legend                LegendPos
	scatter               bool
	integerX              bool
}

// NewLine starts a line plot with the given title (empty for none).
func NewLine(title string) *LinePlot { return &LinePlot{title: title} }

// NewScatter starts a scatter plot: a LinePlot whose series draw
// semi-transparent markers only. Use one Series per group to colour by group.
func NewScatter(title string) *LinePlot { return &LinePlot{title: title, scatter: true} }

// XLabel sets the x axis title.
func (p *LinePlot) XLabel(s string) *LinePlot { p.xLabel = s; return p }

// YLabel sets the y axis title.
func (p *LinePlot) YLabel(s string) *LinePlot { p.yLabel = s; return p }

// Size sets the figure size in pixels (values below 120 keep the default).
func (p *LinePlot) Size(width, height int) *LinePlot { p.width, p.height = width, height; return p }

// Add appends series.
func (p *LinePlot) Add(s ...Series) *LinePlot { p.series = append(p.series, s...); return p }

// VLine adds a dashed vertical reference line at x with an optional label
// (e.g. "h = 1/C").
func (p *LinePlot) VLine(x float64, label string) *LinePlot {
	p.vlines = append(p.vlines, refLine{x, label})
	return p
}

// HLine adds a dashed horizontal reference line at y with an optional label
// (e.g. "chance").
func (p *LinePlot) HLine(y float64, label string) *LinePlot {
	p.hlines = append(p.hlines, refLine{y, label})
	return p
}

// IntegerX keeps only whole numbers as x ticks (counts such as layers)
// where the automatic step would fall below 1.
func (p *LinePlot) IntegerX() *LinePlot { p.integerX = true; return p }

// LogY makes the y axis logarithmic (base 10); non-positive values are skipped.
func (p *LinePlot) LogY() *LinePlot { p.logY = true; return p }

// XRange fixes the x range instead of fitting it to the data; data outside
// is clipped. Ignored unless lo < hi.
func (p *LinePlot) XRange(lo, hi float64) *LinePlot {
	if lo < hi {
		p.xRange = &[2]float64{lo, hi}
	}
	return p
}

// YRange fixes the y range (see XRange).
func (p *LinePlot) YRange(lo, hi float64) *LinePlot {
	if lo < hi && (!p.logY || lo > 0) {
		p.yRange = &[2]float64{lo, hi}
	}
	return p
}

// Legend sets the legend placement (default LegendAuto).
func (p *LinePlot) Legend(pos LegendPos) *LinePlot { p.legend = pos; return p }

// WriteSVG writes the figure to w.
func (p *LinePlot) WriteSVG(w io.Writer) error { return writeSVG(w, p.SVG()) }

// styled is a series with its resolved style.
type styled struct {
	*Series
	color          string
	shape          Shape // 0: no markers
	line, band     bool
	bars           bool
	markerR        float64
	markerFillOpac float64
}

func (p *LinePlot) styles() []styled {
	out := make([]styled, len(p.series))
	for i := range p.series {
		s := &p.series[i]
		st := styled{Series: s, color: s.Color, line: !s.NoLine && !p.scatter, markerR: 3.6, markerFillOpac: 1}
		if st.color == "" {
			st.color = Color(i)
		}
		if s.Markers || s.NoLine || p.scatter {
			st.shape = s.Shape
			if st.shape == ShapeAuto {
				st.shape = ShapeAt(i)
			}
		}
		if p.scatter {
			st.markerR, st.markerFillOpac = 3.4, 0.72
		}
		hasErr := false
		for _, e := range s.Err {
			hasErr = hasErr || (finite(e) && e > 0)
		}
		st.bars = hasErr && (s.ErrorBars || !st.line)
		st.band = hasErr && !st.bars
		out[i] = st
	}
	return out
}

func (p *LinePlot) legendEntries(ss []styled) []legendEntry {
	var out []legendEntry
	for _, s := range ss {
		if s.Name == "" || !p.drawable(s) {
			continue
		}
		out = append(out, legendEntry{name: s.Name, color: s.color, line: s.line, dashed: s.Dashed, shape: s.shape, band: s.band})
	}
	return out
}

// drawable reports whether s has a point that can be drawn.
func (p *LinePlot) drawable(s styled) bool {
	for i := range s.len() {
		if x, y, _ := s.point(i); finite(x) && p.validY(y) {
			return true
		}
	}
	return false
}

// validY reports whether y can be drawn (finite, positive on a log axis).
func (p *LinePlot) validY(y float64) bool { return finite(y) && (!p.logY || y > 0) }

// extents returns the data ranges (including error and reference lines), or
// the fixed ranges when set.
func (p *LinePlot) extents(ss []styled) (xe, ye extent) {
	for _, s := range ss {
		for i := range s.len() {
			x, y, e := s.point(i)
			if !finite(x) || !p.validY(y) {
				continue
			}
			xe.add(x)
			ye.add(y)
			if finite(e) {
				ye.add(y + math.Abs(e))
				if p.validY(y - math.Abs(e)) {
					ye.add(y - math.Abs(e))
				}
			}
		}
	}
	for _, r := range p.vlines {
		xe.add(r.at)
	}
	for _, r := range p.hlines {
		if p.validY(r.at) {
			ye.add(r.at)
		}
	}
	if p.xRange != nil {
		xe = extent{p.xRange[0], p.xRange[1], true}
	}
	if p.yRange != nil {
		ye = extent{p.yRange[0], p.yRange[1], true}
	}
	return xe, ye
}

// xyFrame is a laid-out plot area with its axes.
type xyFrame struct {
	area   box
	xa, ya axis
}

// layoutXY fits a plot area into the region [0,w] x [top,h] minus rightExtra.
func layoutXY(w, h, top float64, xe, ye extent, xFixed, yFixed, logY bool, xTitle, yTitle string, rightExtra float64) xyFrame {
	bottom := h - bottomMargin(xTitle)
	top += 6
	var ya axis
	if logY {
		ya = logAxis(ye, yFixed)
	} else {
		ya = linearAxis(ye, tickTarget(bottom-top, 55), yFixed)
	}
	left := leftMargin(&ya, yTitle, true)
	right := 16 + rightExtra
	xa := linearAxis(xe, tickTarget(w-left-right, 85), xFixed)
	if n := len(xa.labels); n > 0 {
		right = math.Max(16, textWidth(xa.labels[n-1], tickSize)/2+6) + rightExtra
		xa = linearAxis(xe, tickTarget(w-left-right, 85), xFixed)
	}
	f := xyFrame{area: box{left, top, w - left - right, bottom - top}, xa: xa, ya: ya}
	f.xa.p0, f.xa.p1 = left, w-right
	f.ya.p0, f.ya.p1 = bottom, top
	return f
}

// Dimensions implements Figure.
func (p *LinePlot) Dimensions() (w, h float64) {
	iw, ih := p.size()
	return float64(iw), float64(ih)
}

func (p *LinePlot) size() (w, h int) {
	return sizeOr(p.width, DefaultWidth), sizeOr(p.height, DefaultHeight)
}

// SVG renders the figure.
func (p *LinePlot) SVG() string {
	w, h := p.size()
	ss := p.styles()
	entries := p.legendEntries(ss)
	pos := p.legend
	if len(entries) == 0 {
		pos = LegendNone
	}
	xe, ye := p.extents(ss)
	top := outerPad + titleHeight(p.title, float64(w))
	lw, lh := legendDims(entries)
	render := func(outside bool) (string, bool) {
		extra := 0.0
		if outside {
			extra = lw + legendGap
		}
		f := layoutXY(float64(w), float64(h), top, xe, ye, p.xRange != nil, p.yRange != nil, p.logY, p.xLabel, p.yLabel, extra)
		if p.integerX {
			f.xa = integerTicks(f.xa)
		}
		c := newCanvas(w, h, p.title)
		drawTitle(c, p.title, float64(w)/2)
		drawAxes(c, f.area, &f.xa, &f.ya, axesStyle{xTitle: p.xLabel, yTitle: p.yLabel})
		obstacles := p.drawData(c, f.area, &f.xa, &f.ya, ss, "clip")
		if !drawLegend(c, f.area, pos, outside, lw, lh, obstacles, entries) {
			return "", false
		}
		return c.finish(), true
	}
	return withLegendFallback(pos, render)
}

// drawData draws reference lines and series inside area, clipped to it, and
// returns the pixel points the legend should avoid.
func (p *LinePlot) drawData(c *canvas, area box, xa, ya *axis, ss []styled, clip string) [][2]float64 {
	var obs [][2]float64
	clipID := c.id(clip)
	c.printf(`<defs><clipPath id="%s"><rect x="%s" y="%s" width="%s" height="%s"/></clipPath>`,
		clipID, num(area.x), num(area.y), num(area.w), num(area.h))
	c.printf(`<clipPath id="%sm"><rect x="%s" y="%s" width="%s" height="%s"/></clipPath></defs>`+"\n",
		clipID, num(area.x-6), num(area.y-6), num(area.w+12), num(area.h+12))

	// Reference lines under the data.
	c.printf(`<g class="reflines" stroke="%s" stroke-width="1" stroke-dasharray="4 3" clip-path="url(#%s)">`+"\n", inkRef, clipID)
	for _, r := range p.vlines {
		if xa.valid(r.at) {
			x := xa.px(r.at)
			c.line(x, area.y, x, area.bottom(), inkRef, 1, ` class="refline"`)
			obs = sampleSegment(obs, x, area.y, x, area.bottom())
		}
	}
	for _, r := range p.hlines {
		if ya.valid(r.at) {
			y := ya.px(r.at)
			c.line(area.x, y, area.right(), y, inkRef, 1, ` class="refline"`)
			obs = sampleSegment(obs, area.x, y, area.right(), y)
		}
	}
	c.printf("</g>\n")

	// px returns the pixel position of point i of s, ok false if it is skipped.
	px := func(s styled, i int) (x, y, e float64, ok bool) {
		dx, dy, de := s.point(i)
		if !xa.valid(dx) || !ya.valid(dy) {
			return 0, 0, 0, false
		}
		return xa.px(dx), ya.px(dy), de, true
	}
	// errPx returns the pixel y of value y±e, clamping at a log axis' bottom.
	errPx := func(y, e float64) (hi, lo float64) {
		up, down := y+math.Abs(e), y-math.Abs(e)
		if !ya.valid(down) {
			return ya.px(up), ya.p0
		}
		return ya.px(up), ya.px(down)
	}

	c.printf(`<g class="data" clip-path="url(#%s)">`+"\n", clipID)
	// Bands first, so every line stays on top of every band.
	for _, s := range ss {
		if !s.band {
			continue
		}
		var d pathBuilder
		var seg [][3]float64 // x, yTop, yBottom
		flush := func() {
			if len(seg) > 1 {
				for k, q := range seg {
					if k == 0 {
						d.move(q[0], q[1])
					} else {
						d.to(q[0], q[1])
					}
				}
				for k := len(seg) - 1; k >= 0; k-- {
					d.to(seg[k][0], seg[k][2])
				}
				d.close()
				for k := 1; k < len(seg); k++ {
					obs = sampleSegment(obs, seg[k-1][0], seg[k-1][1], seg[k][0], seg[k][1])
					obs = sampleSegment(obs, seg[k-1][0], seg[k-1][2], seg[k][0], seg[k][2])
				}
			}
			seg = seg[:0]
		}
		for i := range s.len() {
			x, _, e, ok := px(s, i)
			if !ok || !finite(e) {
				flush()
				continue
			}
			_, dy, _ := s.point(i)
			hi, lo := errPx(dy, e)
			seg = append(seg, [3]float64{x, hi, lo})
		}
		flush()
		if d.Len() > 0 {
			c.printf(`<path class="band" d="%s" fill="%s" fill-opacity="0.18" stroke="none"/>`+"\n", d.String(), s.color)
		}
	}
	for _, s := range ss {
		if !s.line {
			continue
		}
		var d pathBuilder
		var px0, py0 float64
		open := false
		for i := range s.len() {
			x, y, _, ok := px(s, i)
			if !ok {
				open = false
				continue
			}
			if open {
				d.to(x, y)
				obs = sampleSegment(obs, px0, py0, x, y)
			} else {
				d.move(x, y)
				obs = append(obs, [2]float64{x, y})
			}
			px0, py0, open = x, y, true
		}
		if d.Len() == 0 {
			continue
		}
		dash := ""
		if s.Dashed {
			dash = ` stroke-dasharray="6 4"`
		}
		c.printf(`<path class="line" d="%s" fill="none" stroke="%s" stroke-width="2" stroke-linejoin="round" stroke-linecap="round"%s/>`+"\n",
			d.String(), s.color, dash)
	}
	c.printf("</g>\n")

	c.printf(`<g class="points" clip-path="url(#%sm)">`+"\n", clipID)
	for _, s := range ss {
		if !s.bars {
			continue
		}
		var d pathBuilder
		for i := range s.len() {
			x, _, e, ok := px(s, i)
			if !ok || !finite(e) || e == 0 {
				continue
			}
			_, dy, _ := s.point(i)
			hi, lo := errPx(dy, e)
			d.move(x, hi)
			d.to(x, lo)
			d.move(x-3, hi)
			d.to(x+3, hi)
			d.move(x-3, lo)
			d.to(x+3, lo)
			obs = sampleSegment(obs, x, hi, x, lo)
		}
		if d.Len() > 0 {
			c.printf(`<path class="errbar" d="%s" fill="none" stroke="%s" stroke-width="1.2"/>`+"\n", d.String(), s.color)
		}
	}
	for _, s := range ss {
		if s.shape == 0 {
			continue
		}
		stroke := ` stroke="#ffffff" stroke-width="0.8"`
		if p.scatter {
			stroke = ` stroke="none"`
		}
		for i := range s.len() {
			x, y, _, ok := px(s, i)
			if !ok {
				continue
			}
			c.printf(`<path class="marker" d="%s" fill="%s" fill-opacity="%s"%s/>`+"\n",
				markerPath(s.shape, x, y, s.markerR), s.color, num(s.markerFillOpac), stroke)
			obs = append(obs, [2]float64{x, y})
		}
	}
	c.printf("</g>\n")

	// Reference line labels on top, with a white halo for readability.
	halo := ` class="reflabel" fill="` + inkRef + `" stroke="#ffffff" stroke-width="3" stroke-linejoin="round" paint-order="stroke"`
	for _, r := range p.vlines {
		if r.label == "" || !xa.valid(r.at) {
			continue
		}
		x := xa.px(r.at)
		if x < area.x || x > area.right() {
			continue
		}
		anchor, lx := "start", x+4
		if x > area.x+0.75*area.w {
			anchor, lx = "end", x-4
		}
		c.text(lx, area.y+noteSize+2, r.label, noteSize, anchor, halo)
		wl := textWidth(r.label, noteSize)
		if anchor == "end" {
			wl = -wl
		}
		obs = sampleSegment(obs, lx, area.y+noteSize/2+2, lx+wl, area.y+noteSize/2+2)
	}
	for _, r := range p.hlines {
		if r.label == "" || !ya.valid(r.at) {
			continue
		}
		y := ya.px(r.at)
		if y < area.y || y > area.bottom() {
			continue
		}
		ly := y - 4
		if y-area.y < noteSize+4 {
			ly = y + noteSize + 2
		}
		c.text(area.right()-4, ly, r.label, noteSize, "end", halo)
		obs = sampleSegment(obs, area.right()-4-textWidth(r.label, noteSize), ly-noteSize/2, area.right()-4, ly-noteSize/2)
	}
	return obs
}
