package datasets_test

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/datasets"
	fx "github.com/lwgcn/toolkit/lwgcn/datasets/internal/fixtures"
	"github.com/lwgcn/toolkit/lwgcn/datasets/npy"
)

const texasLike = "node_id\tfeature\tlabel\n1\t0,2.5,0\t1\n0\t1,0,1\t0\n2\t0,0,0\t2\n"

func TestReadGeomGCNFeatures(t *testing.T) {
	f, labels, err := datasets.ReadGeomGCNFeatures(strings.NewReader(texasLike), "f.txt", 3)
	if err != nil {
		t.Fatal(err)
	}
	// Rows are placed by node id, not file order.
	if !slices.Equal(labels, []int32{0, 1, 2}) || f.NumRows() != 3 || f.NumCols() != 3 || !f.IsSparse() || f.NNZ() != 3 {
		t.Fatalf("labels %v, features %v", labels, f)
	}
	if f.At(0, 0) != 1 || f.At(0, 2) != 1 || f.At(1, 1) != 2.5 || f.At(2, 1) != 0 {
		t.Errorf("features %v", f.ToDense().Data())
	}
	// CRLF line ends are accepted (a missing final newline is not:
	// TestLoadGeomGCNRejectsCutFiles).
	crlf := strings.ReplaceAll(texasLike, "\n", "\r\n")
	if _, l2, err := datasets.ReadGeomGCNFeatures(strings.NewReader(crlf), "f.txt", 3); err != nil || !slices.Equal(l2, labels) {
		t.Errorf("CRLF: %v %v", l2, err)
	}
}

func TestGeomGCNTextErrors(t *testing.T) {
	h := "node_id\tfeature\tlabel\n"
	cases := []struct{ name, in, want string }{
		{"empty file", "", "f.txt: empty file (truncated?)"},
		{"header only", h, "f.txt: no node rows after the header (truncated?)"},
		{"column count", h + "0\t1,0\n", "f.txt:2: 2 tab-separated columns, want 3"},
		{"non-numeric feature", h + "0\t1,x,0\t1\n", `f.txt:2: feature 1 "x" is not a number`},
		{"non-numeric label", h + "0\t1,0,0\tcat\n", `f.txt:2: label "cat" is not a non-negative integer`},
		{"label out of range", h + "0\t1,0,0\t1\n1\t0,0,1\t7\n", "f.txt:3: label 7 out of range [0,5)"},
		{"feature count", h + "0\t1,0,0\t1\n1\t0,1\t0\n", "f.txt:3: 2 features, want 3 (as on line 2)"},
		{"duplicate id", h + "0\t1\t1\n0\t0\t0\n", "f.txt:3: node id 0 appears twice"},
		{"missing id", h + "0\t1\t1\n2\t0\t0\n", "f.txt: node ids are not 0..1: id 1 is missing"},
		{"truncated row", h + "0\t1,0,0\t1\n1\t0,1", "f.txt:3: 2 tab-separated columns, want 3"},
		{"empty line", h + "0\t1\t1\n\n1\t1\t1\n", "f.txt:3: empty line"},
	}
	for _, c := range cases {
		_, _, err := datasets.ReadGeomGCNFeatures(strings.NewReader(c.in), "f.txt", 5)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.name, err, c.want)
		}
	}
	eh := "node_id\tnode_id\n"
	ecases := []struct{ name, in, want string }{
		{"missing node", eh + "0\t1\n1\t9\n", "e.txt:3: edge to missing node 9 (the graph has 3 nodes)"},
		{"columns", eh + "0\t1\t2\n", "e.txt:2: 3 tab-separated columns, want 2"},
		{"non-numeric", eh + "0\t-1\n", `e.txt:2: node id "-1" is not a non-negative integer`},
		{"empty", "", "e.txt: empty file (truncated?)"},
	}
	for _, c := range ecases {
		_, _, err := datasets.ReadGeomGCNEdges(strings.NewReader(c.in), "e.txt", 3)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.name, err, c.want)
		}
	}
	src, dst, err := datasets.ReadGeomGCNEdges(strings.NewReader(eh+"2\t2\n0\t1\n0\t1\n"), "e.txt", 3)
	if err != nil || !slices.Equal(src, []int32{2, 0, 0}) || !slices.Equal(dst, []int32{2, 1, 1}) {
		t.Errorf("rows as given (self loop, duplicate kept): %v %v %v", src, dst, err)
	}
}

