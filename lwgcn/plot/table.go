package plot

import (
	"fmt"
	"html"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Better says which end of a column is best.
type Better int

const (
	// Higher marks the largest values (accuracy).
	Higher Better = iota + 1
	// Lower marks the smallest values (loss, time).
	Lower
)

type cellKind int

const (
	textCell cellKind = iota
	numCell
	meanStdCell
)

// Missing is printed for NaN values.
const Missing = "–"

// Cell is one table cell: text, a number, or mean ± std. Build cells with
// Text, Num and MeanStd.
type Cell struct {
	kind   cellKind
	text   string
	v, std float64
	prec   int
}

// Text is a text cell; it never takes part in best-value marking.
func Text(s string) Cell { return Cell{kind: textCell, text: s} }

// Num is a number printed with prec decimals (prec < 0: shortest exact form).
func Num(v float64, prec int) Cell { return Cell{kind: numCell, v: v, prec: prec} }

// MeanStd is a mean ± std cell, e.g. MeanStd(86.24, 5.81, 1) prints
// "86.2 ± 5.8". A NaN std prints the mean alone.
func MeanStd(mean, std float64, prec int) Cell {
	return Cell{kind: meanStdCell, v: mean, std: std, prec: prec}
}

func formatFixed(v float64, prec int) string {
	if !finite(v) {
		if math.IsInf(v, 1) {
			return "∞"
		} else if math.IsInf(v, -1) {
			return "−∞"
		}
		return Missing
	}
	s := strconv.FormatFloat(v, 'f', min(prec, 12), 64)
	if strings.HasPrefix(s, "-") && isZero(s[1:]) {
		s = s[1:]
	}
	return s
}

// String returns the cell as printed (without best/second marking).
func (c Cell) String() string {
	switch c.kind {
	case numCell:
		return formatFixed(c.v, c.prec)
	case meanStdCell:
		if !finite(c.v) {
			return Missing
		}
		if math.IsNaN(c.std) {
			return formatFixed(c.v, c.prec)
		}
		return formatFixed(c.v, c.prec) + " ± " + formatFixed(c.std, c.prec)
	}
	return c.text
}

// rankValue is the value compared when marking the best cells: the value as
// printed, so that cells that print alike tie. ok is false for text and NaN.
func (c Cell) rankValue() (float64, bool) {
	if c.kind == textCell || math.IsNaN(c.v) {
		return 0, false
	}
	if math.IsInf(c.v, 0) {
		return c.v, true
	}
	v, err := strconv.ParseFloat(formatFixed(c.v, c.prec), 64)
	return v, err == nil
}

// Group is a header cell spanning Span columns above the column headers.
type Group struct {
	Label string
	Span  int
}

// Table is a results table rendered as HTML (inline styles) or GitHub
// Markdown. Rows shorter than the widest row or header are padded with empty
// cells.
type Table struct {
	caption string
	groups  []Group
	header  []string
	rows    [][]Cell
	better  map[int]Better
	allDir  Better
	footer  string
}

// NewTable starts a table with a caption (empty for none).
func NewTable(caption string) *Table { return &Table{caption: caption, better: map[int]Better{}} }

// Header sets the column headers.
func (t *Table) Header(cols ...string) *Table { t.header = cols; return t }

// Groups sets a header row above the column headers; spans below 1 count as 1.
func (t *Table) Groups(groups ...Group) *Table { t.groups = groups; return t }

// Row appends a row.
func (t *Table) Row(cells ...Cell) *Table { t.rows = append(t.rows, cells); return t }

// MarkBest bolds the best value in each listed column (every column when
// none is listed) and underlines the second best, as the paper's tables do.
// Values compare as printed; all cells tying for best are bold and all tying
// for second are underlined; text and NaN cells are skipped, and a column
// needs two numeric cells to be marked. A later call overrides an earlier one
// for the columns it lists.
func (t *Table) MarkBest(dir Better, cols ...int) *Table {
	if len(cols) == 0 {
		t.allDir = dir
		clear(t.better)
		return t
	}
	for _, c := range cols {
		t.better[c] = dir
	}
	return t
}

// Footer sets a provenance line under the table (see Provenance).
func (t *Table) Footer(s string) *Table { t.footer = s; return t }

// Provenance formats the standard footer line, e.g.
// "commit abc123, backend go (SIMD), 2026-11-21". Empty parts are left out.
func Provenance(commit, backend string, date time.Time) string {
	var parts []string
	if commit != "" {
		parts = append(parts, "commit "+commit)
	}
	if backend != "" {
		parts = append(parts, "backend "+backend)
	}
	if !date.IsZero() {
		parts = append(parts, date.Format("2006-01-02"))
	}
	return strings.Join(parts, ", ")
}

// numCols is the table's column count.
func (t *Table) numCols() int {
	n := len(t.header)
	span := 0
	for _, g := range t.groups {
		span += max(g.Span, 1)
	}
	n = max(n, span)
	for _, r := range t.rows {
		n = max(n, len(r))
	}
	return n
}

func (t *Table) cell(r, c int) Cell {
	if c < len(t.rows[r]) {
		return t.rows[r][c]
	}
	return Text("")
}

func (t *Table) headerAt(c int) string {
	if c < len(t.header) {
		return t.header[c]
	}
	return ""
}

// Marks for cells.
const (
	markNone = iota
	markBest
	markSecond
)

// marks returns markBest / markSecond for every cell.
func (t *Table) marks() [][]int {
	nc := t.numCols()
	out := make([][]int, len(t.rows))
	for r := range out {
		out[r] = make([]int, nc)
	}
	for c := range nc {
		dir, ok := t.better[c]
		if !ok {
			dir = t.allDir
		}
		if dir != Higher && dir != Lower {
			continue
		}
		var vals []float64
		for r := range t.rows {
			if v, ok := t.cell(r, c).rankValue(); ok {
				vals = append(vals, v)
			}
		}
		if len(vals) < 2 {
			continue
		}
		slices.Sort(vals)
		if dir == Higher {
			slices.Reverse(vals)
		}
		vals = slices.Compact(vals)
		for r := range t.rows {
			v, ok := t.cell(r, c).rankValue()
			switch {
			case !ok:
			case v == vals[0]:
				out[r][c] = markBest
			case len(vals) > 1 && v == vals[1]:
				out[r][c] = markSecond
			}
		}
	}
	return out
}

// numericColumn reports whether column c holds any number (right-aligned).
func (t *Table) numericColumn(c int) bool {
	for r := range t.rows {
		if t.cell(r, c).kind != textCell {
			return true
		}
	}
	return false
}

// Inline styles: booktabs-like rules, white background so the table reads in
// dark notebook themes too.
const (
	tableStyle  = "border-collapse:collapse;font-family:" + fontFamily + ";font-size:13px;line-height:1.4;color:#222;background:#fff;margin:0"
	capStyle    = "caption-side:top;text-align:left;font-weight:bold;padding:0 0 6px 0;color:#222"
	cellPadding = "padding:3px 10px;"
	footStyle   = "font-family:" + fontFamily + ";font-size:11px;color:#666;padding-top:4px"
)

// HTML returns the table as an HTML fragment with inline styles only.
func (t *Table) HTML() string {
	nc := t.numCols()
	marks := t.marks()
	esc := html.EscapeString
	align := func(c int) string {
		if t.numericColumn(c) {
			return "text-align:right;"
		}
		return "text-align:left;"
	}
	var b strings.Builder
	b.WriteString(`<figure class="lwgcn-table" style="margin:0.8em 0;display:inline-block">` + "\n")
	fmt.Fprintf(&b, `<table style="%s">`+"\n", tableStyle)
	if t.caption != "" {
		fmt.Fprintf(&b, `<caption style="%s">%s</caption>`+"\n", capStyle, esc(t.caption))
	}
	b.WriteString("<thead>\n")
	topRule := "border-top:2px solid #222;"
	if len(t.groups) > 0 {
		b.WriteString("<tr>")
		used := 0
		for _, g := range t.groups {
			span := max(g.Span, 1)
			under := ""
			if g.Label != "" {
				under = "border-bottom:1px solid #888;"
			}
			fmt.Fprintf(&b, `<th colspan="%d" style="%s%s%stext-align:center;font-weight:bold;background:#fff">%s</th>`,
				span, cellPadding, topRule, under, esc(g.Label))
			used += span
		}
		if used < nc {
			fmt.Fprintf(&b, `<th colspan="%d" style="%s%sbackground:#fff"></th>`, nc-used, cellPadding, topRule)
		}
		b.WriteString("</tr>\n")
		topRule = ""
	}
	b.WriteString("<tr>")
	for c := range nc {
		fmt.Fprintf(&b, `<th style="%s%sborder-bottom:1px solid #222;%sfont-weight:bold;background:#fff">%s</th>`,
			cellPadding, topRule, align(c), esc(t.headerAt(c)))
	}
	b.WriteString("</tr>\n</thead>\n<tbody>\n")
	for r := range t.rows {
		bottom := ""
		if r == len(t.rows)-1 {
			bottom = "border-bottom:2px solid #222;"
		}
		b.WriteString(`<tr style="background:#fff">`)
		for c := range nc {
			cell := t.cell(r, c)
			s := esc(cell.String())
			switch marks[r][c] {
			case markBest:
				s = "<b>" + s + "</b>"
			case markSecond:
				s = "<u>" + s + "</u>"
			}
			num := ""
			if cell.kind != textCell {
				num = "font-variant-numeric:tabular-nums;white-space:nowrap;"
			}
			fmt.Fprintf(&b, `<td style="%s%s%s%sbackground:#fff">%s</td>`, cellPadding, align(c), num, bottom, s)
		}
		b.WriteString("</tr>\n")
	}
	if len(t.rows) == 0 {
		fmt.Fprintf(&b, `<tr><td colspan="%d" style="%sborder-bottom:2px solid #222;background:#fff"></td></tr>`+"\n", max(nc, 1), cellPadding)
	}
	b.WriteString("</tbody>\n</table>\n")
	if t.footer != "" {
		fmt.Fprintf(&b, `<figcaption style="%s">%s</figcaption>`+"\n", footStyle, esc(t.footer))
	}
	b.WriteString("</figure>\n")
	return b.String()
}

// mdEscape escapes text for a GitHub-flavoured Markdown table cell.
var mdEscaper = strings.NewReplacer(
	`\`, `\\`, "|", `\|`, "*", `\*`, "_", `\_`, "`", "\\`", "<", "&lt;", ">", "&gt;", "&", "&amp;",
	"[", `\[`, "]", `\]`, "\n", " ", "\r", " ",
)

func mdEscape(s string) string { return mdEscaper.Replace(s) }

// Markdown returns the table as GitHub-flavoured Markdown: the caption in
// bold, best values in **bold**, second best in <ins>underline</ins> (the
// HTML tag GitHub keeps), the footer in italics. Group headers, which
// Markdown cannot span, prefix their columns' headers as "Group: column".
func (t *Table) Markdown() string {
	nc := max(t.numCols(), 1)
	marks := t.marks()
	groupOf := make([]string, nc)
	c0 := 0
	for _, g := range t.groups {
		for k := 0; k < max(g.Span, 1) && c0 < nc; k++ {
			groupOf[c0] = g.Label
			c0++
		}
	}
	var b strings.Builder
	if t.caption != "" {
		b.WriteString("**" + mdEscape(t.caption) + "**\n\n")
	}
	b.WriteString("|")
	for c := range nc {
		h := t.headerAt(c)
		if groupOf[c] != "" {
			if h == "" {
				h = groupOf[c]
			} else {
				h = groupOf[c] + ": " + h
			}
		}
		b.WriteString(" " + mdEscape(h) + " |")
	}
	b.WriteString("\n|")
	for c := range nc {
		if t.numericColumn(c) {
			b.WriteString("---:|")
		} else {
			b.WriteString(":---|")
		}
	}
	b.WriteString("\n")
	for r := range t.rows {
		b.WriteString("|")
		for c := range nc {
			s := mdEscape(t.cell(r, c).String())
			switch marks[r][c] {
			case markBest:
				s = "**" + s + "**"
			case markSecond:
				s = "<ins>" + s + "</ins>"
			}
			b.WriteString(" " + s + " |")
		}
		b.WriteString("\n")
	}
	if t.footer != "" {
		b.WriteString("\n_" + mdEscape(t.footer) + "_\n")
	}
	return b.String()
}
