package sparse

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"

	// The pure-Go backend's fused kernels for these products (gathersum,
	// rowgather) and for dropout's random bits (rng).
	_ "github.com/lwgcn/toolkit/lwgcn/gokernels"
)

// ELLChunkSlots bounds the slots (K x rows) of the chunks the host lays
// the ELL buckets out in; a product gathers one [K, rows, H] block per
// chunk. Chunks keep the block in cache (and give the Go backend
// independent ops to run on several cores): on the 2-core machine of
// docs/RESULTS.md a Squirrel-size aggregation (217k edges x 256 features)
// took 67 ms in 8 MiB blocks, 26-28 ms in 0.5-2 MiB ones. Each chunk has
// its own input tensors, so that graphs never slice index arrays (GoMLX's
// Go backend slices element by element).
var ELLChunkSlots = 1024

// ChunkBytes: a bucket whose whole [K, rows, H] block fits is gathered in
// one piece (the host stores each bucket whole as well as in chunks), which
// saves ops for narrow products (small H).
var ChunkBytes = 1 << 20

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
	order := sortedOrder(numRows, numCols, rows, cols)
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

// sortedOrder returns the entries' positions sorted by (row, col), equal
// entries in their given order: the order of a stable sort, found by two
// stable counting sorts (by column, then by row) in linear time; a
// comparison sort of tolokers' two-hop layout (45 M entries) took 8 s.
func sortedOrder(numRows, numCols int, rows, cols []int32) []int32 {
	byCol := make([]int32, len(rows))
	countingSort(byCol, nil, cols, numCols)
	order := make([]int32, len(rows))
	countingSort(order, byCol, rows, numRows)
	return order
}

// countingSort writes into out the positions of in (nil: 0, 1, ...) stably
// sorted by key[position], keys in [0, numKeys).
func countingSort(out, in, key []int32, numKeys int) {
	start := make([]int, numKeys+1)
	for _, k := range key {
		start[k+1]++
	}
	for k := range numKeys {
		start[k+1] += start[k]
	}
	for i := range out {
		p := int32(i)
		if in != nil {
			p = in[i]
		}
		k := key[p]
		out[start[k]] = p
		start[k]++
	}
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
		d[int(m.Rows[i])*m.NumCols+int(m.Cols[i])] += m.entryValue(i)
	}
	return d
}

// entryValue is entry i's value with the row and column scales applied,
// in float64.
func (m *SparseMatrix) entryValue(i int) float64 {
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
	return v
}

// DenseMaxElements: sparse matrices with at most this many elements
// (rows x columns) are also kept dense, and multiplied with one Dot when
// that is cheaper than the ELL layout's handful of gather ops (denseFor).
var DenseMaxElements = 1 << 18

// DenseMaxWidth and DenseMinDensity decide, for a matrix kept dense, which
// form multiplies x: the dense one when x has at most DenseMaxWidth columns
// or the matrix has at least DenseMinDensity·rows·cols entries, else ELL.
// BenchmarkDenseMul (183 nodes, forward and gradient, one and two threads
// on the 2-core AVX2 host): on a WebKB-like graph (1.5% entries) dense is
// about twice as fast for 5 columns and ELL 1.25-2x faster from 64 columns
// on (10 batched runs of 128: 1.0-1.2 ms against 1.8-2.3); at 5.6% entries
// the two are within 30% of each other from 64 columns on.
var (
	DenseMaxWidth   = 32
	DenseMinDensity = 0.04
)

// denseFor says whether a product with x of width columns uses the dense
// form (for a matrix kept dense; see DenseMaxWidth).
func (m *SpMat) denseFor(width int) bool {
	return m.wideRow == nil || width <= DenseMaxWidth || float64(m.NNZ) >= DenseMinDensity*float64(m.NumRows)*float64(m.NumCols)
}

// wide returns the ELL form of a matrix kept dense, for wide products.
func (m *SpMat) wide() *SpMat {
	c := *m
	c.dense, c.denseT, c.coo = nil, nil, nil
	c.byRow, c.byCol = m.wideRow, m.wideCol
	c.wideRow, c.wideCol = nil, nil
	return &c
}

