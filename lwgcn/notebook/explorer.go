package notebook

import (
	"errors"
	"fmt"
	"html"
	"strings"
	"time"
)

// Time limits of a live Explorer.
const (
	// IdleTimeout ends a live session after this long without input, so a
	// forgotten cell does not hold the kernel forever.
	IdleTimeout = 15 * time.Minute
	// FrontEndTimeout is how long Explorer waits for the front end to answer
	// GoNB's widgets before it shows the default state instead (nbconvert
	// without LWGCN_HEADLESS, a front end without GoNB's JavaScript).
	FrontEndTimeout = 30 * time.Second
)

// Explorer shows controls (sliders, selects, buttons) and what Draw makes of
// their values, redrawn in place whenever a control moves. It needs GoNB's
// widgets in a front end (JupyterLab, Jupyter Notebook). Headless runs
// (LWGCN_HEADLESS=1, set by the report runner) and programs outside a
// notebook show the default state once, output by output, and return at
// once. A live session ends with its Stop button or after Idle without input.
type Explorer struct {
	Title    string
	Controls []Control
	// Draw makes the view of one set of values. Live, its error is shown in
	// place of the view; headless, it is returned by Run.
	Draw func(Values) (*View, error)
	// Actions are buttons that run with the current values and show their
	// view below Draw's (e.g. training models, with a progress bar).
	Actions []Action
	// Idle ends a live session after this long without input (default IdleTimeout).
	Idle time.Duration
}

// Action is a button of an Explorer.
type Action struct {
	Label string
	Run   func(Values) (*View, error)
	// Headless also runs the action once with the default values when the
	// explorer is not live, so reports show its result.
	Headless bool
}

// event is one input of the front end: a control moved to pos, an action's
// button clicked, or Stop.
type event struct {
	control, action int // -1 when not that kind
	pos             int
	stop            bool
}

// frontEnd is the live side of an Explorer (GoNB's widgets; a fake in tests).
type frontEnd interface {
	// start shows the controls at positions and the buttons; the events
	// channel delivers the reader's input. It fails when no front end answers.
	start(title string, controls []Control, positions []int, actions []string) (<-chan event, error)
	// show replaces the view; showAction replaces the actions' output.
	show(html string)
	showAction(html string)
}

// newFrontEnd makes the live front end (replaced in tests).
var newFrontEnd = func() frontEnd { return &gonbFrontEnd{timeout: FrontEndTimeout} }

// errNoFrontEnd is returned by a frontEnd whose widgets nobody answered.
var errNoFrontEnd = errors.New("no front end answered GoNB's widgets")

// Live reports whether an Explorer would be live: in a notebook and not headless.
func Live() bool { return InNotebook() && !Headless() }

// Run shows the explorer (see Explorer) and returns when it ends.
func (e *Explorer) Run() error {
	if e.Draw == nil {
		return fmt.Errorf("notebook: explorer %q has no Draw function", e.Title)
	}
	seen := map[string]bool{}
	for _, c := range e.Controls {
		if err := c.validate(); err != nil {
			return err
		}
		if seen[c.Name] {
			return fmt.Errorf("notebook: explorer %q: two controls named %q", e.Title, c.Name)
		}
		seen[c.Name] = true
	}
	vals := newValues(e.Controls)
	if !Live() {
		return e.static(vals)
	}
	positions := make([]int, len(e.Controls))
	for i, c := range e.Controls {
		positions[i] = c.PositionOf(c.Default)
	}
	labels := make([]string, len(e.Actions))
	for i, a := range e.Actions {
		labels[i] = a.Label
	}
	fe := newFrontEnd()
	events, err := fe.start(e.Title, e.Controls, positions, labels)
	if err != nil {
		fmt.Fprintf(stderr, "notebook: explorer %q: %v; showing the default state (headless runs set %s=1)\n",
			e.Title, err, HeadlessEnv)
		return e.static(vals)
	}
	e.live(fe, events, vals)
	return nil
}

