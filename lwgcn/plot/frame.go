package plot

import (
	"math"
	"strings"
)

// box is a pixel rectangle; (x, y) is its top-left corner.
type box struct{ x, y, w, h float64 }

func (b box) right() float64  { return b.x + b.w }
func (b box) bottom() float64 { return b.y + b.h }
func (b box) contains(x, y, pad float64) bool {
	return x >= b.x-pad && x <= b.right()+pad && y >= b.y-pad && y <= b.bottom()+pad
}

// Layout constants (pixels).
const (
	outerPad     = 10.0 // figure edge to content
	titleBand    = 28.0 // height taken by a figure title
	tickLen      = 4.0
	tickGap      = 3.0  // tick mark to tick label
	xTickBand    = 17.0 // spine to x tick label baseline
	xTitleBand   = 19.0 // x tick label baseline to x title baseline
	legendRowH   = 17.0
	legendSwatch = 24.0
	legendPad    = 7.0
	legendGap    = 12.0 // legend to plot area (outside placements)
)

// LegendPos places the legend of a figure.
type LegendPos int

const (
	// LegendAuto puts the legend in the inside corner that covers the least
	// data, or to the right of the plot when every corner would cover some.
	LegendAuto LegendPos = iota
	LegendTopRight
	LegendTopLeft
	LegendBottomRight
	LegendBottomLeft
	// LegendRight puts the legend outside, to the right of the plot area.
	LegendRight
	// LegendNone hides the legend.
	LegendNone
)

// axesStyle says which parts of the frame to draw.
type axesStyle struct {
	xTitle, yTitle  string
	noXTickLabels   bool
	noYTickLabels   bool
	noXGrid         bool
	categoricalX    bool      // x positions are categories, not xa's ticks
	xCategoryTicks  []float64 // pixel x of the category labels
	xCategoryLabels []string
	rotateXLabels   bool    // category labels drawn at -35 degrees
	xTitleOffset    float64 // with rotated labels: spine to x title baseline
}

func maxWidth(labels []string, size float64) float64 {
	w := 0.0
	for _, l := range labels {
		w = math.Max(w, textWidth(l, size))
	}
	return w
}

// leftMargin is the space needed left of a plot area for y tick labels and title.
func leftMargin(ya *axis, yTitle string, tickLabels bool) float64 {
	m := outerPad + tickLen + tickGap
	if tickLabels {
		m += maxWidth(ya.labels, tickSize)
	}
	if yTitle != "" {
		m += 8 + labelSize
	}
	return m
}

// bottomMargin is the space needed below a plot area for x tick labels and title.
func bottomMargin(xTitle string) float64 {
	m := xTickBand + 5
	if xTitle != "" {
		m += xTitleBand
	}
	return m + outerPad - 4
}