// ELLBucketCost is the fixed cost of one ELL bucket (its gather, scale,
// reduction and concatenation ops), in gathered slots: buckets are chosen
// to minimise Σ_b (ELLBucketCost + rows_b · K_b), trading padding for fewer
// ops (small graphs get few buckets, large ones little padding).
var ELLBucketCost = 256

// ell is one orientation of a sparse matrix in bucketed ELL layout: rows
// sorted by their number of entries and grouped into buckets; bucket b
// holds Count[b] rows of K[b] slots each (padded), laid out in chunks of
// consecutive rows.
type ell struct {
	K, Count []int
	// Idx[b][c] is chunk c of bucket b, [K, rows_c] (slot-major): the column
	// of each slot; padding points to numCols (a zero row appended to the
	// dense operand).
	Idx [][][]int32
	// Entry[b][c] is [K, rows_c]: the entry index of each slot in the
	// row-sorted order; padding points to nnz (a zero value appended).
	Entry [][][]int32
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
		// Slot-major layout [K, rows] per chunk: the graph sums over the
		// leading axis, which the Go backend reduces with SIMD.
		step := max(1, ELLChunkSlots/k)
		var idxs, ents [][]int32
		for c0 := 0; c0 < cnt; c0 += step {
			rc := min(step, cnt-c0)
			idx := make([]int32, rc*k)
			ent := make([]int32, rc*k)
			for i, r := range order[p+c0 : p+c0+rc] {
				for j := range k {
					if j < deg[r] {
						ent[j*rc+i] = slot[start[r]+j]
						idx[j*rc+i] = cols[ent[j*rc+i]]
					} else {
						ent[j*rc+i] = int32(len(rows))
						idx[j*rc+i] = int32(numCols)
					}
				}
			}
			idxs, ents = append(idxs, idx), append(ents, ent)
		}
		e.K, e.Count = append(e.K, k), append(e.Count, cnt)
		e.Idx, e.Entry = append(e.Idx, idxs), append(e.Entry, ents)
		p = q
	}
	return e
}

// Set adds the tensors of a sparse matrix under name/...: rows, cols
// ([nnz, 1] int32, sorted by row), vals ([nnz]), rowscale/colscale ([n, 1]),
// for small matrices (see DenseMaxElements) B as a dense matrix (name/dense)
// with the coordinates (name/coo) and Bᵀ for the gradient (name/denset;
// name/dense/symmetric instead when B = Bᵀ), and for every matrix the
// bucketed ELL layouts of A (name/ell/r...) and of Aᵀ (name/ell/c...) used
// by SpMat.Mul and its gradient: per bucket and chunk, column indices, entry indices and (when
// the matrix has values) the values in slot order, and each bucket of
// several chunks whole as well; when a large matrix has hub columns (see
// DenseColumnRatio), also their dense block and the ELL layouts of the
// other entries (name/hub/...). It keeps m for SetSorted.
//
// The ELL and hub layouts are added only where the products will read
// them: when in names a backend whose products of m's size take another
// form (FormFor: XLA's dense or segment forms), they are left out, so
// that the compiled graph does not take thousands of inputs it never
// reads (Squirrel's LW-GCN epoch on XLA CPU: 5,773 graph nodes, 581
// without them and SetSorted's). Matrices of attention-like products,
// whose weighted forms use the ELL layouts on every backend, are added
// with SetWeighted.
func Set(in HostInputs, name string, m *SparseMatrix) {
	set(in, name, m, NeedsELL(in.BackendName(), m.NumRows, m.NumCols))
}

// SetWeighted is Set for a matrix that MulWeighted, MulWeightedRuns or
// RowSlots multiply (GAT's, FAGCN's and BM-GCN's edges): it adds the ELL
// layouts whatever the backend.
func SetWeighted(in HostInputs, name string, m *SparseMatrix) { set(in, name, m, true) }

// NeedsELL says whether products with a rows x cols matrix on the backend
// named backendName read its ELL layouts (FormFor gives FormELL); true for
// an unknown backend ("").
func NeedsELL(backendName string, rows, cols int) bool {
	return backendName == "" || FormFor(backendName, rows, cols) == FormELL
}

