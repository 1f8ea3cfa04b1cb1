package datasets

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/lwgcn/toolkit/lwgcn/datasets/npy"
	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/internal/textio"
)

// parseInt32 parses a non-negative decimal integer that fits in int32.
func parseNonNegInt(b []byte) (int32, bool) {
	if len(b) == 0 || len(b) > 10 {
		return 0, false
	}
	var v int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	if v > 1<<31-1 {
		return 0, false
	}
	return int32(v), true
}

// parseFloat32 parses a feature value, with a fast path for "0" and "1".
func parseFloat32(b []byte) (float32, bool) {
	if len(b) == 1 && (b[0] == '0' || b[0] == '1') {
		return float32(b[0] - '0'), true
	}
	f, err := strconv.ParseFloat(string(b), 32)
	if err != nil {
		return 0, false
	}
	return float32(f), true
}

// ReadGeomGCNFeatures parses a Geom-GCN out1_node_feature_label.txt: a header
// line (skipped, as PyG and Geom-GCN do), then one row per node,
// "node_id<TAB>v1,v2,...,vF<TAB>label". Row order does not matter: node_id
// gives the node (ids must be exactly 0..N-1, each once; in the published
// files they are in order, so PyG's row order is the same). Features are kept
// sparse (CSR, zeros dropped). Labels must lie in [0, numClasses) when
// numClasses > 0. The file must end with a newline, as the published ones
// do: a last line without one means a cut file. name is used in errors.
func ReadGeomGCNFeatures(r io.Reader, name string, numClasses int) (*graph.Features, []int32, error) {
	lr := textio.NewTerminatedLineReader(r, name)
	if _, ok := lr.Next(); !ok {
		if err := lr.Err(); err != nil {
			return nil, nil, err
		}
		return nil, nil, fmt.Errorf("%s: empty file (truncated?): want a header line and one row per node", name)
	}
	type row struct {
		start, end int32 // range in cols/vals
		label      int32
	}
	rows := map[int32]row{}
	var (
		cols     []int32
		vals     []float32
		numFeat  = -1
		featLine int
		maxID    int32 = -1
	)
	for {
		line, ok := lr.Next()
		if !ok {
			break
		}
		if len(line) == 0 {
			return nil, nil, lr.Errorf("empty line")
		}
		f := bytes.Split(line, []byte{'\t'})
		if len(f) != 3 {
			return nil, nil, lr.Errorf("%d tab-separated columns, want 3 (node_id, features, label)", len(f))
		}
		id, ok := parseNonNegInt(f[0])
		if !ok {
			return nil, nil, lr.Errorf("node id %q is not a non-negative integer", clip(f[0]))
		}
		if _, dup := rows[id]; dup {
			return nil, nil, lr.Errorf("node id %d appears twice", id)
		}
		label, ok := parseNonNegInt(f[2])
		if !ok {
			return nil, nil, lr.Errorf("label %q is not a non-negative integer", clip(f[2]))
		}
		if numClasses > 0 && int(label) >= numClasses {
			return nil, nil, lr.Errorf("label %d out of range [0,%d)", label, numClasses)
		}
		start := int32(len(cols))
		k := 0
		for field := range bytes.SplitSeq(f[1], []byte{','}) {
			v, ok := parseFloat32(field)
			if !ok {
				return nil, nil, lr.Errorf("feature %d %q is not a number", k, clip(field))
			}
			if v != 0 {
				cols = append(cols, int32(k))
				vals = append(vals, v)
			}
			k++
		}
		if numFeat < 0 {
			numFeat, featLine = k, lr.N
		} else if k != numFeat {
			return nil, nil, lr.Errorf("%d features, want %d (as on line %d)", k, numFeat, featLine)
		}
		rows[id] = row{start: start, end: int32(len(cols)), label: label}
		maxID = max(maxID, id)
		if len(cols) > 1<<31-1 {
			return nil, nil, lr.Errorf("more than 2^31 non-zero features")
		}
	}
	if err := lr.Err(); err != nil {
		return nil, nil, err
	}
	n := len(rows)
	if n == 0 {
		return nil, nil, fmt.Errorf("%s: no node rows after the header (truncated?)", name)
	}
	if int(maxID) != n-1 {
		for id := int32(0); ; id++ {
			if _, ok := rows[id]; !ok {
				return nil, nil, fmt.Errorf("%s: node ids are not 0..%d: id %d is missing (largest id %d)", name, n-1, id, maxID)
			}
		}
	}
	rowPtr := make([]int32, n+1)
	outCols := make([]int32, 0, len(cols))
	outVals := make([]float32, 0, len(vals))
	labels := make([]int32, n)
	for id := 0; id < n; id++ {
		r := rows[int32(id)]
		outCols = append(outCols, cols[r.start:r.end]...)
		outVals = append(outVals, vals[r.start:r.end]...)
		rowPtr[id+1] = int32(len(outCols))
		labels[id] = r.label
	}
	feats, err := graph.NewSparseFeatures(n, numFeat, rowPtr, outCols, outVals)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	return feats, labels, nil
}

func clip(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "..."
	}
	return string(b)
}

