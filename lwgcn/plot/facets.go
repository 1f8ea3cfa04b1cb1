package plot

import (
	"fmt"
	"io"
	"math"
)

// Facets draws a row of LinePlots ("small multiples") in one SVG. By default
// the panels share the y range (the union of their data), only the first
// panel carries y tick labels and y title, and one legend with the union of
// the panels' entries is drawn under the title. Each panel's title labels it
// (e.g. "d = 5"); its Size and Legend settings are ignored.
type Facets struct {
	title         string
	panels        []*LinePlot
	width, height int
	independentY  bool
}

// NewFacets starts a row of panels with an overall title.
func NewFacets(title string, panels ...*LinePlot) *Facets {
	return &Facets{title: title, panels: panels}
}

// Add appends panels.
func (f *Facets) Add(panels ...*LinePlot) *Facets { f.panels = append(f.panels, panels...); return f }

// Size sets the whole figure's size in pixels (default 300 per panel x 360).
func (f *Facets) Size(width, height int) *Facets { f.width, f.height = width, height; return f }

// IndependentY gives every panel its own y range and labels.
func (f *Facets) IndependentY() *Facets { f.independentY = true; return f }

// WriteSVG writes the figure to w.
func (f *Facets) WriteSVG(w io.Writer) error { return writeSVG(w, f.SVG()) }

// Dimensions implements Figure.
func (f *Facets) Dimensions() (w, h float64) {
	n := 0
	for _, p := range f.panels {
		if p != nil {
			n++
		}
	}
	iw, ih := f.size(n)
	return float64(iw), float64(ih)
}

// size is the set size, else DefaultPanelWidth per panel (n panels).
func (f *Facets) size(n int) (w, h int) {
	return sizeOr(f.width, DefaultPanelWidth*max(n, 1)+40), sizeOr(f.height, 360)
}

// SVG renders the figure.
func (f *Facets) SVG() string {
	var panels []*LinePlot
	for _, p := range f.panels {
		if p != nil {
			panels = append(panels, p)
		}
	}
	n := len(panels)
	w, h := f.size(n)
	c := newCanvas(w, h, f.title)
	fw, fh := float64(w), float64(h)
	drawTitle(c, f.title, fw/2)
	top := outerPad + titleHeight(f.title, fw)
	if n == 0 {
		return c.finish()
	}

	// One legend for all panels, entries deduplicated in order of appearance.
	styles := make([][]styled, n)
	var entries []legendEntry
	seen := map[string]bool{}
	for i, p := range panels {
		styles[i] = p.styles()
		for _, e := range p.legendEntries(styles[i]) {
			if k := e.key(); !seen[k] {
				seen[k] = true
				entries = append(entries, e)
			}
		}
	}
	if len(entries) > 0 {
		drawLegendRows(c, fw/2, top, fw-2*outerPad, entries)
		top += rowLegendHeight(entries, fw-2*outerPad) + 2
	}
	hasPanelTitle := false
	bottomM := 0.0
	for _, p := range panels {
		hasPanelTitle = hasPanelTitle || p.title != ""
		bottomM = math.Max(bottomM, bottomMargin(p.xLabel))
	}
	if hasPanelTitle {
		top += panelSize + 10
	}
	top += 4
	bottom := fh - bottomM

	// Shared y range: the union of the panels' ranges, the first panel's
	// fixed range and log setting win.
	lead := panels[0]
	var sharedY extent
	for i, p := range panels {
		_, ye := p.extents(styles[i])
		sharedY.merge(ye)
	}
	if lead.yRange != nil {
		sharedY = extent{lead.yRange[0], lead.yRange[1], true}
	}
	newYAxis := func(p *LinePlot, e extent, fixed bool) axis {
		var ya axis
		if p.logY {
			ya = logAxis(e, fixed)
		} else {
			ya = linearAxis(e, tickTarget(bottom-top, 55), fixed)
		}
		ya.p0, ya.p1 = bottom, top
		return ya
	}

	const gap, right = 30.0, 16.0
	var areas []box
	var yaxes []axis
	if f.independentY {
		slot := (fw - right) / float64(n)
		for i, p := range panels {
			_, ye := p.extents(styles[i])
			ya := newYAxis(p, ye, p.yRange != nil)
			left := leftMargin(&ya, p.yLabel, true)
			if i > 0 {
				left += gap - outerPad
			}
			areas = append(areas, box{float64(i)*slot + left, top, slot - left, bottom - top})
			yaxes = append(yaxes, ya)
		}
	} else {
		ya := newYAxis(lead, sharedY, lead.yRange != nil)
		left := leftMargin(&ya, lead.yLabel, true)
		pw := (fw - left - right - float64(n-1)*gap) / float64(n)
		for i := range panels {
			areas = append(areas, box{left + float64(i)*(pw+gap), top, pw, bottom - top})
			yaxes = append(yaxes, ya)
		}
	}

	for i, p := range panels {
		area := areas[i]
		ya := yaxes[i]
		if !f.independentY {
			ya.log = lead.logY
		}
		xe, _ := p.extents(styles[i])
		xa := linearAxis(xe, tickTarget(area.w, 70), p.xRange != nil)
		if p.integerX {
			xa = integerTicks(xa)
		}
		xa.p0, xa.p1 = area.x, area.right()
		c.printf(`<g class="panel">` + "\n")
		if p.title != "" {
			c.text(area.x+area.w/2, area.y-8, p.title, panelSize, "middle", ` class="panel-title"`)
		}
		st := axesStyle{xTitle: p.xLabel, yTitle: p.yLabel}
		if !f.independentY && i > 0 {
			st.noYTickLabels, st.yTitle = true, ""
		}
		drawAxes(c, area, &xa, &ya, st)
		// A panel drawn with the shared log setting must skip y <= 0 too.
		q := *p
		q.logY = ya.log
		q.drawData(c, area, &xa, &ya, styles[i], fmt.Sprintf("clip%d", i))
		c.printf("</g>\n")
	}
	return c.finish()
}
