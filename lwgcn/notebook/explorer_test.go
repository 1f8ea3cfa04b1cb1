package notebook

import (
	"encoding/base64"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/janpfeifer/gonb/gonbui/protocol"

	"github.com/lwgcn/toolkit/lwgcn/plot"
)

func TestSliderPositions(t *testing.T) {
	h := Slider("h", 0, 1, 0.05, 0.3)
	if err := h.validate(); err != nil {
		t.Fatal(err)
	}
	if got := h.Positions(); got != 21 {
		t.Errorf("Positions = %d, want 21", got)
	}
	// 0.3 / 0.05 = 5.999999999999999 in floating point: still position 6.
	if got := h.PositionOf(0.3); got != 6 {
		t.Errorf("PositionOf(0.3) = %d, want 6", got)
	}
	for pos, want := range map[int]float64{0: 0, 6: 0.3, 7: 0.35, 20: 1, 99: 1, -3: 0} {
		if got := h.ValueAt(pos); got != want {
			t.Errorf("ValueAt(%d) = %v, want %v", pos, got, want)
		}
	}
	if got := h.Format(0.35); got != "0.35" {
		t.Errorf("Format = %q", got)
	}
	d := Slider("d", 1, 50, 1, 5)
	if d.Positions() != 50 || d.ValueAt(4) != 5 || d.Format(5) != "5" {
		t.Errorf("degree slider: %d positions, ValueAt(4) = %v, Format %q", d.Positions(), d.ValueAt(4), d.Format(5))
	}
	s := Select("dataset", []string{"texas", "cornell"}, 1)
	if s.Positions() != 2 || s.Format(1) != "cornell" || s.ValueAt(5) != 1 {
		t.Errorf("select: %d positions, Format(1) %q, ValueAt(5) %v", s.Positions(), s.Format(1), s.ValueAt(5))
	}
}

func TestControlValidate(t *testing.T) {
	for _, tc := range []struct {
		c    Control
		want string
	}{
		{Slider("h", 0, 1, 0, 0.5), `control "h": step 0 must be positive`},
		{Slider("h", 1, 0, 0.1, 0.5), `control "h": range [1, 0] is empty or infinite`},
		{Slider("h", 0, 1, 0.1, 2), `control "h": default 2 outside [0, 1]`},
		{Select("v", nil, 0), `control "v": no options`},
		{Select("v", []string{"a"}, 1), `control "v": default 1 is not an option index in [0, 1)`},
		{Slider("", 0, 1, 0.1, 0), "control with an empty name"},
	} {
		err := tc.c.validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want %q", tc.c, err, tc.want)
		}
	}
}

func TestValues(t *testing.T) {
	v := newValues([]Control{Slider("h", 0, 1, 0.1, 0.3), Slider("d", 1, 20, 1, 5), Select("model", []string{"gcn", "mlp"}, 1)})
	if v.Float("h") != 0.3 || v.Int("d") != 5 || v.Choice("model") != "mlp" || v.Float("model") != 1 {
		t.Errorf("values %s", v)
	}
	if got, want := v.String(), "h = 0.3, d = 5, model = mlp"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	// A control that does not apply (AppliesWhen false) is left out of the caption.
	sbm := func(v Values) bool { return v.Choice("model") == "gcn" }
	u := newValues([]Control{Slider("h", 0, 1, 0.1, 0.3), Slider("n", 100, 900, 100, 500).When(sbm), Select("model", []string{"gcn", "mlp"}, 1)})
	if got, want := u.String(), "h = 0.3, model = mlp"; got != want {
		t.Errorf("String with a control not applying = %q, want %q", got, want)
	}
	if got, want := u.with(2, 0).String(), "h = 0.3, n = 500, model = gcn"; got != want {
		t.Errorf("String with the control applying = %q, want %q", got, want)
	}
	w := v.with(0, 7)
	if w.Float("h") != 0.7 || v.Float("h") != 0.3 {
		t.Errorf("with changed the original or did not apply: %s / %s", v, w)
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), `no control named "C"`) {
			t.Errorf("unknown name: recovered %v", r)
		}
	}()
	v.Float("C")
}

func testFigure(title string) plot.Figure {
	return plot.NewLine(title).Add(plot.Series{Name: "s", Y: []float64{1, 2, 4}})
}

