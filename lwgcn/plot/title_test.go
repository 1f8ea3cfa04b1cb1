package plot

import (
	"strconv"
	"strings"
	"testing"
)

// TestLongTitleWraps: a title wider than its figure (notebook 08's 360 px
// heatmap with a 49-character title, which Chromium drew 28 px past both
// edges) is drawn on several lines, each within the figure's width by the
// estimate, together the whole title; the cells start below the last line;
// the figure keeps its size.
func TestLongTitleWraps(t *testing.T) {
	title := "csbm-n500-c3-h0.2-d10: class compatibility matrix"
	h := NewHeatmap(title, [][]float64{{0.2, 0.8}, {0.6, 0.4}}).Size(360, 320)
	es := parseSVG(t, h.SVG())
	if w, ht := h.Dimensions(); w != 360 || ht != 320 {
		t.Errorf("Dimensions %v x %v, want 360 x 320", w, ht)
	}
	lines := byClass(es, "title")
	if len(lines) != 2 {
		t.Fatalf("title on %d lines %q, want 2", len(lines), texts(lines))
	}
	if got := strings.Join(texts(lines), " "); got != title {
		t.Errorf("title lines %q join to %q, want %q", texts(lines), got, title)
	}
	lastY := 0.0
	for _, l := range lines {
		if w := textWidth(l.text, titleSize) * titleBold; w > 360-2*outerPad {
			t.Errorf("title line %q is %.0f px wide, more than the figure's 340 px of room", l.text, w)
		}
		y, _ := strconv.ParseFloat(l.attr["y"], 64)
		if y <= lastY {
			t.Errorf("title line %q at y %v, not below the line before (%v)", l.text, y, lastY)
		}
		lastY = y
	}
	for _, e := range es {
		if e.name == "rect" && e.inside("cells") {
			if y, _ := strconv.ParseFloat(e.attr["y"], 64); y < lastY+titleSize*0.3 {
				t.Errorf("a cell starts at y %v, over the title's last line (baseline %v)", y, lastY)
			}
		}
	}

	// A short title stays on one line; a word longer than the figure is cut.
	if n := len(titleLines("Texas: H", 360)); n != 1 {
		t.Errorf("short title on %d lines", n)
	}
	long := strings.Repeat("x", 80)
	parts := titleLines(long, 200)
	if strings.Join(parts, "") != long || len(parts) < 2 {
		t.Errorf("an 80-letter word in a 200 px figure: lines %q", parts)
	}
}
