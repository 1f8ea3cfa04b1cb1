package notebook

import (
	"fmt"
	"html"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/gonb/gonbui/protocol"

	"github.com/lwgcn/toolkit/lwgcn/plot"
)

// Seams for tests: where display data and text fallbacks go.
var (
	inNotebook           = func() bool { return gonbui.IsNotebook }
	send                 = sendSynced
	stdout     io.Writer = os.Stdout
	stderr     io.Writer = os.Stderr
)

// sendSynced sends display data and waits until GoNB has taken it
// (gonbui.Sync): a cell's program usually exits right after its last
// figure, and GoNB may otherwise report the cell idle before forwarding
// what was still in its pipe, losing the figure.
func sendSynced(d *protocol.DisplayData) {
	gonbui.SendData(d)
	gonbui.Sync()
}

// QuickEnv is the environment variable read by Quick.
const QuickEnv = "LWGCN_QUICK"

// Quick reports whether LWGCN_QUICK is "1", "true", "yes" or "on" (any
// case). Notebooks check it to shrink epochs, splits and sweeps to a smoke
// test size; results obtained in quick mode are not the paper's.
func Quick() bool {
	switch strings.ToLower(strings.TrimSpace(os.Getenv(QuickEnv))) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

// InNotebook reports whether the program runs under GoNB.
func InNotebook() bool { return inNotebook() }

var svgTitle = regexp.MustCompile(`(?s)<title>(.*?)</title>`)

// describeSVG is the text stand-in for an SVG: its <title>, or "figure".
func describeSVG(svg string) string {
	name := "figure"
	if m := svgTitle.FindStringSubmatch(svg); m != nil && strings.TrimSpace(m[1]) != "" {
		name = fmt.Sprintf("figure %q", html.UnescapeString(m[1]))
	}
	return fmt.Sprintf("[%s: SVG, %d bytes]", name, len(svg))
}

// SVG displays an SVG document as image/svg+xml, with a one-line text/plain
// fallback. Outside a notebook it prints that line to stdout.
func SVG(svg string) {
	desc := describeSVG(svg)
	if !inNotebook() {
		fmt.Fprintln(stdout, desc)
		return
	}
	send(&protocol.DisplayData{Data: map[protocol.MIMEType]any{
		protocol.MIMEImageSVG:  svg,
		protocol.MIMETextPlain: desc,
	}})
}

// Plot displays a figure (see SVG). A nil figure is ignored.
func Plot(f plot.Figure) {
	if f != nil {
		SVG(f.SVG())
	}
}

// HTML displays an HTML fragment. Outside a notebook it prints its size.
func HTML(h string) {
	if !inNotebook() {
		fmt.Fprintf(stdout, "[HTML: %d bytes]\n", len(h))
		return
	}
	send(&protocol.DisplayData{Data: map[protocol.MIMEType]any{protocol.MIMETextHTML: h}})
}

// Markdown displays Markdown (with $LaTeX$). Outside a notebook it prints
// the Markdown itself.
func Markdown(md string) {
	if !inNotebook() {
		fmt.Fprintln(stdout, strings.TrimRight(md, "\n"))
		return
	}
	send(&protocol.DisplayData{Data: map[protocol.MIMEType]any{
		protocol.MIMETextMarkdown: md,
		protocol.MIMETextPlain:    md,
	}})
}

// Table displays a table as HTML with its Markdown rendering as the
// text/plain fallback. Outside a notebook it prints the Markdown.
func Table(t *plot.Table) {
	if t == nil {
		return
	}
	md := t.Markdown()
	if !inNotebook() {
		fmt.Fprintln(stdout, strings.TrimRight(md, "\n"))
		return
	}
	send(&protocol.DisplayData{Data: map[protocol.MIMEType]any{
		protocol.MIMETextHTML:  t.HTML(),
		protocol.MIMETextPlain: md,
	}})
}
