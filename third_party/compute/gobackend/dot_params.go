// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

package gobackend

import "github.com/gomlx/compute/internal/gobackend/dot"

// DotParams is a DotGeneral node's product after the backend normalised its
// operands (its Data's parameters are unexported): lhs [Batch, LHSCross,
// Contracting] and rhs [Batch, Contracting, RHSCross], or [Batch, RHSCross,
// Contracting] when Transposed; out [Batch, LHSCross, RHSCross].
type DotParams struct {
	Transposed                             bool
	Batch, LHSCross, RHSCross, Contracting int
	// Implementation is the registered kernel the node runs with
	// ("simd:avx512", ...).
	Implementation string
}

// DotParamsOf returns n's DotParams if n is a DotGeneral node of the backend.
func DotParamsOf(n *Node) (DotParams, bool) {
	d, ok := n.Data.(*dot.NodeData)
	if !ok || (d.Layout != dot.LayoutNonTransposed && d.Layout != dot.LayoutTransposed) {
		return DotParams{}, false
	}
	return DotParams{
		Transposed: d.Layout == dot.LayoutTransposed,
		Batch:      d.BatchSize, LHSCross: d.LHSCrossSize, RHSCross: d.RHSCrossSize, Contracting: d.ContractingSize,
		Implementation: d.ImplementationName(),
	}, true
}
