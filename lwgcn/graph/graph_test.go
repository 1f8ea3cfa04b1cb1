package graph

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// tiny: 5 nodes, edges 0->1, 1->0, 1->2, 2->2 (loop), 3->1, 0->1 (duplicate).
// Node 4 is isolated.
func tiny(t *testing.T) *Graph {
	t.Helper()
	f, err := NewSparseFeatures(5, 4,
		[]int32{0, 2, 3, 3, 5, 6},
		[]int32{0, 3, 1, 0, 2, 3},
		[]float32{1, 1, 2, 1, 3, 4})
	if err != nil {
		t.Fatal(err)
	}
	return MustNew(Spec{
		Name: "tiny", NumNodes: 5,
		Src:      []int32{0, 1, 1, 2, 3, 0},
		Dst:      []int32{1, 0, 2, 2, 1, 1},
		Features: f,
		Labels:   []int32{0, 1, 1, 0, Unlabeled},
		Splits:   []Split{{Train: []int32{3, 0}, Val: []int32{1}, Test: []int32{2}}},
	})
}

func edges(g *Graph) string {
	var b strings.Builder
	for e := range g.Src() {
		fmt.Fprintf(&b, "%d>%d ", g.Src()[e], g.Dst()[e])
	}
	return strings.TrimSpace(b.String())
}

func TestNewInfersClassesAndSortsSplits(t *testing.T) {
	g := tiny(t)
	if g.NumClasses() != 2 {
		t.Errorf("NumClasses = %d, want 2", g.NumClasses())
	}
	if got := g.Splits()[0].Train; !slices.Equal(got, []int32{0, 3}) {
		t.Errorf("train = %v, want sorted [0 3]", got)
	}
	if got := g.ClassCounts(); !slices.Equal(got, []int{2, 2}) {
		t.Errorf("ClassCounts = %v, want [2 2] (node 4 unlabeled)", got)
	}
}

func TestNewErrors(t *testing.T) {
	base := func() Spec {
		return Spec{Name: "bad", NumNodes: 3, Src: []int32{0, 1}, Dst: []int32{1, 2}, Labels: []int32{0, 1, 0}}
	}
	cases := []struct {
		name string
		edit func(*Spec)
		want string
	}{
		{"edge to missing node", func(s *Spec) { s.Dst[1] = 3 }, `graph "bad": edge 1 has destination 3 outside [0,3)`},
		{"negative source", func(s *Spec) { s.Src[0] = -2 }, "edge 0 has source -2"},
		{"length mismatch", func(s *Spec) { s.Dst = s.Dst[:1] }, "2 edge sources but 1 edge destinations"},
		{"label out of range", func(s *Spec) { s.NumClasses = 2; s.Labels[2] = 5 }, "node 2 has label 5 outside [0,2)"},
		{"label below -1", func(s *Spec) { s.Labels[0] = -3 }, "node 0 has label -3"},
		{"labels length", func(s *Spec) { s.Labels = s.Labels[:2] }, "2 labels for 3 nodes"},
		{"split overlap", func(s *Spec) { s.Splits = []Split{{Train: []int32{0, 1}, Val: []int32{1}}} }, "split 0: node 1 is in both train and val"},
		{"split out of range", func(s *Spec) { s.Splits = []Split{{Test: []int32{7}}} }, "split 0: test node 7 outside [0,3)"},
		{"split duplicate", func(s *Spec) { s.Splits = []Split{{Train: []int32{2, 2}}} }, "train lists node 2 twice"},
		{"feature rows", func(s *Spec) {
			f, _ := NewDenseFeatures(2, 1, []float32{1, 2})
			s.Features = f
		}, "features have 2 rows for 3 nodes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := base()
			c.edit(&s)
			_, err := New(s)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want it to contain %q", err, c.want)
			}
		})
	}
}

