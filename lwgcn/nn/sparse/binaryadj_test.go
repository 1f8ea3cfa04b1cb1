package sparse_test

import (
	"math"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// TestBinaryAdjacencyByHand: the tiny graph's rows (2 -> 1 twice, a self
// loop 2 -> 2) as scipy builds them: duplicates collapse, A + I puts 2 on
// node 2's diagonal.
func TestBinaryAdjacencyByHand(t *testing.T) {
	g := nntest.TinyGraph(t)
	// Edges src -> dst: 0->1 1->0 2->1 3->2 4->3 1->2 0->4 2->2 2->1.
	// Rows = src: A[0]={1,4} A[1]={0,2} A[2]={1,2} A[3]={2} A[4]={3}.
	a := [][]float64{
		{0, 1, 0, 0, 1},
		{1, 0, 1, 0, 0},
		{0, 1, 1, 0, 0},
		{0, 0, 1, 0, 0},
		{0, 0, 0, 1, 0},
	}
	m, err := sparse.BinaryAdjacency(5, g.Src(), g.Dst(), false, sparse.NormNone)
	if err != nil {
		t.Fatal(err)
	}
	nntest.AssertClose(t, "A", m.Dense(), nntest.Flat(a), 0)

	ai := [][]float64{
		{1, 1, 0, 0, 1},
		{1, 1, 1, 0, 0},
		{0, 1, 2, 0, 0}, // the data's loop (1) plus I
		{0, 0, 1, 1, 0},
		{0, 0, 0, 1, 1},
	}
	sums := []float64{3, 3, 3, 2, 2}
	m, err = sparse.BinaryAdjacency(5, g.Src(), g.Dst(), true, sparse.NormRow)
	if err != nil {
		t.Fatal(err)
	}
	var want []float64
	for i := range ai {
		for j := range ai[i] {
			want = append(want, ai[i][j]/sums[i])
		}
	}
	nntest.AssertClose(t, "D⁻¹(A+I)", m.Dense(), want, 1e-7)

	m, err = sparse.BinaryAdjacency(5, g.Src(), g.Dst(), true, sparse.NormSym)
	if err != nil {
		t.Fatal(err)
	}
	want = want[:0]
	for i := range ai {
		for j := range ai[i] {
			want = append(want, ai[i][j]/math.Sqrt(sums[i]*sums[j]))
		}
	}
	nntest.AssertClose(t, "D^-1/2(A+I)D^-1/2", m.Dense(), want, 1e-7)

	if _, err := sparse.BinaryAdjacency(3, []int32{0, 5}, []int32{1, 1}, false, sparse.NormNone); err == nil ||
		!strings.Contains(err.Error(), "entry 1 (5, 1) outside 3 nodes") {
		t.Fatalf("bad edge: err = %v", err)
	}
}
