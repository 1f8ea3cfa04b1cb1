package datasets

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/lwgcn/toolkit/lwgcn/datasets/pypickle"
	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/internal/textio"
	"github.com/lwgcn/toolkit/lwgcn/limits"
)

// planetoidExts are the Planetoid file suffixes, in PyG's reading order.
var planetoidExts = []string{"x", "tx", "allx", "y", "ty", "ally", "graph", "test.index"}

// PlanetoidValSize is the size of the public validation set (the 500 nodes
// after the training nodes), as in PyG and Kipf & Welling.
const PlanetoidValSize = 500

// LoadPlanetoid loads ind.<name>.{x,tx,allx,y,ty,ally,graph,test.index} from
// dir. See ReadPlanetoid.
func LoadPlanetoid(name, dir string) (*graph.Graph, error) {
	open := func(ext string) (io.ReadCloser, string, error) {
		p := filepath.Join(dir, "ind."+name+"."+ext)
		f, err := os.Open(p)
		return f, p, err
	}
	return ReadPlanetoid(name, open)
}

// ReadPlanetoid builds the graph exactly as PyTorch Geometric's Planetoid
// (read_planetoid_data) does, from files opened by open(ext), which returns
// the file, its name for errors, and an error:
//   - x, tx, allx: pickled scipy CSR matrices; y, ty, ally: pickled one-hot
//     numpy arrays; graph: a pickled dict node -> neighbour list; test.index:
//     one node id per line.
//   - When the test indices have gaps (Citeseer), tx and ty are extended to
//     range(min, max+1) with zero rows placed at the gaps: those isolated
//     filler nodes get zero features and label 0.
//   - x = [allx; tx] and y = argmax([ally; ty]) (an all-zero row gives 0), then
//     x[test_index] = x[sorted(test_index)], likewise y.
//   - Public split: train = the first len(y) nodes, val = the next 500,
//     test = test.index.
//   - Edges: every (key, neighbour) pair of the dict, self loops removed, then
//     coalesced (sorted by source then target, duplicates removed), which is
//     PyG's edge_index_from_dict. The dicts are symmetric, so every edge
//     appears in both directions (Cora 10,556 = 2 x 5,278).
//
// Features stay sparse (CSR).
func ReadPlanetoid(name string, open func(ext string) (io.ReadCloser, string, error)) (*graph.Graph, error) {
	objs := map[string]any{}
	names := map[string]string{}
	var testIndex []int64
	for _, ext := range planetoidExts {
		rc, fname, err := open(ext)
		if err != nil {
			return nil, err
		}
		names[ext] = fname
		if ext == "test.index" {
			testIndex, err = readIndexLines(rc, fname)
		} else {
			objs[ext], err = pypickle.Load(rc)
			if err != nil {
				err = fmt.Errorf("%s: %w", fname, err)
			}
		}
		rc.Close()
		if err != nil {
			return nil, err
		}
	}
	csr := func(ext string) (*sparseRows, error) {
		m, ok := objs[ext].(*pypickle.CSRMatrix)
		if !ok {
			return nil, fmt.Errorf("%s: holds %T, want a scipy csr_matrix", names[ext], objs[ext])
		}
		r, c, ptr, idx, vals, err := m.ToCSR()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", names[ext], err)
		}
		return &sparseRows{rows: r, cols: c, ptr: ptr, idx: idx, vals: vals}, nil
	}
	onehot := func(ext string) ([]int32, int, error) {
		a, err := pypickle.Array(objs[ext])
		if err != nil {
			return nil, 0, fmt.Errorf("%s: %w", names[ext], err)
		}
		if len(a.Shape) != 2 {
			return nil, 0, fmt.Errorf("%s: label array of shape %v, want (nodes, classes)", names[ext], a.Shape)
		}
		v, err := a.Float64s()
		if err != nil {
			return nil, 0, fmt.Errorf("%s: %w", names[ext], err)
		}
		rows, c := a.Shape[0], a.Shape[1]
		out := make([]int32, rows)
		for r := 0; r < rows; r++ {
			best := 0
			for k := 1; k < c; k++ {
				if v[r*c+k] > v[r*c+best] {
					best = k
				}
			}
			out[r] = int32(best)
		}
		return out, c, nil
	}
	tx, err := csr("tx")
	if err != nil {
		return nil, err
	}
	allx, err := csr("allx")
	if err != nil {
		return nil, err
	}
	if _, err := csr("x"); err != nil { // read for validation only, as in PyG
		return nil, err
	}
	y, numClasses, err := onehot("y")
	if err != nil {
		return nil, err
	}
	ty, c2, err := onehot("ty")
	if err != nil {
		return nil, err
	}
	ally, c3, err := onehot("ally")
	if err != nil {
		return nil, err
	}
	if c2 != numClasses || c3 != numClasses || tx.cols != allx.cols {
		return nil, fmt.Errorf("planetoid %s: inconsistent widths: y/ty/ally have %d/%d/%d classes, tx/allx %d/%d features",
			name, numClasses, c2, c3, tx.cols, allx.cols)
	}
	if tx.rows != len(ty) || allx.rows != len(ally) {
		return nil, fmt.Errorf("planetoid %s: tx has %d rows but ty %d; allx has %d rows but ally %d",
			name, tx.rows, len(ty), allx.rows, len(ally))
	}
	if len(testIndex) != tx.rows {
		return nil, fmt.Errorf("%s: %d test indices but tx has %d rows", names["test.index"], len(testIndex), tx.rows)
	}
	if len(testIndex) == 0 {
		return nil, fmt.Errorf("%s: no test indices", names["test.index"])
	}
	sorted := slices.Clone(testIndex)
	slices.Sort(sorted)
	lo, hi := sorted[0], sorted[len(sorted)-1]
	if lo < 0 {
		return nil, fmt.Errorf("%s: negative test index %d", names["test.index"], lo)
	}
	// Gaps in the test indices (Citeseer): extend tx/ty to range(lo, hi+1),
	// placing tx[i] at sorted[i]-lo, as PyG does.
	if hi-lo+1 != int64(len(testIndex)) {
		if hi-lo+1 > 1<<31-1 {
			return nil, fmt.Errorf("%s: test indices span %d nodes", names["test.index"], hi-lo+1)
		}
		// The span becomes nodes (zero rows fill the gaps).
		if err := limits.CheckCount(fmt.Sprintf("%s: test indices %d..%d span %d nodes", names["test.index"], lo, hi, hi-lo+1),
			hi-lo+1, nodeBytes); err != nil {
			return nil, err
		}
		ext := int(hi - lo + 1)
		perm := make([]int, tx.rows) // tx row i goes to row sorted[i]-lo
		for i := range perm {
			perm[i] = int(sorted[i] - lo)
		}
		tx = tx.scatter(ext, perm)
		tyExt := make([]int32, ext) // zero rows: argmax 0
		for i, p := range perm {
			tyExt[p] = ty[i]
		}
		ty = tyExt
	}
	n := allx.rows + tx.rows
	all := allx.concat(tx)
	labelsOld := append(slices.Clone(ally), ty...)
	// x[test_index] = x[sorted_test_index]
	src := make([]int, n)
	for i := range src {
		src[i] = i
	}
	for i, t := range testIndex {
		if t >= int64(n) || sorted[i] >= int64(n) {
			return nil, fmt.Errorf("%s: test index %d outside the %d nodes of allx+tx", names["test.index"], max(t, sorted[i]), n)
		}
		src[t] = int(sorted[i])
	}
	feats, err := all.gather(src)
	if err != nil {
		return nil, fmt.Errorf("planetoid %s: %w", name, err)
	}
	labels := make([]int32, n)
	for i, s := range src {
		labels[i] = labelsOld[s]
	}
	// Public split.
	numTrain := len(y)
	if numTrain+PlanetoidValSize > n {
		return nil, fmt.Errorf("planetoid %s: %d training + %d validation nodes exceed %d nodes", name, numTrain, PlanetoidValSize, n)
	}
	split := graph.Split{Train: seq(0, numTrain), Val: seq(numTrain, numTrain+PlanetoidValSize), Test: make([]int32, len(testIndex))}
	for i, t := range testIndex {
		split.Test[i] = int32(t)
	}
	if err := checkDisjoint(split); err != nil {
		return nil, fmt.Errorf("planetoid %s: public split: %w", name, err)
	}
	esrc, edst, err := planetoidEdges(objs["graph"], names["graph"], n)
	if err != nil {
		return nil, err
	}
	return graph.New(graph.Spec{Name: name, NumNodes: n, Src: esrc, Dst: edst, Features: feats, Labels: labels,
		NumClasses: numClasses, Splits: []graph.Split{split}})
}