// ReadGeomGCNEdges parses a Geom-GCN out1_graph_edges.txt: a header line
// (skipped), then "src<TAB>dst" rows. Rows are returned as given: directed,
// with duplicates and self loops kept. Every endpoint must be a node in
// [0, numNodes), and the file must end with a newline (a cut file's last row
// may still parse, as an edge to the wrong node).
func ReadGeomGCNEdges(r io.Reader, name string, numNodes int) (src, dst []int32, err error) {
	lr := textio.NewTerminatedLineReader(r, name)
	if _, ok := lr.Next(); !ok {
		if err := lr.Err(); err != nil {
			return nil, nil, err
		}
		return nil, nil, fmt.Errorf("%s: empty file (truncated?): want a header line and one row per edge", name)
	}
	src, dst = []int32{}, []int32{}
	for {
		line, ok := lr.Next()
		if !ok {
			break
		}
		if len(line) == 0 {
			return nil, nil, lr.Errorf("empty line")
		}
		f := bytes.Split(line, []byte{'\t'})
		if len(f) != 2 {
			return nil, nil, lr.Errorf("%d tab-separated columns, want 2 (source, target)", len(f))
		}
		var ends [2]int32
		for i := range ends {
			v, ok := parseNonNegInt(f[i])
			if !ok {
				return nil, nil, lr.Errorf("node id %q is not a non-negative integer", clip(f[i]))
			}
			if int(v) >= numNodes {
				return nil, nil, lr.Errorf("edge to missing node %d (the graph has %d nodes)", v, numNodes)
			}
			ends[i] = v
		}
		src = append(src, ends[0])
		dst = append(dst, ends[1])
	}
	return src, dst, lr.Err()
}

// ReadSplitNPZ reads one Geom-GCN split file: keys train_mask, val_mask and
// test_mask, each bool or uint8 of length numNodes, pairwise disjoint.
func ReadSplitNPZ(path string, numNodes int) (graph.Split, error) {
	z, err := npy.OpenNPZ(path)
	if err != nil {
		return graph.Split{}, err
	}
	defer z.Close()
	var masks [3][]bool
	for i, key := range []string{"train_mask", "val_mask", "test_mask"} {
		if masks[i], err = maskKey(z, key, numNodes); err != nil {
			return graph.Split{}, err
		}
	}
	return splitFromMasks(path, masks[0], masks[1], masks[2])
}

// maskKey reads a 1-D boolean mask of length n.
func maskKey(z *npy.NPZ, key string, n int) ([]bool, error) {
	a, err := z.Array(key)
	if err != nil {
		return nil, err
	}
	if len(a.Shape) != 1 {
		return nil, fmt.Errorf("%s: key %q has shape %v, want (%d,)", z.Name(), key, a.Shape, n)
	}
	if a.Shape[0] != n {
		return nil, fmt.Errorf("%s: key %q has length %d, want %d (one entry per node)", z.Name(), key, a.Shape[0], n)
	}
	m, err := a.Bools()
	if err != nil {
		return nil, fmt.Errorf("%s: key %q: wrong dtype or values: %w", z.Name(), key, err)
	}
	return m, nil
}

func splitFromMasks(name string, train, val, test []bool) (graph.Split, error) {
	for v := range train {
		k := 0
		for _, m := range [][]bool{train, val, test} {
			if m[v] {
				k++
			}
		}
		if k > 1 {
			return graph.Split{}, fmt.Errorf("%s: node %d is in more than one of train/val/test", name, v)
		}
	}
	return graph.SplitFromMasks(train, val, test)
}

func readFileWith[T any](path string, read func(io.Reader) (T, error)) (T, error) {
	f, err := os.Open(path)
	if err != nil {
		var zero T
		return zero, err
	}
	defer f.Close()
	return read(bufio.NewReaderSize(f, 1<<16))
}

// LoadGeomGCN loads a Geom-GCN dataset from its features file, edges file and
// split files (any number, usually 10). Edges are the rows of the edges file
// as given. numClasses > 0 validates labels; 0 infers 1 + the largest label.
func LoadGeomGCN(name, featuresPath, edgesPath string, splitPaths []string, numClasses int) (*graph.Graph, error) {
	type fl struct {
		f *graph.Features
		l []int32
	}
	r, err := readFileWith(featuresPath, func(rd io.Reader) (fl, error) {
		f, l, err := ReadGeomGCNFeatures(rd, featuresPath, numClasses)
		return fl{f, l}, err
	})
	if err != nil {
		return nil, err
	}
	return geomGCNGraph(name, r.f, r.l, numClasses, edgesPath, splitPaths)
}

// LoadGeomGCNWithNPZFeatures is the default route for chameleon and squirrel,
// whose Geom-GCN feature files are not pinned here: features and labels come
// from the heterophilous-graphs npz of the same graph (same node numbering),
// directed edges and splits from the Geom-GCN files. Features become sparse,
// as on the pure Geom-GCN route.
func LoadGeomGCNWithNPZFeatures(name, npzPath, edgesPath string, splitPaths []string) (*graph.Graph, error) {
	h, err := LoadHeterophilousNPZ(name, npzPath, 0)
	if err != nil {
		return nil, err
	}
	return geomGCNGraph(name, h.Features().ToSparse(), h.Labels(), h.NumClasses(), edgesPath, splitPaths)
}

func geomGCNGraph(name string, feats *graph.Features, labels []int32, numClasses int, edgesPath string,
	splitPaths []string) (*graph.Graph, error) {
	n := feats.NumRows()
	type edges struct{ src, dst []int32 }
	e, err := readFileWith(edgesPath, func(rd io.Reader) (edges, error) {
		s, d, err := ReadGeomGCNEdges(rd, edgesPath, n)
		return edges{s, d}, err
	})
	if err != nil {
		return nil, err
	}
	splits := make([]graph.Split, 0, len(splitPaths))
	for _, p := range splitPaths {
		s, err := ReadSplitNPZ(p, n)
		if err != nil {
			return nil, err
		}
		splits = append(splits, s)
	}
	return graph.New(graph.Spec{Name: name, NumNodes: n, Src: e.src, Dst: e.dst, Features: feats,
		Labels: labels, NumClasses: numClasses, Splits: splits})
}