func maskMember(name, descr string, n int, ones ...int) fx.Member {
	b := make([]byte, n)
	for _, i := range ones {
		b[i] = 1
	}
	return fx.Member{Name: name, Data: fx.NPY(descr, []int{n}, false, b)}
}

func writeTemp(t *testing.T, name string, b []byte) string {
	p := filepath.Join(t.TempDir(), name)
	writeFile(t, p, b)
	return p
}

func TestLoadGeomGCNFromFiles(t *testing.T) {
	feat := writeTemp(t, "f.txt", []byte(texasLike))
	edges := writeTemp(t, "e.txt", []byte("node_id\tnode_id\n0\t1\n1\t1\n2\t0\n"))
	split := writeTemp(t, "s.npz", fx.NPZ(false, maskMember("train_mask", "|u1", 3, 0), maskMember("val_mask", "|b1", 3, 1),
		maskMember("test_mask", "|u1", 3, 2)))
	g, err := datasets.LoadGeomGCN("toy", feat, edges, []string{split, split}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if g.NumNodes() != 3 || g.NumEdges() != 3 || len(g.Splits()) != 2 || g.Splits()[0].String() != "1/1/1" || g.Name() != "toy" {
		t.Errorf("%v", g)
	}
}

func TestSplitNPZErrors(t *testing.T) {
	cases := []struct {
		name, want string
		members    []fx.Member
	}{
		{"wrong length", `key "train_mask" has length 4, want 3 (one entry per node)`,
			[]fx.Member{maskMember("train_mask", "|u1", 4), maskMember("val_mask", "|u1", 3), maskMember("test_mask", "|u1", 3)}},
		{"missing key", `missing key "test_mask"`,
			[]fx.Member{maskMember("train_mask", "|u1", 3), maskMember("val_mask", "|u1", 3)}},
		{"wrong dtype", `key "val_mask": wrong dtype or values`,
			[]fx.Member{maskMember("train_mask", "|u1", 3), {Name: "val_mask", Data: fx.NPY("<f4", []int{3}, false, make([]byte, 12))},
				maskMember("test_mask", "|u1", 3)}},
		{"overlap", "node 1 is in more than one of train/val/test",
			[]fx.Member{maskMember("train_mask", "|u1", 3, 1), maskMember("val_mask", "|u1", 3, 1), maskMember("test_mask", "|u1", 3)}},
	}
	for _, c := range cases {
		p := writeTemp(t, "split.npz", fx.NPZ(false, c.members...))
		_, err := datasets.ReadSplitNPZ(p, 3)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: err = %v, want %q and the path", c.name, err, c.want)
		}
	}
	// A truncated npz.
	full := fx.NPZ(false, maskMember("train_mask", "|u1", 3), maskMember("val_mask", "|u1", 3), maskMember("test_mask", "|u1", 3))
	p := writeTemp(t, "cut.npz", full[:len(full)-30])
	if _, err := datasets.ReadSplitNPZ(p, 3); err == nil || !strings.Contains(err.Error(), "cut.npz: not a valid .npz") {
		t.Errorf("truncated npz: %v", err)
	}
}

