package plot

import (
	"encoding/xml"
	"errors"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// elem is one parsed SVG element.
type elem struct {
	name    string
	attr    map[string]string
	text    string
	classes []string // class attributes of the ancestors, outermost first
}

func (e *elem) class() string { return e.attr["class"] }

// inside reports whether an ancestor has the given class.
func (e *elem) inside(class string) bool {
	for _, c := range e.classes {
		if c == class {
			return true
		}
	}
	return false
}

// parseSVG decodes the whole document with encoding/xml, checks it is one
// self-contained <svg> element, and returns its elements in document order.
func parseSVG(t *testing.T, svg string) []*elem {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(svg))
	var all []*elem
	var stack []*elem
	roots := 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("SVG does not parse as XML: %v\n%s", err, svg)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			e := &elem{name: tok.Name.Local, attr: map[string]string{}}
			for _, a := range tok.Attr {
				e.attr[a.Name.Local] = a.Value
			}
			for _, p := range stack {
				e.classes = append(e.classes, p.class())
			}
			if len(stack) == 0 {
				roots++
			}
			stack = append(stack, e)
			all = append(all, e)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].text += string(tok)
			} else if strings.TrimSpace(string(tok)) != "" {
				t.Fatalf("text outside the root element: %q", tok)
			}
		}
	}
	if roots != 1 || all[0].name != "svg" {
		t.Fatalf("want one <svg> root, got %d roots, first %q", roots, all[0].name)
	}
	for _, k := range []string{"width", "height", "viewBox", "xmlns"} {
		if all[0].attr[k] == "" {
			t.Errorf("root <svg> lacks %s", k)
		}
	}
	// Self-contained: no scripts, no external references.
	if strings.Contains(svg, "<script") || strings.Count(svg, "http") != 1 || strings.Contains(svg, "@import") {
		t.Errorf("SVG is not self-contained")
	}
	if n := strings.Count(svg, "url("); n != strings.Count(svg, "url(#") {
		t.Errorf("SVG references a non-local url()")
	}
	return all
}

func byClass(es []*elem, class string) []*elem {
	var out []*elem
	for _, e := range es {
		if e.class() == class {
			out = append(out, e)
		}
	}
	return out
}

func texts(es []*elem) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.text)
	}
	return out
}

// parseTick reads a tick label back as a number.
func parseTick(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(strings.ReplaceAll(s, "\u2212", "-"), 64)
	if err != nil {
		t.Fatalf("tick label %q is not a number: %v", s, err)
	}
	return v
}

// checkNiceTicks asserts that ticks are equally spaced multiples of a step
// 1, 2 or 5 x 10^k and cover [lo, hi].
func checkNiceTicks(t *testing.T, ticks []float64, lo, hi float64) {
	t.Helper()
	if len(ticks) < 2 {
		t.Fatalf("want at least 2 ticks, got %v", ticks)
	}
	step := ticks[1] - ticks[0]
	mag := math.Pow(10, math.Floor(math.Log10(step)+1e-9))
	m := step / mag
	if math.Abs(m-1) > 1e-6 && math.Abs(m-2) > 1e-6 && math.Abs(m-5) > 1e-6 {
		t.Errorf("tick step %g is not 1, 2 or 5 times a power of ten (ticks %v)", step, ticks)
	}
	for i, v := range ticks {
		if k := v / step; math.Abs(k-math.Round(k)) > 1e-6 {
			t.Errorf("tick %g is not a multiple of the step %g", v, step)
		}
		if i > 0 && math.Abs(ticks[i]-ticks[i-1]-step) > 1e-6*step {
			t.Errorf("ticks are not equally spaced: %v", ticks)
		}
	}
	if ticks[0] > lo+1e-9*math.Abs(lo) || ticks[len(ticks)-1] < hi-1e-9*math.Abs(hi) {
		t.Errorf("ticks %v do not cover the data range [%g, %g]", ticks, lo, hi)
	}
}

// pathPoints returns the coordinates following M and L commands in d.
var pathCmd = regexp.MustCompile(`([ML])(-?[0-9.]+) (-?[0-9.]+)`)

func pathPoints(t *testing.T, d string) (moves, lines int, pts [][2]float64) {
	t.Helper()
	for _, m := range pathCmd.FindAllStringSubmatch(d, -1) {
		x, _ := strconv.ParseFloat(m[2], 64)
		y, _ := strconv.ParseFloat(m[3], 64)
		pts = append(pts, [2]float64{x, y})
		if m[1] == "M" {
			moves++
		} else {
			lines++
		}
	}
	return moves, lines, pts
}

func attrF(t *testing.T, e *elem, k string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(e.attr[k], 64)
	if err != nil {
		t.Fatalf("<%s> attribute %s=%q: %v", e.name, k, e.attr[k], err)
	}
	return v
}

