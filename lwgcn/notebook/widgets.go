package notebook

import (
	"fmt"
	"time"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/gonb/gonbui/comms"
	"github.com/janpfeifer/gonb/gonbui/widgets"
)

// StartWidgetsWait is how long StartWidgets keeps the cell's program alive
// for the browser's handshake (GoNB itself waits 3 s for it).
const StartWidgetsWait = 3 * time.Second

// StartWidgets opens GoNB's connection to the front end (what the special
// command %widgets does) when the program is live, and waits until GoNB has
// handled it; headless it does nothing. Call it in a cell of its own before
// cells with an Explorer: the browser side gives GoNB only 500 ms to answer
// its handshake, which a connection opened while a busy cell runs can miss,
// leaving the widgets dead.
func StartWidgets() {
	if !Live() {
		return
	}
	comms.Start()
	gonbui.Sync()
	// The browser opens its socket and sends its handshake only now; it
	// succeeds while this program is alive (observed: a program that exits at
	// once leaves the first handshake unanswered and the browser logs an error).
	time.Sleep(StartWidgetsWait)
}

// gonbFrontEnd is the live frontEnd: GoNB's widgets (gonbui/widgets) appended
// into a table of controls, and two HTML outputs redrawn in place
// (gonbui.UpdateHTML) for the view and the actions.
type gonbFrontEnd struct {
	timeout           time.Duration
	viewID, actionID  string
	viewSent, actSent bool
}

func (g *gonbFrontEnd) start(title string, controls []Control, positions []int, actions []string) (<-chan event, error) {
	root := "lwgcn_explorer_" + gonbui.UniqueId()
	g.viewID, g.actionID = root+"_view", root+"_action"
	// Each widget's Done waits until the front end has answered it (GoNB's
	// widgets have no timeout), and GoNB may hold even a plain display while
	// it waits for the browser's connection: show and build everything in a
	// goroutine, give up after g.timeout and leave that goroutine behind (the
	// cell's program ends soon).
	type built struct {
		controls []*comms.AddressChan[int]
		buttons  []*comms.AddressChan[int]
	}
	ready := make(chan built, 1)
	go func() {
		gonbui.DisplayHTML(controlsHTML(root, title, controls))
		gonbui.Sync()
		var b built
		for i, c := range controls {
			parent := fmt.Sprintf("%s_c%d", root, i)
			if c.IsSelect() {
				w := widgets.Select(c.Options).SetDefault(positions[i]).AppendTo(parent).Done()
				b.controls = append(b.controls, w.Listen())
			} else {
				w := widgets.Slider(0, c.Positions()-1, positions[i]).AppendTo(parent).Done()
				b.controls = append(b.controls, w.Listen())
			}
		}
		for _, label := range append(append([]string(nil), actions...), "Stop") {
			w := widgets.Button(label).AppendTo(root + "_buttons").Done()
			b.buttons = append(b.buttons, w.Listen())
		}
		ready <- b
	}()
	var b built
	select {
	case b = <-ready:
	case <-time.After(g.timeout):
		return nil, fmt.Errorf("%w within %s", errNoFrontEnd, g.timeout)
	}

	events := make(chan event, 64)
	for i, ch := range b.controls {
		go func() {
			for pos := range ch.C {
				events <- event{control: i, action: -1, pos: pos}
			}
		}()
	}
	for j, ch := range b.buttons {
		stop := j == len(b.buttons)-1
		go func() {
			for range ch.C {
				events <- event{control: -1, action: j, stop: stop}
			}
		}()
	}
	return events, nil
}

func (g *gonbFrontEnd) show(html string) {
	gonbui.UpdateHTML(g.viewID, html)
	gonbui.Sync()
}

func (g *gonbFrontEnd) showAction(html string) {
	gonbui.UpdateHTML(g.actionID, html)
	gonbui.Sync()
}
