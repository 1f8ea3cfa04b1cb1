package sparse

import (
	"fmt"

	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
)

// SetSorted adds, for the square matrix added under name with Set (ELL
// layout), the layouts SpMat.SortedPadded multiplies with:
// the matrix relabelled so that its rows come in the ELL bucket order
// (rows sorted by number of entries), for node matrices with one extra zero
// row. Products in that form gather no zero row onto the operand and put no
// rows back in order: two passes fewer per product, which matters for deep
// models (GCNII) that multiply the same matrix many times. It does nothing
// for matrices multiplied densely (DenseMaxElements) or not square. With
// hub columns (DenseColumnRatio) the bucket order is that of the non-hub
// entries, and the hub form is added too (name/sorted/hub/...).
func SetSorted(in HostInputs, name string) error {
	m := HostMatrix(in, name)
	if m == nil {
		return fmt.Errorf("nn: no sparse matrix %q in the inputs", name)
	}
	if m.NumRows != m.NumCols || m.NumRows*m.NumCols <= DenseMaxElements {
		return nil
	}
	if !NeedsELL(in.BackendName(), m.NumRows, m.NumCols) {
		return nil // SortedPadded is an ELL form
	}
	n := m.NumRows
	pos := buildELL(n, n, m.Rows, m.Cols).Pos // node -> position in bucket order
	// With hub columns, the bucket order of the other entries (which the
	// hub form multiplies in ELL layout).
	hubs, byRows := hubLines(n, n, m.Rows, m.Cols)
	if hubs != nil {
		pos = sortedHubOrder(n, m.Rows, m.Cols, hubs, byRows)
	}
	order := make([]int32, n+1) // position -> node; n -> the zero row
	for v, p := range pos {
		order[p] = int32(v)
	}
	order[n] = int32(n)
	rows, cols := make([]int32, m.NNZ()), make([]int32, m.NNZ())
	for i := range m.Rows {
		rows[i], cols[i] = pos[m.Rows[i]], pos[m.Cols[i]]
	}
	// Relabelled rows are already in bucket order (the order is a stable
	// sort by row length), so the row layout needs no reordering; the
	// transpose's does unless columns have the same lengths as rows.
	r := buildELL(n, n, rows, cols)
	switch {
	case isIdentity(r.Pos):
		r.Pos = nil
	case hubs != nil: // in the order of the hub form's rows
		r.Pos = append(r.Pos, int32(n))
	default:
		return fmt.Errorf("nn: sorted layout of %q: relabelled rows out of order", name)
	}
	c := buildELL(n, n, cols, rows)
	if isIdentity(c.Pos) {
		c.Pos = nil
	} else {
		c.Pos = append(c.Pos, int32(n)) // the zero row stays last
	}
	prefix := name + "/sorted"
	setELL(in, prefix+"/ell/r", r, m.Vals)
	setELL(in, prefix+"/ell/c", c, m.Vals)
	in.SetMeta(prefix+"/ell/r/padded", 1)
	in.SetMeta(prefix+"/ell/c/padded", 1)
	if hubs != nil {
		setHubLayouts(in, prefix+"/hub", n, n, rows, cols, m.Vals, relabel(hubs, pos), true, byRows)
	}
	in.SetInt32(prefix+"/order", order, n+1, 1)
	in.SetInt32(prefix+"/pos", pos, n, 1)
	// Scales in bucket order, 0 on the zero row.
	permute := func(s []float32) []float32 {
		out := make([]float32, n+1)
		for p, v := range order[:n] {
			out[p] = s[v]
		}
		return out
	}
	if m.RowScale != nil {
		in.SetFloat(prefix+"/rowscale", permute(m.RowScale), n+1, 1)
	}
	if m.ColScale != nil {
		in.SetFloat(prefix+"/colscale", permute(m.ColScale), n+1, 1)
		inv := make([]float32, n)
		for v, s := range m.ColScale {
			if s != 0 {
				inv[v] = 1 / s
			}
		}
		in.SetFloat(prefix+"/invcolscale", permute(inv), n+1, 1)
	}
	return nil
}

func isIdentity(p []int32) bool {
	for i, v := range p {
		if int(v) != i {
			return false
		}
	}
	return true
}

// sortedNodes is the sorted-padded form of a square matrix inside a graph.
type sortedNodes struct {
	byRow, byCol             *ellNodes
	hubRow, hubCol           *ellNodes // nil without hubs
	order, pos               *Node     // [N+1, 1], [N, 1] int32
	rowScale, colScale, invC *Node     // [N+1, 1] or nil
}

func sortedLayout(n GraphInputs, name string) *sortedNodes {
	prefix := name + "/sorted"
	if n.Maybe(prefix+"/order") == nil {
		return nil
	}
	s := &sortedNodes{byRow: ellFromNodes(n, prefix+"/ell/r"), byCol: ellFromNodes(n, prefix+"/ell/c"),
		order: n.Get(prefix + "/order"), pos: n.Get(prefix + "/pos"),
		rowScale: n.Maybe(prefix + "/rowscale"), colScale: n.Maybe(prefix + "/colscale"),
		invC: n.Maybe(prefix + "/invcolscale")}
	if n.MetaOr(prefix+"/hub/present", 0) == 1 {
		s.hubRow, s.hubCol = ellFromNodes(n, prefix+"/hub/ell/r"), ellFromNodes(n, prefix+"/hub/ell/c")
	}
	return s
}

// SortedPadded returns the view of m (square, with SetSorted layouts)
// that multiplies node matrices in sorted-padded form: [N+1, H], row p
// holding node order[p] (the ELL bucket order) and the last row zero (see
// ToSortedPadded); products return the same form. Its RowScale and
// ColScale are [N+1, 1] in that order (0 on the last row); Rows, Cols and
// Vals keep their original meaning. ok is false when m has no such layout
// or its products are not in FormELL (XLA: see FormFor).
func (m *SpMat) SortedPadded() (view *SpMat, ok bool) {
	if m.sorted == nil || m.sortedView || m.form() != FormELL {
		return m, m.sortedView
	}
	c := *m
	c.NumRows, c.NumCols = m.NumRows+1, m.NumCols+1
	c.byRow, c.byCol = m.sorted.byRow, m.sorted.byCol
	c.hubRow, c.hubCol = m.sorted.hubRow, m.sorted.hubCol
	c.RowScale, c.ColScale = m.sorted.rowScale, m.sorted.colScale
	c.sortedView = true
	return &c, true
}

// InvColScale returns 1/ColScale of a sorted-padded view ([N+1, 1], 0 on
// the last row), or nil.
func (m *SpMat) InvColScale() *Node {
	if !m.sortedView {
		panicf("nn: InvColScale needs a SortedPadded view")
	}
	return m.sorted.invC
}

// ToSortedPadded returns x [N, H] in the sorted-padded form of the view
// (one gather).
func (m *SpMat) ToSortedPadded(x *Node) *Node {
	if !m.sortedView {
		panicf("nn: ToSortedPadded needs a SortedPadded view")
	}
	zero := Zeros(x.Graph(), shapes.Make(x.DType(), 1, x.Shape().Dimensions[1]))
	return Gather(Concatenate([]*Node{x, zero}, 0), m.sorted.order, false)
}

// FromSortedPadded returns the rows of y [N+1, H] (sorted-padded form) in
// node order, [N, H].
func (m *SpMat) FromSortedPadded(y *Node) *Node {
	if !m.sortedView {
		panicf("nn: FromSortedPadded needs a SortedPadded view")
	}
	return Gather(y, m.sorted.pos, false)
}