func TestCSRViews(t *testing.T) {
	g := tiny(t)
	out := g.OutCSR()
	if got := out.Row(0); !slices.Equal(got, []int32{1, 1}) {
		t.Errorf("out row 0 = %v, want [1 1]", got)
	}
	if got := out.Row(1); !slices.Equal(got, []int32{0, 2}) {
		t.Errorf("out row 1 = %v, want [0 2]", got)
	}
	in := g.InCSR()
	if got := in.Row(1); !slices.Equal(got, []int32{0, 3, 0}) {
		t.Errorf("in row 1 = %v, want [0 3 0] (edge order)", got)
	}
	if got := in.EdgeIDs[in.Offsets[1]:in.Offsets[2]]; !slices.Equal(got, []int32{0, 4, 5}) {
		t.Errorf("in edge ids of node 1 = %v, want [0 4 5]", got)
	}
	if in.Degree(4) != 0 || out.Degree(4) != 0 {
		t.Errorf("isolated node 4 has degrees in %d out %d", in.Degree(4), out.Degree(4))
	}
	if !slices.Equal(g.InDegrees(), []int32{1, 3, 2, 0, 0}) || !slices.Equal(g.OutDegrees(), []int32{2, 2, 1, 1, 0}) {
		t.Errorf("degrees in %v out %v", g.InDegrees(), g.OutDegrees())
	}
}

func TestTransformsEdgeCounts(t *testing.T) {
	g := tiny(t)
	if got := edges(g.Coalesce()); got != "0>1 1>0 1>2 2>2 3>1" {
		t.Errorf("Coalesce = %q", got)
	}
	if got := edges(g.RemoveSelfLoops()); got != "0>1 1>0 1>2 3>1 0>1" {
		t.Errorf("RemoveSelfLoops = %q", got)
	}
	// Unordered pairs {0,1},{1,2},{1,3} -> 6 directed edges, plus the loop once.
	if got := edges(g.ToUndirected()); got != "0>1 1>0 1>2 1>3 2>1 2>2 3>1" {
		t.Errorf("ToUndirected = %q", got)
	}
	if got := g.AddSelfLoops(); got.NumEdges() != 6-1+5 || got.NumSelfLoops() != 5 {
		t.Errorf("AddSelfLoops: %d edges, %d loops; want 10 and 5", got.NumEdges(), got.NumSelfLoops())
	}
	if got := edges(g.Reverse()); got != "1>0 0>1 2>1 2>2 1>3 1>0" {
		t.Errorf("Reverse = %q", got)
	}
	if g.NumUndirectedEdges() != 3 || g.NumSelfLoops() != 1 {
		t.Errorf("undirected %d loops %d, want 3 and 1", g.NumUndirectedEdges(), g.NumSelfLoops())
	}
	if g.IsSymmetric() || !g.ToUndirected().IsSymmetric() {
		t.Errorf("IsSymmetric wrong: g %v, undirected %v", g.IsSymmetric(), g.ToUndirected().IsSymmetric())
	}
	if g.NumEdges() != 6 {
		t.Errorf("transforms modified the receiver: %d edges", g.NumEdges())
	}
}

func TestSubgraphAndComponents(t *testing.T) {
	g := tiny(t)
	comp, sizes := g.ConnectedComponents()
	if !slices.Equal(comp, []int32{0, 0, 0, 0, 1}) || !slices.Equal(sizes, []int{4, 1}) {
		t.Fatalf("components %v sizes %v", comp, sizes)
	}
	h, old, err := g.LargestConnectedComponent()
	if err != nil {
		t.Fatal(err)
	}
	if h.NumNodes() != 4 || h.NumEdges() != 6 || !slices.Equal(old, []int32{0, 1, 2, 3}) {
		t.Errorf("LCC: %v old %v", h, old)
	}
	s, old, err := g.Subgraph([]bool{false, true, true, true, false})
	if err != nil {
		t.Fatal(err)
	}
	// Kept edges: 1->2, 2->2, 3->1 renumbered to 0->1, 1->1, 2->0.
	if got := edges(s); got != "0>1 1>1 2>0" || !slices.Equal(old, []int32{1, 2, 3}) {
		t.Errorf("Subgraph edges %q old %v", got, old)
	}
	if !slices.Equal(s.Labels(), []int32{1, 1, 0}) {
		t.Errorf("Subgraph labels %v", s.Labels())
	}
	sp := s.Splits()[0]
	if !slices.Equal(sp.Train, []int32{2}) || !slices.Equal(sp.Val, []int32{0}) || !slices.Equal(sp.Test, []int32{1}) {
		t.Errorf("Subgraph split %+v", sp)
	}
	if got := s.Features().DenseRow(2); !slices.Equal(got, []float32{1, 0, 3, 0}) {
		t.Errorf("Subgraph features row 2 = %v (old row 3)", got)
	}
	if _, _, err := g.Subgraph([]bool{true}); err == nil || !strings.Contains(err.Error(), "mask has length 1 for 5 nodes") {
		t.Errorf("bad mask error = %v", err)
	}
}

