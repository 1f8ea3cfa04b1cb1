package gokernels

import (
	"slices"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	gb "github.com/gomlx/compute/gobackend"
)

func init() {
	gb.SetNodeExecutor(compute.OpTypeDotGeneral, gb.PriorityUser, execWeightGradient)
}

// weightGradientData is the Data of a DotGeneral node rewritten by
// fuseWeightGradients: out [A, B] = xᵀ·v for x [N, A] and v [N, B], read as
// they are.
type weightGradientData struct{ n, a, b int }

// fuseWeightGradients rewrites the products xᵀ·v of float32 matrices (a
// dense layer's weight gradient: DotGeneral contracting the rows of both)
// that graph building turned into a product of two transposes (the matrix
// kernels have no layout with the contracted axis first): the new node
// reads x and v directly, and the transposes become dead code unless
// something else uses them. Its sums run in another order than the
// backend's matrix kernel (blocks of wgradChunk rows, fused multiply-adds),
// so the result agrees within float32 rounding, not bit for bit.
func fuseWeightGradients(b *gb.Builder) { rewrite(b, &fusedWeightGradients, matchWeightGradient) }

func matchWeightGradient(n *gb.Node, _ map[*gb.Node]int) (*weightGradientData, []*gb.Node, bool) {
	if n.OpType != compute.OpTypeDotGeneral || len(n.Inputs) != 2 || n.Shape.DType != dtypes.Float32 || n.Shape.Rank() != 2 {
		return nil, nil, false
	}
	d, ok := n.Data.(*gb.DotGeneralData)
	if !ok || d.InputDType != dtypes.Float32 || d.OutputDType != dtypes.Float32 ||
		(d.Config.AccumulatorDType != dtypes.InvalidDType && d.Config.AccumulatorDType != dtypes.Float32) ||
		len(d.LHSBatchAxes) != 0 || len(d.RHSBatchAxes) != 0 ||
		!slices.Equal(d.LHSContractingAxes, []int{1}) || !slices.Equal(d.RHSContractingAxes, []int{1}) {
		return nil, nil, false
	}
	x, ok1 := transposed2D(n.Inputs[0])
	v, ok2 := transposed2D(n.Inputs[1])
	if !ok1 || !ok2 || x.Shape.Dimensions[0] != v.Shape.Dimensions[0] {
		return nil, nil, false
	}
	a, b := x.Shape.Dimensions[1], v.Shape.Dimensions[1]
	if !slices.Equal(n.Shape.Dimensions, []int{a, b}) {
		return nil, nil, false
	}
	return &weightGradientData{n: x.Shape.Dimensions[0], a: a, b: b}, []*gb.Node{x, v}, true
}

// transposed2D returns x if t is Transpose(x, [1, 0]) of a float32 matrix.
func transposed2D(t *gb.Node) (*gb.Node, bool) {
	if t.OpType != compute.OpTypeTranspose || len(t.Inputs) != 1 {
		return nil, false
	}
	perm, ok := t.Data.([]int)
	x := t.Inputs[0]
	if !ok || !slices.Equal(perm, []int{1, 0}) || x.Shape.DType != dtypes.Float32 || x.Shape.Rank() != 2 {
		return nil, false
	}
	return x, true
}

// wgradChunk is the rows summed in registers before a block of the output
// is updated: partial sums of this many products keep float32's rounding
// error of the whole sum near that of a pairwise one.
const wgradChunk = 256

// execWeightGradient executes the nodes rewritten by fuseWeightGradients:
// blocks of output rows on the calling goroutine and the backend's idle
// workers (each output value is summed by one task, in a fixed order).
func execWeightGradient(backend *gb.Backend, node *gb.Node, inputs []*gb.Buffer, _ []bool) (*gb.Buffer, error) {
	d, ok := node.Data.(*weightGradientData)
	if !ok {
		return nil, gb.ErrFallback
	}
	out, err := backend.GetBuffer(node.Shape)
	if err != nil {
		return nil, err
	}
	o, x, v := out.Flat.([]float32), inputs[0].Flat.([]float32), inputs[1].Flat.([]float32)
	clear(o)
	blocks := (d.a + wgradRows - 1) / wgradRows
	inParallel(backend, blocks, d.n*d.a*d.b >= 1<<16, func(blk int) {
		a0 := blk * wgradRows
		xtvRows(o, x, v, d, a0, min(a0+wgradRows, d.a))
	})
	return out, nil
}

// xtvRowsGeneric adds to rows [a0, a1) of o = xᵀ·v, chunk by chunk of rows
// of x and v.
func xtvRowsGeneric(o, x, v []float32, d *weightGradientData, a0, a1 int) {
	acc := make([]float32, d.b)
	for n0 := 0; n0 < d.n; n0 += wgradChunk {
		n1 := min(n0+wgradChunk, d.n)
		for a := a0; a < a1; a++ {
			clear(acc)
			for n := n0; n < n1; n++ {
				s := x[n*d.a+a]
				for j, vv := range v[n*d.b : (n+1)*d.b] {
					acc[j] += s * vv
				}
			}
			row := o[a*d.b : (a+1)*d.b]
			for j := range row {
				row[j] += acc[j]
			}
		}
	}
}
