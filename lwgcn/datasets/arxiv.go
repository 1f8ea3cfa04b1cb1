package datasets

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/lwgcn/toolkit/lwgcn/datasets/npy"
	"github.com/lwgcn/toolkit/lwgcn/datasets/pypickle"
	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/internal/textio"
	"github.com/lwgcn/toolkit/lwgcn/limits"
)

// decompressed caps a decompressing reader at npy.MaxUnpackedBytes and at a
// quarter of the memory budget (text parsed into values, with the slices'
// growth, takes up to about four times its bytes); what names the member.
func decompressed(r io.Reader, what string) (io.Reader, error) {
	budget, err := limits.Budget()
	if err != nil {
		return nil, err
	}
	return limits.Reader(r, min(npy.MaxUnpackedBytes, budget/4), what+" decompressed"), nil
}

// ArxivYearClasses is the number of year classes of arxiv-year (LINKX).
const ArxivYearClasses = 5

// LoadArxivYear loads arxiv-year: ogbn-arxiv from OGB's arxiv.zip (features,
// edges and publication years; node labels are ignored), labels from
// EvenQuantileLabels(years, 5), and the 5 fixed LINKX splits from
// arxiv-year-splits.npy.
func LoadArxivYear(zipPath, splitsPath string) (*graph.Graph, error) {
	z, err := zip.OpenReader(zipPath)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", zipPath, err)
	}
	defer z.Close()
	g, years, err := ReadOGBArxiv(&z.Reader, zipPath)
	if err != nil {
		return nil, err
	}
	labels, _ := EvenQuantileLabels(years, ArxivYearClasses)
	splits, err := ReadArxivYearSplits(splitsPath, g.NumNodes())
	if err != nil {
		return nil, err
	}
	s := g.Spec()
	s.Name, s.Labels, s.NumClasses, s.Splits = "arxiv-year", labels, ArxivYearClasses, splits
	return graph.New(s)
}