// heteroNPZ writes a heterophilous-graphs style npz for 4 nodes; override
// replaces or (with nil Data) drops members.
func heteroNPZ(override ...fx.Member) []byte {
	masks := func(ones ...int) []byte {
		b := make([]byte, 8) // 2 splits x 4 nodes
		for _, i := range ones {
			b[i] = 1
		}
		return fx.NPY("|b1", []int{2, 4}, false, b)
	}
	members := []fx.Member{
		{Name: "node_features", Data: fx.NPY("<f4", []int{4, 2}, false, fx.Float32s([]float32{1, 0, 0, 2, 3, 3, 0, 0}))},
		{Name: "node_labels", Data: fx.NPY("<i8", []int{4}, false, fx.Int64s([]int64{0, 1, 1, 0}))},
		{Name: "edges", Data: fx.NPY("<i8", []int{3, 2}, false, fx.Int64s([]int64{0, 1, 1, 2, 3, 0}))},
		{Name: "train_masks", Data: masks(0, 5)},
		{Name: "val_masks", Data: masks(1, 6)},
		{Name: "test_masks", Data: masks(2, 3, 4, 7)},
	}
	for _, o := range override {
		i := slices.IndexFunc(members, func(m fx.Member) bool { return m.Name == o.Name })
		if o.Data == nil {
			members = slices.Delete(members, i, i+1)
		} else {
			members[i] = o
		}
	}
	return fx.NPZ(true, members...)
}

func TestLoadHeterophilousNPZ(t *testing.T) {
	g, err := datasets.LoadHeterophilousNPZ("toy", writeTemp(t, "h.npz", heteroNPZ()), 2)
	if err != nil {
		t.Fatal(err)
	}
	// Edges as stored, one direction each.
	if !slices.Equal(g.Src(), []int32{0, 1, 3}) || !slices.Equal(g.Dst(), []int32{1, 2, 0}) {
		t.Errorf("edges %v -> %v", g.Src(), g.Dst())
	}
	if len(g.Splits()) != 2 || g.Splits()[0].String() != "1/1/2" || !slices.Equal(g.Splits()[1].Train, []int32{1}) ||
		!slices.Equal(g.Splits()[1].Test, []int32{0, 3}) {
		t.Errorf("splits %v", g.Splits())
	}
	if g.Features().At(1, 1) != 2 || g.Features().At(2, 0) != 3 || g.NumClasses() != 2 {
		t.Errorf("features/classes wrong: %v", g)
	}
	cases := []struct {
		name, want string
		m          fx.Member
	}{
		{"missing key", `missing key "edges"`, fx.Member{Name: "edges"}},
		{"label dtype", `key "node_labels" has wrong dtype <f4 (want integer)`,
			fx.Member{Name: "node_labels", Data: fx.NPY("<f4", []int{4}, false, fx.Float32s([]float32{0, 1, 1, 0}))}},
		{"label range", `key "node_labels": node 2 has label 3 out of range [0,2)`,
			fx.Member{Name: "node_labels", Data: fx.NPY("<i8", []int{4}, false, fx.Int64s([]int64{0, 1, 3, 0}))}},
		{"edge to missing node", `key "edges": row 1: edge to missing node 4 (the graph has 4 nodes)`,
			fx.Member{Name: "edges", Data: fx.NPY("<i8", []int{2, 2}, false, fx.Int64s([]int64{0, 1, 4, 2}))}},
		{"mask length", `key "val_masks" has shape [2 5], want (4,) or (splits, 4): a mask of the wrong length`,
			fx.Member{Name: "val_masks", Data: fx.NPY("|b1", []int{2, 5}, false, make([]byte, 10))}},
		{"edges shape", `key "edges" has shape [3 3], want (E, 2)`,
			fx.Member{Name: "edges", Data: fx.NPY("<i8", []int{3, 3}, false, fx.Int64s(make([]int64, 9)))}},
		{"truncated member", `key "node_features": npy: data of shape [4 2] dtype <f4: got 16 of 32 bytes: truncated`,
			fx.Member{Name: "node_features", Data: fx.NPY("<f4", []int{4, 2}, false, fx.Float32s([]float32{1, 2, 3, 4}))}},
	}
	for _, c := range cases {
		p := writeTemp(t, "h.npz", heteroNPZ(c.m))
		_, err := datasets.LoadHeterophilousNPZ("toy", p, 2)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: err = %v, want %q", c.name, err, c.want)
		}
		if c.name == "truncated member" && !errors.Is(err, npy.ErrTruncated) {
			t.Errorf("truncated member does not wrap npy.ErrTruncated")
		}
	}
}

