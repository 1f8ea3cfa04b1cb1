package nn

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/graph"
)

// tinyGraph: 5 nodes, 4 features (some zeros), edges with a duplicate
// (2 -> 1 twice) and a self loop (2 -> 2); node 3 has no in-edge from node 4.
func tinyGraph(t *testing.T) *graph.Graph {
	t.Helper()
	x := []float32{
		1, 0, 2, 0,
		0, 1, 0, 0,
		3, 0, 0, 1,
		0, 0, 1, 1,
		0, 2, 0, 0,
	}
	f, err := graph.NewDenseFeatures(5, 4, x)
	if err != nil {
		t.Fatal(err)
	}
	return graph.MustNew(graph.Spec{Name: "tiny", NumNodes: 5,
		Src:      []int32{0, 1, 2, 3, 4, 1, 0, 2, 2},
		Dst:      []int32{1, 0, 1, 2, 3, 2, 4, 2, 1},
		Features: f, Labels: []int32{0, 1, 2, 0, 1}, NumClasses: 3})
}

func denseX(g *graph.Graph) [][]float64 {
	f := g.Features()
	x := make([][]float64, f.NumRows())
	for i := range x {
		x[i] = make([]float64, f.NumCols())
		for j := range x[i] {
			x[i][j] = float64(f.At(i, j))
		}
	}
	return x
}

// float64Inputs builds float64 inputs; sparse selects the sparse feature path.
func float64Inputs(t *testing.T, g *graph.Graph, sparse bool) *Inputs {
	old := SparseDensityThreshold
	defer func() { SparseDensityThreshold = old }()
	SparseDensityThreshold = 0
	if sparse {
		SparseDensityThreshold = 2
	}
	in := NewInputs()
	in.DType = dtypes.Float64
	if err := AddGraphBasics(in, g); err != nil {
		t.Fatal(err)
	}
	if sparse != in.Has(InputFeatures+"/rows") {
		t.Fatalf("features sparse = %v, want %v", in.Has(InputFeatures+"/rows"), sparse)
	}
	return in
}

func reshape(v []float64, rows, cols int) [][]float64 {
	m := make([][]float64, rows)
	for i := range m {
		m[i] = v[i*cols : (i+1)*cols]
	}
	return m
}

func flat(m [][]float64) []float64 {
	var f []float64
	for _, r := range m {
		f = append(f, r...)
	}
	return f
}

func addBias(m [][]float64, b []float64) [][]float64 {
	for _, r := range m {
		for j := range r {
			r[j] += b[j]
		}
	}
	return m
}

// bothLayouts runs f with sparse matrices kept dense (small-graph path) and
// in bucketed ELL layout with one bucket per distinct row length.
func bothLayouts(t *testing.T, f func(t *testing.T)) {
	for _, dense := range []bool{true, false} {
		name := "ell"
		if dense {
			name = "dense"
		}
		t.Run(name, func(t *testing.T) {
			oldDense, oldCost := DenseMaxElements, ELLBucketCost
			defer func() { DenseMaxElements, ELLBucketCost = oldDense, oldCost }()
			DenseMaxElements, ELLBucketCost = 0, 0
			if dense {
				DenseMaxElements = 1 << 20
			}
			f(t)
		})
	}
}

func TestSparseLinearMatchesDense(t *testing.T) { bothLayouts(t, testSparseLinear) }
func TestGCNConv(t *testing.T)                  { bothLayouts(t, testGCNConv) }
func TestGCN2Conv(t *testing.T)                 { bothLayouts(t, testGCN2Conv) }
func TestGATConv(t *testing.T)                  { bothLayouts(t, testGATConv) }
func TestLabelWiseConvMatchesReference(t *testing.T) {
	bothLayouts(t, testLabelWiseConv)
}
func TestLabelWiseConvDenseHidden(t *testing.T) { bothLayouts(t, testLabelWiseDenseHidden) }

func testSparseLinear(t *testing.T) {
	g := tinyGraph(t)
	for _, sparse := range []bool{true, false} {
		in := float64Inputs(t, g, sparse)
		h := newHarness(t, in, 7, func(scope *model.Scope, n *Nodes) *Node {
			return SparseLinear(scope.In("lin"), n.Features(InputFeatures), 3, true)
		})
		got, _ := h.forward()
		w, b := reshape(h.varValues("/lin/weight"), 4, 3), h.varValues("/lin/bias")
		want := addBias(matMul(denseX(g), w), b)
		assertClose(t, "X·W+b", got, flat(want), 1e-12)
		// PyTorch nn.Linear init: |w|, |b| <= 1/sqrt(4).
		for _, v := range append(flat(w), b...) {
			if math.Abs(v) > 0.5 {
				t.Fatalf("init value %v outside ±1/sqrt(fan_in)", v)
			}
		}
		h.checkGradients(rand.New(rand.NewPCG(1, 1)), 1e-6)
	}
}

