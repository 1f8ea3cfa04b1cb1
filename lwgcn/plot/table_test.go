package plot

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"
	"time"
)

func TestCellString(t *testing.T) {
	for _, c := range []struct {
		cell Cell
		want string
	}{
		{MeanStd(86.24, 5.81, 1), "86.2 ± 5.8"},
		{MeanStd(0.5, 0.049, 2), "0.50 ± 0.05"},
		{MeanStd(86.2, math.NaN(), 1), "86.2"},
		{MeanStd(math.NaN(), 1, 1), Missing},
		{Num(3.14159, 3), "3.142"},
		{Num(-0.0001, 2), "0.00"},
		{Num(2.5, -1), "2.5"},
		{Num(math.NaN(), 2), Missing},
		{Text("OOM"), "OOM"},
	} {
		if got := c.cell.String(); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}

// Hand-made column: 86.24 and 86.2 print alike and tie for best, 85.0 is
// second, NaN and text cells are skipped.
func TestMarkBestTiesAndNaN(t *testing.T) {
	tb := NewTable("").Header("model", "acc", "time").
		Row(Text("a"), MeanStd(86.24, 1, 1), Num(10, 0)).
		Row(Text("b"), MeanStd(86.2, 2, 1), Num(12, 0)).
		Row(Text("c"), MeanStd(85.0, 1, 1), Num(math.NaN(), 0)).
		Row(Text("d"), MeanStd(math.NaN(), 1, 1), Num(10, 0)).
		Row(Text("e"), Text("OOM"), Num(30, 0)).
		Row(Text("f"), MeanStd(84.96, 1, 1), Num(12, 0)).
		MarkBest(Higher).MarkBest(Lower, 2)
	got := tb.marks()
	want := [][]int{
		{0, markBest, markBest},
		{0, markBest, markSecond},
		{0, markSecond, 0},
		{0, 0, markBest},
		{0, 0, 0},
		{0, markSecond, markSecond}, // 84.96 prints as 85.0: ties with c
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("marks\n got %v\nwant %v", got, want)
	}
	md := tb.Markdown()
	for _, s := range []string{"| a | **86.2 ± 1.0** | **10** |", "| c | <ins>85.0 ± 1.0</ins> | – |", "| e | OOM | 30 |"} {
		if !strings.Contains(md, s) {
			t.Errorf("Markdown lacks %q:\n%s", s, md)
		}
	}
	html := tb.HTML()
	if strings.Count(html, "<b>") != 4 || strings.Count(html, "<u>") != 4 {
		t.Errorf("HTML has %d bold and %d underlined cells, want 4 and 4", strings.Count(html, "<b>"), strings.Count(html, "<u>"))
	}
}

func TestMarkBestNeedsTwoValues(t *testing.T) {
	tb := NewTable("").Row(Num(1, 0), Num(1, 0)).Row(Text("x"), Num(1, 0)).MarkBest(Higher)
	m := tb.marks()
	if m[0][0] != 0 {
		t.Errorf("single numeric cell in a column was marked")
	}
	// Column 1: all equal -> all best, no second.
	if m[0][1] != markBest || m[1][1] != markBest {
		t.Errorf("equal values should all be best: %v", m)
	}
	if got := NewTable("").Row(Num(1, 0)).Row(Num(2, 0)).marks(); got[0][0]+got[1][0] != 0 {
		t.Errorf("marks without MarkBest: %v", got)
	}
}

// checkWellFormed parses an HTML fragment as XML (our output is XHTML-clean).
func checkWellFormed(t *testing.T, frag string) string {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader("<root>" + frag + "</root>"))
	var text strings.Builder
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("HTML is not well formed: %v\n%s", err, frag)
		}
		if cd, ok := tok.(xml.CharData); ok {
			text.Write(cd)
		}
	}
	return text.String()
}

func TestTableHTMLEscaping(t *testing.T) {
	tb := NewTable(`Results <script>alert("x")</script> & more`).
		Groups(Group{"", 1}, Group{"Hetero <philic>", 2}).
		Header("Model", "A&B", `"C"`).
		Row(Text("<b>GCN</b>"), MeanStd(1, 0.5, 1), Num(2, 1)).
		Footer("commit <abc>")
	h := tb.HTML()
	if strings.Contains(h, "<script>") || strings.Contains(h, "<b>GCN") || strings.Contains(h, "<abc>") {
		t.Errorf("unescaped user text in HTML:\n%s", h)
	}
	text := checkWellFormed(t, h)
	for _, s := range []string{`Results <script>alert("x")</script> & more`, "Hetero <philic>", "A&B", "<b>GCN</b>", "1.0 ± 0.5", "commit <abc>"} {
		if !strings.Contains(text, s) {
			t.Errorf("HTML text lacks %q", s)
		}
	}
	if !strings.Contains(h, `colspan="2"`) {
		t.Errorf("group header does not span 2 columns")
	}
	for _, banned := range []string{"<link", "<style", "<script", "http"} {
		if strings.Contains(h, banned) {
			t.Errorf("HTML contains %q: not self-contained", banned)
		}
	}
}

func TestTableMarkdown2x2(t *testing.T) {
	tb := NewTable("Accuracy").Header("Model", "Cora").
		Row(Text("GCN"), MeanStd(81.54, 0.5, 1)).
		Row(Text("MLP"), MeanStd(57.3, 1.23, 1)).
		MarkBest(Higher)
	want := "**Accuracy**\n" +
		"\n" +
		"| Model | Cora |\n" +
		"|:---|---:|\n" +
		"| GCN | **81.5 ± 0.5** |\n" +
		"| MLP | <ins>57.3 ± 1.2</ins> |\n"
	if got := tb.Markdown(); got != want {
		t.Errorf("Markdown\n got %q\nwant %q", got, want)
	}
}

func TestTableMarkdownEscapingAndPadding(t *testing.T) {
	tb := NewTable("").Groups(Group{"Het", 2}).Header("a|b").
		Row(Text("x*y_z"), Text("<i>")).
		Row(Text("short"))
	want := "| Het: a\\|b | Het |\n" +
		"|:---|:---|\n" +
		"| x\\*y\\_z | &lt;i&gt; |\n" +
		"| short |  |\n"
	if got := tb.Markdown(); got != want {
		t.Errorf("Markdown\n got %q\nwant %q", got, want)
	}
}

func TestProvenance(t *testing.T) {
	got := Provenance("abc123", "go (SIMD)", time.Date(2026, 11, 21, 15, 0, 0, 0, time.UTC))
	if got != "commit abc123, backend go (SIMD), 2026-11-21" {
		t.Errorf("Provenance = %q", got)
	}
	if got := Provenance("", "xla", time.Time{}); got != "backend xla" {
		t.Errorf("Provenance with empty parts = %q", got)
	}
}
