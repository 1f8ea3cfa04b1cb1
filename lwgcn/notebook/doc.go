// Package notebook shows lwgcn's figures, tables and progress in GoNB
// (Jupyter) notebooks, and degrades to short text on stdout/stderr when the
// program is not run by GoNB, so notebook code also works in tests and the CLI.
//
// Display:
//
//	notebook.Plot(fig)            // any plot.Figure, as image/svg+xml
//	notebook.SVG(svg)             // image/svg+xml with a text/plain fallback
//	notebook.HTML(html)           // text/html
//	notebook.Markdown(md)         // text/markdown
//	notebook.Table(table)         // text/html, with the Markdown as text/plain
//
// SVG goes out as its own MIME type (not wrapped in HTML as gonbui.DisplaySVG
// does), so exported notebooks keep the figure as an SVG image. JupyterLab
// renders image/svg+xml only for trusted output: a notebook re-opened from
// disk shows the text/plain fallback until it is trusted or re-run.
//
// Progress:
//
//	bar := notebook.Progress(epochs, "training")
//	for e := range epochs { ...; bar.Update(e+1, fmt.Sprintf("loss %.3f", loss)) }
//	bar.Done()
//
// In a notebook the bar is one HTML display updated in place; elsewhere it
// prints an occasional line to stderr. Bar.Reporter adapts it to the
// Update(done, total, msg) interface that training code accepts.
//
// Live controls: Explorer shows sliders and selects, each with its value
// beside it, and redraws a View of their values in place; its Actions (e.g.
// training) run apart from its event loop with a Task: one progress bar
// (Task.Progress) and the result directly under the controls, Stop keeping
// what had finished (Task.Partial). An ended explorer greys its controls.
//
// Quick reports whether LWGCN_QUICK is set: notebooks then shrink epochs,
// splits and sweeps so that they run in seconds (for CI and smoke tests);
// IfQuick and IfFull size them. SaveState and LoadState pass results from
// one cell's program to the next.
package notebook
