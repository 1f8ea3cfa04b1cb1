// Package explore holds the notebooks' live explorers (notebook.Explorer):
// sliders over the parameters of Theorems 1 and 2 that redraw the closed
// forms, a synthetic-graph explorer, and selectors over recorded results.
// Each constructor returns an Explorer whose Draw is plain library code (no
// GoNB), so notebooks stay one call long and tests draw every view directly.
//
//	notebook.Must(0, explore.Theorem1().Run()) // or: if err := explore.Theorem1().Run(); ...
package explore
