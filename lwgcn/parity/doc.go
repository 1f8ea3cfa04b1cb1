// Package parity checks that lwgcn computes the same numbers on XLA as on
// GoMLX's pure-Go backend: every model (MLP, GCN, GAT, GCNII, the ten
// Table 2 baselines, LW-GCN's label-wise network f_C in both variants, and
// LW-GCN with model selection and its ablations) is built on small random
// graphs, and its forward output, its training loss and the gradient of that
// loss with respect to every parameter are compared between the backends.
// A second level trains each model for a few epochs (Adam, the models' own
// epochs with their auxiliary losses, LW-GCN's bi-level selection and its
// pseudo-label stage) and compares the per-epoch losses and the final
// predictions. Dropout is off in the compared passes: the backends draw
// different random numbers by design.
//
// Both backends start from the same weights: lwgcn initialises every weight
// on the host from the run's seed (nn.Init), not with a backend's generator.
//
// The tolerance (Tolerance) is float32's: the backends do not add numbers
// in the same order (XLA fuses and tiles reductions and matrix products,
// the Go backend sums in its own blocks), so each value may differ by a few
// units in its last place per operation, amplified through the layers and
// the softmax; a value passes when |xla − go| ≤ Abs·scale + Rel·|go|,
// where scale is the largest magnitude in the compared tensor (an absolute
// term relative to the tensor keeps gradients that cancel to nearly zero
// from failing on their rounding noise).
//
// The tests live in this package's _test files. They compare against the
// backend named by LWGCN_PARITY_XLA (e.g. "xla:cuda"), else "xla:cpu" when
// LWGCN_XLA_PLUGIN is set (the Makefile sets it to the plugin `make xla`
// installs, so `make test` runs them); with neither they are skipped,
// saying so.
package parity
