package nn

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/graph"
)

// fbDense multiplies dense row-major matrices (independent of the package's
// own helpers).
func fbDense(a, b [][]float64) [][]float64 {
	out := make([][]float64, len(a))
	for i := range a {
		out[i] = make([]float64, len(b[0]))
		for k := range b {
			for j := range b[0] {
				out[i][j] += a[i][k] * b[k][j]
			}
		}
	}
	return out
}

// fbRandom returns an r x c matrix of N(0, 1) values rounded to float32 (the
// inputs pass through float32 on their way in).
func fbRandom(rng *rand.Rand, r, c int) [][]float64 {
	m := make([][]float64, r)
	for i := range m {
		m[i] = make([]float64, c)
		for j := range m[i] {
			m[i][j] = float64(float32(rng.NormFloat64()))
		}
	}
	return m
}

func fbFlat32(m [][]float64) []float32 {
	var f []float32
	for _, r := range m {
		for _, v := range r {
			f = append(f, float32(v))
		}
	}
	return f
}

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
	m, err := FAEdges(3, []int32{0, 2, 1, 1}, []int32{1, 1, 1, 0})
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
	if _, err := FAEdges(2, []int32{0, 5}, []int32{1, 0}); err == nil {
		t.Fatal("edge outside the graph accepted")
	}
}

func TestFAConv(t *testing.T) { bothLayouts(t, testFAConv) }

func testFAConv(t *testing.T) {
	g := tinyGraph(t).ToUndirected()
	in := float64Inputs(t, g, true)
	if err := AddFAEdges(in, g); err != nil {
		t.Fatal(err)
	}
	const hid = 3
	hIn := fbRandom(rand.New(rand.NewPCG(1, 2)), g.NumNodes(), hid)
	in.SetFloat("h", fbFlat32(hIn), g.NumNodes(), hid)
	hr := newHarness(t, in, 5, func(scope *model.Scope, n *Nodes) *Node {
		return FAConv(scope.In("fa"), n.Get("h"), n.Sparse(InputFAEdges), FAConfig{Dropout: 0.5}, false)
	})
	got, _ := hr.forward()
	w, b := hr.varValues("/fa/gate/weight"), hr.varValues("/fa/gate/bias")
	assertClose(t, "FAConv", got, flat(faReference(g, hIn, w, b[0])), 1e-12)
	hr.checkGradients(rand.New(rand.NewPCG(3, 4)), 1e-5)
}

func TestFAGCNMatchesReference(t *testing.T) { bothLayouts(t, testFAGCNMatchesReference) }

func testFAGCNMatchesReference(t *testing.T) {
	g := tinyGraph(t).ToUndirected()
	m := FAGCN{Hidden: 3, Layers: 2, Eps: 0.3, Dropout: 0.5}
	in := float64Inputs(t, g, true)
	if err := m.Prepare(g, in); err != nil {
		t.Fatal(err)
	}
	hr := newHarness(t, in, 8, func(scope *model.Scope, n *Nodes) *Node { return m.Forward(scope, n, false) })
	got, dims := hr.forward()
	if dims[0] != 5 || dims[1] != 3 {
		t.Fatalf("output %v, want [5 3]", dims)
	}
	w1, b1 := reshape(hr.varValues("/t1/weight"), 4, 3), hr.varValues("/t1/bias")
	raw := addBias(fbDense(denseX(g), w1), b1)
	for _, r := range raw {
		for j := range r {
			r[j] = max(r[j], 0)
		}
	}
	h := raw
	for _, layer := range []string{"/layer0", "/layer1"} {
		h = faReference(g, h, hr.varValues(layer+"/gate/weight"), hr.varValues(layer + "/gate/bias")[0])
		for i := range h {
			for j := range h[i] {
				h[i][j] += 0.3 * raw[i][j]
			}
		}
	}
	want := addBias(fbDense(h, reshape(hr.varValues("/t2/weight"), 3, 3)), hr.varValues("/t2/bias"))
	assertClose(t, "FAGCN", got, flat(want), 1e-12)
	// Gradients through a training pass (evaluation passes stop them at the
	// sparse features); no dropout, so the pass is deterministic.
	m.Dropout = 0
	hg := newHarness(t, in, 8, func(scope *model.Scope, n *Nodes) *Node { return m.Forward(scope, n, true) })
	hg.checkGradients(rand.New(rand.NewPCG(5, 6)), 1e-5)
}

func TestFAGCNPrepareErrors(t *testing.T) {
	g := tinyGraph(t)
	if err := (FAGCN{Hidden: 0, Layers: 1}).Prepare(g, NewInputs()); err == nil {
		t.Fatal("hidden 0 accepted")
	}
	loops := graph.MustNew(graph.Spec{Name: "loops", NumNodes: 2, Src: []int32{0, 1}, Dst: []int32{0, 1},
		Features: g.Features().SelectRows([]int32{0, 1}), Labels: []int32{0, 1}})
	err := (FAGCN{Hidden: 2, Layers: 1}).Prepare(loops, NewInputs())
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
