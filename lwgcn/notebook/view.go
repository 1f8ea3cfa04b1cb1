package notebook

import (
	"encoding/base64"
	"html"
	"strings"

	"github.com/lwgcn/toolkit/lwgcn/plot"
)

// View is what an Explorer draws for one set of control values: figures,
// tables and notes, in order. Shown once it is displayed output by output
// (figures as image/svg+xml, as Plot does); redrawn in place it becomes one
// HTML block whose figures are <img> elements holding the exact SVG.
type View struct {
	parts []viewPart
}

type viewPart struct {
	svg   string
	table *plot.Table
	html  string
	note  string
}

// NewView returns an empty view.
func NewView() *View { return &View{} }

// Plot adds a figure (nil is ignored).
func (v *View) Plot(f plot.Figure) *View {
	if f != nil {
		v.parts = append(v.parts, viewPart{svg: f.SVG()})
	}
	return v
}

// SVG adds an SVG document.
func (v *View) SVG(svg string) *View {
	v.parts = append(v.parts, viewPart{svg: svg})
	return v
}

// Table adds a table (nil is ignored).
func (v *View) Table(t *plot.Table) *View {
	if t != nil {
		v.parts = append(v.parts, viewPart{table: t})
	}
	return v
}

// HTML adds an HTML fragment.
func (v *View) HTML(h string) *View {
	v.parts = append(v.parts, viewPart{html: h})
	return v
}

// Note adds a line of plain text.
func (v *View) Note(text string) *View {
	v.parts = append(v.parts, viewPart{note: text})
	return v
}

// Len is the number of parts.
func (v *View) Len() int { return len(v.parts) }

// display shows the parts one output each.
func (v *View) display() {
	for _, p := range v.parts {
		switch {
		case p.svg != "":
			SVG(p.svg)
		case p.table != nil:
			Table(p.table)
		case p.html != "":
			HTML(p.html)
		default:
			HTML(noteHTML(p.note))
		}
	}
}

func noteHTML(text string) string {
	return `<p class="lwgcn-note">` + html.EscapeString(text) + "</p>"
}

// svgImage is an <img> showing svg exactly (base64 data: URI), with its title as alt text.
func svgImage(svg string) string {
	alt := "figure"
	if m := svgTitle.FindStringSubmatch(svg); m != nil && strings.TrimSpace(m[1]) != "" {
		alt = html.UnescapeString(m[1])
	}
	return `<img src="data:image/svg+xml;base64,` + base64.StdEncoding.EncodeToString([]byte(svg)) +
		`" alt="` + html.EscapeString(alt) + `">`
}

// HTMLBlock is the view as one HTML fragment (what is redrawn in place).
func (v *View) HTMLBlock() string {
	var b strings.Builder
	b.WriteString(`<div class="lwgcn-view">`)
	for _, p := range v.parts {
		switch {
		case p.svg != "":
			b.WriteString(`<div class="lwgcn-figure">` + svgImage(p.svg) + "</div>")
		case p.table != nil:
			b.WriteString(p.table.HTML())
		case p.html != "":
			b.WriteString(p.html)
		default:
			b.WriteString(noteHTML(p.note))
		}
	}
	b.WriteString("</div>")
	return b.String()
}
