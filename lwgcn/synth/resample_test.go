package synth

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/homophily"
)

// randomBase: n nodes, c classes (class 0 twice as likely), e random directed
// edges (with duplicates, reverse duplicates and self loops), 2 features, and
// one split.
func randomBase(t testing.TB, n, c, e int, seed uint64) *graph.Graph {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	labels := make([]int32, n)
	for v := range labels {
		labels[v] = int32(max(rng.IntN(c+1)-1, 0))
	}
	src, dst := make([]int32, e), make([]int32, e)
	for i := range src {
		src[i], dst[i] = int32(rng.IntN(n)), int32(rng.IntN(n))
	}
	x := make([]float32, 2*n)
	for i := range x {
		x[i] = float32(rng.NormFloat64())
	}
	f, err := graph.NewDenseFeatures(n, 2, x)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := RandomSplits(labels, SplitOptions{NumSplits: 1}, rng)
	if err != nil {
		t.Fatal(err)
	}
	return graph.MustNew(graph.Spec{Name: "base", NumNodes: n, Src: src, Dst: dst, Features: f, Labels: labels,
		NumClasses: c, Splits: sp})
}

// basePairs returns the base's undirected pairs without self loops.
func basePairs(g *graph.Graph) map[[2]int32]bool {
	s := map[[2]int32]bool{}
	for e, u := range g.Src() {
		v := g.Dst()[e]
		if u != v {
			s[[2]int32{min(u, v), max(u, v)}] = true
		}
	}
	return s
}

func TestResampleHitsTargets(t *testing.T) {
	base := randomBase(t, 400, 4, 3000, 1)
	n := base.NumNodes()
	pairs := basePairs(base)
	baseHom := 0
	for p := range pairs {
		if base.Labels()[p[0]] == base.Labels()[p[1]] {
			baseHom++
		}
	}
	rng := rand.New(rand.NewPCG(2, 3))
	for _, d := range []float64{1, 2.5, 5, 10, 20} {
		for _, h := range []float64{0, 0.1, 0.25, 0.5, 0.77, 0.9, 1} {
			g, r, err := ResampleHomophily(base, h, d, rng)
			if err != nil {
				t.Fatalf("h=%v d=%v: %v", h, d, err)
			}
			m := int(math.Round(d * float64(n) / 2))
			if g.NumEdges() != 2*m || g.NumUndirectedEdges() != m || g.NumSelfLoops() != 0 || !g.IsSymmetric() {
				t.Fatalf("h=%v d=%v: %d edges (%d pairs, %d loops, symmetric %v), want %d pairs in both directions",
					h, d, g.NumEdges(), g.NumUndirectedEdges(), g.NumSelfLoops(), g.IsSymmetric(), m)
			}
			gotH, err := homophily.EdgeHomophily(g)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(gotH-h) > 0.5/float64(m) || gotH != r.H {
				t.Errorf("h=%v d=%v: realised h %v (reported %v), tolerance %v", h, d, gotH, r.H, 0.5/float64(m))
			}
			if math.Abs(g.AverageDegree()-d) > 2/float64(n) || g.AverageDegree() != r.AverageDegree {
				t.Errorf("h=%v d=%v: average degree %v (reported %v)", h, d, g.AverageDegree(), r.AverageDegree)
			}
			if r.BaseHomophilic != baseHom || r.BaseHomophilic+r.BaseHeterophilic != len(pairs) {
				t.Errorf("base counts %d/%d, want %d/%d", r.BaseHomophilic, r.BaseHeterophilic, baseHom, len(pairs)-baseHom)
			}
			// Edges not in the base are exactly the added ones, of the right kind.
			addedHom, addedHet := 0, 0
			for e, u := range g.Src() {
				v := g.Dst()[e]
				if u < v && !pairs[[2]int32{u, v}] {
					if g.Labels()[u] == g.Labels()[v] {
						addedHom++
					} else {
						addedHet++
					}
				}
			}
			if addedHom != r.HomophilicAdded || addedHet != r.HeterophilicAdded {
				t.Errorf("h=%v d=%v: %d/%d pairs outside the base, reported %d/%d", h, d, addedHom, addedHet,
					r.HomophilicAdded, r.HeterophilicAdded)
			}
			if wantAdd := max(r.Homophilic-baseHom, 0); r.HomophilicAdded != wantAdd {
				t.Errorf("h=%v d=%v: %d homophilic added, want %d", h, d, r.HomophilicAdded, wantAdd)
			}
			if g.Features() != base.Features() || !slices.Equal(g.Labels(), base.Labels()) ||
				!slices.Equal(g.Splits()[0].Test, base.Splits()[0].Test) {
				t.Fatal("features, labels or splits not kept")
			}
		}
	}
}

