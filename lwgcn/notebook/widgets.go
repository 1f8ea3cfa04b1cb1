package notebook

import (
	"fmt"
	"html"
	"strings"
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
// into a table of controls, and three HTML outputs redrawn in place
// (gonbui.UpdateHTML): the controls, the actions' output under them, and the
// view.
type gonbFrontEnd struct {
	timeout                      time.Duration
	root                         string
	controlsID, viewID, actionID string
	title                        string
	controls                     []Control
	actions                      []string
}

func (g *gonbFrontEnd) start(title string, controls []Control, positions []int, actions []string) (<-chan event, error) {
	g.root = "lwgcn_explorer_" + gonbui.UniqueId()
	root := g.root
	g.controlsID, g.viewID, g.actionID = root+"_controls", root+"_view", root+"_action"
	g.title, g.controls, g.actions = title, controls, actions
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
		gonbui.UpdateHTML(g.controlsID, controlsHTML(root, title, controls, positions, actions, ""))
		if len(actions) > 0 {
			// Created now, so that the actions' output sits right under the
			// controls, above the view.
			gonbui.UpdateHTML(g.actionID, noteHTML(strings.Join(actions, ", ")+": press the button to run it with the values above; its progress and result appear here."))
		}
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
		for j, label := range append(append([]string(nil), actions...), "Stop") {
			w := widgets.Button(label).WithHtmlId(fmt.Sprintf("%s_b%d", root, j)).AppendTo(root + "_buttons").Done()
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

// end replaces the live controls (and GoNB's widgets in them) by disabled
// copies at vals, with the note.
func (g *gonbFrontEnd) end(note string, vals Values) {
	positions := make([]int, len(g.controls))
	for i, c := range g.controls {
		positions[i] = c.PositionOf(vals.values[i])
	}
	gonbui.UpdateHTML(g.controlsID, controlsHTML(g.root, g.title, g.controls, positions, g.actions, note))
	gonbui.Sync()
}

// controlStyle styles an explorer's controls: a compact table of name,
// control and value, and buttons drawn like JupyterLab's own (its CSS
// variables, with fallbacks outside JupyterLab). Scoped to .lwgcn-controls.
const controlStyle = `<style>
.lwgcn-controls { font-family: var(--jp-ui-font-family, sans-serif); font-size: var(--jp-ui-font-size1, 13px); color: var(--jp-ui-font-color1, #222); }
.lwgcn-controls .lwgcn-title { margin: 0 0 4px 0; }
.jp-RenderedHTMLCommon .lwgcn-controls table, .lwgcn-controls table { border-collapse: collapse; margin: 0; border: none; }
.jp-RenderedHTMLCommon .lwgcn-controls td, .lwgcn-controls td { padding: 1px 10px 1px 0; border: none; background: none; text-align: left; vertical-align: middle; }
.jp-RenderedHTMLCommon .lwgcn-controls tr, .lwgcn-controls tr { background: none !important; }
.lwgcn-controls td.lwgcn-name { white-space: nowrap; }
.lwgcn-controls td.lwgcn-value { min-width: 5em; font-weight: 600; font-variant-numeric: tabular-nums; }
.lwgcn-controls input[type="range"] { width: 220px; margin: 0; vertical-align: middle; accent-color: var(--jp-brand-color1, #1976d2); }
.lwgcn-controls select { font: inherit; padding: 1px 4px; }
.lwgcn-controls .lwgcn-buttons { margin: 6px 0 2px 0; }
.lwgcn-controls button { font-family: var(--jp-ui-font-family, sans-serif); font-size: var(--jp-ui-font-size1, 13px); line-height: 24px; min-height: 26px; padding: 0 12px; margin: 0 8px 0 0; border: none; border-radius: var(--jp-border-radius, 2px); cursor: pointer; color: var(--jp-ui-inverse-font-color1, #fff); background-color: var(--jp-brand-color1, #1976d2); }
.lwgcn-controls button:hover { background-color: var(--jp-brand-color0, #1565c0); }
.lwgcn-controls button:active { box-shadow: inset 0 1px 2px rgba(0, 0, 0, 0.3); }
.lwgcn-controls button.lwgcn-stop { color: var(--jp-ui-font-color1, #222); background-color: var(--jp-layout-color3, #bdbdbd); }
.lwgcn-controls button.lwgcn-stop:hover { background-color: var(--jp-layout-color4, #9e9e9e); }
.lwgcn-controls.lwgcn-ended { opacity: 0.55; }
.lwgcn-controls.lwgcn-ended button { cursor: default; }
.lwgcn-controls .lwgcn-ended-note { margin: 4px 0 0 0; font-style: italic; }
</style>`

// valueScript shows a slider's value beside it while it is dragged, in the
// browser (no round trip through the kernel): one listener for the page,
// installed by the first explorer. A slider's cell carries its Min, Step
// and decimals; its value goes to the element with the cell's id + "_value".
const valueScript = `<script>
(() => {
  if (window.lwgcnShowsValues) return;
  window.lwgcnShowsValues = true;
  document.addEventListener("input", (ev) => {
    const cell = ev.target && ev.target.closest ? ev.target.closest("td[data-lwgcn-step]") : null;
    if (!cell) return;
    const out = document.getElementById(cell.id + "_value");
    if (!out) return;
    const step = Number(cell.dataset.lwgcnStep);
    let v = Number(cell.dataset.lwgcnMin) + Number(ev.target.value) * step;
    if (Math.abs(v) < step / 2) v = 0;
    out.textContent = v.toFixed(Number(cell.dataset.lwgcnDecimals));
  }, true);
})();
</script>`

// controlsHTML is the table of controls: per control its name, a cell the
// widget is appended into and its value, then the buttons. With a note the
// explorer has ended: the controls are disabled copies at positions, greyed,
// and the note says why.
func controlsHTML(root, title string, controls []Control, positions []int, actions []string, note string) string {
	ended := note != ""
	var b strings.Builder
	class := "lwgcn-controls"
	if ended {
		class += " lwgcn-ended"
	}
	fmt.Fprintf(&b, `<div id="%s" class="%s">%s`, root, class, controlStyle)
	fmt.Fprintf(&b, `<p class="lwgcn-title"><b>%s</b></p><table>`, html.EscapeString(title))
	for i, c := range controls {
		pos := positions[i]
		value := c.Format(c.ValueAt(pos))
		var widget, attrs, tip string
		if c.IsSelect() {
			tip = fmt.Sprintf("%d options", len(c.Options))
			if ended {
				widget = fmt.Sprintf(`<select disabled><option selected>%s</option></select>`, html.EscapeString(value))
			}
			value = "" // the select shows its choice itself
		} else {
			tip = fmt.Sprintf("%s … %s in steps of %s", c.Format(c.Min), c.Format(c.Max), c.Format(c.Step))
			attrs = fmt.Sprintf(` data-lwgcn-min="%s" data-lwgcn-step="%s" data-lwgcn-decimals="%d"`,
				fmtJS(c.Min), fmtJS(c.Step), decimals(c.Step))
			if ended {
				widget = fmt.Sprintf(`<input type="range" disabled min="0" max="%d" value="%d">`, c.Positions()-1, pos)
			}
		}
		fmt.Fprintf(&b, `<tr><td class="lwgcn-name">%s</td><td id="%s_c%d"%s>%s</td><td class="lwgcn-value" id="%s_c%d_value" title="%s">%s</td></tr>`,
			html.EscapeString(c.Name), root, i, attrs, widget, root, i, html.EscapeString(tip), html.EscapeString(value))
	}
	fmt.Fprintf(&b, `</table><div id="%s_buttons" class="lwgcn-buttons">`, root)
	if ended {
		for _, label := range actions {
			fmt.Fprintf(&b, `<button type="button" disabled>%s</button>`, html.EscapeString(label))
		}
		b.WriteString(`<button type="button" class="lwgcn-stop" disabled>Stop</button>`)
	}
	b.WriteString(`</div>`)
	if ended {
		fmt.Fprintf(&b, `<p class="lwgcn-ended-note">%s</p>`, html.EscapeString(note))
	} else {
		// GoNB's buttons carry ids <root>_b<j>, the last is Stop: drawn like
		// JupyterLab's secondary buttons.
		stop := fmt.Sprintf("#%s_b%d", root, len(actions))
		fmt.Fprintf(&b, `<style>%s { color: var(--jp-ui-font-color1, #222); background-color: var(--jp-layout-color3, #bdbdbd); } %s:hover { background-color: var(--jp-layout-color4, #9e9e9e); }</style>`, stop, stop)
		b.WriteString(valueScript)
	}
	b.WriteString(`</div>`)
	return b.String()
}

// fmtJS is v as a JavaScript number literal.
func fmtJS(v float64) string { return fmt.Sprintf("%v", v) }