func TestFeatures(t *testing.T) {
	g := tiny(t)
	f := g.Features()
	if !f.IsSparse() || f.NNZ() != 6 || math.Abs(f.Density()-6.0/20) > 1e-12 {
		t.Errorf("features %v", f)
	}
	if f.At(3, 2) != 3 || f.At(3, 1) != 0 || f.At(0, 3) != 1 {
		t.Errorf("At wrong")
	}
	d := f.ToDense()
	if d.IsSparse() || !d.Equal(f) || !d.ToSparse().Equal(f) {
		t.Errorf("dense/sparse round trip differs")
	}
	n := g.RowNormalizeFeatures().Features()
	// Row 3 = (1,0,3,0)/4; row 2 (all zero) unchanged.
	if got := n.DenseRow(3); got[0] != 0.25 || got[2] != 0.75 || got[1] != 0 || got[3] != 0 {
		t.Errorf("normalised row 3 = %v", got)
	}
	if got := n.DenseRow(2); !slices.Equal(got, []float32{0, 0, 0, 0}) {
		t.Errorf("normalised zero row = %v", got)
	}
	rows, cols, vals := f.COO()
	if !slices.Equal(rows, []int32{0, 0, 1, 3, 3, 4}) || !slices.Equal(cols, []int32{0, 3, 1, 0, 2, 3}) || vals[5] != 4 {
		t.Errorf("COO %v %v %v", rows, cols, vals)
	}
	if _, err := NewSparseFeatures(1, 3, []int32{0, 2}, []int32{2, 2}, []float32{1, 1}); err == nil ||
		!strings.Contains(err.Error(), "row 0 has column 2 twice") {
		t.Errorf("duplicate column error = %v", err)
	}
	if _, err := NewSparseFeatures(1, 3, []int32{0, 1}, []int32{3}, []float32{1}); err == nil ||
		!strings.Contains(err.Error(), "column 3 out of range [0,3)") {
		t.Errorf("column range error = %v", err)
	}
	if _, err := NewDenseFeatures(1, 2, []float32{1, float32(math.NaN())}); err == nil ||
		!strings.Contains(err.Error(), "row 0, column 1") {
		t.Errorf("NaN error = %v", err)
	}
	// Unsorted columns are sorted on construction.
	u, err := NewSparseFeatures(1, 4, []int32{0, 3}, []int32{3, 0, 2}, []float32{30, 10, 20})
	if err != nil {
		t.Fatal(err)
	}
	if c, v := u.SparseRow(0); !slices.Equal(c, []int32{0, 2, 3}) || !slices.Equal(v, []float32{10, 20, 30}) {
		t.Errorf("sorted row %v %v", c, v)
	}
}

func TestStats(t *testing.T) {
	s := tiny(t).Stats()
	if s.Nodes != 5 || s.Edges != 6 || s.UndirectedEdges != 3 || s.SelfLoops != 1 || s.IsolatedNodes != 1 ||
		s.Features != 4 || s.Classes != 2 || s.LabeledNodes != 4 || s.AverageDegree != 1.2 || s.Symmetric {
		t.Errorf("stats %+v", s)
	}
}

func TestSplitMasks(t *testing.T) {
	sp, err := SplitFromMasks([]bool{true, false, false}, []bool{false, true, false}, []bool{false, false, true})
	if err != nil {
		t.Fatal(err)
	}
	tr, va, te := sp.Masks(3)
	if !tr[0] || !va[1] || !te[2] || tr[1] || sp.String() != "1/1/1" {
		t.Errorf("masks %v %v %v %s", tr, va, te, sp)
	}
	if _, err := SplitFromMasks([]bool{true}, nil, nil); err == nil {
		t.Error("mismatched masks accepted")
	}
}