func TestViewHTMLBlockKeepsSVGExact(t *testing.T) {
	fig := testFigure(`gap & "h"`)
	block := NewView().Plot(fig).Note("a < b").HTMLBlock()
	m := regexp.MustCompile(`<img src="data:image/svg\+xml;base64,([^"]+)" alt="([^"]*)">`).FindStringSubmatch(block)
	if m == nil {
		t.Fatalf("no SVG image in %q", block)
	}
	svg, err := base64.StdEncoding.DecodeString(m[1])
	if err != nil || string(svg) != fig.SVG() {
		t.Errorf("decoded SVG differs from the figure (err %v)", err)
	}
	if m[2] != "gap &amp; &#34;h&#34;" {
		t.Errorf("alt = %q", m[2])
	}
	if !strings.Contains(block, `<p class="lwgcn-note">a &lt; b</p>`) {
		t.Errorf("note not escaped: %q", block)
	}
}

func explorerFixture(draws *[]string) *Explorer {
	return &Explorer{
		Title:    "fixture",
		Controls: []Control{Slider("h", 0, 1, 0.1, 0.5), Select("model", []string{"gcn", "mlp"}, 0)},
		Draw: func(v Values) (*View, error) {
			*draws = append(*draws, v.String())
			if v.Float("h") == 0 {
				return nil, errors.New("h = 0 has no figure")
			}
			return NewView().Plot(testFigure("h " + v.Choice("model"))).Table(plot.NewTable("t").Row(plot.Text("x"), plot.Num(v.Float("h"), 1))), nil
		},
		Actions: []Action{{Label: "Train", Headless: true, Run: func(t *Task) (*View, error) {
			return NewView().Note("trained at " + t.Values.String()), nil
		}}},
	}
}

func TestExplorerHeadlessShowsDefaultsAndReturns(t *testing.T) {
	f := setup(t, true)
	t.Setenv(HeadlessEnv, "1")
	newFrontEnd = func() frontEnd { t.Fatal("headless run started the live front end"); return nil }
	t.Cleanup(func() { newFrontEnd = func() frontEnd { return &gonbFrontEnd{timeout: FrontEndTimeout} } })
	var draws []string
	if err := explorerFixture(&draws).Run(); err != nil {
		t.Fatal(err)
	}
	if len(draws) != 1 || draws[0] != "h = 0.5, model = gcn" {
		t.Fatalf("draws %q", draws)
	}
	// note, figure (image/svg+xml), table, action's note.
	if len(f.sent) != 4 {
		t.Fatalf("%d outputs, want 4", len(f.sent))
	}
	if svg, ok := f.sent[1].Data[protocol.MIMEImageSVG].(string); !ok || svg != testFigure("h gcn").SVG() {
		t.Errorf("second output is not the figure as image/svg+xml: %v", f.sent[1].Data)
	}
	if h := f.sent[3].Data[protocol.MIMETextHTML].(string); !strings.Contains(h, "trained at h = 0.5, model = gcn") {
		t.Errorf("headless action output %q", h)
	}
	if h := f.sent[0].Data[protocol.MIMETextHTML].(string); !strings.Contains(h, "default state (h = 0.5, model = gcn)") {
		t.Errorf("first output %q", h)
	}
}

func TestExplorerHeadlessReturnsDrawError(t *testing.T) {
	setup(t, false)
	e := explorerFixture(new([]string))
	e.Controls[0].Default = 0
	err := e.Run()
	if err == nil || err.Error() != `notebook: explorer "fixture" at h = 0.0, model = gcn: h = 0 has no figure` {
		t.Errorf("error %v", err)
	}
}

// fakeFrontEnd records what a live explorer shows; it is safe for the
// explorer's goroutines and the test's.
type fakeFrontEnd struct {
	events chan event
	err    error

	mu            sync.Mutex
	views, action []string
	ended         string
	endVals       string
}

func (f *fakeFrontEnd) start(title string, controls []Control, positions []int, actions []string) (<-chan event, error) {
	if f.err != nil {
		return nil, f.err
	}
	if title != "fixture" || len(controls) != 2 || positions[0] != 5 || positions[1] != 0 || len(actions) < 1 {
		return nil, fmt.Errorf("unexpected start(%q, %d controls, %v, %q)", title, len(controls), positions, actions)
	}
	return f.events, nil
}

func (f *fakeFrontEnd) show(h string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.views = append(f.views, h)
}

func (f *fakeFrontEnd) showAction(h string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.action = append(f.action, h)
}

func (f *fakeFrontEnd) end(note string, vals Values) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.ended, f.endVals = note, vals.String()
}

// snapshot copies what was shown so far.
func (f *fakeFrontEnd) snapshot() (views, action []string, ended string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.views...), append([]string(nil), f.action...), f.ended
}

