package nn

import (
	"fmt"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// SparseDensityThreshold: feature matrices with a smaller fraction of
// non-zeros are multiplied as sparse matrices (see sparse.SpMat), denser ones
// with a dense Dot.
var SparseDensityThreshold = 0.2

// SetFeatures adds a node-feature matrix under name: as a sparse matrix
// (name/rows, name/cols, ...) when its density is below
// SparseDensityThreshold, else as a dense [N, F] tensor.
func (in *Inputs) SetFeatures(name string, f *graph.Features) error {
	if f == nil {
		return fmt.Errorf("nn: features %q are nil", name)
	}
	n, d := f.NumRows(), f.NumCols()
	if f.Density() < SparseDensityThreshold {
		rows, cols, vals := f.COO()
		m, err := sparse.NewSparseMatrix(n, d, rows, cols, vals)
		if err != nil {
			return fmt.Errorf("nn: features %q: %w", name, err)
		}
		sparse.Set(in, name, m)
		return nil
	}
	data := f.Data()
	if data == nil {
		data = f.ToDense().Data()
	}
	in.SetFloat(name, data, n, d)
	return nil
}

// Features is a node-feature matrix inside a graph: either Dense [N, F] or
// Sparse (an N x F sparse.SpMat).
type Features struct {
	Dense  *Node
	Sparse *sparse.SpMat
	dtype  dtypes.DType
}

// Features returns the feature matrix added with Inputs.SetFeatures.
func (n *Nodes) Features(name string) Features {
	if n.Maybe(name+"/rows") != nil {
		return Features{Sparse: sparse.FromNodes(n, name), dtype: n.DType}
	}
	return Features{Dense: n.Get(name)}
}

// ForPass returns the features for a training (train = true) or an
// evaluation pass: in evaluation passes sparse products skip their gradient
// machinery (see sparse.SpMat.NoGrad).
func (f Features) ForPass(train bool) Features {
	if train || f.Sparse == nil {
		return f
	}
	f.Sparse = f.Sparse.NoGrad()
	return f
}

// DenseFeatures wraps a dense node matrix.
func DenseFeatures(x *Node) Features { return Features{Dense: x} }

// SparseFeatures wraps a sparse node matrix whose products are in dtype.
func SparseFeatures(m *sparse.SpMat, dtype dtypes.DType) Features {
	return Features{Sparse: m, dtype: dtype}
}

// NumRows returns N.
func (f Features) NumRows() int {
	if f.Sparse != nil {
		return f.Sparse.NumRows
	}
	return f.Dense.Shape().Dimensions[0]
}

// NumCols returns F.
func (f Features) NumCols() int {
	if f.Sparse != nil {
		return f.Sparse.NumCols
	}
	return f.Dense.Shape().Dimensions[1]
}

// DType returns the float dtype of the features.
func (f Features) DType() dtypes.DType {
	if f.Dense != nil {
		return f.Dense.DType()
	}
	if f.dtype != dtypes.InvalidDType {
		return f.dtype
	}
	return dtypes.Float32
}

// Graph returns the graph of the features.
func (f Features) Graph() *Graph {
	if f.Dense != nil {
		return f.Dense.Graph()
	}
	return f.Sparse.Rows.Graph()
}

// MatMul returns X·W for W [F, H]: a sparse product for sparse features
// (gathering W's rows at the non-zeros), Project for dense ones.
func (f Features) MatMul(w *Node) *Node {
	if f.Sparse != nil {
		return f.Sparse.Mul(w)
	}
	return Project(f.Dense, w)
}