func ExampleGraph_ToUndirected() {
	g := MustNew(Spec{Name: "path", NumNodes: 3, Src: []int32{0, 1, 1}, Dst: []int32{1, 2, 2}})
	u := g.ToUndirected()
	fmt.Println(g.NumEdges(), "->", u.NumEdges(), "edges; symmetric:", u.IsSymmetric())
	fmt.Println("in-neighbours of 1:", u.InCSR().Row(1))
	// Output:
	// 3 -> 4 edges; symmetric: true
	// in-neighbours of 1: [0 2]
}

func ExampleGraph_Stats() {
	g := MustNew(Spec{
		Name: "triangle", NumNodes: 3,
		Src: []int32{0, 1, 2}, Dst: []int32{1, 2, 0},
		Labels: []int32{0, 0, 1},
	})
	s := g.Stats()
	fmt.Printf("%d nodes, %d edges, %d undirected, avg degree %.1f, classes %v\n",
		s.Nodes, s.Edges, s.UndirectedEdges, s.AverageDegree, s.ClassCounts)
	// Output:
	// 3 nodes, 3 edges, 3 undirected, avg degree 1.0, classes [2 1]
}

// TestWithUnnormalizedFeatures: the raw features survive row normalisation
// (twice, and through edge transforms), so a model can read them back.
func TestWithUnnormalizedFeatures(t *testing.T) {
	g := tiny(t)
	n := g.RowNormalizeFeatures().RowNormalizeFeatures().ToUndirected().RemoveSelfLoops()
	if got := n.Features().DenseRow(3); got[0] != 0.25 || got[2] != 0.75 {
		t.Fatalf("normalised row 3 = %v", got)
	}
	raw := n.WithUnnormalizedFeatures()
	if !raw.Features().Equal(g.Features()) {
		t.Errorf("unnormalised row 3 = %v, want the loaded %v", raw.Features().DenseRow(3), g.Features().DenseRow(3))
	}
	if edges(raw) != edges(n) {
		t.Errorf("edges changed: %s, want %s", edges(raw), edges(n))
	}
	// Never normalised, or rebuilt from a normalised matrix: the features stay.
	if g.WithUnnormalizedFeatures().Features() != g.Features() {
		t.Errorf("a graph never normalised changed its features")
	}
	d := n.Features().ToDense()
	if d.Unnormalized() != d {
		t.Errorf("ToDense kept the link to the unnormalised features")
	}
}

// DegreeOrder on tiny: degrees (in + out) 3, 5, 3, 1, 0, so node 1 first,
// then 0 and 2 (tie: by id), 3, 4; Renumbered moves edges, labels, splits
// and feature rows with their nodes.
func TestRenumberedByDegree(t *testing.T) {
	g := tiny(t)
	order := g.DegreeOrder()
	if !slices.Equal(order, []int32{1, 0, 2, 3, 4}) {
		t.Fatalf("DegreeOrder %v", order)
	}
	h, err := g.Renumbered(order)
	if err != nil {
		t.Fatal(err)
	}
	// Old edges 0>1 1>0 1>2 2>2 3>1 0>1 with 0 and 1 swapped.
	if got := edges(h); got != "1>0 0>1 0>2 2>2 3>0 1>0" {
		t.Errorf("edges %q", got)
	}
	if !slices.Equal(h.Labels(), []int32{1, 0, 1, 0, Unlabeled}) {
		t.Errorf("labels %v", h.Labels())
	}
	sp := h.Splits()[0]
	if !slices.Equal(sp.Train, []int32{1, 3}) || !slices.Equal(sp.Val, []int32{0}) || !slices.Equal(sp.Test, []int32{2}) {
		t.Errorf("split %+v", sp)
	}
	if got := h.Features().DenseRow(0); !slices.Equal(got, []float32{0, 2, 0, 0}) {
		t.Errorf("features row 0 = %v (old row 1)", got)
	}
	for _, c := range []struct {
		order []int32
		want  string
	}{
		{[]int32{0, 1, 2}, `graph "tiny": node order has length 3 for 5 nodes`},
		{[]int32{0, 0, 1, 2, 3}, `graph "tiny": node order is not a permutation: position 1 holds 0`},
		{[]int32{0, 1, 2, 3, 5}, `graph "tiny": node order is not a permutation: position 4 holds 5`},
	} {
		if _, err := g.Renumbered(c.order); err == nil || err.Error() != c.want {
			t.Errorf("Renumbered(%v): %v, want %q", c.order, err, c.want)
		}
	}
}
