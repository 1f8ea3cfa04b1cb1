package nn

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
)

// ChunkBytes bounds the [K, rows, H] block that one gather of a sparse
// product materialises. Chunks keep the block in cache (and give the Go
// backend independent ops to run on several cores): on the 2-core machine
// of docs/RESULTS.md a chunked Squirrel-size aggregation (217k edges x 256
// features) took about two thirds of the unchunked time.
var ChunkBytes = 8 << 20

// SparseMatrix is a sparse matrix A (NumRows x NumCols) held on the host in
// coordinate form, ready to multiply dense matrices inside graphs (A·X).
// Entries are sorted by (row, col); duplicates are kept and add up.
//
// The matrix is diag(RowScale) · B · diag(ColScale), where B has the entries
// (Rows[i], Cols[i], Vals[i]); nil Vals means all ones, nil scales mean no
// scaling. Keeping the scales apart lets the graph apply them to the N x H
// node matrices instead of to every edge.
type SparseMatrix struct {
	NumRows, NumCols   int
	Rows, Cols         []int32
	Vals               []float32
	RowScale, ColScale []float32
}

// NNZ returns the number of stored entries.
func (m *SparseMatrix) NNZ() int { return len(m.Rows) }

// NewSparseMatrix validates and sorts the entries (rows[i], cols[i],
// vals[i]) (vals nil: all ones). When the values of every row are equal
// (binary features, row-normalised binary features, mean aggregation) they
// are moved to RowScale and Vals is left nil.
func NewSparseMatrix(numRows, numCols int, rows, cols []int32, vals []float32) (*SparseMatrix, error) {
	if numRows < 0 || numCols < 0 {
		return nil, fmt.Errorf("nn: sparse matrix of negative size %d x %d", numRows, numCols)
	}
	if len(rows) != len(cols) || (vals != nil && len(vals) != len(rows)) {
		return nil, fmt.Errorf("nn: sparse matrix with %d rows, %d cols and %d values (must be equal)",
			len(rows), len(cols), len(vals))
	}
	for i := range rows {
		if rows[i] < 0 || int(rows[i]) >= numRows || cols[i] < 0 || int(cols[i]) >= numCols {
			return nil, fmt.Errorf("nn: sparse matrix entry %d at (%d, %d) outside %d x %d", i, rows[i], cols[i],
				numRows, numCols)
		}
	}
	order := make([]int32, len(rows))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(a, b int32) int {
		if c := cmp.Compare(rows[a], rows[b]); c != 0 {
			return c
		}
		return cmp.Compare(cols[a], cols[b])
	})
	m := &SparseMatrix{NumRows: numRows, NumCols: numCols, Rows: make([]int32, len(rows)), Cols: make([]int32, len(rows))}
	for i, o := range order {
		m.Rows[i], m.Cols[i] = rows[o], cols[o]
	}
	if vals != nil {
		m.Vals = make([]float32, len(vals))
		for i, o := range order {
			m.Vals[i] = vals[o]
		}
		m.factorRowScale()
	}
	return m, nil
}

// factorRowScale moves row-constant values into RowScale.
func (m *SparseMatrix) factorRowScale() {
	allOnes := true
	for _, v := range m.Vals {
		if v != 1 {
			allOnes = false
			break
		}
	}
	if allOnes {
		m.Vals = nil
		return
	}
	scale := make([]float32, m.NumRows)
	seen := make([]bool, m.NumRows)
	for i, r := range m.Rows {
		if !seen[r] {
			seen[r], scale[r] = true, m.Vals[i]
		} else if scale[r] != m.Vals[i] {
			return
		}
	}
	for r := range scale {
		if !seen[r] {
			scale[r] = 1
		}
	}
	m.RowScale, m.Vals = scale, nil
}