func wikiNPZ(labelKey string, labels []byte, labelDescr string, masks bool) []byte {
	m := []fx.Member{
		{Name: "features", Data: fx.NPY("<f4", []int{3, 2}, false, fx.Float32s([]float32{1, 0, 0, 1, 1, 1}))},
		{Name: "edges", Data: fx.NPY("<i8", []int{3, 2}, false, fx.Int64s([]int64{0, 1, 1, 0, 2, 2}))},
		{Name: labelKey, Data: fx.NPY(labelDescr, []int{3}, false, labels)},
	}
	if masks {
		m = append(m, maskMember("train_mask", "|b1", 3, 0), maskMember("val_mask", "|b1", 3, 1), maskMember("test_mask", "|b1", 3, 2))
	}
	return fx.NPZ(false, m...)
}

func TestLoadWikipediaNPZ(t *testing.T) {
	g, err := datasets.LoadWikipediaNPZ("croc", writeTemp(t, "c.npz", wikiNPZ("target", fx.Int64s([]int64{4, 0, 2}), "<i8", false)), 5)
	if err != nil || !slices.Equal(g.Labels(), []int32{4, 0, 2}) || g.NumEdges() != 3 || len(g.Splits()) != 0 {
		t.Fatalf("target: %v %v", g, err)
	}
	// LW-GCN's variant: "label" (whole-number floats accepted) and masks.
	g, err = datasets.LoadWikipediaNPZ("croc", writeTemp(t, "c.npz", wikiNPZ("label", fx.Float64s([]float64{1, 3, 0}), "<f8", true)), 5)
	if err != nil || !slices.Equal(g.Labels(), []int32{1, 3, 0}) || len(g.Splits()) != 1 || g.Splits()[0].String() != "1/1/1" {
		t.Fatalf("label+masks: %v %v", g, err)
	}
	cases := []struct {
		name, want string
		npz        []byte
	}{
		{"raw traffic", "not an integer class label", wikiNPZ("target", fx.Float64s([]float64{12.5, 3, 0}), "<f8", false)},
		{"raw counts", "node 0 has label 4500 out of range [0,5): these are not class labels",
			wikiNPZ("target", fx.Float64s([]float64{4500, 3, 0}), "<f8", false)},
		{"int out of range", `key "target": node 1 has label 7 out of range [0,5)`,
			wikiNPZ("target", fx.Int64s([]int64{0, 7, 0}), "<i8", false)},
		{"no labels", `missing key "target" or "label"`, wikiNPZ("y", fx.Int64s([]int64{0, 1, 0}), "<i8", false)},
	}
	for _, c := range cases {
		_, err := datasets.LoadWikipediaNPZ("croc", writeTemp(t, "c.npz", c.npz), 5)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.name, err, c.want)
		}
	}
}

// writePlanetoid writes a Citeseer-like toy Planetoid dataset "pubmed": 504
// nodes in allx (node i has feature 0 = i, label i%3), training nodes 0..3,
// test.index 507, 504, 506 in file order (a gap at 505), tx rows for those
// nodes [0,7], [0,4], [0,6] with labels 2, 1, 2; and an adjacency dict with a
// self loop and a duplicate.
func writePlanetoid(t *testing.T, dir string, graph map[int][]int, testIndex string) {
	const n0 = 504
	dense := make([]float32, n0*2)
	ally := make([]int, n0)
	for i := 0; i < n0; i++ {
		dense[2*i] = float32(i)
		ally[i] = i % 3
	}
	csr := func(rows int, d []float32) []byte {
		ip, ix, v := fx.DenseCSR(rows, 2, d)
		return fx.CSRMatrix(rows, 2, ip, ix, v)
	}
	files := map[string][]byte{
		"x":          csr(4, dense[:8]),
		"y":          fx.OneHot(ally[:4], 3),
		"allx":       csr(n0, dense),
		"ally":       fx.OneHot(ally, 3),
		"tx":         csr(3, []float32{0, 7, 0, 4, 0, 6}),
		"ty":         fx.OneHot([]int{2, 1, 2}, 3),
		"graph":      fx.AdjacencyDict(graph, true),
		"test.index": []byte(testIndex),
	}
	for ext, b := range files {
		writeFile(t, filepath.Join(dir, "ind.pubmed."+ext), b)
	}
}

