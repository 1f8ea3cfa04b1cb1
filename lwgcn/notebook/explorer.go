package notebook

import (
	"context"
	"errors"
	"fmt"
	"html"
	"sync"
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
	// StopWait is how long Stop waits for a running action to return what
	// it has before the explorer ends without it.
	StopWait = 10 * time.Second
)

// Explorer shows controls (sliders, selects, buttons) and what Draw makes of
// their values, redrawn in place whenever a control moves. Each control
// shows its value beside it, updated while it is dragged. It needs GoNB's
// widgets in a front end (JupyterLab, Jupyter Notebook). Headless runs
// (LWGCN_HEADLESS=1, set by the report runner) and programs outside a
// notebook show the default state once, output by output, and return at
// once. A live session ends with its Stop button or after Idle without
// input; the ended explorer says so and greys its controls.
type Explorer struct {
	Title    string
	Controls []Control
	// Draw makes the view of one set of values. Live, its error is shown in
	// place of the view; headless, it is returned by Run.
	Draw func(Values) (*View, error)
	// Actions are buttons that run with the current values (e.g. training
	// models). Live, an action runs apart from the event loop, so controls
	// and Stop answer while it works; its output (status, progress bar,
	// result) sits directly under the controls and is replaced in place by
	// the next press.
	Actions []Action
	// Idle ends a live session after this long without input (default IdleTimeout).
	Idle time.Duration
}

// Action is a button of an Explorer.
type Action struct {
	Label string
	// Run does the work for t.Values. It shows its progress with
	// t.Progress and what is finished so far with t.Partial, and when
	// t.Context() is cancelled (Stop, another press of a button, the end of
	// the explorer) it returns early with what it has and the context's
	// error: Stop keeps that partial result.
	Run func(t *Task) (*View, error)
	// Headless also runs the action once with the default values when the
	// explorer is not live, so reports show its result.
	Headless bool
}

// Task is one run of an Action: its values, a context cancelled when the
// run is no longer wanted, and its output under the explorer's controls.
type Task struct {
	// Values are the controls' values when the button was pressed.
	Values Values

	ctx    context.Context
	cancel context.CancelFunc
	id     int
	label  string
	start  time.Time
	live   bool
	redraw func() // shows the task's current state (live only)

	mu      sync.Mutex
	bar     *Bar
	barHTML string
	partial *View
}

// NewTask is a task for the values v outside a live explorer (a headless
// run, a test): its context is ctx, Progress makes a notebook bar and
// Partial does nothing.
func NewTask(ctx context.Context, v Values) *Task {
	return &Task{Values: v, ctx: ctx, start: now()}
}

// Context is cancelled when the task's result is no longer wanted.
func (t *Task) Context() context.Context {
	if t.ctx == nil {
		return context.Background()
	}
	return t.ctx
}

// Progress starts the task's progress bar over total steps. Live it is drawn
// in the action's output under the controls, one bar per task (a second
// call replaces the first); headless it is a notebook bar (Progress).
func (t *Task) Progress(total int, label string) *Bar {
	if !t.live {
		return Progress(total, label)
	}
	b := newSinkBar(total, label, func(h string) {
		t.mu.Lock()
		t.barHTML = h
		t.mu.Unlock()
		t.redraw()
	})
	t.mu.Lock()
	t.bar = b
	t.mu.Unlock()
	return b
}

// Partial shows v under the progress bar as what is finished so far; Stop
// keeps it when Run returns nothing better. Headless it does nothing.
func (t *Task) Partial(v *View) {
	if !t.live {
		return
	}
	t.mu.Lock()
	t.partial = v
	t.mu.Unlock()
	t.redraw()
}

// halt stops the task's bar, if any, and says how far the task came (its
// bar's Where; "" without a bar).
func (t *Task) halt() string {
	t.mu.Lock()
	b := t.bar
	t.mu.Unlock()
	if b == nil {
		return ""
	}
	where := b.Where()
	b.Stop()
	return where
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
	// start shows the controls at positions and the buttons, with the
	// actions' output directly under them; the events channel delivers the
	// reader's input. It fails when no front end answers.
	start(title string, controls []Control, positions []int, actions []string) (<-chan event, error)
	// show replaces the view; showAction replaces the actions' output.
	show(html string)
	showAction(html string)
	// end replaces the live controls by greyed ones at vals, with note.
	end(note string, vals Values)
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
	(&session{e: e, fe: fe, vals: vals}).loop(events)
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
		t := NewTask(context.Background(), vals)
		t.label = a.Label
		view, err := a.Run(t)
		if err != nil {
			return fmt.Errorf("notebook: explorer %q, action %q at %s: %w", e.Title, a.Label, vals, err)
		}
		view.display()
	}
	return nil
}

// session is one live run of an Explorer.
type session struct {
	e     *Explorer
	fe    frontEnd
	vals  Values
	draws int

	mu      sync.Mutex // guards shown: which task may draw into the action output
	shown   int        // id of the task whose output is on screen (0: none may draw)
	lastID  int
	running *Task
	results chan taskResult
}

// taskResult is what a task's Run returned.
type taskResult struct {
	t    *Task
	view *View
	err  error
}