// Dense returns the matrix as a dense row-major NumRows x NumCols slice
// (for tests and small graphs).
func (m *SparseMatrix) Dense() []float64 {
	d := make([]float64, m.NumRows*m.NumCols)
	for i := range m.Rows {
		v := 1.0
		if m.Vals != nil {
			v = float64(m.Vals[i])
		}
		if m.RowScale != nil {
			v *= float64(m.RowScale[m.Rows[i]])
		}
		if m.ColScale != nil {
			v *= float64(m.ColScale[m.Cols[i]])
		}
		d[int(m.Rows[i])*m.NumCols+int(m.Cols[i])] += v
	}
	return d
}

// DenseMaxElements: sparse matrices with at most this many elements
// (rows x columns) are also kept dense and multiplied with one Dot: for
// small graphs (WebKB) a handful of gather ops cost more than the dense
// product.
var DenseMaxElements = 1 << 18

// ELLBucketCost is the fixed cost of one ELL bucket (its gather, scale,
// reduction and concatenation ops), in gathered slots: buckets are chosen
// to minimise Σ_b (ELLBucketCost + rows_b · K_b), trading padding for fewer
// ops (small graphs get few buckets, large ones little padding).
var ELLBucketCost = 256

// ell is one orientation of a sparse matrix in bucketed ELL layout: rows
// sorted by their number of entries and grouped into buckets; bucket b
// holds Count[b] rows of K[b] slots each (padded).
type ell struct {
	K, Count []int
	// Idx[b] is [K, Count] (slot-major): the column of each slot; padding
	// points to numCols (a zero row appended to the dense operand).
	Idx [][]int32
	// Entry[b] is [K, Count]: the entry index of each slot in the row-sorted
	// order; padding points to nnz (a zero value appended).
	Entry [][]int32
	// Pos[r] is row r's position in the concatenated bucket outputs.
	Pos []int32
	// Empty rows (no entries) come first in that order; they produce zeros
	// without any gather.
	Empty int
}

// buildELL lays out the entries (rows[i], cols[i]) of a numRows x numCols
// matrix; rows need not be sorted.
func buildELL(numRows, numCols int, rows, cols []int32) *ell {
	deg := make([]int, numRows)
	for _, r := range rows {
		deg[r]++
	}
	start := make([]int, numRows+1)
	for r := range numRows {
		start[r+1] = start[r] + deg[r]
	}
	slot := make([]int32, len(rows)) // entries grouped by row, stable
	fill := slices.Clone(start[:numRows])
	for i, r := range rows {
		slot[fill[r]] = int32(i)
		fill[r]++
	}
	order := make([]int32, numRows)
	for r := range order {
		order[r] = int32(r)
	}
	slices.SortStableFunc(order, func(a, b int32) int { return cmp.Compare(deg[a], deg[b]) })
	e := &ell{Pos: make([]int32, numRows)}
	for p, r := range order {
		e.Pos[r] = int32(p)
	}
	// Optimal bucketing over the distinct degrees (rows sorted by degree):
	// best[i] = min cost of the first i degree groups.
	type group struct{ deg, rows int }
	var groups []group
	for _, r := range order {
		d := deg[r]
		if d == 0 {
			e.Empty++
			continue
		}
		if n := len(groups); n > 0 && groups[n-1].deg == d {
			groups[n-1].rows++
		} else {
			groups = append(groups, group{d, 1})
		}
	}
	best := make([]int, len(groups)+1)
	cut := make([]int, len(groups)+1)
	for i := 1; i <= len(groups); i++ {
		best[i] = -1
		rows := 0
		for j := i; j >= 1; j-- { // bucket = groups j-1 .. i-1, K = groups[i-1].deg
			rows += groups[j-1].rows
			c := best[j-1] + ELLBucketCost + rows*groups[i-1].deg
			if best[i] < 0 || c < best[i] {
				best[i], cut[i] = c, j-1
			}
		}
	}
	var bounds []int // group indices where buckets end
	for i := len(groups); i > 0; i = cut[i] {
		bounds = append(bounds, i)
	}
	slices.Reverse(bounds)
	p, gi := e.Empty, 0
	for _, end := range bounds {
		cnt := 0
		for ; gi < end; gi++ {
			cnt += groups[gi].rows
		}
		q := p + cnt
		k := groups[end-1].deg
		// Slot-major layout [K, count]: the graph sums over the leading axis,
		// which the Go backend reduces with SIMD.
		idx := make([]int32, cnt*k)
		ent := make([]int32, cnt*k)
		for i, r := range order[p:q] {
			for j := range k {
				if j < deg[r] {
					ent[j*cnt+i] = slot[start[r]+j]
					idx[j*cnt+i] = cols[ent[j*cnt+i]]
				} else {
					ent[j*cnt+i] = int32(len(rows))
					idx[j*cnt+i] = int32(numCols)
				}
			}
		}
		e.K, e.Count = append(e.K, k), append(e.Count, cnt)
		e.Idx, e.Entry = append(e.Idx, idx), append(e.Entry, ent)
		p = q
	}
	return e
}