func set(in HostInputs, name string, m *SparseMatrix, withELL bool) {
	in.SetHost(name, m)
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
		// Bᵀ for the gradient (Mul): the Go backend would otherwise
		// transpose B, v and the result at every backward pass.
		if symmetric(b, m.NumRows, m.NumCols) {
			in.SetMeta(name+"/dense/symmetric", 1)
		} else {
			bt := make([]float32, len(b))
			for i := range m.NumRows {
				for j := range m.NumCols {
					bt[j*m.NumRows+i] = b[i*m.NumCols+j]
				}
			}
			in.SetFloat(name+"/denset", bt, m.NumCols, m.NumRows)
		}
	}
	if !withELL {
		return
	}
	// Small matrices get the ELL layouts too: wide products use them
	// (SpMat.denseFor).
	setELL(in, name+"/ell/r", buildELL(m.NumRows, m.NumCols, m.Rows, m.Cols), m.Vals)
	setELL(in, name+"/ell/c", buildELL(m.NumCols, m.NumRows, m.Cols, m.Rows), m.Vals)
	if m.NumRows*m.NumCols <= DenseMaxElements {
		return
	}
	if hubs, byRows := hubLines(m.NumRows, m.NumCols, m.Rows, m.Cols); hubs != nil {
		setHubLayouts(in, name+"/hub", m.NumRows, m.NumCols, m.Rows, m.Cols, m.Vals, hubs, false, byRows)
	}
}

// HostMatrix returns the host matrix added under name with Set, or
// nil (tensors set some other way).
func HostMatrix(in HostInputs, name string) *SparseMatrix {
	m, _ := in.Host(name).(*SparseMatrix)
	return m
}

// setELL adds the tensors of one ELL layout under prefix; vals are the
// matrix's stored values (nil: none), arranged per slot.
func setELL(in HostInputs, prefix string, e *ell, vals []float32) {
	nnz := len(vals)
	in.SetMeta(prefix+"/buckets", len(e.K))
	in.SetMeta(prefix+"/empty", e.Empty)
	if e.Pos != nil {
		in.SetInt32(prefix+"/pos", e.Pos, len(e.Pos), 1)
	}
	for b := range e.K {
		in.SetMeta(fmt.Sprintf("%s/%03d/chunks", prefix, b), len(e.Idx[b]))
		bp := fmt.Sprintf("%s/%03d", prefix, b)
		setChunk := func(cp string, idx, ent []int32) {
			rc := len(idx) / e.K[b]
			in.SetInt32(cp+"/idx", idx, e.K[b], rc, 1)
			in.SetInt32(cp+"/entry", ent, e.K[b], rc, 1)
			if vals != nil {
				// The entries' values in slot order, so that products with
				// the stored values need no gather of them.
				v := make([]float32, len(idx))
				for i, en := range ent {
					if int(en) < nnz {
						v[i] = vals[en]
					}
				}
				in.SetFloat(cp+"/val", v, e.K[b], rc, 1)
			}
		}
		for c := range e.Idx[b] {
			setChunk(fmt.Sprintf("%s/%03d", bp, c), e.Idx[b][c], e.Entry[b][c])
		}
		if len(e.Idx[b]) > 1 {
			// The whole bucket too, for graphs whose width H lets it be one
			// chunk (no concatenation of index chunks at run time).
			setChunk(bp+"/all", slotMajorConcat(e.Idx[b], e.K[b]), slotMajorConcat(e.Entry[b], e.K[b]))
		}
	}
}

// slotMajorConcat joins [K, rows_c] chunks into one [K, Σ rows_c] array.
func slotMajorConcat(chunks [][]int32, k int) []int32 {
	total := 0
	for _, c := range chunks {
		total += len(c)
	}
	cols := total / k
	out := make([]int32, total)
	off := 0
	for _, c := range chunks {
		rc := len(c) / k
		for j := range k {
			copy(out[j*cols+off:j*cols+off+rc], c[j*rc:(j+1)*rc])
		}
		off += rc
	}
	return out
}

// ellChunk is one chunk of an ELL bucket inside a graph: [K, rows, 1]
// column indices, entry indices and (when the matrix has stored values)
// the entries' values.
type ellChunk struct {
	idx, entry, val *Node
}