// gcnDense is Â built independently: self loops replaced, in-degrees.
func gcnDense(g *graph.Graph) [][]float64 {
	n := g.NumNodes()
	a := make([][]float64, n)
	for v := range a {
		a[v] = make([]float64, n)
		a[v][v] = 1
	}
	for e, u := range g.Src() {
		v := g.Dst()[e]
		if u != v {
			a[v][u]++
		}
	}
	deg := make([]float64, n)
	for v := range a {
		for _, x := range a[v] {
			deg[v] += x
		}
	}
	for v := range a {
		for u := range a[v] {
			a[v][u] /= math.Sqrt(deg[u] * deg[v])
		}
	}
	return a
}

func testGCNConv(t *testing.T) {
	g := tinyGraph(t)
	for _, sparse := range []bool{true, false} {
		in := float64Inputs(t, g, sparse)
		if err := AddGCNAdjacency(in, g); err != nil {
			t.Fatal(err)
		}
		h := newHarness(t, in, 3, func(scope *model.Scope, n *Nodes) *Node {
			return GCNConv(scope.In("conv"), n.Features(InputFeatures), n.Sparse(InputGCNAdj), 2)
		})
		got, _ := h.forward()
		w := reshape(h.varValues("/conv/weight"), 4, 2)
		// The bias starts at zero (PyG); set it to check it is added.
		h.store.GetVariable("/conv/bias").MustSetValue(x0Tensor([]float64{0.25, -0.5}, 2))
		got, _ = h.forward()
		want := addBias(matMul(gcnDense(g), matMul(denseX(g), w)), []float64{0.25, -0.5})
		assertClose(t, "Â·X·W+b", got, flat(want), 1e-6) // Â is stored in float32
		bound := math.Sqrt(6.0 / (4 + 2))                // glorot
		for _, v := range flat(w) {
			if math.Abs(v) > bound {
				t.Fatalf("glorot init value %v outside ±%v", v, bound)
			}
		}
		h.checkGradients(rand.New(rand.NewPCG(2, 2)), 1e-6)
	}
}

func testGCN2Conv(t *testing.T) {
	g := tinyGraph(t)
	in := float64Inputs(t, g, false)
	if err := AddGCNAdjacency(in, g); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 5))
	const hdim = 3
	h0v := make([]float64, 5*hdim)
	hv := make([]float64, 5*hdim)
	for i := range hv {
		h0v[i], hv[i] = rng.NormFloat64(), rng.NormFloat64()
	}
	const alpha, lambda, layer = 0.1, 0.5, 2
	h := newHarness(t, in, 4, func(scope *model.Scope, n *Nodes) *Node {
		gr := n.Graph()
		hh := scope.VariableWithValue("h", x0Tensor(hv, 5, hdim)).NodeValue(gr)
		h0 := scope.VariableWithValue("h0", x0Tensor(h0v, 5, hdim)).NodeValue(gr)
		return GCN2Conv(scope.In("conv"), hh, MulScalar(h0, alpha), n.Sparse(InputGCNAdj), alpha, lambda, layer)
	})
	got, _ := h.forward()
	w := reshape(h.varValues("/conv/weight"), hdim, hdim)
	theta := math.Log(lambda/layer + 1)
	ah := matMul(gcnDense(g), reshape(hv, 5, hdim))
	s := make([][]float64, 5)
	for i := range s {
		s[i] = make([]float64, hdim)
		for j := range s[i] {
			s[i][j] = (1-alpha)*ah[i][j] + alpha*h0v[i*hdim+j]
		}
	}
	sw := matMul(s, w)
	var want []float64
	for i := range s {
		for j := range s[i] {
			want = append(want, theta*sw[i][j]+(1-theta)*s[i][j])
		}
	}
	assertClose(t, "GCN2Conv", got, want, 1e-6)
	for _, v := range flat(w) {
		if math.Abs(v) > 1/math.Sqrt(hdim) {
			t.Fatalf("init value %v outside ±1/sqrt(H)", v)
		}
	}
	h.checkGradients(rng, 1e-6)
}

