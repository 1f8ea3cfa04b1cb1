package datasets

import (
	"fmt"

	"github.com/lwgcn/toolkit/lwgcn/datasets/npy"
	"github.com/lwgcn/toolkit/lwgcn/graph"
)

// LoadGNNBenchmarkNPZ loads a gnn-benchmark (Shchur et al. 2018) .npz: the
// adjacency and attribute matrices as CSR parts (adj_data, adj_indices,
// adj_indptr, adj_shape; attr_*) and labels, in raw LINQS node order. Edges
// are the stored non-zeros of the adjacency, row -> column, one per directed
// citation (Cora 5,429, the count in the paper's Table 4), not symmetrised.
// Features stay sparse.
func LoadGNNBenchmarkNPZ(name, path string) (*graph.Graph, error) {
	z, err := npy.OpenNPZ(path)
	if err != nil {
		return nil, err
	}
	defer z.Close()
	rowsA, colsA, ptr, idx, _, err := csrParts(z, "adj")
	if err != nil {
		return nil, err
	}
	if rowsA != colsA {
		return nil, fmt.Errorf("%s: adjacency is %dx%d, want square", path, rowsA, colsA)
	}
	n := rowsA
	src, dst := make([]int32, 0, len(idx)), make([]int32, 0, len(idx))
	for r := 0; r < n; r++ {
		for _, c := range idx[ptr[r]:ptr[r+1]] {
			src, dst = append(src, int32(r)), append(dst, c)
		}
	}
	rowsX, colsX, xptr, xidx, xval, err := csrParts(z, "attr")
	if err != nil {
		return nil, err
	}
	if rowsX != n {
		return nil, fmt.Errorf("%s: %d attribute rows for %d nodes", path, rowsX, n)
	}
	feats, err := graph.NewSparseFeatures(rowsX, colsX, xptr, xidx, xval)
	if err != nil {
		return nil, fmt.Errorf("%s: attr: %w", path, err)
	}
	la, err := numericKey(z, "labels", 1, "i")
	if err != nil {
		return nil, err
	}
	if la.Shape[0] != n {
		return nil, fmt.Errorf("%s: key \"labels\" has length %d, want %d", path, la.Shape[0], n)
	}
	labels, err := labelsFromArray(path, "labels", la, 0)
	if err != nil {
		return nil, err
	}
	return graph.New(graph.Spec{Name: name, NumNodes: n, Src: src, Dst: dst, Features: feats, Labels: labels})
}

// csrParts reads <prefix>_data/_indices/_indptr/_shape and validates them.
func csrParts(z *npy.NPZ, prefix string) (rows, cols int, ptr, idx []int32, vals []float32, err error) {
	fail := func(format string, args ...any) (int, int, []int32, []int32, []float32, error) {
		return 0, 0, nil, nil, nil, fmt.Errorf("%s: %s", z.Name(), fmt.Sprintf(format, args...))
	}
	sa, err := numericKey(z, prefix+"_shape", 1, "i")
	if err != nil {
		return 0, 0, nil, nil, nil, err
	}
	shape, err := sa.Int64s()
	if err != nil || len(shape) != 2 || shape[0] < 0 || shape[1] < 0 || shape[0] > 1<<31-1 || shape[1] > 1<<31-1 {
		return fail("key %q: want two non-negative int32 values", prefix+"_shape")
	}
	rows, cols = int(shape[0]), int(shape[1])
	pa, err := numericKey(z, prefix+"_indptr", 1, "i")
	if err != nil {
		return 0, 0, nil, nil, nil, err
	}
	ia, err := numericKey(z, prefix+"_indices", 1, "i")
	if err != nil {
		return 0, 0, nil, nil, nil, err
	}
	da, err := numericKey(z, prefix+"_data", 1, "fib")
	if err != nil {
		return 0, 0, nil, nil, nil, err
	}
	p64, _ := pa.Int64s()
	i64, _ := ia.Int64s()
	if vals, err = da.Float32s(); err != nil {
		return fail("key %q: %v", prefix+"_data", err)
	}
	if len(p64) != rows+1 || p64[0] != 0 || p64[rows] != int64(len(i64)) || len(i64) != len(vals) || len(i64) > 1<<31-1 {
		return fail("%s CSR parts are inconsistent: %d indptr entries for %d rows, %d indices, %d values",
			prefix, len(p64), rows, len(i64), len(vals))
	}
	ptr = make([]int32, rows+1)
	for r := 0; r < rows; r++ {
		if p64[r+1] < p64[r] {
			return fail("key %q decreases at row %d", prefix+"_indptr", r)
		}
		ptr[r+1] = int32(p64[r+1])
	}
	idx = make([]int32, len(i64))
	for k, c := range i64 {
		if c < 0 || c >= int64(cols) {
			return fail("key %q: entry %d = %d outside [0,%d)", prefix+"_indices", k, c, cols)
		}
		idx[k] = int32(c)
	}
	return rows, cols, ptr, idx, vals, nil
}
