package gokernels

import (
	"fmt"
	"slices"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	gb "github.com/gomlx/compute/gobackend"
)

func init() {
	gb.SetNodeExecutor(compute.OpTypeReduceSum, gb.PriorityUser, execGatherSum)
}

// gatherSumData is the Data of a ReduceSum node rewritten by
// fuseGatherSums: out[j, :] = Σ_k w[k, j] · x[idx[k, j], :] over k = 0..K-1
// in order (w = 1 when there are no weights), for j < r, x [N, H]. An index
// equal to zeroRow (the row count of x) reads a zero row: the operand
// Concatenate(x, zeros [1, H]) of nn/sparse, read in place.
type gatherSumData struct {
	k, r, h  int
	zeroRow  int // -1: none
	weighted bool
	// masks: per 64 columns of a row, 16 bits per vector of 16 for the
	// columns inside the row (the assembly's masked loads and stores).
	masks []uint64
}

// newGatherSumData describes a chunk of k slots, r rows and h columns.
func newGatherSumData(k, r, h int, weighted bool) *gatherSumData {
	d := &gatherSumData{k: k, r: r, h: h, zeroRow: -1, weighted: weighted}
	for c := 0; c < h; c += 64 {
		var m uint64
		for v := range 4 {
			lanes := min(max(h-c-16*v, 0), 16)
			m |= uint64(1<<lanes-1) << (16 * v)
		}
		d.masks = append(d.masks, m)
	}
	return d
}

// fuseGatherSums rewrites every ReduceSum(Reshape([Mul](Gather(x, idx), w)),
// axis 0) of f — nn/sparse's ELL chunk: Gather [K, r, H] of whole rows, an
// optional weight [K, r, 1] per slot, summed over K — into one node that
// reads x and writes the [r·H] sum, in place of the ReduceSum (so the DAG
// order holds); the gather, product and reshape become dead code. The
// operations and their order per value are those of the unfused graph.
func fuseGatherSums(b *gb.Builder) { rewrite(b, &fusedGatherSums, matchGatherSum) }

// matchGatherSum matches the pattern of fuseGatherSums at s.
func matchGatherSum(s *gb.Node, u map[*gb.Node]int) (*gatherSumData, []*gb.Node, bool) {
	if s.OpType != compute.OpTypeReduceSum || len(s.Inputs) != 1 || !isFloat(s.Shape.DType) {
		return nil, nil, false
	}
	if c, ok := s.Data.(*gb.ReduceConfig); !ok || !slices.Equal(c.Axes, []int{0}) {
		return nil, nil, false
	}
	re := s.Inputs[0]
	if re.OpType != compute.OpTypeReshape || u[re] != 1 || re.Shape.Rank() != 2 {
		return nil, nil, false
	}
	g, w := re.Inputs[0], (*gb.Node)(nil)
	if g.OpType == compute.OpTypeMul && u[g] == 1 && len(g.Inputs) == 2 {
		a, c := g.Inputs[0], g.Inputs[1]
		if a.OpType != compute.OpTypeGather {
			a, c = c, a
		}
		g, w = a, c
	}
	if g.OpType != compute.OpTypeGather || u[g] != 1 || g.Shape.Rank() != 3 {
		return nil, nil, false
	}
	if _, ok := rowGatherOf(g); !ok || g.Inputs[0].Shape.Rank() != 2 {
		return nil, nil, false
	}
	k, r, h := g.Shape.Dimensions[0], g.Shape.Dimensions[1], g.Shape.Dimensions[2]
	if !slices.Equal(re.Shape.Dimensions, []int{k, r * h}) || !slices.Equal(s.Shape.Dimensions, []int{r * h}) {
		return nil, nil, false
	}
	if w != nil && (w.Shape.DType != s.Shape.DType || !slices.Equal(w.Shape.Dimensions, []int{k, r, 1})) {
		return nil, nil, false
	}
	x, idx := g.Inputs[0], g.Inputs[1]
	d := newGatherSumData(k, r, h, w != nil)
	if base, ok := zeroPadded(x); ok {
		x, d.zeroRow = base, base.Shape.Dimensions[0]
	}
	inputs := []*gb.Node{x, idx}
	if w != nil {
		inputs = append(inputs, w)
	}
	return d, inputs, true
}

// zeroPadded returns x if n is Concatenate(x, zeros [1, H]) along axis 0.
func zeroPadded(n *gb.Node) (*gb.Node, bool) {
	if n.OpType != compute.OpTypeConcatenate || len(n.Inputs) != 2 {
		return nil, false
	}
	if axis, ok := n.Data.(int); !ok || axis != 0 {
		return nil, false
	}
	x, z := n.Inputs[0], n.Inputs[1]
	if z.Shape.Rank() != 2 || z.Shape.Dimensions[0] != 1 || !isZeros(z) {
		return nil, false
	}
	return x, true
}

