package plot

import (
	"fmt"
	"io"
	"math"
)

// Bars is a grouped bar chart: one group per category (e.g. dataset) and one
// bar per series (e.g. model) in every group, with optional error bars and
// value labels. Series.Y[i] is the series' value in group i and Series.Err[i]
// its optional symmetric error; X is ignored. NaN values draw no bar.
type Bars struct {
	title, xLabel, yLabel string
	width, height         int
	groups                []string
	series                []Series
	valueFormat           string
	yRange                *[2]float64
}

// NewBars starts a grouped bar chart.
func NewBars(title string) *Bars { return &Bars{title: title} }

// Groups sets the group (category) labels along the x axis.
func (b *Bars) Groups(labels ...string) *Bars { b.groups = labels; return b }

// Add appends series (one bar per group each).
func (b *Bars) Add(s ...Series) *Bars { b.series = append(b.series, s...); return b }

// XLabel sets the x axis title.
func (b *Bars) XLabel(s string) *Bars { b.xLabel = s; return b }

// YLabel sets the y axis title.
func (b *Bars) YLabel(s string) *Bars { b.yLabel = s; return b }

// ValueLabels prints every bar's value above it with the fmt format (e.g. "%.1f").
func (b *Bars) ValueLabels(format string) *Bars { b.valueFormat = format; return b }

// YRange fixes the y range; by default it spans 0 and every value ± error.
// Bars then start at the bottom of the range when it excludes 0.
func (b *Bars) YRange(lo, hi float64) *Bars {
	if lo < hi {
		b.yRange = &[2]float64{lo, hi}
	}
	return b
}

// Size sets the figure size in pixels.
func (b *Bars) Size(width, height int) *Bars { b.width, b.height = width, height; return b }

// WriteSVG writes the figure to w.
func (b *Bars) WriteSVG(w io.Writer) error { return writeSVG(w, b.SVG()) }

func (b *Bars) numGroups() int {
	n := len(b.groups)
	for _, s := range b.series {
		n = max(n, len(s.Y))
	}
	return n
}

func (b *Bars) value(s *Series, g int) (v, e float64) {
	v, e = math.NaN(), math.NaN()
	if g < len(s.Y) {
		v = s.Y[g]
	}
	if g < len(s.Err) {
		e = math.Abs(s.Err[g])
	}
	return v, e
}

// Dimensions implements Figure.
func (b *Bars) Dimensions() (w, h float64) {
	iw, ih := b.size()
	return float64(iw), float64(ih)
}

func (b *Bars) size() (w, h int) {
	return sizeOr(b.width, DefaultWidth), sizeOr(b.height, DefaultHeight)
}

