package nn

import (
	"math"
	_ "unsafe" // go:linkname

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
)

// rngBitGenerator is GoMLX's RngBitGenerator op (graph.RandomUniform's
// source of bits), which GoMLX v0.28.16 does not export.
//
//go:linkname rngBitGenerator github.com/gomlx/gomlx/core/graph.backendRNGBitGenerator
func rngBitGenerator(state *Node, shape shapes.Shape) (newState, values *Node)

// closureUniform is graph.RandomUniform (float32 and float64) built in g
// with constants of its own, the uniform draw of the dropout masks on pure
// Go (maskFromState; elsewhere HashMask draws them): GoMLX v0.28.16 caches
// scalar constants per graph, not per function, so inside a closure (GCNII's
// While body) RandomUniform's scalars are the main function's nodes, which
// the body cannot use. The operations and values are RandomUniform's
// (TestClosureUniform; and TestGCN2ConvLoop compares the loop's masks with
// the unrolled layers').
func closureUniform(g *Graph, state *Node, shape shapes.Shape) (newState, values *Node) {
	bits := shape.Clone()
	switch shape.DType {
	case dtypes.Float32:
		bits.DType = dtypes.Uint32
		newState, values = rngBitGenerator(state, bits)
		values = Mul(ConvertDType(values, dtypes.Float32), ConstAsDType(g, dtypes.Float32, 1.0/float64(1<<32)))
		values = Min(Abs(values), ConstAsDType(g, dtypes.Float32, float64(math.Nextafter32(1, 0))))
	case dtypes.Float64:
		bits.DType = dtypes.Uint64
		newState, values = rngBitGenerator(state, bits)
		values = Mul(ConvertDType(values, dtypes.Float64), ConstAsDType(g, dtypes.Float64, math.Pow(2, -64)))
		values = Min(values, ConstAsDType(g, dtypes.Float64, math.Nextafter(1, 0)))
	default:
		panicf("nn: random numbers of %s in a loop: want float32 or float64", shape.DType)
	}
	return newState, StopGradient(values)
}