// drawAxes draws grid lines, spines, ticks, tick labels and axis titles.
func drawAxes(c *canvas, area box, xa, ya *axis, st axesStyle) {
	c.printf(`<g class="grid" stroke="%s" stroke-width="1">`+"\n", inkGrid)
	for _, t := range ya.ticks {
		y := ya.px(t)
		c.line(area.x, y, area.right(), y, inkGrid, 1, "")
	}
	if !st.categoricalX && !st.noXGrid {
		for _, t := range xa.ticks {
			x := xa.px(t)
			c.line(x, area.y, x, area.bottom(), inkGrid, 1, "")
		}
	}
	c.printf("</g>\n")

	c.printf(`<g class="axes" stroke="%s">`+"\n", inkAxis)
	c.line(area.x, area.bottom(), area.right(), area.bottom(), inkAxis, 1, ` stroke-linecap="square"`)
	c.line(area.x, area.y, area.x, area.bottom(), inkAxis, 1, ` stroke-linecap="square"`)
	for _, t := range ya.ticks {
		y := ya.px(t)
		c.line(area.x-tickLen, y, area.x, y, inkAxis, 1, "")
	}
	if st.categoricalX {
		for _, x := range st.xCategoryTicks {
			c.line(x, area.bottom(), x, area.bottom()+tickLen, inkAxis, 1, "")
		}
	} else {
		for _, t := range xa.ticks {
			x := xa.px(t)
			c.line(x, area.bottom(), x, area.bottom()+tickLen, inkAxis, 1, "")
		}
	}
	c.printf("</g>\n")

	c.printf(`<g class="tick-labels" fill="%s">`+"\n", inkText)
	if !st.noYTickLabels {
		for i, t := range ya.ticks {
			c.text(area.x-tickLen-tickGap, ya.px(t)+tickSize*0.35, ya.labels[i], tickSize, "end", ` class="ytick"`)
		}
	}
	if !st.noXTickLabels {
		if st.categoricalX {
			for i, x := range st.xCategoryTicks {
				if st.rotateXLabels {
					y := area.bottom() + tickLen + 8
					c.printf(`<text class="xtick" x="%s" y="%s" font-size="%s" text-anchor="end" transform="rotate(-35 %s %s)">%s</text>`+"\n",
						num(x), num(y), num(tickSize), num(x), num(y), escape(st.xCategoryLabels[i]))
				} else {
					c.text(x, area.bottom()+xTickBand, st.xCategoryLabels[i], tickSize, "middle", ` class="xtick"`)
				}
			}
		} else {
			for i, t := range xa.ticks {
				c.text(xa.px(t), area.bottom()+xTickBand, xa.labels[i], tickSize, "middle", ` class="xtick"`)
			}
		}
	}
	c.printf("</g>\n")

	if st.xTitle != "" {
		y := area.bottom() + xTickBand + xTitleBand
		if st.rotateXLabels {
			y = area.bottom() + st.xTitleOffset
		}
		c.text(area.x+area.w/2, y, st.xTitle, labelSize, "middle", ` class="xlabel"`)
	}
	if st.yTitle != "" {
		x := area.x - tickLen - tickGap - 8
		if !st.noYTickLabels {
			x -= maxWidth(ya.labels, tickSize)
		}
		c.vtext(x, area.y+area.h/2, st.yTitle, labelSize, ` class="ylabel"`)
	}
}

// titleBold is how much wider bold title text runs than textWidth's regular estimate.
const titleBold = 1.1