// SetSparse adds the tensors of a sparse matrix under name/...: rows, cols
// ([nnz, 1] int32, sorted by row), vals ([nnz]), rowscale/colscale ([n, 1]),
// and either (small matrices, see DenseMaxElements) B as a dense matrix
// (name/dense) with the coordinates (name/coo), or the bucketed ELL layouts
// of A (name/ell/r...) and of Aᵀ (name/ell/c...) used by SpMat.Mul and its
// gradient.
func (in *Inputs) SetSparse(name string, m *SparseMatrix) {
	nnz := m.NNZ()
	in.SetMeta(name+"/numrows", m.NumRows)
	in.SetMeta(name+"/numcols", m.NumCols)
	in.SetInt32(name+"/rows", m.Rows, nnz, 1)
	in.SetInt32(name+"/cols", m.Cols, nnz, 1)
	if m.Vals != nil {
		in.SetFloat(name+"/vals", m.Vals, nnz)
	}
	if m.RowScale != nil {
		in.SetFloat(name+"/rowscale", m.RowScale, m.NumRows, 1)
	}
	if m.ColScale != nil {
		in.SetFloat(name+"/colscale", m.ColScale, m.NumCols, 1)
	}
	if m.NumRows*m.NumCols <= DenseMaxElements {
		b := make([]float32, m.NumRows*m.NumCols)
		coo := make([]int32, 2*nnz)
		for i := range m.Rows {
			v := float32(1)
			if m.Vals != nil {
				v = m.Vals[i]
			}
			b[int(m.Rows[i])*m.NumCols+int(m.Cols[i])] += v
			coo[2*i], coo[2*i+1] = m.Rows[i], m.Cols[i]
		}
		in.SetFloat(name+"/dense", b, m.NumRows, m.NumCols)
		in.SetInt32(name+"/coo", coo, nnz, 2)
		return
	}
	for _, o := range []struct {
		tag        string
		nr, nc     int
		rows, cols []int32
	}{{"r", m.NumRows, m.NumCols, m.Rows, m.Cols}, {"c", m.NumCols, m.NumRows, m.Cols, m.Rows}} {
		e := buildELL(o.nr, o.nc, o.rows, o.cols)
		prefix := fmt.Sprintf("%s/ell/%s", name, o.tag)
		in.SetMeta(prefix+"/buckets", len(e.K))
		in.SetMeta(prefix+"/empty", e.Empty)
		in.SetInt32(prefix+"/pos", e.Pos, o.nr, 1)
		for b := range e.K {
			in.SetInt32(fmt.Sprintf("%s/%03d/idx", prefix, b), e.Idx[b], e.K[b], e.Count[b], 1)
			in.SetInt32(fmt.Sprintf("%s/%03d/entry", prefix, b), e.Entry[b], e.K[b], e.Count[b], 1)
		}
	}
}

// ellNodes is one ELL orientation inside a graph.
type ellNodes struct {
	idx, entry []*Node // per bucket: [K, Count, 1] int32
	pos        *Node   // [rows, 1] int32
	empty      int     // rows without entries (first in pos order)
}

