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
//
// With R runs (see Runs) a matrix is either shared by the runs (the node
// features of Nodes.Features, any sparse matrix), which layers multiply
// once for all runs, or the runs' node matrices side by side, [N, R·F]
// (DenseFeatures). Dropout on a shared matrix gives each run its own
// values (DropoutFeatures), kept here until the matrix is multiplied.
type Features struct {
	Dense  *Node
	Sparse *sparse.SpMat
	dtype  dtypes.DType
	// Shared says every run reads this matrix.
	Shared bool
	// runVals [NNZ, R] are each run's entry values of a shared sparse
	// matrix, runMasks [R, N, F] each run's dropout mask of a shared dense
	// one (nil: none).
	runVals, runMasks *Node
}

// Features returns the feature matrix added with Inputs.SetFeatures,
// shared by the runs.
func (n *Nodes) Features(name string) Features {
	if n.Maybe(name+"/rows") != nil {
		return Features{Sparse: sparse.FromNodes(n, name), dtype: n.DType, Shared: true}
	}
	return Features{Dense: n.Get(name), Shared: true}
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

// DenseFeatures wraps the runs' node matrices, [N, R·F].
func DenseFeatures(x *Node) Features { return Features{Dense: x} }

// SparseFeatures wraps a sparse node matrix (shared by the runs) whose
// products are in dtype.
func SparseFeatures(m *sparse.SpMat, dtype dtypes.DType) Features {
	return Features{Sparse: m, dtype: dtype, Shared: true}
}

// shared reports whether every run reads the matrix (a sparse one always).
func (f Features) shared() bool { return f.Shared || f.Sparse != nil }

// colsPerRun is F, a run's number of columns, for the runs built in scope.
func (f Features) colsPerRun(runs int) int {
	if f.shared() {
		return f.NumCols()
	}
	return f.NumCols() / runs
}

// mulShared is each run's X_r·W_r for a shared matrix X (with the runs'
// dropout, if any) and w [F, R·out] (FusedCols): one product for all runs.
func (f Features) mulShared(w *Node, runs int) *Node {
	switch {
	case f.Sparse != nil:
		if runs == 1 {
			return f.Sparse.Mul(w)
		}
		return f.Sparse.MulRuns(w, runs, f.runVals)
	case f.runMasks != nil:
		n, fc := f.NumRows(), f.NumCols()
		out := w.Shape().Dimensions[1] / runs
		xr := Mul(ExpandAxes(f.Dense, 0), f.runMasks)                                          // [R, N, F]
		y := DotGeneral(xr, []int{2}, []int{0}, Reshape(w, fc, runs, out), []int{0}, []int{1}) // [R, N, out]
		return Reshape(TransposeAllDims(y, 1, 0, 2), n, runs*out)
	}
	return Project(f.Dense, w)
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
