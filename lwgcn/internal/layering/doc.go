// Package layering holds the test that keeps the library's imports flowing
// one way (README.md, "Layout"): the graph core has no GoMLX, the sparse
// engine no layers, layers no models, models no trainer, and nothing under
// lwgcn/ imports kernel/ or the CLI. It has no code of its own.
package layering