// ellNodes is one ELL orientation inside a graph.
type ellNodes struct {
	buckets [][]ellChunk
	whole   []*ellChunk // per bucket: all its rows as one chunk (nil when it has one chunk)
	pos     *Node       // [rows, 1] int32; nil: the bucket order is the row order
	// padded: the operand already ends with a zero row (padding slots point
	// to it) and the result gets one too (see SpMat.SortedPadded).
	padded bool
	empty  int // rows without entries (first in pos order, after the hub rows)
	// Hub form (see hubs.go): hubIdx [k, 1] and hubDense [out, k] add
	// hubDense·x[hubIdx] to the product; hubDenseT [k, rows of the padded
	// operand] gives the first k rows of the bucket order.
	hubIdx, hubDense, hubDenseT *Node
}

// ellFromNodes returns the ELL layout under prefix, nil when none was
// added (Set leaves them out on backends that do not read them).
func ellFromNodes(n GraphInputs, prefix string) *ellNodes {
	nb := n.MetaOr(prefix+"/buckets", -1)
	if nb < 0 {
		return nil
	}
	e := &ellNodes{pos: n.Maybe(prefix + "/pos"), empty: n.Meta(prefix + "/empty"), padded: n.MetaOr(prefix+"/padded", 0) == 1,
		hubIdx: n.Maybe(prefix + "/hubidx"), hubDense: n.Maybe(prefix + "/hubdense"), hubDenseT: n.Maybe(prefix + "/hubdenset")}
	for b := range nb {
		var chunks []ellChunk
		for c := range n.Meta(fmt.Sprintf("%s/%03d/chunks", prefix, b)) {
			cp := fmt.Sprintf("%s/%03d/%03d", prefix, b, c)
			chunks = append(chunks, ellChunk{idx: n.Get(cp + "/idx"), entry: n.Get(cp + "/entry"), val: n.Maybe(cp + "/val")})
		}
		e.buckets = append(e.buckets, chunks)
		var whole *ellChunk
		if len(chunks) > 1 {
			cp := fmt.Sprintf("%s/%03d/all", prefix, b)
			whole = &ellChunk{idx: n.Get(cp + "/idx"), entry: n.Get(cp + "/entry"), val: n.Maybe(cp + "/val")}
		}
		e.whole = append(e.whole, whole)
	}
	return e
}

// SpMat is a SparseMatrix inside a graph (see FromNodes).
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
	// hubRow, hubCol: the hub form of byRow and byCol (nil without hubs).
	hubRow, hubCol *ellNodes
	dense, coo     *Node
	// denseT is Bᵀ (B itself when symmetric) for the gradient of the dense
	// form with the stored values.
	denseT *Node
	// wideRow, wideCol: the ELL layouts of a matrix kept dense (wide).
	wideRow, wideCol *ellNodes
	// noGrad skips the custom-gradient scaffolding (evaluation passes).
	noGrad bool
	// stored is the Vals node read from the inputs (nil if none).
	stored *Node
	// sorted: the SetSorted layouts (nil if none); sortedView: m is
	// the SortedPadded view.
	sorted     *sortedNodes
	sortedView bool
}

func (m *SpMat) storedVals() *Node { return m.stored }

// mustHaveELL panics (graph building) when an ELL product is built for a
// matrix added without its ELL layouts.
func (m *SpMat) mustHaveELL(op string) {
	if m.byRow == nil || m.byCol == nil {
		panicf("nn: sparse %d x %d matrix: %s needs its ELL layouts, which Set leaves out on backends whose products do not read them (%s): add the matrix with sparse.SetWeighted",
			m.NumRows, m.NumCols, op, m.Rows.Graph().Backend().String())
	}
}

// NoGrad returns a copy of m whose products carry no gradient (for
// evaluation passes, where the gradient machinery would only cost time).
func (m *SpMat) NoGrad() *SpMat {
	c := *m
	c.noGrad = true
	return &c
}

// ForPass returns m, or m.NoGrad() for an evaluation pass (train false).
func (m *SpMat) ForPass(train bool) *SpMat {
	if train {
		return m
	}
	return m.NoGrad()
}