// waitFor polls cond (at most 5 s) and fails the test with what.
func (f *fakeFrontEnd) waitFor(t *testing.T, what string, cond func(views, action []string, ended string) bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		v, a, e := f.snapshot()
		if cond(v, a, e) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s; views %d, action outputs %q, ended %q", what, len(v), a, e)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func last(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[len(s)-1]
}

func liveSetup(t *testing.T, fe *fakeFrontEnd) {
	setup(t, true)
	t.Setenv(HeadlessEnv, "")
	old := newFrontEnd
	newFrontEnd = func() frontEnd { return fe }
	t.Cleanup(func() { newFrontEnd = old })
}

// runLive runs e in a goroutine; the returned channel delivers Run's error.
func runLive(e *Explorer) <-chan error {
	done := make(chan error, 1)
	go func() { done <- e.Run() }()
	return done
}

func waitRun(t *testing.T, done <-chan error) {
	t.Helper()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("explorer did not end")
	}
}

func TestExplorerLiveRedrawsLatestValues(t *testing.T) {
	fe := &fakeFrontEnd{events: make(chan event, 16)}
	liveSetup(t, fe)
	// Queued before the loop reads them: consecutive control moves are drawn
	// once, at their latest values.
	fe.events <- event{control: 0, action: -1, pos: 2}
	fe.events <- event{control: 0, action: -1, pos: 8}
	var mu sync.Mutex
	var draws []string
	e := explorerFixture(&draws)
	draw := e.Draw
	e.Draw = func(v Values) (*View, error) { mu.Lock(); defer mu.Unlock(); return draw(v) }
	done := runLive(e)
	fe.waitFor(t, "the draw at h = 0.8", func(v, _ []string, _ string) bool { return len(v) >= 2 })
	fe.events <- event{control: 1, action: -1, pos: 1}
	fe.events <- event{control: 0, action: -1, pos: 0}
	fe.waitFor(t, "the error at h = 0", func(v, _ []string, _ string) bool {
		return strings.Contains(last(v), `<pre class="lwgcn-error">h = 0 has no figure</pre>`)
	})
	fe.events <- event{control: -1, action: 1, stop: true}
	waitRun(t, done)
	mu.Lock()
	defer mu.Unlock()
	if len(draws) < 3 || draws[0] != "h = 0.5, model = gcn" || draws[1] != "h = 0.8, model = gcn" || last(draws) != "h = 0.0, model = mlp" {
		t.Fatalf("draws %q, want h = 0.5, then 0.8 (two moves, one draw), ..., last h = 0.0 with mlp", draws)
	}
	views, action, ended := fe.snapshot()
	if !strings.Contains(views[1], `data-lwgcn-draw="2">View at <b>h = 0.8, model = gcn</b>`) || !strings.Contains(views[1], "data:image/svg+xml;base64,") {
		t.Errorf("second view %q", views[1])
	}
	if len(action) != 0 {
		t.Errorf("no action ran, yet action outputs %q", action)
	}
	if ended != "Explorer ended. Stopped at h = 0.0, model = mlp. Rerun the cell to explore again." || fe.endVals != "h = 0.0, model = mlp" {
		t.Errorf("end(%q, %q)", ended, fe.endVals)
	}
}

// TestExplorerActionRunsOffTheLoop: while an action works, a slider moves
// the view, and Stop answers: the action is cancelled, its partial result
// stays with where it stopped, and the controls end.
func TestExplorerActionRunsOffTheLoop(t *testing.T) {
	fe := &fakeFrontEnd{events: make(chan event, 16)}
	liveSetup(t, fe)
	working := make(chan struct{})
	e := explorerFixture(new([]string))
	e.Actions[0].Run = func(task *Task) (*View, error) {
		bar := task.Progress(10, "model A on g")
		bar.Update(3, "epoch 3")
		task.Partial(NewView().Note("model Z finished"))
		close(working)
		<-task.Context().Done() // works until stopped
		return nil, task.Context().Err()
	}
	done := runLive(e)
	fe.waitFor(t, "the first view", func(v, _ []string, _ string) bool { return len(v) == 1 })
	fe.events <- event{control: -1, action: 0}
	<-working
	fe.waitFor(t, "the running action's bar and partial result", func(_, a []string, _ string) bool {
		l := last(a)
		return strings.Contains(l, `data-lwgcn-state="running"`) && strings.Contains(l, "model A on g") && strings.Contains(l, "model Z finished")
	})
	fe.events <- event{control: 0, action: -1, pos: 9}
	fe.waitFor(t, "a redraw while the action works", func(v, _ []string, _ string) bool {
		return strings.Contains(last(v), "View at <b>h = 0.9, model = gcn</b>")
	})
	start := time.Now()
	fe.events <- event{control: -1, action: 1, stop: true}
	waitRun(t, done)
	if took := time.Since(start); took > time.Second {
		t.Errorf("Stop took %s", took)
	}
	_, action, ended := fe.snapshot()
	final := last(action)
	for _, want := range []string{`data-lwgcn-state="stopped"`, "<b>Train</b>: stopped by Stop after 0s, during model A on g, step 3 of 10 (epoch 3). What had finished is kept below. It ran at h = 0.5, model = gcn.",
		"3/10 (30%) · stopped after 0s", "model Z finished"} {
		if !strings.Contains(final, want) {
			t.Errorf("final action output lacks %q: %s", want, final)
		}
	}
	if ended != "Explorer ended. Stopped at h = 0.9, model = gcn. Rerun the cell to explore again." {
		t.Errorf("ended %q", ended)
	}
}

