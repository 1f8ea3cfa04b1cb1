package sparse_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// TestHubProducts: a square matrix with hub columns (two columns holding
// most entries, as on Squirrel), or hub rows (its transpose), multiplied in
// the plain and in the sorted-padded form, with and without hub layouts,
// gives A·x and Aᵀ·r of the dense matrix; the hubs are placed so that the
// sorted order moves them.
func TestHubProducts(t *testing.T) {
	for _, byRows := range []bool{false, true} {
		t.Run(map[bool]string{false: "hub-columns", true: "hub-rows"}[byRows], func(t *testing.T) { testHubProducts(t, byRows) })
	}
}

func testHubProducts(t *testing.T, byRows bool) {
	oldDense, oldCost := sparse.DenseMaxElements, sparse.ELLBucketCost
	defer func() { sparse.DenseMaxElements, sparse.ELLBucketCost = oldDense, oldCost }()
	sparse.DenseMaxElements, sparse.ELLBucketCost = 0, 0
	const n, h = 12, 3
	rng := rand.New(rand.NewPCG(7, 8))
	var r, c []int32
	var v []float32
	add := func(i, j int) {
		if byRows {
			i, j = j, i
		}
		r, c = append(r, int32(i)), append(c, int32(j))
		v = append(v, float32(rng.IntN(7)+1)/4)
	}
	for i := range n {
		add(i, 5) // hub columns 5 and 9: every row
		if i%3 != 0 {
			add(i, 9)
		}
		add(i, rng.IntN(n)) // and a few others
		if i%2 == 0 {
			add(i, rng.IntN(n))
		}
	}
	m, err := sparse.NewSparseMatrix(n, n, r, c, v)
	if err != nil {
		t.Fatal(err)
	}
	if m.RowScale == nil {
		m.RowScale = make([]float32, n)
		for i := range n {
			m.RowScale[i] = 1
		}
	}
	m.ColScale = make([]float32, n)
	for i := range n {
		m.RowScale[i] *= float32(i%4+1) / 2
		m.ColScale[i] = float32(i%3+2) / 3
	}
	dense := m.Dense() // with the scales
	x0 := make([]float64, n*h)
	rr := make([]float64, n*h)
	for i := range x0 {
		x0[i], rr[i] = rng.NormFloat64(), rng.NormFloat64()
	}
	want, wantG := make([]float64, n*h), make([]float64, n*h)
	for i := range n {
		for k := range n {
			a := dense[i*n+k]
			for j := range h {
				want[i*h+j] += a * x0[k*h+j]
				wantG[k*h+j] += a * rr[i*h+j]
			}
		}
	}
	for _, hubs := range []bool{false, true} {
		for _, sorted := range []bool{false, true} {
			t.Run(fmt.Sprintf("hubs=%v/sorted=%v", hubs, sorted), func(t *testing.T) {
				if hubs {
					defer nntest.ForceHubs()()
				} else {
					defer nntest.NoHubs()()
				}
				in := nn.NewInputs()
				in.DType = dtypes.Float64
				sparse.Set(in, "a", m)
				if err := sparse.SetSorted(in, "a"); err != nil {
					t.Fatal(err)
				}
				// Hub columns are the column hubs of A (r), hub rows those of Aᵀ (c).
				hubLayout := map[bool]string{false: "/ell/r/hubidx", true: "/ell/c/hubidx"}[byRows]
				if got := in.Has("a/hub" + hubLayout); got != hubs {
					t.Fatalf("hub layout %s present = %v, want %v", hubLayout, got, hubs)
				}
				if got := in.Has("a/sorted/hub" + hubLayout); got != hubs {
					t.Fatalf("sorted hub layout %s present = %v, want %v", hubLayout, got, hubs)
				}
				hs := nntest.NewHarness(t, in, 1, func(scope *model.Scope, nd *nn.Nodes) *Node {
					x := scope.VariableWithValue("x", nntest.Float64Tensor(x0, n, h)).NodeValue(nd.Graph())
					a := sparse.FromNodes(nd, "a")
					if !sorted {
						return a.Mul(x)
					}
					view, ok := a.SortedPadded()
					if !ok {
						t.Fatal("no sorted layout")
					}
					return view.FromSortedPadded(view.Mul(view.ToSortedPadded(x)))
				})
				got, _ := hs.Forward()
				nntest.AssertClose(t, "A·x", got, want, 1e-5) // scales are float32 on the host
				nntest.AssertClose(t, "Aᵀ·r", hs.Gradients(rr, []int{n, h})["/x"], wantG, 1e-5)
			})
		}
	}
}
