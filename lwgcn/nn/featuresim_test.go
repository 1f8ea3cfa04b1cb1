package nn_test

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/nn"
)

// simFeatures: 8 nodes, 6 features with non-binary values (binarised by the
// similarity), node 5 duplicates node 0's support, node 7 has no feature.
func simFeatures(t *testing.T) (*graph.Features, [][]float64) {
	t.Helper()
	x := []float32{
		1, 0, 2, 0, 0, 1,
		0, 3, 0, 0, 1, 0,
		1, 1, 0, 0, 0, 0,
		0, 0, 0, 5, 1, 0,
		1, 0, 1, 1, 0, 0,
		2, 0, 7, 0, 0, 4,
		0, 0, 0, 0, 0, 1,
		0, 0, 0, 0, 0, 0,
	}
	f, err := graph.NewDenseFeatures(8, 6, x)
	if err != nil {
		t.Fatal(err)
	}
	// Brute-force cosine of the binarised rows.
	n := 8
	sim := make([][]float64, n)
	for i := range n {
		sim[i] = make([]float64, n)
		for j := range n {
			var dot, ni, nj float64
			for c := range 6 {
				a, b := x[i*6+c] != 0, x[j*6+c] != 0
				if a && b {
					dot++
				}
				if a {
					ni++
				}
				if b {
					nj++
				}
			}
			if ni > 0 && nj > 0 {
				sim[i][j] = dot / math.Sqrt(ni*nj)
			}
		}
	}
	return f, sim
}

func TestFeatureKNN(t *testing.T) {
	f, sim := simFeatures(t)
	// By hand: nodes 0 and 4 share features 0 and 2, each has 3: 2/3.
	if math.Abs(sim[0][4]-2.0/3) > 1e-15 || sim[0][5] != 1 {
		t.Fatalf("brute-force similarities wrong: %v %v", sim[0][4], sim[0][5])
	}
	s, err := nn.NewFeatureSimilarity(f)
	if err != nil {
		t.Fatal(err)
	}
	const k = 2
	m, err := s.KNN(k)
	if err != nil {
		t.Fatal(err)
	}
	n := 8
	keep := make([][]float64, n)
	sums := make([]float64, n)
	for i := range n {
		keep[i] = make([]float64, n)
		order := make([]int, 0, n)
		for j := range n {
			if j != i {
				order = append(order, j)
			}
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(sim[i][b], sim[i][a]) })
		for _, j := range order[:k] {
			keep[i][j] = sim[i][j]
			sums[i] += sim[i][j]
		}
	}
	var want []float64
	for i := range n {
		for j := range n {
			v := 0.0
			if keep[i][j] != 0 {
				v = keep[i][j] / math.Sqrt(sums[i]*sums[j])
			}
			want = append(want, v)
		}
	}
	nntest.AssertClose(t, "normalised kNN graph", m.Dense(), want, 1e-6)
	if m.NNZ() == 0 || m.Rows[len(m.Rows)-1] == 7 {
		t.Fatalf("featureless node 7 must have no neighbours (nnz %d)", m.NNZ())
	}
	if _, err := s.KNN(0); err == nil || !strings.Contains(err.Error(), "k >= 1") {
		t.Fatalf("k = 0: err = %v", err)
	}
}

func TestExtremePairs(t *testing.T) {
	f, sim := simFeatures(t)
	s, err := nn.NewFeatureSimilarity(f)
	if err != nil {
		t.Fatal(err)
	}
	const k = 1
	p, err := s.ExtremePairs(k, 3)
	if err != nil {
		t.Fatal(err)
	}
	partners := map[[2]int32]bool{}
	for q := range p.A {
		a, b := p.A[q], p.B[q]
		if a >= b || (q > 0 && (p.A[q-1] > a || (p.A[q-1] == a && p.B[q-1] >= b))) {
			t.Fatalf("pair %d (%d, %d) not sorted, distinct and ordered", q, a, b)
		}
		if math.Abs(float64(p.Sim[q])-sim[a][b]) > 1e-6 {
			t.Fatalf("pair (%d, %d): similarity %v, want %v", a, b, p.Sim[q], sim[a][b])
		}
		partners[[2]int32{a, b}], partners[[2]int32{b, a}] = true, true
	}
	n := 8
	for i := range n {
		if i == 7 {
			continue // featureless: every similarity is 0
		}
		// The k+1 most similar (self included, ties by index) are paired with i.
		order := make([]int, n)
		for j := range order {
			order[j] = j
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(sim[i][b], sim[i][a]) })
		for _, j := range order[:k+1] {
			if j != i && sim[i][j] > 0 && !partners[[2]int32{int32(i), int32(j)}] {
				t.Fatalf("node %d: most similar node %d (%.3f) not paired", i, j, sim[i][j])
			}
		}
		// And at least k nodes sharing no feature with i.
		zeros := 0
		for j := range n {
			if partners[[2]int32{int32(i), int32(j)}] && sim[i][j] == 0 {
				zeros++
			}
		}
		if zeros < k {
			t.Fatalf("node %d: %d least-similar partners, want >= %d", i, zeros, k)
		}
	}
	again, _ := s.ExtremePairs(k, 3)
	if !slices.Equal(again.A, p.A) || !slices.Equal(again.B, p.B) {
		t.Fatal("same seed, different pairs")
	}
	if _, err := s.ExtremePairs(0, 3); err == nil || !strings.Contains(err.Error(), "k >= 1, got 0") {
		t.Fatalf("k = 0: err = %v", err)
	}
}
