package notebook

import (
	"fmt"
	"html"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/gonb/gonbui/protocol"
)

// Refresh limits, so that tight loops do not flood the notebook or the log.
const (
	// NotebookRefresh is the minimum time between two redraws of a notebook bar.
	NotebookRefresh = 200 * time.Millisecond
	// TextRefresh is the longest time between two stderr lines while work
	// progresses; lines also come at every further tenth of the total, at most
	// one per TextMinGap.
	TextRefresh = 10 * time.Second
	// TextMinGap is the shortest time between two stderr lines (Done excepted).
	TextMinGap = time.Second
)

// now is the clock, replaced in tests.
var now = time.Now

// Reporter is the progress interface training code accepts.
type Reporter interface {
	Update(done, total int, msg string)
}

// Bar is a progress display: an HTML bar updated in place in a notebook, an
// occasional line on stderr elsewhere. It is safe for concurrent use.
//
// An Explorer's action draws its bar inside the action's output under the
// controls (Task.Progress): such a bar hands its HTML to a sink instead of
// sending a display of its own.
type Bar struct {
	mu        sync.Mutex
	label     string
	total     int
	done      int
	msg       string
	start     time.Time
	last      time.Time // last redraw or printed line
	lastTenth int       // tenths of the total reached at the last line
	drawn     bool
	finished  bool
	stopped   bool // finished by Stop: the steps stay where they were
	notebook  bool
	displayID string
	sink      func(html string) // set: draws go here, not to a display of their own
}

// Progress starts a progress display for total steps (total <= 0: unknown)
// and draws it once.
func Progress(total int, label string) *Bar {
	b := &Bar{label: label, total: total, start: now(), notebook: inNotebook(), lastTenth: -1}
	if b.notebook {
		b.displayID = "lwgcn_progress_" + gonbui.UniqueId()
		b.draw()
	}
	return b
}

// newSinkBar starts a bar whose every draw hands its HTML to sink (called
// with the bar's lock held: sink must not call the bar), and draws it once.
func newSinkBar(total int, label string, sink func(html string)) *Bar {
	b := &Bar{label: label, total: total, start: now(), notebook: true, lastTenth: -1, sink: sink}
	b.draw()
	return b
}

// SetLabel changes the bar's label (e.g. to name the model now training)
// and redraws it in a notebook.
func (b *Bar) SetLabel(label string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.label = label
	if b.notebook && !b.finished {
		b.draw()
	}
}

// Label is the bar's label.
func (b *Bar) Label() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.label
}

// Where says how far the work has come, for a note saying where it
// stopped: the label, then the step of the total and the last message, e.g.
// "GCN (2 of 3) on g, step 57 of 120 (split 0, epoch 17, val acc 81.3%)".
func (b *Bar) Where() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := b.label
	if b.total > 0 {
		s += fmt.Sprintf(", step %d of %d", b.done, b.total)
	} else {
		s += fmt.Sprintf(", step %d", b.done)
	}
	if b.msg != "" {
		s += " (" + b.msg + ")"
	}
	return s
}

// Stop marks the work stopped before its end: the bar keeps its steps, says
// "stopped after" its time and is drawn once more (grey in a notebook).
func (b *Bar) Stop() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.finished {
		return
	}
	b.finished, b.stopped = true, true
	if b.notebook {
		b.draw()
	} else {
		b.printLine()
	}
}

// SetTotal changes the number of steps (e.g. once it becomes known).
func (b *Bar) SetTotal(total int) {
	b.mu.Lock()
	b.total = total
	b.mu.Unlock()
}

// Update records that done steps are complete, with an optional status
// message (e.g. "epoch 12, val acc 81.3%"), and redraws when due.
func (b *Bar) Update(done int, msg string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.finished {
		return
	}
	b.done, b.msg = done, msg
	t := now()
	if b.notebook {
		if !b.drawn || t.Sub(b.last) >= NotebookRefresh || (b.total > 0 && done >= b.total) {
			b.draw()
		}
		return
	}
	tenth := b.tenth()
	since := t.Sub(b.last)
	if !b.drawn || since >= TextRefresh || (tenth > b.lastTenth && since >= TextMinGap) {
		b.printLine()
	}
}

// Done marks the work finished and draws the final state (once).
func (b *Bar) Done() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.finished {
		return
	}
	b.finished = true
	if b.total > 0 && b.done < b.total {
		b.done = b.total
	}
	if b.notebook {
		b.draw()
	} else {
		b.printLine()
	}
}