func checkDisjoint(s graph.Split) error {
	seen := map[int32]string{}
	for _, set := range []struct {
		name string
		ids  []int32
	}{{"train", s.Train}, {"val", s.Val}, {"test", s.Test}} {
		for _, v := range set.ids {
			if prev, ok := seen[v]; ok {
				return fmt.Errorf("node %d is in both %s and %s", v, prev, set.name)
			}
			seen[v] = set.name
		}
	}
	return nil
}

func seq(lo, hi int) []int32 {
	out := make([]int32, hi-lo)
	for i := range out {
		out[i] = int32(lo + i)
	}
	return out
}

// edgeEntryBytes is what one neighbour entry costs while the edges are
// built: its int64, its (source, target) pair and the sort.
const edgeEntryBytes = 24

// nodeBytes is what one node costs a loader: its feature row pointer,
// label, split membership and index slices (a few int32 and int64 values).
const nodeBytes = 48

// planetoidEdges implements PyG's edge_index_from_dict: all (key, value)
// pairs, self loops removed, coalesced.
func planetoidEdges(obj any, fname string, n int) (src, dst []int32, err error) {
	items, err := pypickle.Items(obj)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", fname, err)
	}
	// The neighbour lists may be memo references to one long list: their
	// total length is what converting them costs.
	total := int64(0)
	for _, e := range items {
		n, _ := pypickle.Len(e.Value)
		total += int64(n)
	}
	if err := limits.CheckCount(fmt.Sprintf("%s: %d neighbour entries", fname, total), total, edgeEntryBytes); err != nil {
		return nil, nil, err
	}
	type pair struct{ s, d int32 }
	pairs := make([]pair, 0, total)
	for _, e := range items {
		k, err := pypickle.Int(e.Key)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: dict key: %w", fname, err)
		}
		if k < 0 || k >= int64(n) {
			return nil, nil, fmt.Errorf("%s: node %d has edges but the graph has %d nodes", fname, k, n)
		}
		nb, err := pypickle.Ints(e.Value)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: neighbours of node %d: %w", fname, k, err)
		}
		for _, v := range nb {
			if v < 0 || v >= int64(n) {
				return nil, nil, fmt.Errorf("%s: node %d: edge to missing node %d (the graph has %d nodes)", fname, k, v, n)
			}
			if v != k {
				pairs = append(pairs, pair{int32(k), int32(v)})
			}
		}
	}
	slices.SortFunc(pairs, func(a, b pair) int {
		if a.s != b.s {
			return int(a.s) - int(b.s)
		}
		return int(a.d) - int(b.d)
	})
	pairs = slices.Compact(pairs)
	src, dst = make([]int32, len(pairs)), make([]int32, len(pairs))
	for i, p := range pairs {
		src[i], dst[i] = p.s, p.d
	}
	return src, dst, nil
}