// ReadOGBArxiv reads ogbn-arxiv from OGB's zip (arxiv/raw/node-feat.csv.gz:
// N rows of 128 comma-separated floats; edge.csv.gz: "src,dst" rows;
// node_year.csv.gz: N years; num-node-list.csv.gz when present). The graph has
// dense features and the directed edges in file order (ogbn-arxiv is a
// directed citation graph; LINKX symmetrises it at training time), no labels.
// years holds the publication years.
func ReadOGBArxiv(z *zip.Reader, name string) (g *graph.Graph, years []float64, err error) {
	find := func(suffix string, required bool) (*zip.File, error) {
		for _, f := range z.File {
			if strings.HasSuffix(f.Name, "raw/"+suffix) {
				return f, nil
			}
		}
		if required {
			return nil, fmt.Errorf("%s: missing raw/%s", name, suffix)
		}
		return nil, nil
	}
	rows := func(suffix string, required bool, each func(lr *textio.LineReader, fields [][]byte) error) (bool, error) {
		f, err := find(suffix, required)
		if err != nil || f == nil {
			return false, err
		}
		rc, err := f.Open()
		if err != nil {
			return false, fmt.Errorf("%s: %s: %w", name, f.Name, err)
		}
		defer rc.Close()
		fname := name + ":" + f.Name
		gz, err := gzip.NewReader(rc)
		if err != nil {
			return false, fmt.Errorf("%s: %w", fname, err)
		}
		defer gz.Close()
		capped, err := decompressed(gz, fname)
		if err != nil {
			return false, err
		}
		lr := textio.NewLineReader(capped, fname)
		for {
			line, ok := lr.Next()
			if !ok {
				break
			}
			if len(line) == 0 {
				return false, lr.Errorf("empty line")
			}
			if err := each(lr, bytes.Split(line, []byte{','})); err != nil {
				return false, err
			}
		}
		if err := lr.Err(); err != nil {
			if strings.Contains(err.Error(), "unexpected EOF") {
				return false, fmt.Errorf("%w (truncated file)", err)
			}
			return false, err
		}
		return true, nil
	}
	var feats []float32
	numFeat := -1
	if _, err := rows("node-feat.csv.gz", true, func(lr *textio.LineReader, f [][]byte) error {
		if numFeat < 0 {
			numFeat = len(f)
		} else if len(f) != numFeat {
			return lr.Errorf("%d columns, want %d", len(f), numFeat)
		}
		for k, field := range f {
			v, ok := parseFloat32(field)
			if !ok || math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return lr.Errorf("feature %d %q is not a finite number", k, clip(field))
			}
			feats = append(feats, v)
		}
		return nil
	}); err != nil {
		return nil, nil, err
	}
	if numFeat < 0 {
		return nil, nil, fmt.Errorf("%s: raw/node-feat.csv.gz has no rows", name)
	}
	n := len(feats) / numFeat
	declared := -1
	if _, err := rows("num-node-list.csv.gz", false, func(lr *textio.LineReader, f [][]byte) error {
		v, ok := parseNonNegInt(f[0])
		if len(f) != 1 || !ok || declared >= 0 {
			return lr.Errorf("want a single node count")
		}
		declared = int(v)
		return nil
	}); err != nil {
		return nil, nil, err
	}
	if declared >= 0 && declared != n {
		return nil, nil, fmt.Errorf("%s: num-node-list says %d nodes but node-feat has %d rows", name, declared, n)
	}
	if _, err := rows("node_year.csv.gz", true, func(lr *textio.LineReader, f [][]byte) error {
		if len(f) != 1 {
			return lr.Errorf("%d columns, want 1 (year)", len(f))
		}
		y, ok := parseNonNegInt(f[0])
		if !ok {
			return lr.Errorf("year %q is not an integer", clip(f[0]))
		}
		years = append(years, float64(y))
		return nil
	}); err != nil {
		return nil, nil, err
	}
	if len(years) != n {
		return nil, nil, fmt.Errorf("%s: node_year has %d rows but node-feat has %d", name, len(years), n)
	}
	var src, dst []int32
	if _, err := rows("edge.csv.gz", true, func(lr *textio.LineReader, f [][]byte) error {
		if len(f) != 2 {
			return lr.Errorf("%d columns, want 2 (source, target)", len(f))
		}
		s, ok1 := parseNonNegInt(f[0])
		d, ok2 := parseNonNegInt(f[1])
		if !ok1 || !ok2 {
			return lr.Errorf("node ids %q, %q are not non-negative integers", clip(f[0]), clip(f[1]))
		}
		if int(s) >= n || int(d) >= n {
			return lr.Errorf("edge to missing node %d (the graph has %d nodes)", max(s, d), n)
		}
		src, dst = append(src, s), append(dst, d)
		return nil
	}); err != nil {
		return nil, nil, err
	}
	f, err := graph.NewDenseFeatures(n, numFeat, feats)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	if src == nil {
		src, dst = []int32{}, []int32{}
	}
	g, err = graph.New(graph.Spec{Name: "ogbn-arxiv", NumNodes: n, Src: src, Dst: dst, Features: f})
	return g, years, err
}

