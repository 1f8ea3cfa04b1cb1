package nn_test

import (
	"math"
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// b4Distances returns all-pairs hop distances of the undirected graph
// (Floyd-Warshall; -1 when unreachable).
func b4Distances(n int, src, dst []int32) [][]int {
	const inf = 1 << 30
	d := make([][]int, n)
	for i := range d {
		d[i] = make([]int, n)
		for j := range d[i] {
			if i != j {
				d[i][j] = inf
			}
		}
	}
	for e := range src {
		if src[e] != dst[e] {
			d[src[e]][dst[e]], d[dst[e]][src[e]] = 1, 1
		}
	}
	for k := range n {
		for i := range n {
			for j := range n {
				if d[i][k]+d[k][j] < d[i][j] {
					d[i][j] = d[i][k] + d[k][j]
				}
			}
		}
	}
	for i := range d {
		for j := range d[i] {
			if d[i][j] == inf {
				d[i][j] = -1
			}
		}
	}
	return d
}

func TestH2GCNNeighborhoodsPath(t *testing.T) {
	// Path 0-1-2-3 given in one direction, with a self loop and a duplicate:
	// 1-hop degrees 1,2,2,1; distance-2 pairs (0,2) and (1,3): degrees 1.
	a1, a2, err := nn.H2GCNNeighborhoods(4, []int32{0, 1, 2, 2, 1}, []int32{1, 2, 3, 2, 2})
	if err != nil {
		t.Fatal(err)
	}
	s := 1 / math.Sqrt(2)
	want1 := []float64{
		0, s, 0, 0,
		s, 0, 0.5, 0,
		0, 0.5, 0, s,
		0, 0, s, 0,
	}
	want2 := []float64{
		0, 0, 1, 0,
		0, 0, 0, 1,
		1, 0, 0, 0,
		0, 1, 0, 0,
	}
	nntest.AssertClose(t, "Â1", a1.Dense(), want1, 1e-7)
	nntest.AssertClose(t, "Â2", a2.Dense(), want2, 1e-7)
}

func TestH2GCNNeighborhoodsMatchDistances(t *testing.T) {
	// Random sparse graph with isolated nodes: A1/A2 support equals distance
	// 1/2 from an independent all-pairs computation, and the values are the
	// symmetric normalisation of the binary matrices.
	rng := rand.New(rand.NewPCG(7, 7))
	const n = 12
	var src, dst []int32
	for range 14 {
		u, v := int32(rng.IntN(n-2)), int32(rng.IntN(n-2)) // nodes 10, 11 isolated
		src, dst = append(src, u), append(dst, v)
	}
	a1, a2, err := nn.H2GCNNeighborhoods(n, src, dst)
	if err != nil {
		t.Fatal(err)
	}
	d := b4Distances(n, src, dst)
	for k, m := range []*sparse.SparseMatrix{a1, a2} {
		hop := k + 1
		deg := make([]float64, n)
		for i := range n {
			for j := range n {
				if d[i][j] == hop {
					deg[i]++
				}
			}
		}
		dense := m.Dense()
		for i := range n {
			for j := range n {
				want := 0.0
				if d[i][j] == hop {
					want = 1 / math.Sqrt(deg[i]*deg[j])
				}
				if math.Abs(dense[i*n+j]-want) > 1e-6 {
					t.Fatalf("Â%d[%d,%d] = %v, want %v (distance %d)", hop, i, j, dense[i*n+j], want, d[i][j])
				}
			}
		}
	}
}

func TestH2GCNNeighborhoodsErrors(t *testing.T) {
	if _, _, err := nn.H2GCNNeighborhoods(3, []int32{0, 5}, []int32{1, 2}); err == nil ||
		err.Error() != "nn: edge 1 (5 -> 2) outside 3 nodes" {
		t.Fatalf("got error %v", err)
	}
	if _, _, err := nn.H2GCNNeighborhoods(3, []int32{0}, nil); err == nil ||
		err.Error() != "nn: 1 edge sources for 0 destinations" {
		t.Fatalf("got error %v", err)
	}
}

func TestH2GCNConv(t *testing.T) {
	g := nntest.TinyGraph(t)
	a1, a2, err := nn.H2GCNNeighborhoods(5, g.Src(), g.Dst())
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(9, 1))
	hv := nntest.RandValues(rng, 5, 2)
	hm := nntest.Matrix(hv, 5, 2)
	d1, d2 := nntest.Matrix(a1.Dense(), 5, 5), nntest.Matrix(a2.Dense(), 5, 5)
	want := nntest.Flat(nntest.HCat(nntest.DenseMatMul(d1, hm), nntest.DenseMatMul(d2, hm)))
	nntest.BothLayouts(t, func(t *testing.T) {
		for _, density := range []float64{0, 2} {
			old := sparse.AutoSparseDensity
			sparse.AutoSparseDensity = density
			in := nntest.Float64Inputs(t, g, false)
			sparse.SetAuto(in, "a1", a1)
			sparse.SetAuto(in, "a2", a2)
			sparse.AutoSparseDensity = old
			h := nntest.NewHarness(t, in, 1, func(scope *model.Scope, n *nn.Nodes) *Node {
				x := scope.VariableWithValue("h", nntest.Float64Tensor(hv, 5, 2)).NodeValue(n.Graph())
				return nn.H2GCNConv(x, sparse.AutoFromNodes(n, "a1", true), sparse.AutoFromNodes(n, "a2", true))
			})
			got, _ := h.Forward()
			nntest.AssertClose(t, "Â1h ‖ Â2h", got, want, 1e-6)
			h.CheckGradients(rng, 1e-6)
		}
	})
}
