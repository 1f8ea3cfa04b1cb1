package gokernels

import (
	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	gb "github.com/gomlx/compute/gobackend"
)

func init() {
	for _, op := range []compute.OpType{compute.OpTypeScatterSum, compute.OpTypeScatterMax, compute.OpTypeScatterMin} {
		gb.SetNodeExecutor(op, gb.PriorityUser, execRowScatter)
	}
}

// rowScatterData replaces the Data of a ScatterSum/Max/Min of whole rows
// (marked at compile time by markRowScatters): out = operand, then
// out[idx[e]] = combine(out[idx[e]], updates[e]) for e in order.
type rowScatterData struct {
	rowSize int  // values per row
	sorted  bool // the graph says the indices ascend (checked before it is relied on)
}

// rowScatterMinValues is the size (values updated) from which a scatter
// with ascending indices runs on the backend's idle workers.
const rowScatterMinValues = 1 << 15

// rowScatterOf returns the number of values in one row if node scatters
// whole rows: operand [N, d1, ...], indices [E, 1] into axis 0, updates
// [E, d1, ...] (graph.ScatterSum's form, and the gradient of graph.Gather).
// ok is false for any other scatter, and for dtypes the kernel does not
// handle (float32 and float64 values; int32 and int64 indices).
func rowScatterOf(node *gb.Node) (rowSize int, ok bool) {
	p, ok := gb.ScatterParamsOf(node)
	if !ok || len(node.Inputs) != 3 {
		return 0, false
	}
	op, idx, upd := node.Inputs[0].Shape, node.Inputs[1].Shape, node.Inputs[2].Shape
	r := op.Rank()
	if r < 1 || idx.Rank() != 2 || idx.Dimensions[1] != 1 || p.IndexVectorAxis != 1 ||
		len(p.ScatterAxesToOperandAxes) != 1 || p.ScatterAxesToOperandAxes[0] != 0 ||
		len(p.InsertedWindowAxes) != 1 || p.InsertedWindowAxes[0] != 0 ||
		len(p.UpdateWindowAxes) != r-1 || upd.Rank() != r || upd.Dimensions[0] != idx.Dimensions[0] {
		return 0, false
	}
	if (idx.DType != dtypes.Int32 && idx.DType != dtypes.Int64) ||
		(op.DType != dtypes.Float32 && op.DType != dtypes.Float64) || upd.DType != op.DType {
		return 0, false
	}
	rowSize = 1
	for a := 1; a < r; a++ {
		if p.UpdateWindowAxes[a-1] != a || upd.Dimensions[a] != op.Dimensions[a] {
			return 0, false
		}
		rowSize *= op.Dimensions[a]
	}
	return rowSize, !op.IsDynamic() && !idx.IsDynamic() && !upd.IsDynamic()
}

// markRowScatters gives every scatter of whole rows in b the rowscatter kernel.
func markRowScatters(b *gb.Builder) {
	for _, f := range b.Functions {
		for _, n := range f.Nodes {
			switch n.OpType { //nolint:exhaustive
			case compute.OpTypeScatterSum, compute.OpTypeScatterMax, compute.OpTypeScatterMin:
			default:
				continue
			}
			if rs, ok := rowScatterOf(n); ok {
				p, _ := gb.ScatterParamsOf(n)
				n.Data = &rowScatterData{rowSize: rs, sorted: p.IndicesAreSorted}
				markedRowScatters.Add(1)
			}
		}
	}
}