// EvenQuantileLabels is LINKX's even_quantile_labels(vals, nclasses): the
// boundaries are the k/nclasses quantiles of vals (k = 1..nclasses-1, NumPy's
// default linear interpolation, NaNs ignored as by np.nanquantile), and a
// value gets the index of its half-open interval: class 0 is v < q1, class k
// is q_k <= v < q_{k+1}, the last class is v >= q_{nclasses-1}. NaN values get
// graph.Unlabeled (LINKX leaves -1). It returns the labels and the
// nclasses-1 boundaries.
func EvenQuantileLabels(vals []float64, nclasses int) ([]int32, []float64) {
	var finite []float64
	for _, v := range vals {
		if !math.IsNaN(v) {
			finite = append(finite, v)
		}
	}
	slices.Sort(finite)
	bounds := make([]float64, 0, max(nclasses-1, 0))
	for k := 0; k < nclasses-1; k++ {
		bounds = append(bounds, quantileLinear(finite, float64(k+1)/float64(nclasses)))
	}
	labels := make([]int32, len(vals))
	for i, v := range vals {
		labels[i] = graph.Unlabeled
		if math.IsNaN(v) {
			continue
		}
		lower := math.Inf(-1)
		for k, upper := range bounds {
			if v >= lower && v < upper {
				labels[i] = int32(k)
			}
			lower = upper
		}
		if v >= lower {
			labels[i] = int32(nclasses - 1)
		}
	}
	return labels, bounds
}

// quantileLinear is numpy.quantile(sorted, q) with method="linear": the value
// at virtual index q*(n-1), interpolated with NumPy's _lerp.
func quantileLinear(sorted []float64, q float64) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	pos := q * float64(n-1)
	lo := math.Floor(pos)
	i := int(lo)
	if i >= n-1 {
		return sorted[n-1]
	}
	t := pos - lo
	a, b := sorted[i], sorted[i+1]
	diff := b - a
	// numpy _lerp: a + diff*t, computed from the other end when t >= 0.5.
	if t >= 0.5 {
		return b - diff*(1-t)
	}
	return a + diff*t
}

// ReadArxivYearSplits reads LINKX's arxiv-year-splits.npy: a NumPy object
// array of dicts with keys "train", "valid", "test" holding lists of node
// indices in [0, numNodes) (numNodes <= 0 skips the range check).
func ReadArxivYearSplits(path string, numNodes int) ([]graph.Split, error) {
	a, err := npy.ReadFile(path)
	if err != nil {
		return nil, err
	}
	objs, err := pypickle.ObjectArray(a)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	// Memo references can repeat one long list in every split: add the
	// lists' lengths up before converting them.
	total := int64(0)
	for _, o := range objs {
		if items, err := pypickle.Items(o); err == nil {
			for _, e := range items {
				n, _ := pypickle.Len(e.Value)
				total += int64(n)
			}
		}
	}
	if err := limits.CheckCount(fmt.Sprintf("%s: %d split entries", path, total), total, 16); err != nil {
		return nil, err
	}
	splits := make([]graph.Split, len(objs))
	for i, o := range objs {
		items, err := pypickle.Items(o)
		if err != nil {
			return nil, fmt.Errorf("%s: split %d: %w", path, i, err)
		}
		sets := map[string][]int32{}
		for _, e := range items {
			k, ok := pypickle.Bytes(e.Key)
			if !ok {
				return nil, fmt.Errorf("%s: split %d: dict key of type %T", path, i, e.Key)
			}
			ids, err := pypickle.Ints(e.Value)
			if err != nil {
				return nil, fmt.Errorf("%s: split %d key %q: %w", path, i, k, err)
			}
			out := make([]int32, len(ids))
			for j, v := range ids {
				if v < 0 || v > math.MaxInt32 || (numNodes > 0 && v >= int64(numNodes)) {
					return nil, fmt.Errorf("%s: split %d key %q: node %d outside [0,%d)", path, i, k, v, numNodes)
				}
				out[j] = int32(v)
			}
			sets[string(k)] = out
		}
		for _, k := range []string{"train", "valid", "test"} {
			if _, ok := sets[k]; !ok {
				return nil, fmt.Errorf("%s: split %d: missing key %q", path, i, k)
			}
		}
		s := graph.Split{Train: sets["train"], Val: sets["valid"], Test: sets["test"]}
		if err := checkDisjoint(s); err != nil {
			return nil, fmt.Errorf("%s: split %d: %w", path, i, err)
		}
		splits[i] = s
	}
	return splits, nil
}