// TestExplorerSecondPressReplacesFirst: a press while an action runs
// cancels it; the first's late output does not replace the second's.
func TestExplorerSecondPressReplacesFirst(t *testing.T) {
	fe := &fakeFrontEnd{events: make(chan event, 16)}
	liveSetup(t, fe)
	firstDone := make(chan struct{})
	e := explorerFixture(new([]string))
	e.Actions[0].Run = func(task *Task) (*View, error) {
		// The first press's task by its id, not by which Run starts first:
		// the second press can cancel the first before its goroutine runs
		// (a counter then sent the second down the first's path, to wait on
		// a context nothing cancels).
		if task.id == 1 {
			defer close(firstDone)
			<-task.Context().Done()
			task.Partial(NewView().Note("late partial of the first"))
			return NewView().Note("first result"), nil
		}
		return NewView().Note("second result"), nil
	}
	done := runLive(e)
	fe.events <- event{control: -1, action: 0}
	fe.waitFor(t, "the first running", func(_, a []string, _ string) bool { return strings.Contains(last(a), `data-lwgcn-task="1"`) })
	fe.events <- event{control: -1, action: 0}
	<-firstDone
	fe.waitFor(t, "the second's result", func(_, a []string, _ string) bool {
		return strings.Contains(last(a), `data-lwgcn-state="done"`) && strings.Contains(last(a), "second result")
	})
	time.Sleep(20 * time.Millisecond) // room for a late output of the first
	fe.events <- event{control: -1, action: 1, stop: true}
	waitRun(t, done)
	_, action, _ := fe.snapshot()
	if !strings.Contains(last(action), "second result") {
		t.Errorf("last action output %q", last(action))
	}
	for _, a := range action {
		if strings.Contains(a, "late partial") || strings.Contains(a, "first result") {
			t.Errorf("the replaced task drew %q", a)
		}
	}
}

func TestExplorerActionPanicIsShown(t *testing.T) {
	fe := &fakeFrontEnd{events: make(chan event, 16)}
	liveSetup(t, fe)
	e := explorerFixture(new([]string))
	e.Actions[0].Run = func(*Task) (*View, error) { panic("boom") }
	done := runLive(e)
	fe.events <- event{control: -1, action: 0}
	fe.waitFor(t, "the failure", func(_, a []string, _ string) bool { return strings.Contains(last(a), `data-lwgcn-state="failed"`) })
	fe.events <- event{control: -1, action: 1, stop: true}
	waitRun(t, done)
	_, action, _ := fe.snapshot()
	if !strings.Contains(last(action), "failed after") || !strings.Contains(last(action), "panic: boom") {
		t.Errorf("failure output %q", last(action))
	}
}

func TestExplorerLiveIdleTimeout(t *testing.T) {
	fe := &fakeFrontEnd{events: make(chan event, 4)}
	liveSetup(t, fe)
	e := explorerFixture(new([]string))
	e.Idle = 20 * time.Millisecond
	// An action that works longer than Idle: not idle while it runs.
	e.Actions[0].Run = func(*Task) (*View, error) {
		time.Sleep(150 * time.Millisecond)
		return NewView().Note("slow result"), nil
	}
	fe.events <- event{control: -1, action: 0}
	waitRun(t, runLive(e))
	_, action, ended := fe.snapshot()
	if !strings.Contains(last(action), "slow result") {
		t.Errorf("the explorer ended before its action finished: %q", action)
	}
	if ended != "Explorer ended. Ended after 20ms without input, at h = 0.5, model = gcn. Rerun the cell to explore again." {
		t.Errorf("ended %q", ended)
	}
}

