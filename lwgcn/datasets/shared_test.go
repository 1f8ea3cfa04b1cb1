package datasets_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/datasets"
	"github.com/lwgcn/toolkit/lwgcn/graph"
)

// sharedGraphs loads every dataset whose files are in ../shared through the
// real download path once per test binary: an httptest server serves the
// shared directory as the mirror, files land in a temporary cache and are
// checksum-verified there.
var sharedCache = map[string]*graph.Graph{}

func loadShared(t *testing.T, name string) *graph.Graph {
	t.Helper()
	if g, ok := sharedCache[name]; ok {
		return g
	}
	dir := sharedDir(t)
	srv := serveDir(t, dir)
	cache := t.TempDir()
	g, err := datasets.Load(context.Background(), name, datasets.WithMirror(srv.URL), datasets.WithCacheDir(cache),
		datasets.Silent())
	if err != nil {
		t.Fatalf("Load(%s): %v", name, err)
	}
	// The cached copies are byte-identical to the manifest's files.
	man := readManifest(t)
	d, _ := datasets.Lookup(name)
	for _, f := range d.Files {
		b, err := os.ReadFile(filepath.Join(cache, f.CachePath()))
		if err != nil {
			t.Fatal(err)
		}
		if got := sha256Hex(b); got != man[f.CachePath()].sha {
			t.Errorf("cached %s has sha %s, manifest %s", f.CachePath(), got, man[f.CachePath()].sha)
		}
	}
	sharedCache[name] = g
	return g
}

func TestLoadSharedDatasetsThroughHTTPMirror(t *testing.T) {
	// Counts from the README's table, PyG's documentation and our Python
	// cross-checks of the raw files; -1 = not checked.
	cases := []struct {
		name                                  string
		nodes, edges, feats, classes, nsplits int
		split0                                string
		counts                                []int
	}{
		{"texas", 183, 325, 1703, 5, 10, "87/59/37", []int{33, 1, 18, 101, 30}},
		{"wisconsin", 251, 515, 1703, 5, 10, "120/80/51", []int{10, 70, 118, 32, 21}},
		{"cornell", 183, 298, 1703, 5, 10, "87/59/37", []int{33, 1, 18, 101, 30}},
		{"chameleon", 2277, 36101, 2325, 5, 10, "", []int{456, 460, 453, 521, 387}},
		{"squirrel", 5201, 217073, 2089, 5, 10, "", []int{1042, 1040, 1039, 1040, 1040}},
		{"chameleon_filtered", 890, 8854, -1, 5, 10, "", nil},
		{"squirrel_filtered", 2223, 46998, -1, 5, 10, "", nil},
		{"minesweeper", 10000, 39402, -1, 2, 10, "", []int{8000, 2000}},
		{"tolokers", 11758, 519000, -1, 2, 10, "", nil},
		{"cora", 2708, 10556, 1433, 7, 1, "140/500/1000", []int{351, 217, 418, 818, 426, 298, 180}},
		{"citeseer", 3327, 9104, 3703, 6, 1, "120/500/1000", []int{264, 590, 668, 701, 596, 508}},
		{"cora_gnnbench", 2708, 5429, 1433, 7, 0, "", nil},
		{"citeseer_gnnbench", 3312, 4715, 3703, 6, 0, "", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := loadShared(t, c.name)
			if g.NumNodes() != c.nodes || g.NumEdges() != c.edges || g.NumClasses() != c.classes || len(g.Splits()) != c.nsplits {
				t.Errorf("got %d nodes, %d edges, %d classes, %d splits; want %d, %d, %d, %d", g.NumNodes(), g.NumEdges(),
					g.NumClasses(), len(g.Splits()), c.nodes, c.edges, c.classes, c.nsplits)
			}
			if c.feats >= 0 && g.Features().NumCols() != c.feats {
				t.Errorf("%d features, want %d", g.Features().NumCols(), c.feats)
			}
			if c.split0 != "" && g.Splits()[0].String() != c.split0 {
				t.Errorf("split 0 = %s, want %s", g.Splits()[0], c.split0)
			}
			if c.counts != nil && !slices.Equal(g.ClassCounts(), c.counts) {
				t.Errorf("class counts %v, want %v", g.ClassCounts(), c.counts)
			}
			if g.Name() != c.name {
				t.Errorf("name %q", g.Name())
			}
		})
	}
}

