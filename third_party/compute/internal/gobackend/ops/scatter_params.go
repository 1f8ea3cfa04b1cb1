// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

package ops

import (
	"slices"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/internal/gobackend"
)

// ScatterParams are the parameters of a ScatterSum, ScatterMax or ScatterMin
// node (see compute.Builder.ScatterSum), for executors and graph
// transformations outside this package that need to recognise a scatter.
type ScatterParams struct {
	IndexVectorAxis                                                int
	UpdateWindowAxes, InsertedWindowAxes, ScatterAxesToOperandAxes []int
	IndicesAreSorted, UniqueIndices                                bool
}

// ScatterParamsOf returns a copy of the parameters of a ScatterSum,
// ScatterMax or ScatterMin node, or false if node is not one.
func ScatterParamsOf(node *gobackend.Node) (ScatterParams, bool) {
	if node == nil {
		return ScatterParams{}, false
	}
	switch node.OpType { //nolint:exhaustive
	case compute.OpTypeScatterSum, compute.OpTypeScatterMax, compute.OpTypeScatterMin:
	default:
		return ScatterParams{}, false
	}
	s, ok := node.Data.(*scatterNode)
	if !ok {
		return ScatterParams{}, false
	}
	return ScatterParams{
		IndexVectorAxis:          s.indexVectorAxis,
		UpdateWindowAxes:         slices.Clone(s.updateWindowAxes),
		InsertedWindowAxes:       slices.Clone(s.insertedWindowAxes),
		ScatterAxesToOperandAxes: slices.Clone(s.scatterAxesToOperandAxes),
		IndicesAreSorted:         s.indicesAreSorted,
		UniqueIndices:            s.uniqueIndices,
	}, true
}
