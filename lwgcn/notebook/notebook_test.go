package notebook

import (
	"bytes"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/janpfeifer/gonb/gonbui/protocol"

	"github.com/lwgcn/toolkit/lwgcn/plot"
)

// fakeEnv replaces the package seams for one test: notebook mode, captured
// display data and text, and a manual clock.
type fakeEnv struct {
	sent     []*protocol.DisplayData
	out, err bytes.Buffer
	clock    time.Time
}

func setup(t *testing.T, notebook bool) *fakeEnv {
	f := &fakeEnv{clock: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	oldIn, oldSend, oldOut, oldErr, oldNow := inNotebook, send, stdout, stderr, now
	inNotebook = func() bool { return notebook }
	send = func(d *protocol.DisplayData) { f.sent = append(f.sent, d) }
	stdout, stderr = &f.out, &f.err
	now = func() time.Time { return f.clock }
	t.Cleanup(func() { inNotebook, send, stdout, stderr, now = oldIn, oldSend, oldOut, oldErr, oldNow })
	return f
}

func (f *fakeEnv) advance(d time.Duration) { f.clock = f.clock.Add(d) }

func TestQuick(t *testing.T) {
	for v, want := range map[string]bool{"1": true, "true": true, "TRUE": true, " yes ": true, "on": true, "": false, "0": false, "false": false, "no": false} {
		t.Setenv(QuickEnv, v)
		if got := Quick(); got != want {
			t.Errorf("LWGCN_QUICK=%q: Quick() = %v, want %v", v, got, want)
		}
	}
}

func sampleTable() *plot.Table {
	return plot.NewTable("acc").Header("Model", "Cora").
		Row(plot.Text("GCN"), plot.MeanStd(81.5, 0.5, 1)).Row(plot.Text("MLP"), plot.MeanStd(57.3, 1.2, 1)).MarkBest(plot.Higher)
}

func TestTextFallbacks(t *testing.T) {
	f := setup(t, false)
	fig := plot.NewLine(`Acc & "h"`).Add(plot.Series{Name: "s", Y: []float64{1, 2}})
	svg := fig.SVG()
	Plot(fig)
	Table(sampleTable())
	Markdown("# Title\n")
	HTML("<p>x</p>")
	Table(nil)
	Plot(nil)
	if len(f.sent) != 0 {
		t.Fatalf("sent %d display messages outside a notebook", len(f.sent))
	}
	want := `[figure "Acc & \"h\"": SVG, ` + strconv.Itoa(len(svg)) + " bytes]\n" +
		strings.TrimRight(sampleTable().Markdown(), "\n") + "\n" +
		"# Title\n" +
		"[HTML: 8 bytes]\n"
	if got := f.out.String(); got != want {
		t.Errorf("stdout\n got %q\nwant %q", got, want)
	}
}

func TestNotebookDisplayData(t *testing.T) {
	f := setup(t, true)
	fig := plot.NewBars("bars").Groups("a").Add(plot.Series{Name: "m", Y: []float64{1}})
	Plot(fig)
	tb := sampleTable()
	Table(tb)
	Markdown("$x^2$")
	HTML("<i>h</i>")
	if len(f.sent) != 4 {
		t.Fatalf("sent %d messages, want 4", len(f.sent))
	}
	svg := f.sent[0].Data
	if svg[protocol.MIMEImageSVG] != fig.SVG() || svg[protocol.MIMETextPlain] == nil || len(svg) != 2 {
		t.Errorf("SVG display data has MIME types %v", keys(svg))
	}
	if _, isHTML := svg[protocol.MIMETextHTML]; isHTML {
		t.Errorf("SVG sent as HTML")
	}
	if f.sent[1].Data[protocol.MIMETextHTML] != tb.HTML() || f.sent[1].Data[protocol.MIMETextPlain] != tb.Markdown() {
		t.Errorf("table display data %v", keys(f.sent[1].Data))
	}
	if f.sent[2].Data[protocol.MIMETextMarkdown] != "$x^2$" || f.sent[3].Data[protocol.MIMETextHTML] != "<i>h</i>" {
		t.Errorf("markdown/html display data wrong")
	}
	for i, d := range f.sent {
		if d.DisplayID != "" {
			t.Errorf("message %d has a display id (would overwrite a block)", i)
		}
	}
	if f.out.Len() != 0 {
		t.Errorf("notebook mode wrote to stdout: %q", f.out.String())
	}
}

func keys(m map[protocol.MIMEType]any) []string {
	var out []string
	for k := range m {
		out = append(out, string(k))
	}
	return out
}

func TestProgressNotebookUpdatesOneDisplay(t *testing.T) {
	f := setup(t, true)
	b := Progress(10, "train <GCN>")
	if len(f.sent) != 1 {
		t.Fatalf("Progress drew %d times, want 1", len(f.sent))
	}
	id := f.sent[0].DisplayID
	if !strings.HasPrefix(id, "lwgcn_progress_") {
		t.Fatalf("display id %q", id)
	}
	f.advance(50 * time.Millisecond)
	b.Update(1, "epoch 1")
	if len(f.sent) != 1 {
		t.Errorf("redrew within %v", NotebookRefresh)
	}
	f.advance(NotebookRefresh)
	b.Update(2, "epoch 2 & <more>")
	if len(f.sent) != 2 {
		t.Fatalf("no redraw after %v", NotebookRefresh)
	}
	h := f.sent[1].Data[protocol.MIMETextHTML].(string)
	for _, s := range []string{"train &lt;GCN&gt;", "2/10 (20%)", "width:20.0%", "epoch 2 &amp; &lt;more&gt;", "ETA"} {
		if !strings.Contains(h, s) {
			t.Errorf("bar HTML lacks %q:\n%s", s, h)
		}
	}
	b.Update(10, "last") // completion redraws at once
	b.Done()
	b.Done()
	b.Update(3, "late")
	if len(f.sent) != 4 {
		t.Fatalf("%d draws, want 4 (start, 20%%, 100%%, done)", len(f.sent))
	}
	for i, d := range f.sent {
		if d.DisplayID != id {
			t.Errorf("draw %d uses display id %q, want %q", i, d.DisplayID, id)
		}
	}
	final := f.sent[3].Data[protocol.MIMETextHTML].(string)
	if !strings.Contains(final, "10/10 (100%)") || !strings.Contains(final, "done in") {
		t.Errorf("final bar %s", final)
	}
	if f.err.Len() != 0 {
		t.Errorf("notebook progress wrote to stderr: %q", f.err.String())
	}
}

func TestProgressTextIsOccasional(t *testing.T) {
	f := setup(t, false)
	b := Progress(100, "sweep")
	if f.err.Len() != 0 {
		t.Errorf("text progress printed before the first update")
	}
	for i := 1; i <= 100; i++ {
		f.advance(100 * time.Millisecond) // 10 s in all
		b.Update(i, "")
	}
	b.Done()
	lines := strings.Split(strings.TrimRight(f.err.String(), "\n"), "\n")
	// First update, then one line per tenth (each tenth takes 1 s, the
	// minimum gap), then Done: at most 12 lines for 100 updates.
	if len(lines) < 3 || len(lines) > 12 {
		t.Fatalf("%d lines for 100 updates:\n%s", len(lines), f.err.String())
	}
	if !strings.HasPrefix(lines[0], "sweep: 1/100 (1%)") {
		t.Errorf("first line %q", lines[0])
	}
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, "sweep: 100/100 (100%) · done in 10s") {
		t.Errorf("last line %q", last)
	}

	// Long silent phases still print after TextRefresh.
	f.err.Reset()
	c := Progress(0, "unknown total")
	c.Update(1, "a")
	f.advance(TextRefresh / 2)
	c.Update(2, "b")
	f.advance(TextRefresh)
	c.Update(3, "c")
	if got := f.err.String(); got != "unknown total: 1 · 0s elapsed · a\nunknown total: 3 · 15s elapsed · c\n" {
		t.Errorf("unknown-total lines %q", got)
	}
}

func TestReporterAdapter(t *testing.T) {
	f := setup(t, false)
	b := Progress(0, "fit")
	var r Reporter = b.Reporter()
	r.Update(5, 20, "epoch 5")
	if !strings.Contains(f.err.String(), "fit: 5/20 (25%)") || !strings.Contains(f.err.String(), "epoch 5") {
		t.Errorf("adapter output %q", f.err.String())
	}
}

func TestProgressConcurrentUpdates(t *testing.T) {
	f := setup(t, true)
	b := Progress(800, "parallel")
	r := b.Reporter()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 100 {
				r.Update(g*100+i, 800, "")
			}
		}()
	}
	wg.Wait()
	b.Done()
	last := f.sent[len(f.sent)-1].Data[protocol.MIMETextHTML].(string)
	if !strings.Contains(last, "800/800 (100%)") {
		t.Errorf("final bar %q", last)
	}
}
