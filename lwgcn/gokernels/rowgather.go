package gokernels

import (
	"fmt"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	gb "github.com/gomlx/compute/gobackend"
)

func init() {
	gb.SetNodeExecutor(compute.OpTypeGather, gb.PriorityUser, execRowGather)
}

// rowGatherData replaces the Data of a Gather node of whole rows (marked at
// compile time by markRowGathers): out[i] = operand[clamp(idx[i])].
type rowGatherData struct {
	rowSize int // values per row
}

// rowGatherOf returns the number of values in one gathered row if node is
// a Gather of whole rows: operand [N, d1, ...], indices [..., 1] into axis 0,
// each slice the whole [d1, ...] (graph.Gather's form). ok is false for any
// other gather.
func rowGatherOf(node *gb.Node) (rowSize int, ok bool) {
	p, ok := gb.GatherParamsOf(node)
	if !ok || len(node.Inputs) != 2 {
		return 0, false
	}
	op, idx := node.Inputs[0].Shape, node.Inputs[1].Shape
	r, ir := op.Rank(), idx.Rank()
	if r < 1 || ir < 1 || idx.Dimensions[ir-1] != 1 || p.IndexVectorAxis != ir-1 ||
		len(p.StartIndexMap) != 1 || p.StartIndexMap[0] != 0 ||
		len(p.CollapsedSliceAxes) != 1 || p.CollapsedSliceAxes[0] != 0 ||
		len(p.SliceSizes) != r || p.SliceSizes[0] != 1 || len(p.OffsetOutputAxes) != r-1 {
		return 0, false
	}
	if idx.DType != dtypes.Int32 && idx.DType != dtypes.Int64 {
		return 0, false
	}
	rowSize = 1
	for a := 1; a < r; a++ {
		if p.SliceSizes[a] != op.Dimensions[a] || p.OffsetOutputAxes[a-1] != ir-1+a-1 {
			return 0, false
		}
		rowSize *= op.Dimensions[a]
	}
	return rowSize, !op.IsDynamic() && !idx.IsDynamic()
}

// markRowGathers gives every Gather of whole rows in b the rowgather kernel.
func markRowGathers(b *gb.Builder) {
	for _, f := range b.Functions {
		for _, n := range f.Nodes {
			if n.OpType != compute.OpTypeGather {
				continue
			}
			if rs, ok := rowGatherOf(n); ok {
				n.Data = &rowGatherData{rowSize: rs}
				markedRowGathers.Add(1)
			}
		}
	}
}

// execRowGather executes the Gather nodes marked by markRowGathers.
func execRowGather(backend *gb.Backend, node *gb.Node, inputs []*gb.Buffer, _ []bool) (*gb.Buffer, error) {
	if e, ok := node.Data.(*ellProductData); ok {
		return execELLProduct(backend, node, e, inputs)
	}
	d, ok := node.Data.(*rowGatherData)
	if !ok {
		return nil, gb.ErrFallback
	}
	out, err := backend.GetBuffer(node.Shape)
	if err != nil {
		return nil, err
	}
	x, idx := inputs[0], inputs[1]
	n := x.RawShape.Dimensions[0]
	switch ix := idx.Flat.(type) {
	case []int32:
		err = gatherRows(out, x, ix, n, d.rowSize)
	case []int64:
		err = gatherRows(out, x, ix, n, d.rowSize)
	default:
		err = fmt.Errorf("gokernels: rowgather: indices of dtype %s", idx.RawShape.DType)
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// gatherRows copies row clamp(idx[i]) of x to row i of out, typed for the
// common element sizes and byte-wise otherwise.
func gatherRows[I int32 | int64](out, x *gb.Buffer, idx []I, n, rowSize int) error {
	switch xs := x.Flat.(type) {
	case []float32:
		copyRows(out.Flat.([]float32), xs, idx, n, rowSize)
	case []float64:
		copyRows(out.Flat.([]float64), xs, idx, n, rowSize)
	case []int32:
		copyRows(out.Flat.([]int32), xs, idx, n, rowSize)
	case []int64:
		copyRows(out.Flat.([]int64), xs, idx, n, rowSize)
	default:
		ob, err := out.MutableBytes()
		if err != nil {
			return err
		}
		xb, err := x.MutableBytes()
		if err != nil {
			return err
		}
		sz := x.RawShape.DType.Size()
		if sz <= 0 {
			return fmt.Errorf("gokernels: rowgather: dtype %s", x.RawShape.DType)
		}
		copyRows(ob, xb, idx, n, rowSize*sz)
	}
	return nil
}

// copyRows is out[i*w:(i+1)*w] = x[j*w:(j+1)*w] with j = idx[i] clamped to
// [0, n-1], as XLA's Gather clamps start indices.
func copyRows[T any, I int32 | int64](out, x []T, idx []I, n, w int) {
	if w == 1 {
		for i, j := range idx {
			out[i] = x[clampIndex(int(j), n)]
		}
		return
	}
	for i, j := range idx {
		s := clampIndex(int(j), n) * w
		copy(out[i*w:(i+1)*w], x[s:s+w])
	}
}

func clampIndex(j, n int) int {
	if j < 0 {
		return 0
	}
	if j >= n {
		return n - 1
	}
	return j
}
