package datasets

import (
	"fmt"
	"math"

	"github.com/lwgcn/toolkit/lwgcn/datasets/npy"
	"github.com/lwgcn/toolkit/lwgcn/graph"
)

// sparseBelow is the density under which npz feature matrices are stored
// sparse (CSR); denser ones stay dense. Both represent the same values.
const sparseBelow = 0.2

// numericKey reads key and checks its rank and dtype kinds ("f" float, "i"
// integer incl. unsigned, "b" bool; several letters allow several kinds).
func numericKey(z *npy.NPZ, key string, rank int, kinds string) (*npy.Array, error) {
	a, err := z.Array(key)
	if err != nil {
		return nil, err
	}
	k := a.DType.Kind
	if k == 'u' {
		k = 'i'
	}
	ok := false
	for i := 0; i < len(kinds); i++ {
		ok = ok || kinds[i] == k
	}
	if !ok {
		return nil, fmt.Errorf("%s: key %q has wrong dtype %s (want %s)", z.Name(), key, a.DType, kindNames(kinds))
	}
	if len(a.Shape) != rank {
		return nil, fmt.Errorf("%s: key %q has shape %v, want %d dimensions", z.Name(), key, a.Shape, rank)
	}
	return a, nil
}

func kindNames(kinds string) string {
	s := ""
	for i := 0; i < len(kinds); i++ {
		if i > 0 {
			s += " or "
		}
		s += map[byte]string{'f': "float", 'i': "integer", 'b': "bool"}[kinds[i]]
	}
	return s
}

// featuresFromArray turns a 2-D numeric array into features, sparse when
// fewer than sparseBelow of the entries are non-zero.
func featuresFromArray(z *npy.NPZ, key string, a *npy.Array) (*graph.Features, error) {
	vals, err := a.Float32s()
	if err != nil {
		return nil, fmt.Errorf("%s: key %q: %w", z.Name(), key, err)
	}
	rows, cols := a.Shape[0], a.Shape[1]
	nnz := 0
	for i, v := range vals {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return nil, fmt.Errorf("%s: key %q: non-finite value at row %d, column %d", z.Name(), key, i/max(cols, 1), i%max(cols, 1))
		}
		if v != 0 {
			nnz++
		}
	}
	if len(vals) == 0 || float64(nnz) >= sparseBelow*float64(len(vals)) || nnz > math.MaxInt32 {
		return graph.NewDenseFeatures(rows, cols, vals)
	}
	rowPtr := make([]int32, rows+1)
	colIdx := make([]int32, 0, nnz)
	data := make([]float32, 0, nnz)
	for r := 0; r < rows; r++ {
		for c, v := range vals[r*cols : (r+1)*cols] {
			if v != 0 {
				colIdx = append(colIdx, int32(c))
				data = append(data, v)
			}
		}
		rowPtr[r+1] = int32(len(colIdx))
	}
	return graph.NewSparseFeatures(rows, cols, rowPtr, colIdx, data)
}

// labelsFromArray converts integer labels, checking the range [0, numClasses)
// (numClasses 0: only non-negative). Negative labels are an error except -1
// when allowUnlabeled.
func labelsFromArray(name, key string, a *npy.Array, numClasses int) ([]int32, error) {
	v, err := a.Int64s()
	if err != nil {
		return nil, fmt.Errorf("%s: key %q: %w", name, key, err)
	}
	out := make([]int32, len(v))
	for i, y := range v {
		if y < 0 || (numClasses > 0 && y >= int64(numClasses)) || y > math.MaxInt32-1 {
			if numClasses > 0 {
				return nil, fmt.Errorf("%s: key %q: node %d has label %d out of range [0,%d)", name, key, i, y, numClasses)
			}
			return nil, fmt.Errorf("%s: key %q: node %d has negative label %d", name, key, i, y)
		}
		out[i] = int32(y)
	}
	return out, nil
}

// edgesFromArray reads an [E,2] integer array of node pairs in [0,n).
func edgesFromArray(name, key string, a *npy.Array, n int) (src, dst []int32, err error) {
	if len(a.Shape) != 2 || a.Shape[1] != 2 {
		return nil, nil, fmt.Errorf("%s: key %q has shape %v, want (E, 2)", name, key, a.Shape)
	}
	v, err := a.Int64s()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: key %q: %w", name, key, err)
	}
	e := a.Shape[0]
	src, dst = make([]int32, e), make([]int32, e)
	for i := 0; i < e; i++ {
		for j, out := range [][]int32{src, dst} {
			x := v[2*i+j]
			if x < 0 || x >= int64(n) {
				return nil, nil, fmt.Errorf("%s: key %q: row %d: edge to missing node %d (the graph has %d nodes)", name, key, i, x, n)
			}
			out[i] = int32(x)
		}
	}
	return src, dst, nil
}