func TestTexasEdgesAsGiven(t *testing.T) {
	g := loadShared(t, "texas")
	// Edge homophily over the directed rows as given: 35 of 325 rows join
	// equal labels (0.108, the value the heterophily literature reports).
	same := 0
	y := g.Labels()
	for e := range g.Src() {
		if y[g.Src()[e]] == y[g.Dst()[e]] {
			same++
		}
	}
	if h := float64(same) / float64(g.NumEdges()); same != 35 || h < 0.1075 || h > 0.1085 {
		t.Errorf("edge homophily %d/%d = %.4f, want 35/325 = 0.1077", same, g.NumEdges(), h)
	}
	// Table 4's 309 = rows without the 16 self loops.
	loops := 0
	for e := range g.Src() {
		if g.Src()[e] == g.Dst()[e] {
			loops++
		}
	}
	if loops != 16 || g.NumEdges()-loops != 309 {
		t.Errorf("%d self loops, %d other rows; want 16 and 309", loops, g.NumEdges()-loops)
	}
	if !g.Features().IsSparse() || g.Features().NNZ() != 15266 {
		t.Errorf("features sparse=%v nnz=%d, want sparse with 15266 ones", g.Features().IsSparse(), g.Features().NNZ())
	}
	// First row of the file: "56\t84".
	if g.Src()[0] != 56 || g.Dst()[0] != 84 {
		t.Errorf("first edge %d->%d, want 56->84", g.Src()[0], g.Dst()[0])
	}
}

func TestCornellReusesTexasFeatures(t *testing.T) {
	tx, co := loadShared(t, "texas"), loadShared(t, "cornell")
	if !tx.Features().Equal(co.Features()) || !slices.Equal(tx.Labels(), co.Labels()) {
		t.Error("cornell's Geom-GCN features/labels differ from texas's, but the files are byte-identical")
	}
	// Table 4's 280 = unique undirected pairs (self loops counted once).
	pairs := map[[2]int32]bool{}
	for e := range co.Src() {
		u, v := co.Src()[e], co.Dst()[e]
		pairs[[2]int32{min(u, v), max(u, v)}] = true
	}
	if len(pairs) != 280 {
		t.Errorf("%d unique undirected pairs, want 280", len(pairs))
	}
}

// TestGeomGCNAndHeterophilousNPZDescribeTheSameGraphs verifies the claim the
// chameleon/squirrel default route relies on: the heterophilous-graphs npz
// has the Geom-GCN node numbering, its undirected edge set equals the Geom-GCN
// rows' (without self loops), and its masks equal the ten split files. For
// texas and wisconsin, whose Geom-GCN feature files are here, labels and
// features agree too.
func TestGeomGCNAndHeterophilousNPZDescribeTheSameGraphs(t *testing.T) {
	dir := sharedDir(t)
	for _, name := range []string{"chameleon", "squirrel", "texas", "wisconsin"} {
		h, err := datasets.LoadHeterophilousNPZ(name, filepath.Join(dir, "heterophilous-graphs/data", name+".npz"), 0)
		if err != nil {
			t.Fatal(err)
		}
		g := loadShared(t, name)
		und := func(src, dst []int32) map[[2]int32]bool {
			m := map[[2]int32]bool{}
			for e := range src {
				if u, v := src[e], dst[e]; u != v {
					m[[2]int32{min(u, v), max(u, v)}] = true
				}
			}
			return m
		}
		a, b := und(g.Src(), g.Dst()), und(h.Src(), h.Dst())
		equal := len(a) == len(b) && len(b) == h.NumEdges()
		for p := range a {
			equal = equal && b[p]
		}
		if !equal {
			t.Errorf("%s: Geom-GCN has %d undirected pairs, npz %d (%d rows): sets differ", name, len(a), len(b), h.NumEdges())
		}
		if len(g.Splits()) != 10 || len(h.Splits()) != 10 {
			t.Fatalf("%s: %d and %d splits", name, len(g.Splits()), len(h.Splits()))
		}
		for i := range g.Splits() {
			gs, hs := g.Splits()[i], h.Splits()[i]
			if !slices.Equal(gs.Train, hs.Train) || !slices.Equal(gs.Val, hs.Val) || !slices.Equal(gs.Test, hs.Test) {
				t.Errorf("%s split %d: Geom-GCN %s, npz %s differ", name, i, gs, hs)
			}
		}
		if !slices.Equal(g.Labels(), h.Labels()) {
			t.Errorf("%s: labels differ", name)
		}
		if name == "texas" || name == "wisconsin" {
			if !g.Features().Equal(h.Features().ToSparse()) {
				t.Errorf("%s: Geom-GCN text features differ from the npz's", name)
			}
		}
	}
}