// loop redraws on control events and starts actions until Stop or the idle
// timeout; then it greys the controls.
func (s *session) loop(events <-chan event) {
	idle := s.e.Idle
	if idle <= 0 {
		idle = IdleTimeout
	}
	s.results = make(chan taskResult, 8)
	s.redraw()
	timer := time.NewTimer(idle)
	defer timer.Stop()
	for {
		var ev event
		select {
		case next, ok := <-events:
			if !ok {
				s.finish(fmt.Sprintf("The front end closed the connection at %s. Rerun the cell to explore again.", s.vals))
				return
			}
			ev = next
		case r := <-s.results:
			s.done(r)
			continue
		case <-timer.C:
			if s.running != nil { // an action is working: not idle
				timer.Reset(idle)
				continue
			}
			s.finish(fmt.Sprintf("Ended after %s without input, at %s. Rerun the cell to explore again.", idle, s.vals))
			return
		}
		timer.Reset(idle)
		if ev.control >= 0 {
			// A dragged slider sends many positions: apply all that are
			// already waiting, draw once; another kind of event waits its turn.
			s.vals = s.vals.with(ev.control, ev.pos)
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
					s.vals = s.vals.with(next.control, next.pos)
				default:
					break drain
				}
			}
			s.redraw()
			if other == nil {
				continue
			}
			ev = *other
		}
		if ev.stop {
			s.stop()
			return
		}
		s.startAction(ev.action)
	}
}

// redraw draws the view of the current values.
func (s *session) redraw() {
	s.draws++
	head := fmt.Sprintf(`<p class="lwgcn-values" data-lwgcn-draw="%d">View at <b>%s</b></p>`, s.draws, html.EscapeString(s.vals.String()))
	view, err := s.e.Draw(s.vals)
	if err != nil {
		s.fe.show(head + `<pre class="lwgcn-error">` + html.EscapeString(err.Error()) + "</pre>")
		return
	}
	s.fe.show(head + view.HTMLBlock())
}

// startAction runs the i-th action with the current values in a goroutine
// of its own; a task still running is cancelled and its output replaced.
func (s *session) startAction(i int) {
	if i < 0 || i >= len(s.e.Actions) {
		return
	}
	a := s.e.Actions[i]
	if s.running != nil {
		s.running.cancel()
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.lastID++
	t := &Task{Values: s.vals, ctx: ctx, cancel: cancel, id: s.lastID, label: a.Label, start: now(), live: true}
	t.redraw = func() { s.showTask(t, "running", fmt.Sprintf("running at %s …", t.Values), nil, false) }
	s.mu.Lock()
	s.shown = t.id
	s.mu.Unlock()
	s.running = t
	t.redraw()
	go func() {
		view, err := runTask(a, t)
		s.results <- taskResult{t: t, view: view, err: err}
	}()
}

// runTask runs a's Run, turning a panic into an error (a panic in this
// goroutine would end the whole cell).
func runTask(a Action, t *Task) (view *View, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return a.Run(t)
}

// done shows a task's result, unless a newer task has replaced it.
func (s *session) done(r taskResult) {
	if s.running != r.t {
		return // replaced by a newer press: its output is gone already
	}
	s.running = nil
	r.t.cancel()
	took := roundDuration(now().Sub(r.t.start))
	switch {
	case r.err == nil:
		s.showTask(r.t, "done", fmt.Sprintf("done in %s at %s", took, r.t.Values), r.view, true)
	default:
		r.t.halt()
		s.showTask(r.t, "failed", fmt.Sprintf("failed after %s at %s: %v", took, r.t.Values, r.err), orPartial(r.view, r.t), true)
	}
}

// stop ends the session: a running task is cancelled and what it has done
// is kept (its returned view, else its last Partial), with where it stopped.
func (s *session) stop() {
	note := fmt.Sprintf("Stopped at %s. Rerun the cell to explore again.", s.vals)
	if t := s.running; t != nil {
		t.cancel()
		var r *taskResult
		deadline := time.NewTimer(StopWait)
	wait:
		for {
			select {
			case got := <-s.results:
				if got.t == t {
					r = &got
					break wait
				}
			case <-deadline.C:
				break wait
			}
		}
		deadline.Stop()
		took := roundDuration(now().Sub(t.start))
		msg := fmt.Sprintf("stopped by Stop after %s", took)
		if w := t.halt(); w != "" {
			msg += ", during " + w
		}
		var view *View
		if r != nil {
			view = r.view
		}
		view = orPartial(view, t)
		if view != nil && view.Len() > 0 {
			msg += ". What had finished is kept below"
		}
		msg += fmt.Sprintf(". It ran at %s.", t.Values)
		s.showTask(t, "stopped", msg, view, true)
		s.running = nil
	}
	s.finish(note)
}

// finish greys the controls with note and lets no task draw any more.
func (s *session) finish(note string) {
	s.mu.Lock()
	s.shown = 0
	s.mu.Unlock()
	if s.running != nil {
		s.running.cancel()
	}
	s.fe.end("Explorer ended. "+note, s.vals)
}

// orPartial is v, or the task's last Partial view when v is nil.
func orPartial(v *View, t *Task) *View {
	if v != nil {
		return v
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.partial
}

// showTask draws a task's output: its status line, its progress bar and a
// view (the result, or the partial one), if the task is still the one shown;
// after a final state nothing more of the task is drawn.
func (s *session) showTask(t *Task, state, status string, view *View, final bool) {
	t.mu.Lock()
	bar := t.barHTML
	if view == nil && state == "running" {
		view = t.partial
	}
	t.mu.Unlock()
	out := fmt.Sprintf(`<div class="lwgcn-action" data-lwgcn-state="%s" data-lwgcn-task="%d"><p class="lwgcn-status"><b>%s</b>: %s</p>%s`,
		state, t.id, html.EscapeString(t.label), html.EscapeString(status), bar)
	if view != nil && view.Len() > 0 {
		out += view.HTMLBlock()
	}
	out += "</div>"
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.shown != t.id {
		return
	}
	s.fe.showAction(out)
	if final {
		s.shown = 0
	}
}
