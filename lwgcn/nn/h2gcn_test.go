package nn

import (
	"math"
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/graph"
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
	a1, a2, err := H2GCNNeighborhoods(4, []int32{0, 1, 2, 2, 1}, []int32{1, 2, 3, 2, 2})
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
	assertClose(t, "Â1", a1.Dense(), want1, 1e-7)
	assertClose(t, "Â2", a2.Dense(), want2, 1e-7)
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
	a1, a2, err := H2GCNNeighborhoods(n, src, dst)
	if err != nil {
		t.Fatal(err)
	}
	d := b4Distances(n, src, dst)
	for k, m := range []*SparseMatrix{a1, a2} {
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
	if _, _, err := H2GCNNeighborhoods(3, []int32{0, 5}, []int32{1, 2}); err == nil ||
		err.Error() != "nn: edge 1 (5 -> 2) outside 3 nodes" {
		t.Fatalf("got error %v", err)
	}
	if _, _, err := H2GCNNeighborhoods(3, []int32{0}, nil); err == nil ||
		err.Error() != "nn: 1 edge sources for 0 destinations" {
		t.Fatalf("got error %v", err)
	}
}

func TestAutoSparse(t *testing.T) {
	g := tinyGraph(t)
	m, err := GCNNormalized(5, g.Src(), g.Dst())
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(8, 8))
	xv := b4Rand(rng, 5, 3)
	want := flat(matMul(gcnDense(g), reshape(xv, 5, 3)))
	for _, density := range []float64{0.01, 2} { // dense (14/25 > 1%) and sparse
		old := AutoSparseDensity
		AutoSparseDensity = density
		in := float64Inputs(t, g, false)
		in.SetAutoSparse("a", m)
		AutoSparseDensity = old
		if dense := in.Has("a/full"); dense != (density < 1) {
			t.Fatalf("density threshold %v: dense = %v", density, dense)
		}
		h := newHarness(t, in, 1, func(scope *model.Scope, n *Nodes) *Node {
			x := scope.VariableWithValue("x", x0Tensor(xv, 5, 3)).NodeValue(n.Graph())
			return n.AutoSparse("a", true).Mul(x)
		})
		got, _ := h.forward()
		assertClose(t, "A·x", got, want, 1e-6)
		h.checkGradients(rng, 1e-6)
	}
}

func TestH2GCNConv(t *testing.T) {
	g := tinyGraph(t)
	a1, a2, err := H2GCNNeighborhoods(5, g.Src(), g.Dst())
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(9, 1))
	hv := b4Rand(rng, 5, 2)
	hm := reshape(hv, 5, 2)
	d1, d2 := reshape(a1.Dense(), 5, 5), reshape(a2.Dense(), 5, 5)
	want := flat(b4Hcat(matMul(d1, hm), matMul(d2, hm)))
	bothLayouts(t, func(t *testing.T) {
		for _, density := range []float64{0, 2} {
			old := AutoSparseDensity
			AutoSparseDensity = density
			in := float64Inputs(t, g, false)
			in.SetAutoSparse("a1", a1)
			in.SetAutoSparse("a2", a2)
			AutoSparseDensity = old
			h := newHarness(t, in, 1, func(scope *model.Scope, n *Nodes) *Node {
				x := scope.VariableWithValue("h", x0Tensor(hv, 5, 2)).NodeValue(n.Graph())
				return H2GCNConv(x, n.AutoSparse("a1", true), n.AutoSparse("a2", true))
			})
			got, _ := h.forward()
			assertClose(t, "Â1h ‖ Â2h", got, want, 1e-6)
			h.checkGradients(rng, 1e-6)
		}
	})
}

func TestH2GCNModelForward(t *testing.T) {
	g := tinyGraph(t)
	for _, relu := range []bool{false, true} {
		m := H2GCN{Hidden: 3, Rounds: 2, Dropout: 0.5, EmbedReLU: relu}
		in := float64Inputs(t, g, true)
		if err := m.Prepare(g, in); err != nil {
			t.Fatal(err)
		}
		h := newHarness(t, in, 6, func(scope *model.Scope, n *Nodes) *Node { return m.Forward(scope, n, false) })
		got, dims := h.forward()
		if dims[1] != 3 {
			t.Fatalf("logits %v, want 3 classes", dims)
		}
		a1, a2, _ := H2GCNNeighborhoods(5, g.Src(), g.Dst())
		d1, d2 := reshape(a1.Dense(), 5, 5), reshape(a2.Dense(), 5, 5)
		r0 := matMul(denseX(g), reshape(h.varValues("/embed/weight"), 4, 3))
		if relu {
			for _, row := range r0 {
				for j := range row {
					row[j] = max(row[j], 0)
				}
			}
		}
		r1 := b4Hcat(matMul(d1, r0), matMul(d2, r0))
		r2 := b4Hcat(matMul(d1, r1), matMul(d2, r1))
		want := matMul(b4Hcat(r0, r1, r2), reshape(h.varValues("/out/weight"), 3+6+12, 3))
		assertClose(t, "H2GCN forward", got, flat(want), 1e-6)
	}
	if err := (H2GCN{Hidden: 0, Rounds: 1}).Prepare(g, NewInputs()); err == nil ||
		err.Error() != "nn: H2GCN needs hidden >= 1 and rounds >= 1, got hidden 0, rounds 1" {
		t.Fatalf("got error %v", err)
	}
}

// b4Graph builds a small undirected test graph with dense features.
func b4Graph(t *testing.T, n int, src, dst []int32, x []float32, f int, labels []int32) *graph.Graph {
	t.Helper()
	feats, err := graph.NewDenseFeatures(n, f, x)
	if err != nil {
		t.Fatal(err)
	}
	return graph.MustNew(graph.Spec{Name: "b4", NumNodes: n, Src: src, Dst: dst, Features: feats, Labels: labels})
}
