package graph

import (
	"fmt"
	"math"
)

// Features is an immutable NumRows x NumCols float32 matrix stored either
// dense (row-major) or sparse (compressed sparse rows). Real bag-of-words
// features are 0.5-6 % dense, so loaders keep them sparse and models project
// them through their non-zeros only.
type Features struct {
	rows, cols int

	// Dense storage, row-major; nil when sparse.
	dense []float32

	// CSR storage; nil when dense. Column indices are sorted within a row.
	rowPtr []int32
	colIdx []int32
	vals   []float32

	// unnormalized is the matrix RowNormalized divided (nil unless these
	// features come from RowNormalized): see Unnormalized.
	unnormalized *Features
}

// NewDenseFeatures wraps row-major data (len rows*cols) without copying it.
func NewDenseFeatures(rows, cols int, data []float32) (*Features, error) {
	if rows < 0 || cols < 0 {
		return nil, fmt.Errorf("features: negative shape %dx%d", rows, cols)
	}
	if len(data) != rows*cols {
		return nil, fmt.Errorf("features: dense data has %d values, want rows*cols = %d*%d = %d",
			len(data), rows, cols, rows*cols)
	}
	for i, v := range data {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return nil, fmt.Errorf("features: non-finite value %v at row %d, column %d", v, i/cols, i%cols)
		}
	}
	return &Features{rows: rows, cols: cols, dense: data}, nil
}

// NewSparseFeatures builds CSR features from row pointers (len rows+1),
// column indices and values (len rowPtr[rows]). The slices are copied only when
// a row's columns need sorting; explicit zeros are kept as stored. Duplicate
// columns within a row are an error.
func NewSparseFeatures(rows, cols int, rowPtr, colIdx []int32, vals []float32) (*Features, error) {
	if rows < 0 || cols < 0 {
		return nil, fmt.Errorf("features: negative shape %dx%d", rows, cols)
	}
	if len(rowPtr) != rows+1 {
		return nil, fmt.Errorf("features: row pointer has length %d, want rows+1 = %d", len(rowPtr), rows+1)
	}
	if rowPtr[0] != 0 {
		return nil, fmt.Errorf("features: row pointer must start at 0, got %d", rowPtr[0])
	}
	nnz := int(rowPtr[rows])
	if len(colIdx) != nnz || len(vals) != nnz {
		return nil, fmt.Errorf("features: %d column indices and %d values, want %d (rowPtr[rows])",
			len(colIdx), len(vals), nnz)
	}
	copied := false
	for r := 0; r < rows; r++ {
		lo, hi := rowPtr[r], rowPtr[r+1]
		if hi < lo {
			return nil, fmt.Errorf("features: row pointer decreases at row %d (%d > %d)", r, lo, hi)
		}
		sorted := true
		for k := lo; k < hi; k++ {
			c := colIdx[k]
			if c < 0 || int(c) >= cols {
				return nil, fmt.Errorf("features: row %d has column %d out of range [0,%d)", r, c, cols)
			}
			v := vals[k]
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return nil, fmt.Errorf("features: non-finite value %v at row %d, column %d", v, r, c)
			}
			if k > lo && colIdx[k-1] >= c {
				sorted = false
			}
		}
		if !sorted {
			if !copied {
				colIdx = append([]int32(nil), colIdx...)
				vals = append([]float32(nil), vals...)
				copied = true
			}
			sortRow(colIdx[lo:hi], vals[lo:hi])
			for k := lo + 1; k < hi; k++ {
				if colIdx[k-1] == colIdx[k] {
					return nil, fmt.Errorf("features: row %d has column %d twice", r, colIdx[k])
				}
			}
		}
	}
	return &Features{rows: rows, cols: cols, rowPtr: rowPtr, colIdx: colIdx, vals: vals}, nil
}

// sortRow sorts one CSR row by column (insertion sort: rows are short).
func sortRow(cols []int32, vals []float32) {
	for i := 1; i < len(cols); i++ {
		c, v := cols[i], vals[i]
		j := i - 1
		for ; j >= 0 && cols[j] > c; j-- {
			cols[j+1], vals[j+1] = cols[j], vals[j]
		}
		cols[j+1], vals[j+1] = c, v
	}
}

// NumRows returns the number of rows (nodes).
func (f *Features) NumRows() int { return f.rows }

// NumCols returns the number of columns (feature dimensions).
func (f *Features) NumCols() int { return f.cols }