func TestExplorerWithoutFrontEndFallsBack(t *testing.T) {
	fe := &fakeFrontEnd{err: fmt.Errorf("%w within 30s", errNoFrontEnd)}
	liveSetup(t, fe)
	f := setup(t, true) // fresh capture (liveSetup's seams stay)
	var draws []string
	if err := explorerFixture(&draws).Run(); err != nil {
		t.Fatal(err)
	}
	if len(draws) != 1 || len(f.sent) != 4 {
		t.Errorf("fallback: %d draws, %d outputs", len(draws), len(f.sent))
	}
	if !strings.Contains(f.err.String(), `explorer "fixture": no front end answered GoNB's widgets within 30s; showing the default state (headless runs set LWGCN_HEADLESS=1)`) {
		t.Errorf("stderr %q", f.err.String())
	}
}

func TestExplorerRejectsBadControls(t *testing.T) {
	setup(t, false)
	e := explorerFixture(new([]string))
	e.Controls = append(e.Controls, Slider("h", 0, 2, 1, 1))
	if err := e.Run(); err == nil || err.Error() != `notebook: explorer "fixture": two controls named "h"` {
		t.Errorf("error %v", err)
	}
}

// TestControlsHTML: live, every slider's value sits beside it with what the
// page script needs to update it while dragging (min, step, decimals); the
// ended copy is disabled at the final positions, greyed, with its note.
func TestControlsHTML(t *testing.T) {
	controls := []Control{Slider("h", 0, 1, 0.05, 0.35), Slider("tilt", -1, 1, 0.1, 0.5), Select("model", []string{"gcn", "a<b"}, 1)}
	live := controlsHTML("r", "T & t", controls, []int{7, 15, 1}, []string{"Train"}, "")
	for _, want := range []string{
		`<td id="r_c0" data-lwgcn-min="0" data-lwgcn-step="0.05" data-lwgcn-decimals="2"></td><td class="lwgcn-value" id="r_c0_value" title="0.00 … 1.00 in steps of 0.05">0.35</td>`,
		`<td id="r_c1" data-lwgcn-min="-1" data-lwgcn-step="0.1" data-lwgcn-decimals="1"></td><td class="lwgcn-value" id="r_c1_value" title="-1.0 … 1.0 in steps of 0.1">0.5</td>`,
		`<td id="r_c2"></td><td class="lwgcn-value" id="r_c2_value" title="2 options"></td>`,
		`<b>T &amp; t</b>`, `<div id="r_buttons" class="lwgcn-buttons"></div>`, `#r_b1 { color:`, "window.lwgcnShowsValues",
		"var(--jp-brand-color1",
	} {
		if !strings.Contains(live, want) {
			t.Errorf("live controls lack %q:\n%s", want, live)
		}
	}
	if strings.Contains(live, "lwgcn-ended") && strings.Contains(live, `class="lwgcn-controls lwgcn-ended"`) || strings.Contains(live, "disabled") {
		t.Error("live controls marked as ended or disabled")
	}
	ended := controlsHTML("r", "T & t", controls, []int{20, 0, 1}, []string{"Train"}, "Explorer ended. Stopped.")
	for _, want := range []string{
		`<div id="r" class="lwgcn-controls lwgcn-ended">`,
		`<td id="r_c0" data-lwgcn-min="0" data-lwgcn-step="0.05" data-lwgcn-decimals="2"><input type="range" disabled min="0" max="20" value="20"></td><td class="lwgcn-value" id="r_c0_value" title="0.00 … 1.00 in steps of 0.05">1.00</td>`,
		`<input type="range" disabled min="0" max="20" value="0"></td><td class="lwgcn-value" id="r_c1_value" title="-1.0 … 1.0 in steps of 0.1">-1.0</td>`,
		`<select disabled><option selected>a&lt;b</option></select>`,
		`<button type="button" disabled>Train</button><button type="button" class="lwgcn-stop" disabled>Stop</button>`,
		`<p class="lwgcn-ended-note">Explorer ended. Stopped.</p>`,
	} {
		if !strings.Contains(ended, want) {
			t.Errorf("ended controls lack %q:\n%s", want, ended)
		}
	}
	if strings.Contains(ended, "<script") {
		t.Error("ended controls carry the script")
	}
}
