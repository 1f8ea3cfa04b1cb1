package analysis

import (
	"math"
	"slices"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/graph"
)

// bruteCos is the cosine of two rows computed from scratch.
func bruteCos(x *graph.Features, a, b int) float64 {
	ra, rb := x.DenseRow(a), x.DenseRow(b)
	var dot, na, nb float64
	for c := range ra {
		dot += float64(ra[c]) * float64(rb[c])
		na += float64(ra[c]) * float64(ra[c])
		nb += float64(rb[c]) * float64(rb[c])
	}
	return dot / math.Sqrt(na*nb)
}

func tinyGraph(t *testing.T, sparse bool) *graph.Graph {
	t.Helper()
	// 7 nodes, 3 classes; node 5 has a zero feature row, node 6 no label.
	x, err := graph.NewDenseFeatures(7, 3, []float32{
		1, 0, 0,
		1, 1, 0,
		0, 2, 1,
		0, 0, 3,
		2, 1, 1,
		0, 0, 0,
		1, 2, 3,
	})
	if err != nil {
		t.Fatal(err)
	}
	if sparse {
		x = x.ToSparse()
	}
	return graph.MustNew(graph.Spec{Name: "tiny", NumNodes: 7, Features: x,
		Labels: []int32{0, 0, 1, 1, 2, 2, graph.Unlabeled},
		// Node 2 is a neighbour of class-0 centres twice (edges 2->0, 2->1)
		// and of class-2 centres once; 1->0 is duplicated.
		Src: []int32{2, 2, 3, 1, 1, 0, 4, 2, 5, 6, 3},
		Dst: []int32{0, 1, 0, 0, 0, 2, 3, 4, 0, 1, 3}})
}

func TestNeighbourClassSimilarityMatchesPairs(t *testing.T) {
	for _, sparse := range []bool{false, true} {
		for _, multiset := range []bool{false, true} {
			g := tinyGraph(t, sparse)
			got, err := NeighbourClassSimilarity(g, NeighbourOptions{Multiset: multiset})
			if err != nil {
				t.Fatal(err)
			}
			// Brute force: the sets X_ik (or multisets) from the edge list,
			// then the average over all pairs.
			c := 3
			x := g.Features()
			sets := make([][][]int, c) // sets[i][k]
			for i := range sets {
				sets[i] = make([][]int, c)
			}
			y := g.Labels()
			for e := range g.Src() {
				a, v := int(g.Src()[e]), int(g.Dst()[e])
				if y[a] < 0 || y[v] < 0 || a == 5 {
					continue
				}
				s := &sets[y[v]][y[a]]
				if multiset || !slices.Contains(*s, a) {
					*s = append(*s, a)
				}
			}
			for i := range c {
				for k := range c {
					if got.Counts[i][k] != len(sets[i][k]) {
						t.Errorf("sparse=%v multiset=%v: |X_%d%d| = %d, want %d", sparse, multiset, i, k, got.Counts[i][k], len(sets[i][k]))
					}
				}
			}
			for k := range c {
				for i := range c {
					for j := range c {
						want := math.NaN()
						if len(sets[i][k]) > 0 && len(sets[j][k]) > 0 {
							var s float64
							for _, a := range sets[i][k] {
								for _, b := range sets[j][k] {
									s += bruteCos(x, a, b)
								}
							}
							want = s / float64(len(sets[i][k])*len(sets[j][k]))
						}
						gotv := got.Sim[k][i][j]
						if (math.IsNaN(want) != math.IsNaN(gotv)) || (!math.IsNaN(want) && math.Abs(gotv-want) > 1e-12) {
							t.Errorf("sparse=%v multiset=%v: s(X_%d%d, X_%d%d) = %v, want %v", sparse, multiset, i, k, j, k, gotv, want)
						}
						// Pairs of two different nodes only.
						var s float64
						n := 0
						for _, a := range sets[i][k] {
							for _, b := range sets[j][k] {
								if a != b {
									s += bruteCos(x, a, b)
									n++
								}
							}
						}
						want = math.NaN()
						if n > 0 {
							want = s / float64(n)
						}
						gotv = got.SimDistinct[k][i][j]
						if (math.IsNaN(want) != math.IsNaN(gotv)) || (!math.IsNaN(want) && math.Abs(gotv-want) > 1e-12) {
							t.Errorf("sparse=%v multiset=%v: distinct s(X_%d%d, X_%d%d) = %v, want %v", sparse, multiset, i, k, j, k, gotv, want)
						}
					}
				}
			}
			if got.ZeroRows != 1 {
				t.Errorf("ZeroRows = %d, want 1 (node 5)", got.ZeroRows)
			}
		}
	}
	// Hand check of one entry: X_00 = {1} (1->0 twice, a set), so
	// s(X_00, X_00) = cos(x1, x1) = 1; X_01 = {2, 3}, X_21 = {2}:
	// s(X_01, X_21) = (1 + cos(x3, x2))/2 = (1 + 3/sqrt(45))/2.
	got, _ := NeighbourClassSimilarity(tinyGraph(t, false), NeighbourOptions{})
	if v := got.Sim[0][0][0]; math.Abs(v-1) > 1e-12 {
		t.Errorf("s(X_00, X_00) = %v, want 1", v)
	}
	if v, want := got.Sim[1][0][2], (1+3/math.Sqrt(45))/2; math.Abs(v-want) > 1e-12 {
		t.Errorf("s(X_01, X_21) = %v, want %v", v, want)
	}
	d, o := Contrast([][]float64{{1, 0.2}, {math.NaN(), 0.5}})
	if d != 0.75 || o != 0.2 {
		t.Errorf("Contrast = %v, %v; want 0.75, 0.2", d, o)
	}
}