// IsSparse reports whether the features are stored as CSR.
func (f *Features) IsSparse() bool { return f.dense == nil && f.rowPtr != nil }

// NNZ returns the number of stored non-zero values (for dense storage, the
// number of values different from zero).
func (f *Features) NNZ() int {
	if f.IsSparse() {
		n := 0
		for _, v := range f.vals {
			if v != 0 {
				n++
			}
		}
		return n
	}
	n := 0
	for _, v := range f.dense {
		if v != 0 {
			n++
		}
	}
	return n
}

// Density returns NNZ / (rows*cols), or 0 for an empty matrix.
func (f *Features) Density() float64 {
	if f.rows == 0 || f.cols == 0 {
		return 0
	}
	return float64(f.NNZ()) / (float64(f.rows) * float64(f.cols))
}

// At returns the value at (row, col).
func (f *Features) At(row, col int) float32 {
	if f.IsSparse() {
		cols, vals := f.SparseRow(row)
		lo, hi := 0, len(cols)
		for lo < hi {
			m := (lo + hi) / 2
			switch {
			case int(cols[m]) == col:
				return vals[m]
			case int(cols[m]) < col:
				lo = m + 1
			default:
				hi = m
			}
		}
		return 0
	}
	return f.dense[row*f.cols+col]
}

// Data returns the row-major dense storage (a view), or nil when sparse.
func (f *Features) Data() []float32 { return f.dense }

// CSR returns views of the sparse storage, or nils when dense.
func (f *Features) CSR() (rowPtr, colIdx []int32, vals []float32) {
	return f.rowPtr, f.colIdx, f.vals
}

// SparseRow returns views of one row's column indices and values. For dense
// storage it returns the row's non-zeros in new slices.
func (f *Features) SparseRow(row int) (cols []int32, vals []float32) {
	if f.IsSparse() {
		lo, hi := f.rowPtr[row], f.rowPtr[row+1]
		return f.colIdx[lo:hi], f.vals[lo:hi]
	}
	for c, v := range f.dense[row*f.cols : (row+1)*f.cols] {
		if v != 0 {
			cols = append(cols, int32(c))
			vals = append(vals, v)
		}
	}
	return cols, vals
}

// DenseRow returns one row as a dense slice: a view for dense storage, a new
// slice for sparse storage.
func (f *Features) DenseRow(row int) []float32 {
	if !f.IsSparse() {
		return f.dense[row*f.cols : (row+1)*f.cols]
	}
	out := make([]float32, f.cols)
	cols, vals := f.SparseRow(row)
	for k, c := range cols {
		out[c] = vals[k]
	}
	return out
}

// ToDense returns dense features (the receiver itself when already dense).
func (f *Features) ToDense() *Features {
	if !f.IsSparse() {
		return f
	}
	data := make([]float32, f.rows*f.cols)
	for r := 0; r < f.rows; r++ {
		cols, vals := f.SparseRow(r)
		for k, c := range cols {
			data[r*f.cols+int(c)] = vals[k]
		}
	}
	return &Features{rows: f.rows, cols: f.cols, dense: data}
}

// ToSparse returns CSR features holding the non-zeros (the receiver itself
// when already sparse).
func (f *Features) ToSparse() *Features {
	if f.IsSparse() {
		return f
	}
	rowPtr := make([]int32, f.rows+1)
	var colIdx []int32
	var vals []float32
	for r := 0; r < f.rows; r++ {
		for c, v := range f.dense[r*f.cols : (r+1)*f.cols] {
			if v != 0 {
				colIdx = append(colIdx, int32(c))
				vals = append(vals, v)
			}
		}
		rowPtr[r+1] = int32(len(colIdx))
	}
	if colIdx == nil {
		colIdx, vals = []int32{}, []float32{}
	}
	return &Features{rows: f.rows, cols: f.cols, rowPtr: rowPtr, colIdx: colIdx, vals: vals}
}

// COO returns the non-zeros as (row, col, value) triplets in row-major order,
// the layout a sparse projection gathers and scatters over.
func (f *Features) COO() (rows, cols []int32, vals []float32) {
	s := f.ToSparse()
	nnz := len(s.colIdx)
	rows = make([]int32, nnz)
	for r := 0; r < s.rows; r++ {
		for k := s.rowPtr[r]; k < s.rowPtr[r+1]; k++ {
			rows[k] = int32(r)
		}
	}
	return rows, s.colIdx, s.vals
}