// masksFromNPZ reads train/val/test masks of shape [S,n] (S splits) or [n]
// (one split).
func masksFromNPZ(z *npy.NPZ, keys [3]string, n int) ([]graph.Split, error) {
	var arrs [3][]bool
	splits := -1
	for i, key := range keys {
		a, err := z.Array(key)
		if err != nil {
			return nil, err
		}
		s := 1
		switch {
		case len(a.Shape) == 1 && a.Shape[0] == n:
		case len(a.Shape) == 2 && a.Shape[1] == n:
			s = a.Shape[0]
		default:
			return nil, fmt.Errorf("%s: key %q has shape %v, want (%d,) or (splits, %d): a mask of the wrong length", z.Name(), key, a.Shape, n, n)
		}
		if splits >= 0 && s != splits {
			return nil, fmt.Errorf("%s: key %q holds %d splits but %q holds %d", z.Name(), key, s, keys[0], splits)
		}
		splits = s
		if arrs[i], err = a.Bools(); err != nil {
			return nil, fmt.Errorf("%s: key %q: wrong dtype or values: %w", z.Name(), key, err)
		}
	}
	out := make([]graph.Split, splits)
	for s := range out {
		var err error
		lo, hi := s*n, (s+1)*n
		out[s], err = splitFromMasks(fmt.Sprintf("%s: split %d", z.Name(), s), arrs[0][lo:hi], arrs[1][lo:hi], arrs[2][lo:hi])
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// LoadHeterophilousNPZ loads a heterophilous-graphs (Platonov et al. 2023)
// .npz: node_features float [N,F], node_labels int [N], edges int [E,2] and
// train_masks/val_masks/test_masks bool [10,N]. Each undirected edge is stored
// once; the graph returns those rows as one directed edge each (call
// ToUndirected to symmetrise, as the authors' code and PyG do). numClasses >
// 0 validates labels; 0 infers 1 + the largest label.
func LoadHeterophilousNPZ(name, path string, numClasses int) (*graph.Graph, error) {
	z, err := npy.OpenNPZ(path)
	if err != nil {
		return nil, err
	}
	defer z.Close()
	fa, err := numericKey(z, "node_features", 2, "fib")
	if err != nil {
		return nil, err
	}
	n := fa.Shape[0]
	la, err := numericKey(z, "node_labels", 1, "i")
	if err != nil {
		return nil, err
	}
	if la.Shape[0] != n {
		return nil, fmt.Errorf("%s: key \"node_labels\" has length %d, want %d (rows of node_features)", path, la.Shape[0], n)
	}
	labels, err := labelsFromArray(path, "node_labels", la, numClasses)
	if err != nil {
		return nil, err
	}
	ea, err := numericKey(z, "edges", 2, "i")
	if err != nil {
		return nil, err
	}
	src, dst, err := edgesFromArray(path, "edges", ea, n)
	if err != nil {
		return nil, err
	}
	splits, err := masksFromNPZ(z, [3]string{"train_masks", "val_masks", "test_masks"}, n)
	if err != nil {
		return nil, err
	}
	feats, err := featuresFromArray(z, "node_features", fa)
	if err != nil {
		return nil, err
	}
	return graph.New(graph.Spec{Name: name, NumNodes: n, Src: src, Dst: dst, Features: feats, Labels: labels,
		NumClasses: numClasses, Splits: splits})
}

// LoadWikipediaNPZ loads PyG's WikipediaNetwork .npz (crocodile.npz from
// graphmining.ai): features [N,F], edges int [E,2], and class labels in
// "target" (PyG) or "label" (LW-GCN's variant, which may also carry
// train_mask/val_mask/test_mask of shape [N] or [S,N]). Labels must be
// integer class ids in [0, numClasses): integer dtypes, or floats holding
// whole numbers; anything else (e.g. raw traffic counts) is an error. Edges
// are the stored rows, not coalesced (PyG coalesces: sorts and removes
// duplicates).
func LoadWikipediaNPZ(name, path string, numClasses int) (*graph.Graph, error) {
	z, err := npy.OpenNPZ(path)
	if err != nil {
		return nil, err
	}
	defer z.Close()
	fa, err := numericKey(z, "features", 2, "fib")
	if err != nil {
		return nil, err
	}
	n := fa.Shape[0]
	key := "target"
	if !z.Has(key) && z.Has("label") {
		key = "label"
	}
	if !z.Has(key) {
		return nil, fmt.Errorf("%s: missing key \"target\" or \"label\" (class labels)", path)
	}
	ya, err := numericKey(z, key, 1, "fi")
	if err != nil {
		return nil, err
	}
	if ya.Shape[0] != n {
		return nil, fmt.Errorf("%s: key %q has length %d, want %d (rows of features)", path, key, ya.Shape[0], n)
	}
	labels, err := classLabels(path, key, ya, numClasses)
	if err != nil {
		return nil, err
	}
	ea, err := numericKey(z, "edges", 2, "i")
	if err != nil {
		return nil, err
	}
	src, dst, err := edgesFromArray(path, "edges", ea, n)
	if err != nil {
		return nil, err
	}
	var splits []graph.Split
	if z.Has("train_mask") {
		if splits, err = masksFromNPZ(z, [3]string{"train_mask", "val_mask", "test_mask"}, n); err != nil {
			return nil, err
		}
	}
	feats, err := featuresFromArray(z, "features", fa)
	if err != nil {
		return nil, err
	}
	return graph.New(graph.Spec{Name: name, NumNodes: n, Src: src, Dst: dst, Features: feats, Labels: labels,
		NumClasses: numClasses, Splits: splits})
}

// classLabels accepts integer arrays and float arrays of whole numbers.
func classLabels(path, key string, a *npy.Array, numClasses int) ([]int32, error) {
	if a.DType.Kind != 'f' {
		return labelsFromArray(path, key, a, numClasses)
	}
	v, err := a.Float64s()
	if err != nil {
		return nil, fmt.Errorf("%s: key %q: %w", path, key, err)
	}
	out := make([]int32, len(v))
	for i, y := range v {
		if y != math.Trunc(y) || math.IsInf(y, 0) {
			return nil, fmt.Errorf("%s: key %q: node %d has value %v, not an integer class label", path, key, i, y)
		}
		if y < 0 || (numClasses > 0 && y >= float64(numClasses)) || y > math.MaxInt32-1 {
			return nil, fmt.Errorf("%s: key %q: node %d has label %v out of range [0,%d): these are not class labels "+
				"(raw targets must be binned into classes first)", path, key, i, y, numClasses)
		}
		out[i] = int32(y)
	}
	return out, nil
}