func testGATConv(t *testing.T) {
	g := tinyGraph(t)
	for _, concat := range []bool{true, false} {
		in := float64Inputs(t, g, true)
		if err := AddGATEdges(in, g); err != nil {
			t.Fatal(err)
		}
		const heads, out = 2, 3
		cfg := GATConfig{Heads: heads, Out: out, Concat: concat, NegativeSlope: 0.2}
		h := newHarness(t, in, 9, func(scope *model.Scope, n *Nodes) *Node {
			return GATConv(scope.In("gat"), n.Features(InputFeatures), n.Sparse(InputGATEdges), cfg, false)
		})
		got, _ := h.forward()
		w := reshape(h.varValues("/gat/weight"), 4, heads*out)
		as, ad := reshape(h.varValues("/gat/att_src"), heads, out), reshape(h.varValues("/gat/att_dst"), heads, out)
		xw := matMul(denseX(g), w)
		// Edges: non-self edges as given plus one self loop per node.
		var es [][2]int
		for e, u := range g.Src() {
			if v := g.Dst()[e]; u != v {
				es = append(es, [2]int{int(u), int(v)})
			}
		}
		for v := range 5 {
			es = append(es, [2]int{v, v})
		}
		want := make([][]float64, 5)
		for v := range want {
			if concat {
				want[v] = make([]float64, heads*out)
			} else {
				want[v] = make([]float64, out)
			}
		}
		for k := range heads {
			score := func(u, v int) float64 {
				s := 0.0
				for j := range out {
					s += as[k][j]*xw[u][k*out+j] + ad[k][j]*xw[v][k*out+j]
				}
				if s < 0 {
					s *= 0.2
				}
				return s
			}
			for v := range 5 {
				den := 0.0
				for _, e := range es {
					if e[1] == v {
						den += math.Exp(score(e[0], v))
					}
				}
				for _, e := range es {
					if e[1] != v {
						continue
					}
					a := math.Exp(score(e[0], v)) / den
					for j := range out {
						if concat {
							want[v][k*out+j] += a * xw[e[0]][k*out+j]
						} else {
							want[v][j] += a * xw[e[0]][k*out+j] / heads
						}
					}
				}
			}
		}
		assertClose(t, "GAT", got, flat(want), 1e-12)
		h.checkGradients(rand.New(rand.NewPCG(6, 6)), 1e-5)
	}
}

func testLabelWiseConv(t *testing.T) {
	g := tinyGraph(t)
	// Classes: 0,1,0,0,1 over 3 classes; class 2 has no node (absent), and
	// node 4 has no class-0 in-neighbour... (4's only in-edge is 0 -> 4).
	class := []int32{0, 1, 0, 0, 1}
	lw, err := NewLabelWise(5, g.Src(), g.Dst(), class, 3)
	if err != nil {
		t.Fatal(err)
	}
	if lw.NumPresent != 2 || !lw.Present[0] || !lw.Present[1] || lw.Present[2] {
		t.Fatalf("present classes %v (%d), want [true true false]", lw.Present, lw.NumPresent)
	}
	const out = 2
	var outputs [][]float64
	for _, sparse := range []bool{true, false} {
		old := SparseDensityThreshold
		in := float64Inputs(t, g, sparse)
		if sparse {
			SparseDensityThreshold = 2
		} else {
			SparseDensityThreshold = 0
		}
		if err := lw.AddTo(in, "lw", g.Features()); err != nil {
			t.Fatal(err)
		}
		SparseDensityThreshold = old
		h := newHarness(t, in, 11, func(scope *model.Scope, n *Nodes) *Node {
			return LabelWiseConv(scope.In("lwc"), n.Features(InputFeatures), n.LabelWise("lw"), out)
		})
		got, _ := h.forward()
		ws, wc, b := h.varValues("/lwc/weight_self"), h.varValues("/lwc/weight_cls"), h.varValues("/lwc/bias")
		want := LabelWiseReference(denseX(g), g.Src(), g.Dst(), class, 3,
			LabelWiseConcatWeight(ws, wc, 4, 3, out, lw.Present), b)
		assertClose(t, "label-wise", got, flat(want), 1e-6) // w_e stored in float32
		// Official fan-in: (K_present + 1)·F = 3·4.
		bound := 1 / math.Sqrt(12)
		maxAbs := 0.0
		for _, v := range append(append(ws, wc...), b...) {
			maxAbs = max(maxAbs, math.Abs(v))
		}
		if maxAbs > bound || maxAbs < bound/2 {
			t.Fatalf("max |init| = %v, want <= %v (and not much smaller)", maxAbs, bound)
		}
		h.checkGradients(rand.New(rand.NewPCG(8, 8)), 1e-6)
		outputs = append(outputs, got)
	}
	// Same seed and paths: the sparse-feature and dense-feature paths agree.
	assertClose(t, "sparse vs dense features", outputs[0], outputs[1], 1e-9)
}

