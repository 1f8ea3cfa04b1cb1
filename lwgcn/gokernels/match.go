package gokernels

import (
	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	gb "github.com/gomlx/compute/gobackend"
	"github.com/gomlx/compute/shapes"
)

// Helpers of the transformations' pattern matching.

// scalarF32 returns the value of a float32 constant of one value (a scalar,
// or a broadcast or reshape of one).
func scalarF32(n *gb.Node) (float32, bool) {
	for (n.OpType == compute.OpTypeBroadcastInDim || n.OpType == compute.OpTypeReshape) && len(n.Inputs) == 1 {
		n = n.Inputs[0]
	}
	if n.OpType != compute.OpTypeConstant || n.Shape.DType != dtypes.Float32 || n.Shape.Size() != 1 {
		return 0, false
	}
	buf, ok := n.Data.(*gb.Buffer)
	if !ok {
		return 0, false
	}
	v, ok := buf.Flat.([]float32)
	if !ok || len(v) < 1 {
		return 0, false
	}
	return v[0], true
}

// shapeAs returns s with dtype dt.
func shapeAs(s shapes.Shape, dt dtypes.DType) shapes.Shape {
	c := s.Clone()
	c.DType = dt
	return c
}