func (n *Nodes) ell(prefix string) *ellNodes {
	nb := n.Meta(prefix + "/buckets")
	e := &ellNodes{pos: n.Get(prefix + "/pos"), empty: n.Meta(prefix + "/empty")}
	for b := range nb {
		e.idx = append(e.idx, n.Get(fmt.Sprintf("%s/%03d/idx", prefix, b)))
		e.entry = append(e.entry, n.Get(fmt.Sprintf("%s/%03d/entry", prefix, b)))
	}
	return e
}

// SpMat is a SparseMatrix inside a graph (see Nodes.Sparse).
type SpMat struct {
	NumRows, NumCols, NNZ int
	// Rows, Cols: [NNZ, 1] int32, sorted by row.
	Rows, Cols *Node
	// Vals: [NNZ] or nil (ones).
	Vals *Node
	// RowScale [NumRows, 1], ColScale [NumCols, 1], or nil.
	RowScale, ColScale *Node
	// ELL layouts of A and Aᵀ (large matrices), or B dense [NumRows,
	// NumCols] with the coordinates [NNZ, 2] (small ones).
	byRow, byCol *ellNodes
	dense, coo   *Node
	// noGrad skips the custom-gradient scaffolding (evaluation passes).
	noGrad bool
	// stored is the Vals node read from the inputs (nil if none).
	stored *Node
}

func (m *SpMat) storedVals() *Node { return m.stored }

// NoGrad returns a copy of m whose products carry no gradient (for
// evaluation passes, where the gradient machinery would only cost time).
func (m *SpMat) NoGrad() *SpMat {
	c := *m
	c.noGrad = true
	return &c
}

// Sparse returns the sparse matrix added with Inputs.SetSparse.
func (n *Nodes) Sparse(name string) *SpMat {
	m := &SpMat{
		NumRows: n.Meta(name + "/numrows"), NumCols: n.Meta(name + "/numcols"),
		Rows: n.Get(name + "/rows"), Cols: n.Get(name + "/cols"),
		Vals: n.Maybe(name + "/vals"), RowScale: n.Maybe(name + "/rowscale"), ColScale: n.Maybe(name + "/colscale"),
	}
	if d := n.Maybe(name + "/dense"); d != nil {
		m.dense, m.coo = d, n.Get(name+"/coo")
	} else {
		m.byRow, m.byCol = n.ell(name+"/ell/r"), n.ell(name+"/ell/c")
	}
	m.NNZ = m.Rows.Shape().Dimensions[0]
	return m
}

// WithVals returns a copy of m whose entries have the values vals ([NNZ],
// in the row-sorted order; the scales still apply). Gradients do not flow
// to vals.
func (m *SpMat) WithVals(vals *Node) *SpMat {
	c := *m
	c.Vals = vals
	return &c
}

// EntryValues returns the [NNZ] values of B (ones when Vals is nil) in dtype.
func (m *SpMat) EntryValues(dtype dtypes.DType) *Node {
	if m.Vals != nil {
		return ConvertDType(m.Vals, dtype)
	}
	return Ones(m.Rows.Graph(), shapes.Make(dtype, m.NNZ))
}

// Mul returns A·x for x [NumCols, H]: [NumRows, H]. Gradients flow to x
// (not to the entries): the gradient is Aᵀ·v, computed with the same
// bucketed layout over the columns.
func (m *SpMat) Mul(x *Node) *Node {
	if x.Rank() != 2 || x.Shape().Dimensions[0] != m.NumCols {
		panicf("nn: sparse %d x %d matrix times %s", m.NumRows, m.NumCols, x.Shape())
	}
	if m.ColScale != nil {
		x = Mul(x, ConvertDType(m.ColScale, x.DType()))
	}
	var vals *Node
	if m.Vals != nil {
		vals = ConvertDType(m.Vals, x.DType())
	}
	var y *Node
	if m.dense != nil {
		b := m.dense
		if m.Vals != nil && m.Vals != m.storedVals() {
			b = Scatter(m.coo, vals, shapes.Make(x.DType(), m.NumRows, m.NumCols), false, false)
		}
		if m.noGrad {
			x = StopGradient(x)
		}
		y = Dot(ConvertDType(b, x.DType()), x).Product()
	} else if m.noGrad {
		y = ellMul(StopGradient(x), m.byRow, vals)
	} else {
		fwd := func(x *Node) *Node { return ellMul(x, m.byRow, vals) }
		bwd := func(v *Node) *Node { return ellMul(v, m.byCol, vals) }
		y = withCustomLinearGradient(x, m.NumRows, fwd, bwd)
	}
	if m.RowScale != nil {
		y = Mul(y, ConvertDType(m.RowScale, y.DType()))
	}
	return y
}