// RowSums returns the sum of each row.
func (f *Features) RowSums() []float64 {
	sums := make([]float64, f.rows)
	for r := range sums {
		if f.IsSparse() {
			_, vals := f.SparseRow(r)
			for _, v := range vals {
				sums[r] += float64(v)
			}
		} else {
			for _, v := range f.dense[r*f.cols : (r+1)*f.cols] {
				sums[r] += float64(v)
			}
		}
	}
	return sums
}

// RowNormalized returns features whose rows sum to 1 (each row divided by its
// sum); rows summing to 0 are left as they are. This is the "sum to 1"
// normalisation of GCN and LW-GCN on Planetoid features. PyTorch Geometric's
// NormalizeFeatures divides by max(sum, 1) instead, which differs only for
// rows with 0 < sum < 1 (never for binary bags of words). The result
// remembers the features it came from (Unnormalized).
func (f *Features) RowNormalized() *Features {
	out := f.rowNormalized()
	out.unnormalized = f.Unnormalized()
	return out
}

// Unnormalized returns the features before any row normalisation: for
// features made by RowNormalized (once or more), the matrix the first
// RowNormalized was given; for any other features, f itself. Baselines whose
// official loaders read the raw Planetoid bags of words (SuperGAT, LINKX,
// ASGC) undo the standard preprocessing this way. Derivations other than
// RowNormalized (SelectRows, ToDense, ToSparse) start afresh: their
// Unnormalized is themselves.
func (f *Features) Unnormalized() *Features {
	if f.unnormalized != nil {
		return f.unnormalized
	}
	return f
}

// rowNormalized is RowNormalized without the link to f.
func (f *Features) rowNormalized() *Features {
	sums := f.RowSums()
	scale := func(r int) float32 {
		if sums[r] == 0 {
			return 1
		}
		return float32(1 / sums[r])
	}
	if f.IsSparse() {
		vals := make([]float32, len(f.vals))
		for r := 0; r < f.rows; r++ {
			s := scale(r)
			for k := f.rowPtr[r]; k < f.rowPtr[r+1]; k++ {
				vals[k] = f.vals[k] * s
			}
		}
		return &Features{rows: f.rows, cols: f.cols, rowPtr: f.rowPtr, colIdx: f.colIdx, vals: vals}
	}
	data := make([]float32, len(f.dense))
	for r := 0; r < f.rows; r++ {
		s := scale(r)
		for c := 0; c < f.cols; c++ {
			data[r*f.cols+c] = f.dense[r*f.cols+c] * s
		}
	}
	return &Features{rows: f.rows, cols: f.cols, dense: data}
}

// SelectRows returns the features of the given rows, in that order, keeping
// the storage kind.
func (f *Features) SelectRows(rows []int32) *Features {
	if f.IsSparse() {
		rowPtr := make([]int32, len(rows)+1)
		var colIdx []int32
		var vals []float32
		for i, r := range rows {
			c, v := f.SparseRow(int(r))
			colIdx = append(colIdx, c...)
			vals = append(vals, v...)
			rowPtr[i+1] = int32(len(colIdx))
		}
		if colIdx == nil {
			colIdx, vals = []int32{}, []float32{}
		}
		return &Features{rows: len(rows), cols: f.cols, rowPtr: rowPtr, colIdx: colIdx, vals: vals}
	}
	data := make([]float32, len(rows)*f.cols)
	for i, r := range rows {
		copy(data[i*f.cols:(i+1)*f.cols], f.dense[int(r)*f.cols:(int(r)+1)*f.cols])
	}
	return &Features{rows: len(rows), cols: f.cols, dense: data}
}

// Equal reports whether two feature matrices hold the same values, whatever
// their storage.
func (f *Features) Equal(o *Features) bool {
	if f.rows != o.rows || f.cols != o.cols {
		return false
	}
	for r := 0; r < f.rows; r++ {
		a, b := f.DenseRow(r), o.DenseRow(r)
		for c := range a {
			if a[c] != b[c] {
				return false
			}
		}
	}
	return true
}

// String describes the shape and storage, e.g. "183x1703 sparse (nnz 6160, 1.98%)".
func (f *Features) String() string {
	kind := "dense"
	if f.IsSparse() {
		kind = "sparse"
	}
	return fmt.Sprintf("%dx%d %s (nnz %d, %.2f%%)", f.rows, f.cols, kind, f.NNZ(), 100*f.Density())
}