func TestPlanetoidMatchesPyG(t *testing.T) {
	// Reference values computed with a NumPy/SciPy re-implementation of PyG's
	// read_planetoid_data on the same files.
	cora := loadShared(t, "cora")
	checkPlanetoid(t, cora, []int32{3, 4, 4, 0, 3, 2, 0, 3, 3, 2}, []int32{2692, 2532, 2050, 1715, 2362},
		[]int32{3, 1, 6, 2, 4}, 15, []int32{311, 314, 353, 505, 510, 621, 1075, 1132}, 49216)
	cite := loadShared(t, "citeseer")
	checkPlanetoid(t, cite, []int32{3, 1, 5, 5, 3, 1, 3, 0, 3, 5}, []int32{2488, 2644, 3261, 2804, 3176},
		[]int32{2, 0, 1, 3, 0}, 41, []int32{19, 21, 169, 170, 425, 459, 510, 511}, 105165)
	// Citeseer's 15 filler nodes (gaps in test.index): zero features, label 0,
	// in no split set. (They are not isolated: the graph dict gives them
	// edges, e.g. 2407 <-> 2352.)
	test := map[int32]bool{}
	for _, v := range cite.Splits()[0].Test {
		test[v] = true
	}
	var gaps []int32
	for v := int32(2312); v <= 3326; v++ {
		if !test[v] {
			gaps = append(gaps, v)
		}
	}
	if len(gaps) != 15 || !slices.Equal(gaps[:5], []int32{2407, 2489, 2553, 2682, 2781}) || !hasEdge(cite, 2407, 2352) {
		t.Fatalf("gap nodes %v", gaps)
	}
	for _, v := range gaps {
		cols, _ := cite.Features().SparseRow(int(v))
		if len(cols) != 0 || cite.Labels()[v] != 0 || v < 620 {
			t.Errorf("filler node %d: %d features, label %d", v, len(cols), cite.Labels()[v])
		}
	}
}

func checkPlanetoid(t *testing.T, g *graph.Graph, first10, testIDs, testLabels []int32, rowSum float64, rowCols []int32, nnz int) {
	t.Helper()
	if !slices.Equal(g.Labels()[:10], first10) {
		t.Errorf("%s: first labels %v, want %v", g.Name(), g.Labels()[:10], first10)
	}
	if !slices.Equal(g.Splits()[0].Train, seq(0, len(g.Splits()[0].Train))) {
		t.Errorf("%s: train set is not the first nodes", g.Name())
	}
	for i, v := range testIDs {
		if g.Labels()[v] != testLabels[i] {
			t.Errorf("%s: label of node %d = %d, want %d", g.Name(), v, g.Labels()[v], testLabels[i])
		}
	}
	cols, vals := g.Features().SparseRow(int(testIDs[0]))
	s := 0.0
	for _, v := range vals {
		s += float64(v)
	}
	if s != rowSum || !slices.Equal(cols[:len(rowCols)], rowCols) {
		t.Errorf("%s: features of node %d: sum %v cols %v", g.Name(), testIDs[0], s, cols[:min(len(cols), 8)])
	}
	if g.Features().NNZ() != nnz {
		t.Errorf("%s: nnz %d, want %d", g.Name(), g.Features().NNZ(), nnz)
	}
	// Coalesced, no self loops, symmetric.
	set := map[[2]int32]bool{}
	for e := range g.Src() {
		u, v := g.Src()[e], g.Dst()[e]
		if u == v {
			t.Fatalf("%s: self loop at %d", g.Name(), u)
		}
		if e > 0 && (g.Src()[e-1] > u || (g.Src()[e-1] == u && g.Dst()[e-1] >= v)) {
			t.Fatalf("%s: edges not sorted and unique at %d", g.Name(), e)
		}
		set[[2]int32{u, v}] = true
	}
	for p := range set {
		if !set[[2]int32{p[1], p[0]}] {
			t.Fatalf("%s: edge %v has no reverse", g.Name(), p)
		}
	}
}

func seq(lo, hi int) []int32 {
	out := []int32{}
	for i := lo; i < hi; i++ {
		out = append(out, int32(i))
	}
	return out
}

func TestRealArxivYearSplits(t *testing.T) {
	p := filepath.Join(sharedDir(t), "LWGCN/data/splits/arxiv-year-splits.npy")
	splits, err := datasets.ReadArxivYearSplits(p, 169343)
	if err != nil {
		t.Fatal(err)
	}
	if len(splits) != 5 {
		t.Fatalf("%d splits, want 5", len(splits))
	}
	for i, s := range splits {
		if len(s.Train) != 84671 || len(s.Val) != 42335 || len(s.Test) != 42337 {
			t.Errorf("split %d sizes %s, want 84671/42335/42337", i, s)
		}
		seen := make([]bool, 169343)
		for _, set := range [][]int32{s.Train, s.Val, s.Test} {
			for _, v := range set {
				if seen[v] {
					t.Fatalf("split %d: node %d twice", i, v)
				}
				seen[v] = true
			}
		}
		for v, ok := range seen {
			if !ok {
				t.Fatalf("split %d does not cover node %d", i, v)
			}
		}
	}
}

func hasEdge(g *graph.Graph, u, v int32) bool {
	for e := range g.Src() {
		if g.Src()[e] == u && g.Dst()[e] == v {
			return true
		}
	}
	return false
}
