package plot

import (
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Figure is implemented by every figure type of the package.
type Figure interface {
	// SVG returns one complete, self-contained <svg> element.
	SVG() string
	// WriteSVG writes SVG() to w.
	WriteSVG(w io.Writer) error
	// Dimensions returns the width and height SVG() declares, in pixels
	// (SVG user units), without rendering: layouts that place figures side
	// by side need them. (Size is each type's setter.)
	Dimensions() (w, h float64)
}

// Default figure sizes in pixels (SVG user units); every figure has Size to
// change them.
const (
	DefaultWidth  = 640
	DefaultHeight = 420
	// DefaultPanelWidth is the width of one Facets panel when no Size is given.
	DefaultPanelWidth = 300
	// minSize is the smallest width or height accepted by Size.
	minSize = 120
)

// Typography. Sizes are in pixels; widths are estimated (see textWidth) since
// the renderer's fonts are unknown, so layouts leave some slack.
const (
	fontFamily = "DejaVu Sans, Helvetica, Arial, sans-serif"
	tickSize   = 11.0 // tick labels
	legendSize = 11.5 // legend entries
	labelSize  = 12.5 // axis titles
	titleSize  = 14.5 // figure title
	panelSize  = 12.5 // facet panel titles
	noteSize   = 10.0 // value labels, reference line labels, annotations
)

// Colours of the non-data ink.
const (
	inkText  = "#222222"
	inkAxis  = "#444444"
	inkGrid  = "#e4e4e4"
	inkRef   = "#555555"
	inkNaN   = "#d9d9d9"
	bgColour = "#ffffff"
)

// idPlaceholder marks where the figure's unique id goes; it is replaced by a
// hash of the finished document so ids are deterministic yet differ between
// figures inlined into one HTML page.
const idPlaceholder = "\x00id\x00"

// canvas accumulates one SVG document.
type canvas struct {
	b    strings.Builder
	w, h float64
}

func newCanvas(w, h int, title string) *canvas {
	c := &canvas{w: float64(w), h: float64(h)}
	fmt.Fprintf(&c.b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="%s" font-size="%s" fill="%s">`+"\n",
		w, h, w, h, fontFamily, num(tickSize), inkText)
	if title != "" {
		fmt.Fprintf(&c.b, "<title>%s</title>\n", escape(title))
	}
	fmt.Fprintf(&c.b, `<rect class="background" x="0" y="0" width="%d" height="%d" fill="%s"/>`+"\n", w, h, bgColour)
	return c
}

// id returns the document-unique id for a suffix (clip paths, gradients).
func (c *canvas) id(suffix string) string { return idPlaceholder + suffix }

// finish closes the document and resolves ids.
func (c *canvas) finish() string {
	c.b.WriteString("</svg>\n")
	s := c.b.String()
	if strings.Contains(s, idPlaceholder) {
		h := fnv.New64a()
		io.WriteString(h, s)
		s = strings.ReplaceAll(s, idPlaceholder, fmt.Sprintf("lwgcn%012x-", h.Sum64()&0xffffffffffff))
	}
	return s
}

func (c *canvas) printf(format string, args ...any) { fmt.Fprintf(&c.b, format, args...) }

// line draws a straight line; extra holds additional attributes.
func (c *canvas) line(x1, y1, x2, y2 float64, stroke string, width float64, extra string) {
	c.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="%s"%s/>`+"\n",
		num(x1), num(y1), num(x2), num(y2), stroke, num(width), extra)
}

// rect draws a rectangle; extra holds additional attributes (class first).
func (c *canvas) rect(x, y, w, h float64, fill string, extra string) {
	c.printf(`<rect%s x="%s" y="%s" width="%s" height="%s" fill="%s"/>`+"\n",
		extra, num(x), num(y), num(math.Max(w, 0)), num(math.Max(h, 0)), fill)
}

// text draws escaped text; anchor is start, middle or end.
func (c *canvas) text(x, y float64, s string, size float64, anchor string, extra string) {
	if s == "" {
		return
	}
	c.printf(`<text x="%s" y="%s" font-size="%s" text-anchor="%s"%s>%s</text>`+"\n",
		num(x), num(y), num(size), anchor, extra, escape(s))
}

// vtext draws text rotated by -90 degrees around (x, y), centred there.
func (c *canvas) vtext(x, y float64, s string, size float64, extra string) {
	if s == "" {
		return
	}
	c.printf(`<text x="%s" y="%s" font-size="%s" text-anchor="middle" transform="rotate(-90 %s %s)"%s>%s</text>`+"\n",
		num(x), num(y), num(size), num(x), num(y), extra, escape(s))
}

// pathBuilder accumulates SVG path data with compact, deterministic numbers.
type pathBuilder struct{ strings.Builder }

func (p *pathBuilder) move(x, y float64) { p.cmd('M', x, y) }
func (p *pathBuilder) to(x, y float64)   { p.cmd('L', x, y) }
func (p *pathBuilder) close()            { p.WriteString("Z") }
func (p *pathBuilder) cmd(c byte, x, y float64) {
	p.WriteByte(c)
	p.WriteString(num(x))
	p.WriteByte(' ')
	p.WriteString(num(y))
}

// num formats a coordinate with at most two decimals, never "-0".
func num(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "0"
	}
	r := math.Round(v*100) / 100
	if r == 0 {
		return "0"
	}
	return strconv.FormatFloat(r, 'f', -1, 64)
}

// escape returns s safe for XML text and attribute values. Characters that
// XML 1.0 forbids are replaced by U+FFFD so the document always parses.
func escape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '"':
			b.WriteString("&quot;")
		case r == '\'':
			b.WriteString("&#39;")
		case r == '\t' || r == '\n' || r == '\r':
			b.WriteByte(' ')
		case r < 0x20 || r == utf8.RuneError || (r >= 0xD800 && r <= 0xDFFF) || r == 0xFFFE || r == 0xFFFF:
			b.WriteRune('\uFFFD')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// textWidth estimates the rendered width of s at the given font size, from
// approximate advance widths of DejaVu Sans / Helvetica.
func textWidth(s string, size float64) float64 {
	var em float64
	for _, r := range s {
		switch {
		case strings.ContainsRune("iljI.,:;'|!()[]{}", r):
			em += 0.3
		case r == ' ':
			em += 0.32
		case strings.ContainsRune("mwMW", r):
			em += 0.88
		case r >= 'A' && r <= 'Z':
			em += 0.69
		case r >= '0' && r <= '9':
			em += 0.64
		case r < 128:
			em += 0.58
		default:
			em += 0.7
		}
	}
	return em * size
}

// writeSVG is the shared WriteSVG implementation.
func writeSVG(w io.Writer, svg string) error {
	if _, err := io.WriteString(w, svg); err != nil {
		return fmt.Errorf("plot: writing SVG: %w", err)
	}
	return nil
}

// sizeOr returns v when it is a usable size and def otherwise.
func sizeOr(v, def int) int {
	if v < minSize {
		return def
	}
	return v
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// Every figure type implements Figure.
var (
	_ Figure = (*LinePlot)(nil)
	_ Figure = (*Facets)(nil)
	_ Figure = (*Histogram)(nil)
	_ Figure = (*Heatmap)(nil)
	_ Figure = (*Bars)(nil)
)