// static shows the default state output by output, then the headless actions.
func (e *Explorer) static(vals Values) error {
	HTML(noteHTML(fmt.Sprintf("%s: default state (%s). Run the notebook in JupyterLab (make lab) to move the controls.",
		e.Title, vals)))
	view, err := e.Draw(vals)
	if err != nil {
		return fmt.Errorf("notebook: explorer %q at %s: %w", e.Title, vals, err)
	}
	view.display()
	for _, a := range e.Actions {
		if !a.Headless {
			continue
		}
		view, err := a.Run(vals)
		if err != nil {
			return fmt.Errorf("notebook: explorer %q, action %q at %s: %w", e.Title, a.Label, vals, err)
		}
		view.display()
	}
	return nil
}

// live redraws on every control event until Stop or the idle timeout.
func (e *Explorer) live(fe frontEnd, events <-chan event, vals Values) {
	idle := e.Idle
	if idle <= 0 {
		idle = IdleTimeout
	}
	draws := 0
	redraw := func() {
		draws++
		head := fmt.Sprintf(`<p class="lwgcn-values" data-lwgcn-draw="%d"><b>%s</b></p>`, draws, html.EscapeString(vals.String()))
		view, err := e.Draw(vals)
		if err != nil {
			fe.show(head + `<pre class="lwgcn-error">` + html.EscapeString(err.Error()) + "</pre>")
			return
		}
		fe.show(head + view.HTMLBlock())
	}
	redraw()
	timer := time.NewTimer(idle)
	defer timer.Stop()
	for {
		var ev event
		select {
		case next, ok := <-events:
			if !ok {
				return
			}
			ev = next
		case <-timer.C:
			fe.showAction(noteHTML(fmt.Sprintf("Stopped after %s without input, at %s. Rerun the cell to explore again.", idle, vals)))
			return
		}
		timer.Reset(idle)
		if ev.control >= 0 {
			// A dragged slider sends many positions: apply all that are
			// already waiting, draw once; another kind of event waits its turn.
			vals = vals.with(ev.control, ev.pos)
			var other *event
		drain:
			for {
				select {
				case next, ok := <-events:
					if !ok {
						break drain
					}
					if next.control < 0 {
						other = &next
						break drain
					}
					vals = vals.with(next.control, next.pos)
				default:
					break drain
				}
			}
			redraw()
			if other == nil {
				continue
			}
			ev = *other
		}
		if ev.stop {
			fe.showAction(noteHTML(fmt.Sprintf("Stopped at %s. Rerun the cell to explore again.", vals)))
			return
		}
		e.runAction(fe, ev.action, vals)
	}
}

// runAction runs the i-th action's button with vals and shows its view.
func (e *Explorer) runAction(fe frontEnd, i int, vals Values) {
	if i < 0 || i >= len(e.Actions) {
		return
	}
	a := e.Actions[i]
	fe.showAction(noteHTML(fmt.Sprintf("%s: running at %s ...", a.Label, vals)))
	view, err := a.Run(vals)
	head := fmt.Sprintf(`<p class="lwgcn-values"><b>%s</b> at %s</p>`, html.EscapeString(a.Label), html.EscapeString(vals.String()))
	if err != nil {
		fe.showAction(head + `<pre class="lwgcn-error">` + html.EscapeString(err.Error()) + "</pre>")
		return
	}
	fe.showAction(head + view.HTMLBlock())
}

// controlsHTML is the table of controls the widgets are appended into.
func controlsHTML(root, title string, controls []Control) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<div id="%s" class="lwgcn-controls"><p><b>%s</b></p><table>`, root, html.EscapeString(title))
	for i, c := range controls {
		rng := fmt.Sprintf("%s … %s", c.Format(c.Min), c.Format(c.Max))
		if c.IsSelect() {
			rng = fmt.Sprintf("%d options", len(c.Options))
		}
		fmt.Fprintf(&b, `<tr><td>%s</td><td id="%s_c%d"></td><td>%s</td></tr>`, html.EscapeString(c.Name), root, i, html.EscapeString(rng))
	}
	fmt.Fprintf(&b, `</table><div id="%s_buttons"></div></div>`, root)
	return b.String()
}