// FromNodes returns the sparse matrix added with Set.
func FromNodes(n GraphInputs, name string) *SpMat {
	m := &SpMat{
		NumRows: n.Meta(name + "/numrows"), NumCols: n.Meta(name + "/numcols"),
		Rows: n.Get(name + "/rows"), Cols: n.Get(name + "/cols"),
		Vals: n.Maybe(name + "/vals"), RowScale: n.Maybe(name + "/rowscale"), ColScale: n.Maybe(name + "/colscale"),
	}
	if d := n.Maybe(name + "/dense"); d != nil {
		m.dense, m.coo = d, n.Get(name+"/coo")
		if n.MetaOr(name+"/dense/symmetric", 0) == 1 {
			m.denseT = d
		} else {
			m.denseT = n.Maybe(name + "/denset")
		}
		m.wideRow, m.wideCol = ellFromNodes(n, name+"/ell/r"), ellFromNodes(n, name+"/ell/c")
	} else {
		m.byRow, m.byCol = ellFromNodes(n, name+"/ell/r"), ellFromNodes(n, name+"/ell/c")
		if n.MetaOr(name+"/hub/present", 0) == 1 {
			m.hubRow, m.hubCol = ellFromNodes(n, name+"/hub/ell/r"), ellFromNodes(n, name+"/hub/ell/c")
		}
	}
	m.NNZ = m.Rows.Shape().Dimensions[0]
	m.stored = m.Vals
	m.sorted = sortedLayout(n, name)
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
	if f := m.form(); f != FormELL {
		return m.mulForm(x, f)
	}
	if m.dense != nil && !m.denseFor(x.Shape().Dimensions[1]) {
		return m.wide().Mul(x)
	}
	dt := x.DType()
	// vals: nil (ones or the stored values, pre-arranged per chunk) or the
	// overriding values, gathered per slot.
	var vals *Node
	if m.Vals != nil && m.Vals != m.storedVals() {
		vals = ConvertDType(m.Vals, dt)
	}
	if m.dense != nil {
		rs, cs := m.scales(dt)
		b := m.dense
		if vals == nil && m.denseT != nil && !m.noGrad && denseGradientTranspose {
			return denseMulWithTranspose(x, ConvertDType(b, dt), ConvertDType(m.denseT, dt), rs, cs)
		}
		if vals != nil {
			// The overriding values keep their gradient here (the other
			// forms stop it: denseB, entryVals).
			b = Scatter(m.coo, vals, shapes.Make(dt, m.NumRows, m.NumCols), false, false)
		}
		return m.denseProduct(x, ConvertDType(b, dt), rs, cs)
	}
	m.mustHaveELL("Mul")
	// The hub form when the entries keep their stored values.
	byRow, byCol := m.byRow, m.byCol
	if vals == nil && m.hubRow != nil {
		byRow, byCol = m.hubRow, m.hubCol
	}
	var vp *Node
	if vals != nil {
		vp = padEntryVals(ExpandAxes(vals, -1))
	}
	return m.ellProduct(x, byRow, byCol, vp, 1)
}

// ellProduct is rs ⊙ (A_r·(cs ⊙ x_r)) in the ELL form for R runs (x
// [NumCols, R·H], run r in columns r·H...; vp nil: the stored values,
// pre-arranged per chunk, or ones; else the runs' entry values
// [NNZ+1, R], padEntryVals) on the layouts byRow and, for the gradient
// cs ⊙ (A_rᵀ·(rs ⊙ v_r)), byCol. The scales are applied inside the
// product and its gradient, where the Go backend broadcasts [n, 1]
// operands without materialising them (the autodiff of a broadcasting Mul
// materialises them). fwd carries no gradient: it stops it on its first
// intermediate result (an identity on x itself would copy x whenever x
// has other uses, e.g. a weight matrix).
func (m *SpMat) ellProduct(x *Node, byRow, byCol *ellNodes, vp *Node, runs int) *Node {
	dt := x.DType()
	rs, cs := m.scales(dt)
	fwd := func(x *Node) *Node {
		if cs != nil {
			x = StopGradient(Mul(x, cs))
		}
		y := ellMul(x, byRow, vp, runs, cs == nil, nil)
		if rs != nil {
			y = Mul(y, rs)
		}
		return y
	}
	if m.noGrad {
		return fwd(x)
	}
	bwd := func(v *Node) *Node {
		if rs != nil {
			v = Mul(v, rs)
		}
		g := ellMul(v, byCol, vp, runs, false, nil)
		if cs != nil {
			g = Mul(g, cs)
		}
		return g
	}
	return linearWithCustomGradient(x, fwd, bwd)
}