func TestNeighbourClassSimilarityErrors(t *testing.T) {
	if _, err := NeighbourClassSimilarity(nil, NeighbourOptions{}); err == nil {
		t.Error("nil graph: no error")
	}
	g := tinyGraph(t, false)
	if _, err := NeighbourClassSimilarity(g, NeighbourOptions{Labels: []int32{0}}); err == nil {
		t.Error("short labels: no error")
	}
	// Pseudo labels with a fourth class widen the matrices.
	res, err := NeighbourClassSimilarity(g, NeighbourOptions{Labels: []int32{3, 0, 1, 1, 2, 2, 0}})
	if err != nil || res.NumClasses != 4 || len(res.Sim) != 4 {
		t.Errorf("pseudo labels: %v, %v", res, err)
	}
}

func TestPairCosines(t *testing.T) {
	for _, sparse := range []bool{false, true} {
		g := tinyGraph(t, sparse)
		x, y := g.Features(), g.Labels()
		got, err := PairCosines(x, y, PairOptions{})
		if err != nil {
			t.Fatal(err)
		}
		// Labelled, non-zero nodes: 0..4 -> 10 pairs; same class: {0,1}, {2,3}.
		var intra, inter []float64
		for a := 0; a < 5; a++ {
			for b := a + 1; b < 5; b++ {
				if y[a] == y[b] {
					intra = append(intra, bruteCos(x, a, b))
				} else {
					inter = append(inter, bruteCos(x, a, b))
				}
			}
		}
		if got.ZeroRows != 1 || len(got.Intra) != 2 || len(got.Inter) != 8 {
			t.Fatalf("zero rows %d, %d intra, %d inter; want 1, 2, 8", got.ZeroRows, len(got.Intra), len(got.Inter))
		}
		for i := range intra {
			if math.Abs(got.Intra[i]-intra[i]) > 1e-12 {
				t.Errorf("intra %d = %v, want %v", i, got.Intra[i], intra[i])
			}
		}
		for i := range inter {
			if math.Abs(got.Inter[i]-inter[i]) > 1e-12 {
				t.Errorf("inter %d = %v, want %v", i, got.Inter[i], inter[i])
			}
		}
		// By hand: cos(x0, x1) = 1/sqrt(2), cos(x2, x3) = 3/(sqrt(5) 3) = 1/sqrt(5).
		if mi, _ := got.Mean(); math.Abs(mi-(1/math.Sqrt(2)+1/math.Sqrt(5))/2) > 1e-12 {
			t.Errorf("mean intra-class cosine %v, want %v", mi, (1/math.Sqrt(2)+1/math.Sqrt(5))/2)
		}
		// A sample of pairs: each value is one of the pair cosines.
		s, err := PairCosines(x, y, PairOptions{MaxPairs: 4, Seed: 3})
		if err != nil || !s.Sampled || len(s.Intra)+len(s.Inter) != 4 {
			t.Fatalf("sample: %+v, %v", s, err)
		}
		all := append(append([]float64(nil), intra...), inter...)
		for _, v := range append(s.Intra, s.Inter...) {
			if !slices.ContainsFunc(all, func(w float64) bool { return math.Abs(v-w) < 1e-12 }) {
				t.Errorf("sampled cosine %v is not a pair's", v)
			}
		}
		// Restricting the nodes.
		r, _ := PairCosines(x, y, PairOptions{Nodes: []int32{0, 1, 2}})
		if len(r.Intra) != 1 || len(r.Inter) != 2 {
			t.Errorf("nodes 0,1,2: %d intra, %d inter", len(r.Intra), len(r.Inter))
		}
	}
	x := tinyGraph(t, false).Features()
	if _, err := PairCosines(x, []int32{0}, PairOptions{}); err == nil {
		t.Error("short labels: no error")
	}
	if _, err := PairCosines(x, make([]int32, 7), PairOptions{Nodes: []int32{9}}); err == nil {
		t.Error("node out of range: no error")
	}
}

func TestCenterRows(t *testing.T) {
	// log_softmax(z) = z - logsumexp(z); centring recovers z - mean(z).
	z := []float64{2, -1, 0.5}
	lse := math.Log(math.Exp(2) + math.Exp(-1) + math.Exp(0.5))
	logp := make([]float32, 3)
	for i := range z {
		logp[i] = float32(z[i] - lse)
	}
	x, _ := graph.NewDenseFeatures(1, 3, logp)
	c := CenterRows(x).DenseRow(0)
	m := (2 - 1 + 0.5) / 3.0
	for i := range z {
		if math.Abs(float64(c[i])-(z[i]-m)) > 1e-6 {
			t.Errorf("centred[%d] = %v, want %v", i, c[i], z[i]-m)
		}
	}
}
