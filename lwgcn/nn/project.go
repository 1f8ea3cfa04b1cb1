package nn

import (
	. "github.com/gomlx/gomlx/core/graph"
)

// Project is the dense projection y = x·w of every layer, x [N, K] (N the
// nodes), w [K, M] (a weight), y [N, M], with a cheaper weight gradient.
//
// GoMLX differentiates Dot into dW = DotGeneral(dY, x) contracting the
// node axis of both, a layout the pure-Go backend can only multiply after
// transposing both [N, ·] operands (and the [M, K] result back). Project
// computes dW = Transpose(x)·dY instead: one transpose of x and a product in
// the backend's native layout. dx is GoMLX's (dY·wᵀ, no transpose). The
// default dW is still emitted by the autodiff but unused, and backends drop
// unused nodes (the pure-Go executor and XLA both do).
func Project(x, w *Node) *Node {
	if x.Rank() != 2 || w.Rank() != 2 {
		panicf("nn: Project wants x [N, K] and w [K, M], got %s and %s", x.Shape(), w.Shape())
	}
	// The weight's custom gradient needs dY, which autodiff reaches first
	// (y is downstream of w): the identity on y records it.
	var dy *Node
	wGrad := IdentityWithCustomGradient(w, func(_, _ *Node) *Node {
		if dy == nil {
			panicf("nn: Project's weight gradient ran before its output's")
		}
		return Dot(Transpose(x, 0, 1), dy).Product()
	})
	y := Dot(x, wGrad).Product()
	return IdentityWithCustomGradient(y, func(_, v *Node) *Node {
		dy = v
		return v
	})
}
