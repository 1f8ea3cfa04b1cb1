package sparse

import (
	. "github.com/gomlx/gomlx/core/graph"
)

// AutoSparseDensity: structure matrices with a larger fraction of non-zeros
// (nnz / (rows·cols)) are kept dense by SetAuto and multiplied with
// one Dot. On the Go backend (2-core machine of docs/RESULTS.md) a dense
// 2277 x 2277 by 2277 x 64 product took 23 ms and a bucketed-ELL product
// with 1.2M entries (23% density: H2GCN's exact 2-hop matrix of Chameleon)
// took 85 ms, so dense wins above about 6%.
var AutoSparseDensity = 0.06

// AutoSparseMaxElements caps the dense form (256M elements, 1 GiB in
// float32); larger matrices stay sparse whatever their density. H2GCN's
// two-hop matrix of tolokers (11,758 nodes, 138M elements, 33% density)
// takes it: its epoch ran in 2.3-2.4 s against 4.7-5.4 s over the 45M-entry ELL
// layout, in 2.5 GB against 5.4 GB at its peak (one thread, Intel family
// 6 model 207; the cap was 2^26).
var AutoSparseMaxElements = 1 << 28

// Propagator is a linear operator on node matrices: Mul returns A·x for x
// [NumCols, H]. SpMat and AutoSpMat implement it.
type Propagator interface {
	Mul(x *Node) *Node
}

// SetAuto adds the matrix m under name, dense (name/full, [rows, cols],
// scales applied) when its density exceeds AutoSparseDensity and it has at
// most AutoSparseMaxElements elements, otherwise as Set does. A dense matrix
// equal to its transpose (float32 values) is marked so (name/symmetric):
// its product's gradient Aᵀ·v is then A·v, without transposing A.
func SetAuto(in HostInputs, name string, m *SparseMatrix) {
	elems := m.NumRows * m.NumCols
	if elems > 0 && elems <= AutoSparseMaxElements && float64(m.NNZ()) > AutoSparseDensity*float64(elems) {
		f := denseFloat32(m)
		in.SetMeta(name+"/numrows", m.NumRows)
		in.SetMeta(name+"/numcols", m.NumCols)
		if symmetric(f, m.NumRows, m.NumCols) {
			in.SetMeta(name+"/symmetric", 1)
		}
		in.SetFloat(name+"/full", f, m.NumRows, m.NumCols)
		return
	}
	Set(in, name, m)
}

// symmetric reports whether the rows x cols row-major matrix a is square
// and equal to its transpose.
func symmetric(a []float32, rows, cols int) bool {
	if rows != cols {
		return false
	}
	for i := range rows {
		for j := i + 1; j < cols; j++ {
			if a[i*cols+j] != a[j*cols+i] {
				return false
			}
		}
	}
	return true
}

// AutoSpMat is a matrix added with SetAuto, inside a graph: exactly
// one of Dense ([rows, cols]) and Sparse is set; Symmetric says that Dense
// equals its transpose.
type AutoSpMat struct {
	Dense     *Node
	Symmetric bool
	Sparse    *SpMat
}

// AutoFromNodes returns the matrix added with SetAuto; train false gives
// the evaluation-pass form (sparse products without gradient machinery).
func AutoFromNodes(n GraphInputs, name string, train bool) AutoSpMat {
	if d := n.Maybe(name + "/full"); d != nil {
		return AutoSpMat{Dense: d, Symmetric: n.MetaOr(name+"/symmetric", 0) == 1}
	}
	return AutoSpMat{Sparse: FromNodes(n, name).ForPass(train)}
}

// Mul returns A·x for x [cols, H]. For a symmetric dense A the gradient
// (Aᵀ·v) is the product A·v: the Go backend would otherwise transpose the
// whole N x N matrix at every backward pass.
func (a AutoSpMat) Mul(x *Node) *Node {
	if a.Dense != nil {
		d := ConvertDType(a.Dense, x.DType())
		if a.Symmetric {
			return linearWithCustomGradient(x, func(x *Node) *Node { return Dot(d, x).Product() },
				func(v *Node) *Node { return Dot(d, v).Product() })
		}
		return Dot(d, x).Product()
	}
	return a.Sparse.Mul(x)
}

// denseFloat32 is float32(m.Dense()) without Dense's float64 copy (twice
// the size: 1.1 GB for tolokers' two-hop matrix): a cell holding one
// entry gets float32 of the same float64 product; cells with duplicate
// entries (adjacent, since entries are sorted) are summed in float64 as
// Dense does, then rounded.
func denseFloat32(m *SparseMatrix) []float32 {
	f := make([]float32, m.NumRows*m.NumCols)
	for i := 0; i < len(m.Rows); {
		r, c := m.Rows[i], m.Cols[i]
		sum := m.entryValue(i)
		for i++; i < len(m.Rows) && m.Rows[i] == r && m.Cols[i] == c; i++ {
			sum += m.entryValue(i)
		}
		f[int(r)*m.NumCols+int(c)] = float32(sum)
	}
	return f
}