// withCustomLinearGradient returns fwd(x) ([outRows, H]) with bwd as its
// vector-Jacobian product (v [outRows, H] -> [x rows, H]). GoMLX attaches
// custom gradients only to identity nodes, so the value is
// StopGradient(fwd(x)) plus a zero term z - StopGradient(z) whose gradient
// reaches z = x (padded with zero rows to at least outRows rows); z's custom
// gradient receives v (padded the same way) and returns bwd(v).
func withCustomLinearGradient(x *Node, outRows int, fwd, bwd func(*Node) *Node) *Node {
	g := x.Graph()
	inRows, h := x.Shape().Dimensions[0], x.Shape().Dimensions[1]
	y := StopGradient(fwd(x))
	rows := max(inRows, outRows)
	xp := x
	if rows > inRows {
		xp = Concatenate([]*Node{x, Zeros(g, shapes.Make(x.DType(), rows-inRows, h))}, 0)
	}
	z := IdentityWithCustomGradient(xp, func(_, v *Node) *Node {
		if rows > outRows {
			v = Slice(v, AxisRange(0, outRows))
		}
		gx := bwd(v)
		if rows > inRows {
			gx = Concatenate([]*Node{gx, Zeros(g, shapes.Make(gx.DType(), rows-inRows, h))}, 0)
		}
		return gx
	})
	if rows > outRows {
		z = Slice(z, AxisRange(0, outRows)) // before the subtraction: fewer rows to compute
	}
	return Add(y, Sub(z, StopGradient(z)))
}

// ellMul computes A·x with A in ELL layout e: per bucket (in chunks of at
// most ChunkBytes), gather the slots' rows of x (plus a zero row for
// padding) into [K, rows, H], scale by the slots' values, sum over the
// leading axis K (a SIMD reduction in the Go backend; the middle axis of
// [rows, K, H] is not); then put the rows back in order. vals are the entries' values ([NNZ]) or nil.
func ellMul(x *Node, e *ellNodes, vals *Node) *Node {
	g := x.Graph()
	dt := x.DType()
	h := x.Shape().Dimensions[1]
	xp := Concatenate([]*Node{x, Zeros(g, shapes.Make(dt, 1, h))}, 0)
	var vp *Node
	if vals != nil {
		vp = Concatenate([]*Node{vals, Zeros(g, shapes.Make(dt, 1))}, 0)
	}
	var parts []*Node
	if e.empty > 0 {
		parts = append(parts, Zeros(g, shapes.Make(dt, e.empty, h)))
	}
	for b, idx := range e.idx {
		k, count := idx.Shape().Dimensions[0], idx.Shape().Dimensions[1]
		step := max(1, ChunkBytes/(dt.Size()*k*max(h, 1)))
		for s := 0; s < count; s += step {
			end := min(count, s+step)
			ci, ce := idx, e.entry[b]
			if s > 0 || end < count {
				ci = Slice(idx, AxisRange(), AxisRange(s, end))
				ce = Slice(ce, AxisRange(), AxisRange(s, end))
			}
			blk := Gather(xp, ci, false) // [K, r, H]
			if vp != nil {
				blk = Mul(blk, ExpandAxes(Gather(vp, ce, false), -1)) // [K, r, 1]
			}
			r := end - s
			if k == 1 {
				parts = append(parts, Reshape(blk, r, h))
			} else {
				parts = append(parts, Reshape(ReduceSum(Reshape(blk, k, r*h), 0), r, h))
			}
		}
	}
	cat := parts[0]
	if len(parts) > 1 {
		cat = Concatenate(parts, 0)
	}
	return Gather(cat, e.pos, false)
}
