package labelwise

import (
	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// setClassShiftedRuns adds every run's class-shifted features as one
// sparse matrix S [N·R, F·C·R] (batchedLWXCls): entry (u, j) of x, for run
// r with labels[r], at row u·R + r and column (j·C + labels[r][u])·R + r.
// Then S·reshape(W_cls, F·C·R, out), with W_cls fused as [F, C, R·out],
// gives every run's rows h[u]·W_class_r(u) at row u·R + r: NNZ·R rows of
// out gathered (the work of R runs alone; the all-classes product gathers
// C times more), and its gradient for W_cls gathers over Sᵀ's ELL layout
// (no scatter-add). The columns' layout depends on the labels, so a batch
// with other pseudo-labels may compile its own graph.
func setClassShiftedRuns(in *nn.Inputs, x *graph.Features, labels [][]int32, c int) error {
	n, r := x.NumRows(), len(labels)
	rows, cols, vals := x.COO()
	nnz := len(rows)
	sr, sc, sv := make([]int32, nnz*r), make([]int32, nnz*r), make([]float32, nnz*r)
	for i := range rows {
		for k, cls := range labels {
			e := i*r + k
			sr[e] = rows[i]*int32(r) + int32(k)
			sc[e] = (cols[i]*int32(c)+cls[rows[i]])*int32(r) + int32(k)
			sv[e] = vals[i]
		}
	}
	s, err := sparse.NewSparseMatrix(n*r, x.NumCols()*c*r, sr, sc, sv)
	if err != nil {
		return err
	}
	sparse.Set(in, batchedLWXCls, s)
	return nil
}