// Reporter adapts the bar to the Update(done, total, msg) interface; a
// positive total replaces the bar's total.
func (b *Bar) Reporter() Reporter { return reporter{b} }

type reporter struct{ b *Bar }

func (r reporter) Update(done, total int, msg string) {
	if total > 0 {
		r.b.SetTotal(total)
	}
	r.b.Update(done, msg)
}

func (b *Bar) tenth() int {
	if b.total <= 0 {
		return -1
	}
	return min(10, b.done*10/b.total)
}

// status is the "12/40 (30%) · 5s elapsed · ETA 12s" part.
func (b *Bar) status() string {
	elapsed := now().Sub(b.start)
	var s strings.Builder
	if b.total > 0 {
		fmt.Fprintf(&s, "%d/%d (%.0f%%)", b.done, b.total, 100*b.fraction())
	} else {
		fmt.Fprintf(&s, "%d", b.done)
	}
	if b.stopped {
		fmt.Fprintf(&s, " · stopped after %s", roundDuration(elapsed))
	} else if b.finished {
		fmt.Fprintf(&s, " · done in %s", roundDuration(elapsed))
	} else {
		fmt.Fprintf(&s, " · %s elapsed", roundDuration(elapsed))
		if b.total > 0 && b.done > 0 && b.done < b.total {
			eta := time.Duration(float64(elapsed) * float64(b.total-b.done) / float64(b.done))
			fmt.Fprintf(&s, " · ETA %s", roundDuration(eta))
		}
	}
	return s.String()
}

func (b *Bar) fraction() float64 {
	if b.total <= 0 {
		return 0
	}
	return math.Max(0, math.Min(1, float64(b.done)/float64(b.total)))
}

// roundDuration keeps durations readable: 850ms, 12s, 3m25s, 1h2m.
func roundDuration(d time.Duration) time.Duration {
	switch {
	case d < time.Second:
		return d.Round(10 * time.Millisecond)
	case d < time.Hour:
		return d.Round(time.Second)
	default:
		return d.Round(time.Minute)
	}
}

func (b *Bar) printLine() {
	line := b.label + ": " + b.status()
	if b.msg != "" {
		line += " · " + b.msg
	}
	fmt.Fprintln(stderr, line)
	b.drawn, b.last, b.lastTenth = true, now(), b.tenth()
}

// html renders the bar.
func (b *Bar) html() string {
	fill := "#0072B2"
	if b.stopped {
		fill = "#999999"
	} else if b.finished {
		fill = "#009E73"
	}
	width := 100 * b.fraction()
	if b.total <= 0 && !b.finished {
		width = 0
	} else if b.total <= 0 {
		width = 100
	}
	var s strings.Builder
	s.WriteString(`<div class="lwgcn-progress" style="font-family:DejaVu Sans, Helvetica, Arial, sans-serif;font-size:12px;color:#222;max-width:720px;padding:2px 0">`)
	s.WriteString(`<div style="display:flex;align-items:center;gap:8px">`)
	fmt.Fprintf(&s, `<span style="font-weight:bold;white-space:nowrap">%s</span>`, html.EscapeString(b.label))
	fmt.Fprintf(&s, `<div style="flex:1;min-width:120px;height:10px;background:#e4e4e4;border-radius:3px;overflow:hidden"><div style="width:%.1f%%;height:100%%;background:%s"></div></div>`, width, fill)
	fmt.Fprintf(&s, `<span style="white-space:nowrap;font-variant-numeric:tabular-nums">%s</span>`, html.EscapeString(b.status()))
	s.WriteString(`</div>`)
	if b.msg != "" {
		fmt.Fprintf(&s, `<div style="color:#555;margin-top:2px">%s</div>`, html.EscapeString(b.msg))
	}
	s.WriteString(`</div>`)
	return s.String()
}

// draw sends the bar to its notebook display block (or its sink).
func (b *Bar) draw() {
	if b.sink != nil {
		b.sink(b.html())
		b.drawn, b.last = true, now()
		return
	}
	send(&protocol.DisplayData{
		Data:      map[protocol.MIMEType]any{protocol.MIMETextHTML: b.html()},
		DisplayID: b.displayID,
	})
	b.drawn, b.last = true, now()
}