var toyPlanetoidGraph = map[int][]int{0: {1, 0, 1}, 1: {0}, 504: {505}, 505: {504}, 507: {506}}

func TestPlanetoidOnSmallPubmedFiles(t *testing.T) {
	dir := t.TempDir()
	writePlanetoid(t, dir, toyPlanetoidGraph, "507\n504\n506\n")
	g, err := datasets.LoadPlanetoid("pubmed", dir)
	if err != nil {
		t.Fatal(err)
	}
	if g.NumNodes() != 508 || g.NumClasses() != 3 || g.Features().NumCols() != 2 {
		t.Fatalf("%v", g)
	}
	// x[test_index[i]] = tx[i]; the gap node 505 gets a zero row, label 0.
	for _, c := range []struct {
		node  int
		f1    float32
		label int32
	}{{507, 7, 2}, {504, 4, 1}, {506, 6, 2}, {505, 0, 0}} {
		if g.Features().At(c.node, 1) != c.f1 || g.Features().At(c.node, 0) != 0 || g.Labels()[c.node] != c.label {
			t.Errorf("node %d: features %v label %d, want [0 %v] label %d", c.node, g.Features().DenseRow(c.node),
				g.Labels()[c.node], c.f1, c.label)
		}
	}
	if g.Features().At(10, 0) != 10 || g.Labels()[10] != 1 || g.Labels()[503] != 2 {
		t.Errorf("allx rows misplaced")
	}
	s := g.Splits()[0]
	if !slices.Equal(s.Train, []int32{0, 1, 2, 3}) || len(s.Val) != 500 || s.Val[0] != 4 || s.Val[499] != 503 ||
		!slices.Equal(s.Test, []int32{504, 506, 507}) {
		t.Errorf("public split %s", s)
	}
	// Self loop removed, duplicate merged, sorted (0 was pickled as 0L).
	if !slices.Equal(g.Src(), []int32{0, 1, 504, 505, 507}) || !slices.Equal(g.Dst(), []int32{1, 0, 505, 504, 506}) {
		t.Errorf("edges %v -> %v", g.Src(), g.Dst())
	}
}

func TestPlanetoidErrors(t *testing.T) {
	dir := t.TempDir()
	writePlanetoid(t, dir, map[int][]int{0: {600}}, "507\n504\n506\n")
	_, err := datasets.LoadPlanetoid("pubmed", dir)
	if err == nil || !strings.Contains(err.Error(), "ind.pubmed.graph: node 0: edge to missing node 600 (the graph has 508 nodes)") {
		t.Errorf("edge to missing node: %v", err)
	}
	writePlanetoid(t, dir, toyPlanetoidGraph, "507\n504\nx\n")
	if _, err = datasets.LoadPlanetoid("pubmed", dir); err == nil || !strings.Contains(err.Error(), `ind.pubmed.test.index:3: "x" is not a node index`) {
		t.Errorf("bad test index: %v", err)
	}
	writePlanetoid(t, dir, toyPlanetoidGraph, "507\n504\n")
	if _, err = datasets.LoadPlanetoid("pubmed", dir); err == nil || !strings.Contains(err.Error(), "2 test indices but tx has 3 rows") {
		t.Errorf("short test index: %v", err)
	}
	writePlanetoid(t, dir, toyPlanetoidGraph, "507\n504\n506\n")
	p := filepath.Join(dir, "ind.pubmed.allx")
	b, _ := os.ReadFile(p)
	writeFile(t, p, b[:len(b)/2])
	if _, err = datasets.LoadPlanetoid("pubmed", dir); err == nil || !strings.Contains(err.Error(), p+": pickle:") {
		t.Errorf("truncated pickle: %v", err)
	}
	os.Remove(p)
	if _, err = datasets.LoadPlanetoid("pubmed", dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing allx: %v", err)
	}
}