// SVG renders the figure.
func (b *Bars) SVG() string {
	w, h := b.size()
	fw, fh := float64(w), float64(h)
	ng, ns := b.numGroups(), len(b.series)
	c := newCanvas(w, h, b.title)
	drawTitle(c, b.title, fw/2)
	top := outerPad + titleHeight(b.title, fw)
	var entries []legendEntry
	colors := make([]string, ns)
	for i, s := range b.series {
		colors[i] = s.Color
		if colors[i] == "" {
			colors[i] = Color(i)
		}
		if s.Name != "" {
			entries = append(entries, legendEntry{name: s.Name, color: colors[i], patch: true, opacity: 0.85})
		}
	}
	if len(entries) > 0 {
		drawLegendRows(c, fw/2, top, fw-2*outerPad, entries)
		top += rowLegendHeight(entries, fw-2*outerPad)
	}
	top += 8

	var ye extent
	ye.add(0)
	for i := range b.series {
		for g := range ng {
			v, e := b.value(&b.series[i], g)
			ye.add(v)
			if finite(v) && finite(e) {
				ye.add(v + e)
				ye.add(v - e)
			}
		}
	}
	if b.yRange != nil {
		ye = extent{b.yRange[0], b.yRange[1], true}
	}

	// Category labels rotate when they do not fit their slot.
	labelW := 0.0
	for g := range ng {
		labelW = math.Max(labelW, textWidth(label(b.groups, g), tickSize))
	}
	bottomM := bottomMargin(b.xLabel)
	ya := linearAxis(ye, tickTarget(fh-bottomM-top, 55), b.yRange != nil)
	left := leftMargin(&ya, b.yLabel, true)
	areaW := fw - left - 16
	rotate := ng > 0 && labelW > areaW/float64(ng)-6
	titleOff := 0.0
	if rotate {
		extra := labelW*0.58 + 4 - (xTickBand - tickSize)
		bottomM += math.Max(0, extra)
		titleOff = tickLen + 8 + labelW*0.58 + xTitleBand
		ya = linearAxis(ye, tickTarget(fh-bottomM-top, 55), b.yRange != nil)
		left = leftMargin(&ya, b.yLabel, true)
		areaW = fw - left - 16
	}
	// Value labels print horizontally when they fit over a bar, vertically
	// otherwise; the y range grows to make room for them.
	barW := areaW / float64(max(ng, 1)) * 0.8 / float64(max(ns, 1))
	valueW, vertical := 0.0, false
	if b.valueFormat != "" {
		for i := range b.series {
			for g := range ng {
				if v, _ := b.value(&b.series[i], g); finite(v) {
					valueW = math.Max(valueW, textWidth(fmt.Sprintf(b.valueFormat, v), noteSize))
				}
			}
		}
		vertical = valueW > barW+2
		if b.yRange == nil && ye.ok {
			room := noteSize + 4
			if vertical {
				room = valueW + 9
			}
			plotH := fh - bottomM - top
			if frac := room / plotH; frac < 0.5 {
				span := ye.hi - ye.lo
				ye.add(ye.hi + span*frac/(1-frac))
				if ye.lo < 0 {
					ye.add(ye.lo - span*frac/(1-frac))
				}
				ya = linearAxis(ye, tickTarget(plotH, 55), false)
				left = leftMargin(&ya, b.yLabel, true)
				areaW = fw - left - 16
			}
		}
	}
	area := box{left, top, areaW, fh - bottomM - top}
	ya.p0, ya.p1 = area.bottom(), area.y
	xa := axis{lo: 0, hi: 1, p0: area.x, p1: area.right()}

	slot := area.w / float64(max(ng, 1))
	centres := make([]float64, ng)
	labels := make([]string, ng)
	for g := range ng {
		centres[g] = area.x + (float64(g)+0.5)*slot
		labels[g] = label(b.groups, g)
	}
	drawAxes(c, area, &xa, &ya, axesStyle{xTitle: b.xLabel, yTitle: b.yLabel, categoricalX: true,
		xCategoryTicks: centres, xCategoryLabels: labels, rotateXLabels: rotate, xTitleOffset: titleOff})

	barW = slot * 0.8 / float64(max(ns, 1))
	base := 0.0
	if ya.lo > 0 {
		base = ya.lo
	} else if ya.hi < 0 {
		base = ya.hi
	}
	clamp := func(v float64) float64 { return math.Max(ya.lo, math.Min(ya.hi, v)) }
	c.printf(`<g class="data">` + "\n")
	for i := range b.series {
		s := &b.series[i]
		c.printf(`<g class="series" fill="%s">`+"\n", colors[i])
		for g := range ng {
			v, _ := b.value(s, g)
			if !finite(v) {
				continue
			}
			x := centres[g] - slot*0.4 + float64(i)*barW
			y0, y1 := ya.px(clamp(base)), ya.px(clamp(v))
			c.rect(x+0.5, math.Min(y0, y1), barW-1, math.Abs(y1-y0), colors[i], ` class="bar" fill-opacity="0.85"`)
		}
		c.printf("</g>\n")
	}
	for i := range b.series {
		s := &b.series[i]
		var d pathBuilder
		for g := range ng {
			v, e := b.value(s, g)
			if !finite(v) || !finite(e) || e == 0 {
				continue
			}
			x := centres[g] - slot*0.4 + (float64(i)+0.5)*barW
			hi, lo := ya.px(clamp(v+e)), ya.px(clamp(v-e))
			cw := math.Min(4, barW/4)
			d.move(x, hi)
			d.to(x, lo)
			d.move(x-cw, hi)
			d.to(x+cw, hi)
			d.move(x-cw, lo)
			d.to(x+cw, lo)
		}
		if d.Len() > 0 {
			c.printf(`<path class="errbar" d="%s" fill="none" stroke="%s" stroke-width="1.2"/>`+"\n", d.String(), inkText)
		}
	}
	if b.valueFormat != "" {
		size := noteSize
		for i := range b.series {
			s := &b.series[i]
			for g := range ng {
				v, e := b.value(s, g)
				if !finite(v) {
					continue
				}
				if !finite(e) {
					e = 0
				}
				x := centres[g] - slot*0.4 + (float64(i)+0.5)*barW
				s := typographicMinus(fmt.Sprintf(b.valueFormat, v))
				up := v >= base
				switch {
				case vertical && up: // clear of the error bar's cap
					y := ya.px(clamp(v+e)) - 6
					c.printf(`<text class="value-label" x="%s" y="%s" font-size="%s" text-anchor="start" transform="rotate(-90 %s %s)">%s</text>`+"\n",
						num(x+size*0.35), num(y), num(size), num(x+size*0.35), num(y), escape(s))
				case vertical:
					y := ya.px(clamp(v-e)) + 6
					c.printf(`<text class="value-label" x="%s" y="%s" font-size="%s" text-anchor="end" transform="rotate(-90 %s %s)">%s</text>`+"\n",
						num(x+size*0.35), num(y), num(size), num(x+size*0.35), num(y), escape(s))
				case up:
					c.text(x, ya.px(clamp(v+e))-3, s, size, "middle", ` class="value-label"`)
				default:
					c.text(x, ya.px(clamp(v-e))+size+2, s, size, "middle", ` class="value-label"`)
				}
			}
		}
	}
	c.printf("</g>\n")
	return c.finish()
}
