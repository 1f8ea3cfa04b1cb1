// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

package ops

import (
	"slices"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/internal/gobackend"
)

// GatherParams are the parameters of a Gather node (see compute.Builder.Gather), for graph
// transformations outside this package that need to recognise a gather.
type GatherParams struct {
	IndexVectorAxis                                                  int
	OffsetOutputAxes, CollapsedSliceAxes, StartIndexMap, SliceSizes []int
	IndicesAreSorted                                                 bool
}

// GatherParamsOf returns a copy of the parameters of a Gather node, or false if node is not one.
func GatherParamsOf(node *gobackend.Node) (GatherParams, bool) {
	if node == nil || node.OpType != compute.OpTypeGather {
		return GatherParams{}, false
	}
	g, ok := node.Data.(*gatherNode)
	if !ok {
		return GatherParams{}, false
	}
	return GatherParams{
		IndexVectorAxis:    g.indexVectorAxis,
		OffsetOutputAxes:   slices.Clone(g.offsetOutputAxes),
		CollapsedSliceAxes: slices.Clone(g.collapsedSlicesAxes),
		StartIndexMap:      slices.Clone(g.startIndexMap),
		SliceSizes:         slices.Clone(g.sliceSizes),
		IndicesAreSorted:   g.indicesAreSorted,
	}, true
}