func TestEvenQuantileLabelsMatchesLINKX(t *testing.T) {
	// Expected values from LINKX's even_quantile_labels run with NumPy.
	labels, bounds := datasets.EvenQuantileLabels([]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 5)
	if !slices.Equal(labels, []int32{0, 0, 1, 1, 2, 2, 3, 3, 4, 4}) || !slices.Equal(bounds, []float64{2.8, 4.6, 6.3999999999999995, 8.2}) {
		t.Errorf("1..10: %v %v", labels, bounds)
	}
	// Ties: the interval [2010, 2010) is empty, so class 2 gets no node.
	years := []float64{2005, 2007, 2007, 2008, 2010, 2010, 2010, 2012, 2013, 2015, 2019}
	labels, bounds = datasets.EvenQuantileLabels(years, 5)
	if !slices.Equal(labels, []int32{0, 1, 1, 1, 3, 3, 3, 3, 4, 4, 4}) || !slices.Equal(bounds, []float64{2007, 2010, 2010, 2013}) {
		t.Errorf("ties: %v %v", labels, bounds)
	}
	labels, _ = datasets.EvenQuantileLabels([]float64{3, math.NaN(), 1, 2}, 2)
	if !slices.Equal(labels, []int32{1, -1, 0, 1}) {
		t.Errorf("NaN: %v", labels)
	}
}

var toyYears = []int{2005, 2007, 2007, 2008, 2010, 2010, 2010, 2012, 2013, 2015, 2019}

// arxivZip writes an OGB-style arxiv.zip for the 11 toy nodes.
func arxivZip(override map[string][]byte) []byte {
	var feat, year bytes.Buffer
	for i, y := range toyYears {
		fmt.Fprintf(&feat, "%d,%g\n", i, -float64(i)/2)
		fmt.Fprintf(&year, "%d\n", y)
	}
	files := map[string][]byte{
		"arxiv/raw/node-feat.csv.gz":     fx.Gzip(feat.Bytes()),
		"arxiv/raw/node_year.csv.gz":     fx.Gzip(year.Bytes()),
		"arxiv/raw/edge.csv.gz":          fx.Gzip([]byte("0,1\n1,2\n10,0\n")),
		"arxiv/raw/num-node-list.csv.gz": fx.Gzip([]byte("11\n")),
		"arxiv/raw/node-label.csv.gz":    fx.Gzip([]byte("ignored\n")),
	}
	for k, v := range override {
		if v == nil {
			delete(files, k)
		} else {
			files[k] = v
		}
	}
	return fx.Zip(files)
}

func TestArxivYearOnSmallFiles(t *testing.T) {
	zp := writeTemp(t, "arxiv.zip", arxivZip(nil))
	sp := writeTemp(t, "splits.npy", fx.NPY("|O", []int{2}, false, fx.SplitDicts([][3][]int{
		{{0, 1, 2, 3, 4}, {5, 6, 7}, {8, 9, 10}}, {{10, 9}, {0}, {1, 2}}})))
	g, err := datasets.LoadArxivYear(zp, sp)
	if err != nil {
		t.Fatal(err)
	}
	if g.Name() != "arxiv-year" || g.NumNodes() != 11 || g.NumClasses() != 5 || g.Features().IsSparse() ||
		g.Features().At(4, 1) != -2 || g.Features().At(7, 0) != 7 {
		t.Errorf("%v", g)
	}
	if !slices.Equal(g.Labels(), []int32{0, 1, 1, 1, 3, 3, 3, 3, 4, 4, 4}) {
		t.Errorf("labels %v", g.Labels())
	}
	if !slices.Equal(g.Src(), []int32{0, 1, 10}) || !slices.Equal(g.Dst(), []int32{1, 2, 0}) {
		t.Errorf("edges not as in the file: %v -> %v", g.Src(), g.Dst())
	}
	if len(g.Splits()) != 2 || g.Splits()[0].String() != "5/3/3" || !slices.Equal(g.Splits()[1].Train, []int32{9, 10}) {
		t.Errorf("splits %v", g.Splits())
	}
}