func TestResampleAddsBothKindsAndIsReproducible(t *testing.T) {
	base := randomBase(t, 400, 4, 3000, 4)
	_, r, err := ResampleHomophily(base, 0.9, 20, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if r.HomophilicAdded == 0 || r.HeterophilicAdded != 0 {
		t.Errorf("h=0.9 d=20 should top up homophilic edges only: %v", r)
	}
	_, r, _ = ResampleHomophily(base, 0, 20, rand.New(rand.NewPCG(1, 1)))
	if r.HeterophilicAdded == 0 || r.HomophilicAdded != 0 {
		t.Errorf("h=0 d=20 should top up heterophilic edges only: %v", r)
	}
	a, _, _ := ResampleHomophily(base, 0.3, 5, rand.New(rand.NewPCG(7, 7)))
	b, _, _ := ResampleHomophily(base, 0.3, 5, rand.New(rand.NewPCG(7, 7)))
	c, _, _ := ResampleHomophily(base, 0.3, 5, rand.New(rand.NewPCG(8, 8)))
	if !slices.Equal(a.Src(), b.Src()) || !slices.Equal(a.Dst(), b.Dst()) {
		t.Error("same seed, different graphs")
	}
	if slices.Equal(a.Dst(), c.Dst()) {
		t.Error("different seeds, same graph")
	}
}

// Near-complete classes take the enumeration path: 20 nodes in 2 classes of
// 10 have 90 same-class pairs; h = 1, d = 9 needs all 90.
func TestResampleNearCapacity(t *testing.T) {
	labels := make([]int32, 20)
	for v := range labels {
		labels[v] = int32(v % 2)
	}
	base := graph.MustNew(graph.Spec{Name: "tiny", NumNodes: 20, Src: []int32{0, 1}, Dst: []int32{2, 2}, Labels: labels})
	g, r, err := ResampleHomophily(base, 1, 9, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	if g.NumUndirectedEdges() != 90 || r.HomophilicAdded != 89 || r.H != 1 {
		t.Errorf("got %d pairs, %v", g.NumUndirectedEdges(), r)
	}
	_, _, err = ResampleHomophily(base, 1, 10, rand.New(rand.NewPCG(1, 2)))
	if err == nil || !strings.Contains(err.Error(), "100 homophilic edges needed") || !strings.Contains(err.Error(), "only 90") {
		t.Errorf("over capacity: %v", err)
	}
	g, r, err = ResampleHomophily(base, 0, 10, rand.New(rand.NewPCG(1, 2)))
	if err != nil || g.NumUndirectedEdges() != 100 || r.HeterophilicAdded != 99 {
		t.Errorf("all 100 inter-class pairs: %v %v", err, r)
	}
}

func TestResampleErrors(t *testing.T) {
	base := randomBase(t, 50, 3, 100, 5)
	rng := rand.New(rand.NewPCG(1, 1))
	for _, c := range []struct {
		h, d float64
		want string
	}{{1.5, 5, "h = 1.5"}, {-0.1, 5, "h = -0.1"}, {0.5, -1, "d = -1"}, {0.5, math.Inf(1), "d = +Inf"}} {
		if _, _, err := ResampleHomophily(base, c.h, c.d, rng); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("h=%v d=%v: %v, want %q", c.h, c.d, err, c.want)
		}
	}
	unlabelled := graph.MustNew(graph.Spec{Name: "u", NumNodes: 3})
	if _, _, err := ResampleHomophily(unlabelled, 0.5, 1, rng); err == nil || !strings.Contains(err.Error(), "no labels") {
		t.Errorf("no labels: %v", err)
	}
	if _, _, err := ResampleHomophily(base, 0.5, 1, nil); err == nil {
		t.Error("nil rng accepted")
	}
}

func TestRandomSplits(t *testing.T) {
	labels := make([]int32, 1003)
	for v := range labels {
		labels[v] = int32(v % 3)
	}
	labels[5] = graph.Unlabeled
	sp, err := RandomSplits(labels, SplitOptions{}, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if len(sp) != 10 {
		t.Fatalf("%d splits", len(sp))
	}
	// 1002 labelled: round(0.48*1002) = 481, round(0.32*1002) = 321, 200 test.
	for i, s := range sp {
		if len(s.Train) != 481 || len(s.Val) != 321 || len(s.Test) != 200 {
			t.Errorf("split %d sizes %v", i, s)
		}
		if _, err := graph.New(graph.Spec{NumNodes: len(labels), Splits: []graph.Split{s}}); err != nil {
			t.Errorf("split %d invalid: %v", i, err)
		}
		if slices.Contains(s.Train, 5) || slices.Contains(s.Val, 5) || slices.Contains(s.Test, 5) {
			t.Errorf("split %d contains the unlabelled node", i)
		}
	}
	if slices.Equal(sp[0].Train, sp[1].Train) {
		t.Error("splits 0 and 1 are equal")
	}
	st, _ := RandomSplits(labels, SplitOptions{NumSplits: 1, TrainFraction: 0.5, ValFraction: 0.25, Stratified: true},
		rand.New(rand.NewPCG(1, 1)))
	counts := make([]int, 3)
	for _, v := range st[0].Train {
		counts[labels[v]]++
	}
	// Classes have 335, 334 and 333 (node 5 unlabelled) nodes: half of each,
	// rounded half away from zero, is 168, 167, 167.
	if counts[0] != 168 || counts[1] != 167 || counts[2] != 167 {
		t.Errorf("stratified train counts %v", counts)
	}
	if _, err := RandomSplits(labels, SplitOptions{TrainFraction: 0.8, ValFraction: 0.3}, rand.New(rand.NewPCG(1, 1))); err == nil {
		t.Error("fractions summing above 1 accepted")
	}
}

// A Crocodile-sized base: 11,631 nodes, 5 classes, 180,000 random edges.
func BenchmarkResampleHomophily(b *testing.B) {
	base := randomBase(b, 11631, 5, 180000, 1)
	rng := rand.New(rand.NewPCG(1, 1))
	for b.Loop() {
		if _, _, err := ResampleHomophily(base, 0.9, 20, rng); err != nil {
			b.Fatal(err)
		}
	}
}