// execRowScatter executes the scatters marked by markRowScatters: the same
// combinations as the backend's generic scatter, in the same order (update
// e before e+1 into each row), so the same bits (for Max and Min up to
// NaNs and signed zeros, see combineRows). Indices outside [0, N) are
// skipped, as XLA's scatter does (the backend's generic loop does not check
// them). With ascending indices the rows are split among the backend's idle
// workers at row boundaries: each output row still sees its updates in
// order, from one worker.
func execRowScatter(backend *gb.Backend, node *gb.Node, inputs []*gb.Buffer, inputsOwned []bool) (*gb.Buffer, error) {
	d, ok := node.Data.(*rowScatterData)
	if !ok {
		return nil, gb.ErrFallback
	}
	var out *gb.Buffer
	if inputsOwned[0] {
		out = inputs[0]
		inputs[0] = nil // consumed: the result is written in place
	} else {
		var err error
		if out, err = backend.CloneBuffer(inputs[0]); err != nil {
			return nil, err
		}
	}
	out.RawShape = node.Shape
	if backend.NoOps {
		return out, nil
	}
	idx, upd := inputs[1], inputs[2]
	switch o := out.Flat.(type) {
	case []float32:
		scatterRowsOf(backend, node.OpType, d, o, upd.Flat.([]float32), idx.Flat)
	case []float64:
		scatterRowsOf(backend, node.OpType, d, o, upd.Flat.([]float64), idx.Flat)
	}
	return out, nil
}

func scatterRowsOf[T float32 | float64](backend *gb.Backend, op compute.OpType, d *rowScatterData, out, upd []T, idx any) {
	switch ix := idx.(type) {
	case []int32:
		scatterRows(backend, op, d, out, upd, ix)
	case []int64:
		scatterRows(backend, op, d, out, upd, ix)
	}
}

// scatterRows combines row e of upd into row idx[e] of out, for every e, in
// order within each output row.
func scatterRows[T float32 | float64, I int32 | int64](backend *gb.Backend, op compute.OpType, d *rowScatterData, out, upd []T, idx []I) {
	w, n := d.rowSize, len(out)/max(1, d.rowSize)
	e := len(idx)
	if w == 0 || e == 0 {
		return
	}
	parts := 1
	if d.sorted && e*w >= rowScatterMinValues && backend.Workers != nil && backend.Workers.IsEnabled() && ascending(idx) {
		parts = min(backend.Workers.AdjustedMaxParallelism(), e/64)
	}
	if parts <= 1 {
		combineRows(op, out, upd, idx, 0, e, n, w)
		return
	}
	// Split [0, e) into parts ranges, each start moved forward to where the
	// index changes, so that no output row is shared by two ranges.
	starts := make([]int, 0, parts+1)
	for p := range parts {
		s := p * e / parts
		for s > 0 && s < e && idx[s] == idx[s-1] {
			s++
		}
		if len(starts) == 0 || s > starts[len(starts)-1] {
			starts = append(starts, s)
		}
	}
	starts = append(starts, e)
	inParallel(backend, len(starts)-1, true, func(i int) {
		if starts[i] < starts[i+1] {
			combineRows(op, out, upd, idx, starts[i], starts[i+1], n, w)
		}
	})
}

// ascending reports whether idx never decreases.
func ascending[I int32 | int64](idx []I) bool {
	for i := 1; i < len(idx); i++ {
		if idx[i] < idx[i-1] {
			return false
		}
	}
	return true
}

// combineRows combines rows [from, to) of upd into their rows of out
// (rows of w values, n of them): ScatterSum adds, ScatterMax and ScatterMin
// take Go's max and min, as the backend's loop over rows of one value; its
// SIMD loop over wider rows agrees except where the two values are NaN or
// zeros of opposite sign (there, which operand it returns varies with the
// row's width: Go's compiler may swap MAXPS's operands), where Go's max and
// min are a defined answer.
func combineRows[T float32 | float64, I int32 | int64](op compute.OpType, out, upd []T, idx []I, from, to, n, w int) {
	for e := from; e < to; e++ {
		j := int(idx[e])
		if j < 0 || j >= n {
			continue
		}
		o, u := out[j*w:(j+1)*w], upd[e*w:(e+1)*w]
		switch op { //nolint:exhaustive
		case compute.OpTypeScatterMax:
			for c := range o {
				o[c] = max(o[c], u[c])
			}
		case compute.OpTypeScatterMin:
			for c := range o {
				o[c] = min(o[c], u[c])
			}
		default:
			for c := range o {
				o[c] += u[c]
			}
		}
	}
}