func TestArxivErrors(t *testing.T) {
	cases := []struct {
		name, want string
		override   map[string][]byte
	}{
		{"missing edges", "arxiv.zip: missing raw/edge.csv.gz", map[string][]byte{"arxiv/raw/edge.csv.gz": nil}},
		{"edge to missing node", "arxiv.zip:arxiv/raw/edge.csv.gz:2: edge to missing node 11 (the graph has 11 nodes)",
			map[string][]byte{"arxiv/raw/edge.csv.gz": fx.Gzip([]byte("0,1\n11,2\n"))}},
		{"columns", "arxiv.zip:arxiv/raw/node-feat.csv.gz:2: 3 columns, want 2",
			map[string][]byte{"arxiv/raw/node-feat.csv.gz": fx.Gzip([]byte("1,2\n1,2,3\n"))}},
		{"non-numeric", `arxiv.zip:arxiv/raw/node_year.csv.gz:1: year "MMXX" is not an integer`,
			map[string][]byte{"arxiv/raw/node_year.csv.gz": fx.Gzip([]byte("MMXX\n"))}},
		{"year count", "arxiv.zip: node_year has 1 rows but node-feat has 11",
			map[string][]byte{"arxiv/raw/node_year.csv.gz": fx.Gzip([]byte("2010\n"))}},
		{"truncated gzip", "truncated", map[string][]byte{"arxiv/raw/edge.csv.gz": fx.Gzip(bytes.Repeat([]byte("0,1\n"), 1000))[:40]}},
	}
	sp := writeTemp(t, "splits.npy", fx.NPY("|O", []int{1}, false, fx.SplitDicts([][3][]int{{{0}, {1}, {2}}})))
	for _, c := range cases {
		zp := writeTemp(t, "arxiv.zip", arxivZip(c.override))
		_, err := datasets.LoadArxivYear(zp, sp)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.name, err, c.want)
		}
	}
	// Split errors.
	zp := writeTemp(t, "arxiv.zip", arxivZip(nil))
	bad := writeTemp(t, "s.npy", fx.NPY("|O", []int{1}, false, fx.SplitDicts([][3][]int{{{0}, {1}, {99}}})))
	if _, err := datasets.LoadArxivYear(zp, bad); err == nil || !strings.Contains(err.Error(), `s.npy: split 0 key "test": node 99 outside [0,11)`) {
		t.Errorf("split out of range: %v", err)
	}
	if _, err := zip.OpenReader(zp); err != nil {
		t.Fatal(err)
	}
}

// A file cut mid-line used to load: the cut last row "1\t1" of "1\t12" parsed
// as an edge to node 1. The canonical files end with a newline, so a last
// line without one is an error naming the file and line.
func TestLoadGeomGCNRejectsCutFiles(t *testing.T) {
	eh := "node_id\tnode_id\n"
	src, _, err := datasets.ReadGeomGCNEdges(strings.NewReader(eh+"0\t1\n1\t2"), "e.txt", 13)
	if err == nil || err.Error() != "e.txt:3: the last line has no newline: the file looks cut (truncated download or copy)" {
		t.Errorf("edges cut mid-line: %v (rows %v)", err, src)
	}
	_, _, err = datasets.ReadGeomGCNFeatures(strings.NewReader(strings.TrimSuffix(texasLike, "\n")), "f.txt", 3)
	if err == nil || !strings.Contains(err.Error(), "the last line has no newline") {
		t.Errorf("features cut mid-line: %v", err)
	}
	// Through LoadGeomGCN, with files on disk.
	dir := t.TempDir()
	fp, ep := filepath.Join(dir, "out1_node_feature_label.txt"), filepath.Join(dir, "out1_graph_edges.txt")
	if err := os.WriteFile(fp, []byte(texasLike), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ep, []byte(eh+"0\t1\n1\t2\n2\t1"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = datasets.LoadGeomGCN("cut", fp, ep, nil, 3)
	if err == nil || !strings.Contains(err.Error(), ep+":4: the last line has no newline") {
		t.Errorf("LoadGeomGCN: %v", err)
	}
	if err := os.WriteFile(ep, []byte(eh+"0\t1\n1\t2\n2\t1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if g, err := datasets.LoadGeomGCN("whole", fp, ep, nil, 3); err != nil || g.NumEdges() != 3 {
		t.Errorf("whole file: %v, %v", g, err)
	}
}
