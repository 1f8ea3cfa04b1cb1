package nn_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/nn"
)

// faReference computes FAConv by the formula, edge by edge: the graph's
// edges without self loops, d(v) = in-degree clamped to 1.
func faReference(g *graph.Graph, h [][]float64, w []float64, b float64) [][]float64 {
	n, hid := len(h), len(h[0])
	deg := make([]float64, n)
	for e, u := range g.Src() {
		if v := g.Dst()[e]; u != v {
			deg[v]++
		}
	}
	out := make([][]float64, n)
	for v := range out {
		out[v] = make([]float64, hid)
	}
	for e, u := range g.Src() {
		v := g.Dst()[e]
		if u == v {
			continue
		}
		s := b
		for j := range hid {
			s += w[j]*h[v][j] + w[hid+j]*h[u][j]
		}
		// The scales d^-1/2 are stored as float32.
		sv, su := float64(float32(1/math.Sqrt(max(deg[v], 1)))), float64(float32(1/math.Sqrt(max(deg[u], 1))))
		coef := math.Tanh(s) * sv * su
		for j := range hid {
			out[v][j] += coef * h[u][j]
		}
	}
	return out
}

func TestFAEdgesByHand(t *testing.T) {
	// 0 -> 1, 2 -> 1, 1 -> 1 (self loop, dropped), 1 -> 0; node 2 has no in-edge.
	m, err := nn.FAEdges(3, []int32{0, 2, 1, 1}, []int32{1, 1, 1, 0})
	if err != nil {
		t.Fatal(err)
	}
	if m.NNZ() != 3 {
		t.Fatalf("NNZ = %d, want 3 (self loop dropped)", m.NNZ())
	}
	want := []float64{1, 1 / math.Sqrt(2), 1} // d = (1, 2, 0 -> clamped to 1)
	for v, w := range want {
		if math.Abs(float64(m.RowScale[v])-w) > 1e-7 || m.RowScale[v] != m.ColScale[v] {
			t.Fatalf("scale[%d] = %v / %v, want %v", v, m.RowScale[v], m.ColScale[v], w)
		}
	}
	// Â[1, 0] = 1/sqrt(2·1).
	if d := m.Dense(); math.Abs(d[1*3+0]-1/math.Sqrt(2)) > 1e-7 {
		t.Fatalf("A[1,0] = %v, want %v", d[3], 1/math.Sqrt(2))
	}
	if _, err := nn.FAEdges(2, []int32{0, 5}, []int32{1, 0}); err == nil {
		t.Fatal("edge outside the graph accepted")
	}
}

func TestFAConv(t *testing.T) { nntest.BothLayouts(t, testFAConv) }

func testFAConv(t *testing.T) {
	g := nntest.TinyGraph(t).ToUndirected()
	in := nntest.Float64Inputs(t, g, true)
	if err := nn.AddFAEdges(in, g); err != nil {
		t.Fatal(err)
	}
	const hid = 3
	hIn := nntest.RandRounded(rand.New(rand.NewPCG(1, 2)), g.NumNodes(), hid)
	in.SetFloat("h", nntest.Flat32(hIn), g.NumNodes(), hid)
	hr := nntest.NewHarness(t, in, 5, func(scope *model.Scope, n *nn.Nodes) *Node {
		return nn.FAConv(scope.In("fa"), n.Get("h"), n.Sparse(nn.InputFAEdges), nn.FAConfig{Dropout: 0.5}, false)
	})
	got, _ := hr.Forward()
	w, b := hr.VarValues("/fa/gate/weight"), hr.VarValues("/fa/gate/bias")
	nntest.AssertClose(t, "FAConv", got, nntest.Flat(faReference(g, hIn, w, b[0])), 1e-12)
	hr.CheckGradients(rand.New(rand.NewPCG(3, 4)), 1e-5)
}

func TestFAGCNMatchesReference(t *testing.T) { nntest.BothLayouts(t, testFAGCNMatchesReference) }

func testFAGCNMatchesReference(t *testing.T) {
	g := nntest.TinyGraph(t).ToUndirected()
	m := nn.FAGCN{Hidden: 3, Layers: 2, Eps: 0.3, Dropout: 0.5}
	in := nntest.Float64Inputs(t, g, true)
	if err := m.Prepare(g, in); err != nil {
		t.Fatal(err)
	}
	hr := nntest.NewHarness(t, in, 8, func(scope *model.Scope, n *nn.Nodes) *Node { return m.Forward(scope, n, false) })
	got, dims := hr.Forward()
	if dims[0] != 5 || dims[1] != 3 {
		t.Fatalf("output %v, want [5 3]", dims)
	}
	w1, b1 := nntest.Matrix(hr.VarValues("/t1/weight"), 4, 3), hr.VarValues("/t1/bias")
	raw := nntest.AddBias(nntest.NaiveMatMul(nntest.DenseX(g), w1), b1)
	for _, r := range raw {
		for j := range r {
			r[j] = max(r[j], 0)
		}
	}
	h := raw
	for _, layer := range []string{"/layer0", "/layer1"} {
		h = faReference(g, h, hr.VarValues(layer+"/gate/weight"), hr.VarValues(layer + "/gate/bias")[0])
		for i := range h {
			for j := range h[i] {
				h[i][j] += 0.3 * raw[i][j]
			}
		}
	}
	want := nntest.AddBias(nntest.NaiveMatMul(h, nntest.Matrix(hr.VarValues("/t2/weight"), 3, 3)), hr.VarValues("/t2/bias"))
	nntest.AssertClose(t, "FAGCN", got, nntest.Flat(want), 1e-12)
	// Gradients through a training pass (evaluation passes stop them at the
	// sparse features); no dropout, so the pass is deterministic.
	m.Dropout = 0
	hg := nntest.NewHarness(t, in, 8, func(scope *model.Scope, n *nn.Nodes) *Node { return m.Forward(scope, n, true) })
	hg.CheckGradients(rand.New(rand.NewPCG(5, 6)), 1e-5)
}

func TestFAGCNPrepareErrors(t *testing.T) {
	g := nntest.TinyGraph(t)
	if err := (nn.FAGCN{Hidden: 0, Layers: 1}).Prepare(g, nn.NewInputs()); err == nil {
		t.Fatal("hidden 0 accepted")
	}
	loops := graph.MustNew(graph.Spec{Name: "loops", NumNodes: 2, Src: []int32{0, 1}, Dst: []int32{0, 1},
		Features: g.Features().SelectRows([]int32{0, 1}), Labels: []int32{0, 1}})
	err := (nn.FAGCN{Hidden: 2, Layers: 1}).Prepare(loops, nn.NewInputs())
	if err == nil || !containsAll(err.Error(), "loops", "self loops") {
		t.Fatalf("graph of self loops only: error %v", err)
	}
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}