// scales returns the row and column scales in dt (nil: none).
func (m *SpMat) scales(dt dtypes.DType) (rs, cs *Node) {
	if m.RowScale != nil {
		rs = ConvertDType(m.RowScale, dt)
	}
	if m.ColScale != nil {
		cs = ConvertDType(m.ColScale, dt)
	}
	return rs, cs
}

// padEntryVals appends the zero row that ELL padding slots read to entry
// values [NNZ, R]: [NNZ+1, R].
func padEntryVals(vals *Node) *Node {
	return Concatenate([]*Node{vals, Zeros(vals.Graph(), shapes.Make(vals.DType(), 1, vals.Shape().Dimensions[1]))}, 0)
}

// denseGradientTranspose selects denseMulWithTranspose for the dense form
// (BenchmarkDenseMul compares it with GoMLX's gradient of Dot).
var denseGradientTranspose = true

// denseMulWithTranspose is rs ⊙ (B·(cs ⊙ x)) (nil scales: none) with the
// gradient cs ⊙ (Bᵀ·(rs ⊙ v)) from the given bT: GoMLX's own gradient of
// Dot(B, x) contracts v's and B's row axes, a layout the Go backend only
// multiplies after transposing B, v and the result (Texas: a 183 x 183
// transpose twice per LW-GCN epoch, and two [183, 128] ones per product).
//
// fwd stops no gradient: autodiff hands the output's gradient to bwd and
// never differentiates fwd's nodes (they have no other consumer). A stopped
// input would instead make autodiff skip the output, and bwd with it.
func denseMulWithTranspose(x, b, bT, rs, cs *Node) *Node {
	fwd := func(x *Node) *Node {
		if cs != nil {
			x = Mul(x, cs)
		}
		y := Dot(b, x).Product()
		if rs != nil {
			y = Mul(y, rs)
		}
		return y
	}
	bwd := func(v *Node) *Node {
		if rs != nil {
			v = Mul(v, rs)
		}
		g := Dot(bT, v).Product()
		if cs != nil {
			g = Mul(g, cs)
		}
		return g
	}
	return linearWithCustomGradient(x, fwd, bwd)
}

// linearWithCustomGradient returns fwd(x) for a linear map fwd, with bwd
// (its transpose: v [rows of fwd(x), H] -> [rows of x, H]) as the
// vector-Jacobian product. The gradient goes through GoMLX's alternate-VJP mechanism for fused ops
// (InternalFusedOpCallerMulti, GoMLX v0.28): the output's arriving
// gradient is handed to an alternate node, z = IdentityWithCustomGradient(x)
// with bwd as its gradient, which the forward computation never evaluates
// (the backend drops it as dead code). So the forward costs exactly fwd —
// no identity copies or zero terms — and the backward exactly bwd. Autodiff
// never differentiates fwd's own nodes (the ELL forms stop gradients in
// them all the same), but it skips an output none of whose inputs needs a
// gradient, and bwd with it: fwd's last node must have an input that is not
// a StopGradient (and not only constants).
func linearWithCustomGradient(x *Node, fwd, bwd func(*Node) *Node) *Node {
	outs, _ := InternalFusedOpCallerMulti(
		func() []*Node { return []*Node{fwd(x)} },
		func() []*Node {
			return []*Node{IdentityWithCustomGradient(x, func(_, v *Node) *Node { return bwd(v) })}
		},
		true)
	return outs[0]
}