func testLabelWiseDenseHidden(t *testing.T) {
	// Dense hidden input, gradient also with respect to h; one product for
	// all classes or one per class (grouped), with and without an empty class.
	for _, tc := range []struct {
		name    string
		class   []int32
		grouped bool
	}{{"one-product", []int32{2, 1, 0, 2, 1}, false}, {"grouped", []int32{2, 1, 0, 2, 1}, true},
		{"grouped-empty-class", []int32{0, 1, 0, 0, 1}, true}} {
		t.Run(tc.name, func(t *testing.T) {
			old := LabelWiseGroupedFLOPs
			defer func() { LabelWiseGroupedFLOPs = old }()
			if tc.grouped {
				LabelWiseGroupedFLOPs = 0
			}
			g := tinyGraph(t)
			lw, err := NewLabelWise(5, g.Src(), g.Dst(), tc.class, 3)
			if err != nil {
				t.Fatal(err)
			}
			in := float64Inputs(t, g, false)
			if err := lw.AddTo(in, "lw", nil); err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(9, 9))
			hv := make([]float64, 5*3)
			for i := range hv {
				hv[i] = rng.NormFloat64()
			}
			h := newHarness(t, in, 12, func(scope *model.Scope, n *Nodes) *Node {
				x := scope.VariableWithValue("h", x0Tensor(hv, 5, 3)).NodeValue(n.Graph())
				return LabelWiseConv(scope.In("lwc"), DenseFeatures(x), n.LabelWise("lw"), 4)
			})
			got, _ := h.forward()
			want := LabelWiseReference(reshape(hv, 5, 3), g.Src(), g.Dst(), tc.class, 3,
				LabelWiseConcatWeight(h.varValues("/lwc/weight_self"), h.varValues("/lwc/weight_cls"), 3, 3, 4, lw.Present),
				h.varValues("/lwc/bias"))
			assertClose(t, "label-wise (dense h)", got, flat(want), 1e-6)
			h.checkGradients(rng, 1e-6)
		})
	}
}

func TestLabelWiseAggregates(t *testing.T) {
	g := tinyGraph(t)
	class := []int32{0, 1, 0, 0, 1}
	lw, err := NewLabelWise(5, g.Src(), g.Dst(), class, 3)
	if err != nil {
		t.Fatal(err)
	}
	in := float64Inputs(t, g, false)
	if err := lw.AddTo(in, "lw", nil); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, in, 1, func(scope *model.Scope, n *Nodes) *Node {
		return LabelWiseAggregates(n.Get(InputFeatures), n.LabelWise("lw"))
	})
	got, _ := h.forward()
	// Node 1's in-edges: 0 (class 0), 2 (class 0, twice). Class-0 mean = (x0 + 2 x2)/3.
	x := denseX(g)
	for j := range 4 {
		want := (x[0][j] + 2*x[2][j]) / 3
		if v := got[(1*3+0)*4+j]; math.Abs(v-want) > 1e-6 {
			t.Fatalf("a_{1,0}[%d] = %v, want %v", j, v, want)
		}
		if v := got[(1*3+1)*4+j]; v != 0 {
			t.Fatalf("a_{1,1}[%d] = %v, want 0 (no class-1 in-neighbour)", j, v)
		}
	}
	// Node 2's in-edges: 3 (class 0), 1 (class 1), 2 itself (class 0).
	for j := range 4 {
		if v, want := got[(2*3+0)*4+j], (x[3][j]+x[2][j])/2; math.Abs(v-want) > 1e-12 {
			t.Fatalf("a_{2,0}[%d] = %v, want %v", j, v, want)
		}
		if v, want := got[(2*3+1)*4+j], x[1][j]; math.Abs(v-want) > 1e-12 {
			t.Fatalf("a_{2,1}[%d] = %v, want %v", j, v, want)
		}
	}
}