func TestEscape(t *testing.T) {
	for in, want := range map[string]string{
		`a<b & "c" 'd'>`: "a&lt;b &amp; &quot;c&quot; &#39;d&#39;&gt;",
		"tab\there":      "tab here",
		"bell\x07":       "bell\uFFFD",
		"h = 1/C ± σ":    "h = 1/C ± σ",
	} {
		if got := escape(in); got != want {
			t.Errorf("escape(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNum(t *testing.T) {
	for in, want := range map[float64]string{1.005: "1", 1.006: "1.01", -0.001: "0", 12: "12", -3.14159: "-3.14", math.NaN(): "0"} {
		if got := num(in); got != want {
			t.Errorf("num(%v) = %q, want %q", in, got, want)
		}
	}
}

func TestLinearAxisTicksAreNiceAndCover(t *testing.T) {
	cases := [][2]float64{
		{0, 1}, {0.03, 0.97}, {-0.2, 4.1}, {38.2, 99}, {1, 64}, {-1, 1}, {0.0012, 0.0047},
		{-350, -20}, {1e6, 3.3e6}, {5, 5}, {0, 0}, {-7.3, 12.9}, {0.999, 1.001},
	}
	for _, c := range cases {
		for _, target := range []int{3, 5, 8} {
			a := linearAxis(extent{c[0], c[1], true}, target, false)
			checkNiceTicks(t, a.ticks, c[0], c[1])
			if a.lo != a.ticks[0] || a.hi != a.ticks[len(a.ticks)-1] {
				t.Errorf("range %v: axis [%g, %g] does not end on ticks %v", c, a.lo, a.hi, a.ticks)
			}
			if len(a.ticks) > 2*target+2 {
				t.Errorf("range %v target %d: %d ticks is too many", c, target, len(a.ticks))
			}
			for i, l := range a.labels {
				if v := parseTick(t, l); math.Abs(v-a.ticks[i]) > 1e-9*math.Max(1, math.Abs(v)) {
					t.Errorf("label %q does not print tick %g", l, a.ticks[i])
				}
			}
		}
	}
}

func TestFixedLinearAxisKeepsRange(t *testing.T) {
	a := linearAxis(extent{0.13, 0.87, true}, 5, true)
	if a.lo != 0.13 || a.hi != 0.87 {
		t.Fatalf("fixed axis changed its range to [%g, %g]", a.lo, a.hi)
	}
	for _, v := range a.ticks {
		if v < 0.13 || v > 0.87 {
			t.Errorf("tick %g outside the fixed range", v)
		}
	}
}

func TestLogAxis(t *testing.T) {
	a := logAxis(extent{0.003, 1.6, true}, false)
	if a.lo != 0.001 || a.hi != 10 {
		t.Errorf("log axis range [%g, %g], want [0.001, 10]", a.lo, a.hi)
	}
	want := []string{"0.001", "0.01", "0.1", "1", "10"}
	if strings.Join(a.labels, " ") != strings.Join(want, " ") {
		t.Errorf("log ticks %v, want %v", a.labels, want)
	}
	// A narrow range adds 2x and 5x ticks.
	b := logAxis(extent{2, 40, true}, false)
	if strings.Join(b.labels, " ") != "1 2 5 10 20 50 100" {
		t.Errorf("narrow log ticks %v", b.labels)
	}
}

func TestTypographicMinus(t *testing.T) {
	for in, want := range map[string]string{"-0.0": "0.0", "-0": "0", "-1.5": "\u22121.5", "2": "2", "-": "-"} {
		if got := typographicMinus(in); got != want {
			t.Errorf("typographicMinus(%q) = %q, want %q", in, got, want)
		}
	}
}

// Whole-number ticks: an axis over layers 2..3 ticks at 2 and 3 only (the
// automatic step there is 0.1 or 0.2); a step already >= 1 is kept.
func TestIntegerTicks(t *testing.T) {
	a := integerTicks(linearAxis(extent{2, 3, true}, 8, false))
	if len(a.ticks) != 2 || a.ticks[0] != 2 || a.ticks[1] != 3 || a.labels[0] != "2" || a.labels[1] != "3" {
		t.Errorf("ticks %v labels %q, want [2 3]", a.ticks, a.labels)
	}
	if a.lo != 2 || a.hi != 3 {
		t.Errorf("range changed to [%g, %g]", a.lo, a.hi)
	}
	wide := linearAxis(extent{0, 40, true}, 5, false)
	if got := integerTicks(wide); len(got.ticks) != len(wide.ticks) {
		t.Errorf("a step >= 1 changed: %v -> %v", wide.ticks, got.ticks)
	}
	// Through the figure: a line plot with IntegerX prints no fractional tick.
	svg := NewLine("").IntegerX().Add(Series{Name: "a", X: []float64{2, 3}, Y: []float64{1, 2}}).SVG()
	if strings.Contains(svg, ">2.5<") || strings.Contains(svg, ">2.2<") || !strings.Contains(svg, ">3<") {
		t.Errorf("IntegerX plot has fractional or missing x ticks:\n%s", svg)
	}
}