// ellMul computes A_r·x_r for R runs with A in ELL layout e (x [cols,
// R·H], run r in columns r·H...): per bucket (in chunks of at most
// ChunkBytes, or of a run alone's chunk when that is larger), gather the
// slots' rows of x (plus a zero row for padding) into [K, rows, R·H],
// scale them by the entries' values when there are any, and sum over the
// leading axis K (a SIMD reduction in the Go backend; the middle axis of
// [rows, K, H] is not); then put the rows back in order. vp is nil (the
// stored values, pre-arranged per chunk, when the matrix has any, else
// ones) or the runs' entry values [NNZ+1, R] (padEntryVals), gathered per
// slot. stop stops gradients on the operand (at no cost when the operand
// gets its zero row appended). A non-nil rec records the gathered blocks
// (for ellRecord.entryGradient).
func ellMul(x *Node, e *ellNodes, vp *Node, runs int, stop bool, rec *ellRecord) *Node {
	xp := x
	if !e.padded {
		xp = Concatenate([]*Node{x, Zeros(x.Graph(), shapes.Make(x.DType(), 1, x.Shape().Dimensions[1]))}, 0)
	}
	if stop {
		xp = StopGradient(xp) // free on the concatenation's own result
	}
	g := xp.Graph()
	dt := xp.DType()
	w := xp.Shape().Dimensions[1]
	h := w / runs
	if rec != nil && (e.hubIdx != nil || e.hubDenseT != nil) {
		panicf("nn: entry gradients need the full ELL layout, not the hub form")
	}
	var parts []*Node
	if e.hubDenseT != nil {
		parts = append(parts, Dot(ConvertDType(e.hubDenseT, dt), xp).Product()) // the hub rows
	}
	if e.empty > 0 {
		parts = append(parts, Zeros(g, shapes.Make(dt, e.empty, w)))
	}
	rec.start(e)
	for b, chunks := range e.buckets {
		k := chunks[0].idx.Shape().Dimensions[0]
		// The whole bucket as one chunk when its block fits ChunkBytes, else
		// the host's chunks (ELLChunkSlots slots each).
		if wh := e.whole[b]; wh != nil && dt.Size()*k*wh.idx.Shape().Dimensions[1]*w <= ChunkBytes {
			chunks = []ellChunk{*wh}
		}
		for _, ch := range chunks {
			rows := ch.idx.Shape().Dimensions[1]
			// With several runs a chunk's block is R times wider than a run
			// alone's: split its rows so that each block stays within
			// ChunkBytes (in cache), or within a run alone's block.
			step := max(1, min(rows, max(ChunkBytes, dt.Size()*k*rows*h)/max(1, dt.Size()*k*w)))
			for a := 0; a < rows; a += step {
				idx, ent, cv := ch.idx, ch.entry, ch.val
				if step < rows {
					cut := func(n *Node) *Node { return Slice(n, AxisRange(), AxisRange(a, min(a+step, rows))) }
					idx, ent = cut(idx), cut(ent)
					if cv != nil {
						cv = cut(cv)
					}
				}
				r := idx.Shape().Dimensions[1]
				blk := Gather(xp, idx, false) // [K, r, R·H]
				rec.add(blk, ent, r)
				switch {
				case vp != nil && runs == 1:
					blk = Mul(blk, Gather(vp, ent, false)) // [K, r, 1]
				case vp != nil:
					v := Reshape(Gather(vp, ent, false), k, r, runs, 1) // [K, r, R, 1]
					blk = Mul(Reshape(blk, k, r, runs, h), v)
				case cv != nil:
					blk = Mul(blk, ConvertDType(cv, dt))
				}
				if k == 1 {
					parts = append(parts, Reshape(blk, r, w))
				} else {
					parts = append(parts, Reshape(ReduceSum(Reshape(blk, k, r*w), 0), r, w))
				}
			}
		}
	}
	if e.padded {
		parts = append(parts, Zeros(g, shapes.Make(dt, 1, w)))
	}
	cat := parts[0]
	if len(parts) > 1 {
		cat = Concatenate(parts, 0)
	}
	out := cat
	if e.pos != nil {
		out = Gather(cat, e.pos, false)
	}
	if e.hubIdx != nil {
		out = Add(out, Dot(ConvertDType(e.hubDense, dt), Gather(xp, e.hubIdx, false)).Product())
	}
	return out
}