// isZeros reports whether n is a constant of zeros or a broadcast of one.
func isZeros(n *gb.Node) bool {
	if n.OpType == compute.OpTypeBroadcastInDim || n.OpType == compute.OpTypeReshape {
		return len(n.Inputs) == 1 && isZeros(n.Inputs[0])
	}
	if n.OpType != compute.OpTypeConstant {
		return false
	}
	buf, ok := n.Data.(*gb.Buffer)
	if !ok {
		return false
	}
	switch v := buf.Flat.(type) {
	case []float32:
		for _, x := range v {
			if x != 0 || (x == 0 && 1/x < 0) {
				return false
			}
		}
		return true
	case []float64:
		for _, x := range v {
			if x != 0 || (x == 0 && 1/x < 0) {
				return false
			}
		}
		return true
	}
	return false
}

func isFloat(dt dtypes.DType) bool { return dt == dtypes.Float32 || dt == dtypes.Float64 }

// execGatherSum executes the nodes rewritten by fuseGatherSums.
func execGatherSum(backend *gb.Backend, node *gb.Node, inputs []*gb.Buffer, _ []bool) (*gb.Buffer, error) {
	d, ok := node.Data.(*gatherSumData)
	if !ok {
		return nil, gb.ErrFallback
	}
	out, err := backend.GetBuffer(node.Shape)
	if err != nil {
		return nil, err
	}
	idx, err := indices32(inputs[1])
	if err != nil {
		return nil, err
	}
	n := inputs[0].RawShape.Dimensions[0]
	switch x := inputs[0].Flat.(type) {
	case []float32:
		var w []float32
		if d.weighted {
			w = inputs[2].Flat.([]float32)
		}
		o, zero, srcs := out.Flat.([]float32), make([]float32, d.h), make([][]float32, d.k)
		for j := range d.r {
			sumRowF32(o[j*d.h:(j+1)*d.h], x, idx, w, j, d, n, zero, srcs)
		}
	case []float64:
		var w []float64
		if d.weighted {
			w = inputs[2].Flat.([]float64)
		}
		gatherSumGeneric(out.Flat.([]float64), x, idx, w, d, n)
	default:
		return nil, fmt.Errorf("gokernels: gathersum: operand of dtype %s", inputs[0].RawShape.DType)
	}
	return out, nil
}

// row returns row j of the gathered operand: x [n, h], with a zero row
// appended when zeroRow = n; j is clamped to the operand's rows as Gather
// clamps its indices.
func row[T float32 | float64](x []T, j int32, n, h, zeroRow int, zero []T) []T {
	rows := n
	if zeroRow >= 0 {
		rows = n + 1
	}
	jj := clampIndex(int(j), rows)
	if jj == zeroRow {
		return zero
	}
	return x[jj*h : (jj+1)*h]
}

// gatherSumGeneric is the kernel in plain Go: the same operations as the
// unfused graph (a product rounded per value, then the sum over k in order).
func gatherSumGeneric[T float32 | float64](out, x []T, idx []int32, w []T, d *gatherSumData, n int) {
	zero := make([]T, d.h)
	for j := range d.r {
		sumRowGeneric(out[j*d.h:(j+1)*d.h], x, idx, w, j, d, n, zero)
	}
}

// sumRowGeneric writes row j of a gather-sum into o: Σ_k w[k·r+j]·x[idx[k·r+j]]
// (k in order; no weight when w is nil).
func sumRowGeneric[T float32 | float64](o, x []T, idx []int32, w []T, j int, d *gatherSumData, n int, zero []T) {
	k, r, h := d.k, d.r, d.h
	for kk := range k {
		src := row(x, idx[kk*r+j], n, h, d.zeroRow, zero)
		switch {
		case w == nil && kk == 0:
			copy(o, src)
		case w == nil:
			for i, v := range src {
				o[i] += v
			}
		case kk == 0:
			wv := w[kk*r+j]
			for i, v := range src {
				o[i] = T(v * wv)
			}
		default:
			wv := w[kk*r+j]
			for i, v := range src {
				o[i] += T(v * wv)
			}
		}
	}
}

// indices32 returns an index buffer's values as int32 (int64 ones are
// converted, saturating).
func indices32(b *gb.Buffer) ([]int32, error) {
	switch ix := b.Flat.(type) {
	case []int32:
		return ix, nil
	case []int64:
		idx := make([]int32, len(ix))
		for i, v := range ix {
			idx[i] = int32(max(min(v, int64(1<<31-1)), -1<<31))
		}
		return idx, nil
	}
	return nil, fmt.Errorf("gokernels: indices of dtype %s", b.RawShape.DType)
}
