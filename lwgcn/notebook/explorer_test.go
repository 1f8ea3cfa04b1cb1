package notebook

import (
	"encoding/base64"
	"errors"
	"fmt"
	"regexp"
	"strings"
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
		Actions: []Action{{Label: "Train", Headless: true, Run: func(v Values) (*View, error) {
			return NewView().Note("trained at " + v.String()), nil
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

// fakeFrontEnd records what a live explorer shows.
type fakeFrontEnd struct {
	events        chan event
	err           error
	views, action []string
}

func (f *fakeFrontEnd) start(title string, controls []Control, positions []int, actions []string) (<-chan event, error) {
	if f.err != nil {
		return nil, f.err
	}
	if title != "fixture" || len(controls) != 2 || positions[0] != 5 || positions[1] != 0 || len(actions) != 1 {
		return nil, fmt.Errorf("unexpected start(%q, %d controls, %v, %q)", title, len(controls), positions, actions)
	}
	return f.events, nil
}
func (f *fakeFrontEnd) show(h string)       { f.views = append(f.views, h) }
func (f *fakeFrontEnd) showAction(h string) { f.action = append(f.action, h) }

func liveSetup(t *testing.T, fe *fakeFrontEnd) {
	setup(t, true)
	t.Setenv(HeadlessEnv, "")
	old := newFrontEnd
	newFrontEnd = func() frontEnd { return fe }
	t.Cleanup(func() { newFrontEnd = old })
}

func TestExplorerLiveRedrawsLatestValues(t *testing.T) {
	fe := &fakeFrontEnd{events: make(chan event, 16)}
	liveSetup(t, fe)
	// Queued before the loop reads them: consecutive control moves are drawn
	// once, at their latest values: h moves twice (one draw at 0.8), the
	// action runs, the model switch and h = 0 make one draw (an error shown
	// in place), then Stop.
	for _, ev := range []event{
		{control: 0, action: -1, pos: 2}, {control: 0, action: -1, pos: 8},
		{control: -1, action: 0},
		{control: 1, action: -1, pos: 1},
		{control: 0, action: -1, pos: 0},
		{control: -1, action: 1, stop: true},
	} {
		fe.events <- ev
	}
	var draws []string
	if err := explorerFixture(&draws).Run(); err != nil {
		t.Fatal(err)
	}
	want := []string{"h = 0.5, model = gcn", "h = 0.8, model = gcn", "h = 0.0, model = mlp"}
	if strings.Join(draws, "|") != strings.Join(want, "|") {
		t.Fatalf("draws %q, want %q", draws, want)
	}
	if len(fe.views) != 3 {
		t.Fatalf("%d views shown, want 3", len(fe.views))
	}
	if !strings.Contains(fe.views[1], `data-lwgcn-draw="2"><b>h = 0.8, model = gcn</b>`) || !strings.Contains(fe.views[1], "data:image/svg+xml;base64,") {
		t.Errorf("second view %q", fe.views[1])
	}
	if !strings.Contains(fe.views[2], `<pre class="lwgcn-error">h = 0 has no figure</pre>`) {
		t.Errorf("error not shown in place: %q", fe.views[2])
	}
	if len(fe.action) != 3 || !strings.Contains(fe.action[1], "trained at h = 0.8, model = gcn") ||
		!strings.Contains(fe.action[2], "Stopped at h = 0.0, model = mlp") {
		t.Errorf("action outputs %q", fe.action)
	}
}

func TestExplorerLiveIdleTimeout(t *testing.T) {
	fe := &fakeFrontEnd{events: make(chan event)}
	liveSetup(t, fe)
	e := explorerFixture(new([]string))
	e.Idle = 20 * time.Millisecond
	done := make(chan error, 1)
	go func() { done <- e.Run() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("explorer did not stop after its idle time")
	}
	if len(fe.action) != 1 || !strings.Contains(fe.action[0], "Stopped after 20ms without input") {
		t.Errorf("action outputs %q", fe.action)
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