// titleLines breaks a title into lines that fit a figure of width w: at
// spaces, and inside a word only when the word alone is too long. A figure
// keeps its size; a long title takes more lines (the plot area gives way).
func titleLines(title string, w float64) []string {
	if title == "" {
		return nil
	}
	room := w - 2*outerPad
	fits := func(s string) bool { return textWidth(s, titleSize)*titleBold <= room }
	var lines []string
	line := ""
	for _, word := range strings.Fields(title) {
		next := word
		if line != "" {
			next = line + " " + word
		}
		if fits(next) {
			line = next
			continue
		}
		if line != "" {
			lines = append(lines, line)
		}
		// A word wider than the figure: cut it where it must be cut.
		for !fits(word) {
			cut := 1
			for cut < len([]rune(word)) && fits(string([]rune(word)[:cut+1])) {
				cut++
			}
			lines = append(lines, string([]rune(word)[:cut]))
			word = string([]rune(word)[cut:])
		}
		line = word
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// titleLineGap is the distance between the baselines of two title lines.
const titleLineGap = titleSize * 1.2

// titleHeight is the height a title takes at the top of a figure of width w:
// titleBand for one line, a line gap more for each further line, 0 for none.
func titleHeight(title string, w float64) float64 {
	n := len(titleLines(title, w))
	if n == 0 {
		return 0
	}
	return titleBand + float64(n-1)*titleLineGap
}

// drawTitle centres a figure title at the top of the canvas, on as many
// lines as the canvas's width needs (titleLines).
func drawTitle(c *canvas, title string, cx float64) {
	for i, line := range titleLines(title, c.w) {
		c.text(cx, outerPad+titleSize*0.85+float64(i)*titleLineGap, line, titleSize, "middle", ` class="title" font-weight="bold"`)
	}
}

// Shape is a marker shape.
type Shape int

const (
	// ShapeAuto picks a shape from the series' position in the figure.
	ShapeAuto Shape = iota
	Circle
	Square
	Triangle
	Diamond
	TriangleDown
	numShapes = 5
)

// ShapeAt is the i-th shape of the cycle ShapeAuto uses: with Color(i), it
// keeps a series' look fixed by its index in a figure-wide list (a method
// present in some panels only), so the shared legend lists it once.
func ShapeAt(i int) Shape { return Shape(i%numShapes + 1) }

// markerPath returns the path data of a marker of radius r centred at (x, y).
func markerPath(s Shape, x, y, r float64) string {
	var p pathBuilder
	switch s {
	case Square:
		r *= 0.88
		p.move(x-r, y-r)
		p.to(x+r, y-r)
		p.to(x+r, y+r)
		p.to(x-r, y+r)
		p.close()
	case Triangle:
		r *= 1.15
		p.move(x, y-r)
		p.to(x+r*0.87, y+r*0.5)
		p.to(x-r*0.87, y+r*0.5)
		p.close()
	case TriangleDown:
		r *= 1.15
		p.move(x, y+r)
		p.to(x+r*0.87, y-r*0.5)
		p.to(x-r*0.87, y-r*0.5)
		p.close()
	case Diamond:
		r *= 1.2
		p.move(x, y-r)
		p.to(x+r, y)
		p.to(x, y+r)
		p.to(x-r, y)
		p.close()
	default: // circle as two arcs
		p.move(x-r, y)
		p.WriteString("a" + num(r) + " " + num(r) + " 0 1 0 " + num(2*r) + " 0")
		p.WriteString("a" + num(r) + " " + num(r) + " 0 1 0 " + num(-2*r) + " 0")
		p.close()
	}
	return p.String()
}

// legendEntry describes one legend item and how to draw its swatch.
type legendEntry struct {
	name    string
	color   string
	line    bool
	dashed  bool
	shape   Shape // 0: no marker
	band    bool
	patch   bool
	opacity float64 // patch fill opacity
}

func (e legendEntry) key() string {
	var b strings.Builder
	b.WriteString(e.name + "\x00" + e.color)
	for _, f := range []bool{e.line, e.dashed, e.band, e.patch} {
		if f {
			b.WriteByte('1')
		} else {
			b.WriteByte('0')
		}
	}
	b.WriteByte(byte('0' + e.shape))
	return b.String()
}

func (e legendEntry) width() float64 {
	return legendSwatch + 6 + textWidth(e.name, legendSize)
}

// legendDims returns the size of a vertical legend box.
func legendDims(entries []legendEntry) (w, h float64) {
	for _, e := range entries {
		w = math.Max(w, e.width())
	}
	return w + 2*legendPad, float64(len(entries))*legendRowH + 2*legendPad - 3
}

// drawSwatch draws the swatch of e with its left edge at x, centred on y.
func drawSwatch(c *canvas, e legendEntry, x, y float64) {
	if e.patch {
		c.printf(`<rect x="%s" y="%s" width="%s" height="%s" fill="%s" fill-opacity="%s" stroke="%s" stroke-width="1"/>`+"\n",
			num(x+3), num(y-5), num(legendSwatch-6), num(10), e.color, num(e.opacity), e.color)
		return
	}
	if e.band {
		c.printf(`<rect x="%s" y="%s" width="%s" height="%s" fill="%s" fill-opacity="0.2"/>`+"\n",
			num(x), num(y-5), num(legendSwatch), num(10), e.color)
	}
	if e.line {
		dash := ""
		if e.dashed {
			dash = ` stroke-dasharray="5 3"`
		}
		c.line(x, y, x+legendSwatch, y, e.color, 2, dash)
	}
	if e.shape != 0 {
		c.printf(`<path d="%s" fill="%s" stroke="#ffffff" stroke-width="0.8"/>`+"\n",
			markerPath(e.shape, x+legendSwatch/2, y, 3.8), e.color)
	}
}

// drawLegendBox draws a vertical legend with its top-left corner at (x, y).
func drawLegendBox(c *canvas, x, y float64, entries []legendEntry) {
	w, h := legendDims(entries)
	c.printf(`<g class="legend">` + "\n")
	c.printf(`<rect x="%s" y="%s" width="%s" height="%s" rx="2" fill="#ffffff" fill-opacity="0.9" stroke="#cccccc" stroke-width="0.8"/>`+"\n",
		num(x), num(y), num(w), num(h))
	for i, e := range entries {
		cy := y + legendPad + legendRowH*float64(i) + legendRowH/2 - 1.5
		drawSwatch(c, e, x+legendPad, cy)
		c.text(x+legendPad+legendSwatch+6, cy+legendSize*0.35, e.name, legendSize, "start", ` class="legend-label"`)
	}
	c.printf("</g>\n")
}

// legendRows splits entries into centred horizontal rows no wider than maxW.
func legendRows(entries []legendEntry, maxW float64) [][]legendEntry {
	var rows [][]legendEntry
	var cur []legendEntry
	w := 0.0
	for _, e := range entries {
		ew := e.width() + 18
		if len(cur) > 0 && w+ew > maxW {
			rows = append(rows, cur)
			cur, w = nil, 0
		}
		cur = append(cur, e)
		w += ew
	}
	if len(cur) > 0 {
		rows = append(rows, cur)
	}
	return rows
}

// rowLegendHeight is the height taken by a horizontal legend.
func rowLegendHeight(entries []legendEntry, maxW float64) float64 {
	if len(entries) == 0 {
		return 0
	}
	return float64(len(legendRows(entries, maxW)))*legendRowH + 4
}

// drawLegendRows draws a horizontal legend centred on cx starting at top y.
func drawLegendRows(c *canvas, cx, y, maxW float64, entries []legendEntry) {
	if len(entries) == 0 {
		return
	}
	c.printf(`<g class="legend">` + "\n")
	for r, row := range legendRows(entries, maxW) {
		w := -18.0
		for _, e := range row {
			w += e.width() + 18
		}
		x := cx - w/2
		cy := y + legendRowH*float64(r) + legendRowH/2
		for _, e := range row {
			drawSwatch(c, e, x, cy)
			c.text(x+legendSwatch+6, cy+legendSize*0.35, e.name, legendSize, "start", ` class="legend-label"`)
			x += e.width() + 18
		}
	}
	c.printf("</g>\n")
}

// placeLegend chooses the top-left corner of a w x h legend inside area,
// avoiding the obstacle points. ok is false when LegendAuto finds no free
// corner (the caller then moves the legend outside).
func placeLegend(area box, w, h float64, obstacles [][2]float64, pos LegendPos) (x, y float64, ok bool) {
	const inset = 6.0
	corners := map[LegendPos][2]float64{
		LegendTopRight:    {area.right() - inset - w, area.y + inset},
		LegendTopLeft:     {area.x + inset, area.y + inset},
		LegendBottomRight: {area.right() - inset - w, area.bottom() - inset - h},
		LegendBottomLeft:  {area.x + inset, area.bottom() - inset - h},
	}
	if p, fixed := corners[pos]; fixed {
		return p[0], p[1], true
	}
	if w+2*inset > area.w || h+2*inset > area.h {
		return 0, 0, false
	}
	best, bestScore := LegendTopRight, math.MaxInt
	for _, cand := range []LegendPos{LegendTopRight, LegendTopLeft, LegendBottomRight, LegendBottomLeft} {
		p := corners[cand]
		b := box{p[0], p[1], w, h}
		score := 0
		for _, o := range obstacles {
			if b.contains(o[0], o[1], 3) {
				score++
			}
		}
		if score < bestScore {
			best, bestScore = cand, score
		}
	}
	if bestScore > 0 {
		return 0, 0, false
	}
	p := corners[best]
	return p[0], p[1], true
}

// drawLegend draws the legend box at pos: right of area when outside,
// else at a free place inside it (placeLegend; false when there is none).
func drawLegend(c *canvas, area box, pos LegendPos, outside bool, w, h float64, obstacles [][2]float64, entries []legendEntry) bool {
	switch {
	case pos == LegendNone:
	case outside:
		drawLegendBox(c, area.right()+legendGap, area.y, entries)
	default:
		x, y, ok := placeLegend(area, w, h, obstacles, pos)
		if !ok {
			return false
		}
		drawLegendBox(c, x, y, entries)
	}
	return true
}

// withLegendFallback renders with the legend inside the plot (or right of
// it for LegendRight) and, when no place inside is free, right of it.
func withLegendFallback(pos LegendPos, render func(outside bool) (string, bool)) string {
	if svg, ok := render(pos == LegendRight); ok {
		return svg
	}
	svg, _ := render(true)
	return svg
}

// sampleSegment appends points every few pixels along a segment.
func sampleSegment(pts [][2]float64, x0, y0, x1, y1 float64) [][2]float64 {
	n := int(math.Hypot(x1-x0, y1-y0)/4) + 1
	for i := 0; i <= n; i++ {
		t := float64(i) / float64(n)
		pts = append(pts, [2]float64{x0 + t*(x1-x0), y0 + t*(y1-y0)})
	}
	return pts
}