// readIndexLines reads one integer per line (PyG's read_txt_array).
func readIndexLines(r io.Reader, name string) ([]int64, error) {
	lr := textio.NewTerminatedLineReader(r, name)
	var out []int64
	for {
		line, ok := lr.Next()
		if !ok {
			break
		}
		if len(line) == 0 {
			continue
		}
		v, ok := parseNonNegInt(line)
		if !ok {
			return nil, lr.Errorf("%q is not a node index", clip(line))
		}
		out = append(out, int64(v))
	}
	return out, lr.Err()
}

// sparseRows is a CSR matrix under construction.
type sparseRows struct {
	rows, cols int
	ptr, idx   []int32
	vals       []float32
}

func (m *sparseRows) row(r int) ([]int32, []float32) {
	return m.idx[m.ptr[r]:m.ptr[r+1]], m.vals[m.ptr[r]:m.ptr[r+1]]
}

// scatter returns a matrix of n rows with row i of m at position perm[i] and
// zero rows elsewhere.
func (m *sparseRows) scatter(n int, perm []int) *sparseRows {
	at := make([]int, n)
	for i := range at {
		at[i] = -1
	}
	for i, p := range perm {
		at[p] = i
	}
	out := &sparseRows{rows: n, cols: m.cols, ptr: make([]int32, n+1)}
	for r := 0; r < n; r++ {
		if at[r] >= 0 {
			c, v := m.row(at[r])
			out.idx = append(out.idx, c...)
			out.vals = append(out.vals, v...)
		}
		out.ptr[r+1] = int32(len(out.idx))
	}
	return out
}

func (m *sparseRows) concat(o *sparseRows) *sparseRows {
	out := &sparseRows{rows: m.rows + o.rows, cols: m.cols}
	out.ptr = append(slices.Clone(m.ptr), make([]int32, o.rows)...)
	base := m.ptr[m.rows]
	for r := 1; r <= o.rows; r++ {
		out.ptr[m.rows+r] = base + o.ptr[r]
	}
	out.idx = append(slices.Clone(m.idx), o.idx...)
	out.vals = append(slices.Clone(m.vals), o.vals...)
	return out
}

// gather returns features whose row i is row src[i] of m.
func (m *sparseRows) gather(src []int) (*graph.Features, error) {
	ptr := make([]int32, len(src)+1)
	var idx []int32
	var vals []float32
	for i, s := range src {
		c, v := m.row(s)
		idx = append(idx, c...)
		vals = append(vals, v...)
		ptr[i+1] = int32(len(idx))
	}
	return graph.NewSparseFeatures(len(src), m.cols, ptr, idx, vals)
}
