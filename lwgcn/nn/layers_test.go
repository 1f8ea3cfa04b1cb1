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

func TestSparseLinearMatchesDense(t *testing.T) { nntest.BothLayouts(t, testSparseLinear) }
func TestGCNConv(t *testing.T)                  { nntest.BothLayouts(t, testGCNConv) }
func TestGCN2Conv(t *testing.T)                 { nntest.BothLayouts(t, testGCN2Conv) }
func TestGATConv(t *testing.T)                  { nntest.BothLayouts(t, testGATConv) }
func TestLabelWiseConvMatchesReference(t *testing.T) {
	nntest.BothLayouts(t, testLabelWiseConv)
}
func TestLabelWiseConvDenseHidden(t *testing.T) { nntest.BothLayouts(t, testLabelWiseDenseHidden) }

func testSparseLinear(t *testing.T) {
	g := nntest.TinyGraph(t)
	for _, sparseFeats := range []bool{true, false} {
		in := nntest.Float64Inputs(t, g, sparseFeats)
		h := nntest.NewHarness(t, in, 7, func(scope *model.Scope, n *nn.Nodes) *Node {
			return nn.SparseLinear(scope.In("lin"), n.Features(nn.InputFeatures), 3, true)
		})
		got, _ := h.Forward()
		w, b := nntest.Matrix(h.VarValues("/lin/weight"), 4, 3), h.VarValues("/lin/bias")
		want := nntest.AddBias(nntest.DenseMatMul(nntest.DenseX(g), w), b)
		nntest.AssertClose(t, "X·W+b", got, nntest.Flat(want), 1e-12)
		// PyTorch nn.Linear init: |w|, |b| <= 1/sqrt(4).
		for _, v := range append(nntest.Flat(w), b...) {
			if math.Abs(v) > 0.5 {
				t.Fatalf("init value %v outside ±1/sqrt(fan_in)", v)
			}
		}
		h.CheckGradients(rand.New(rand.NewPCG(1, 1)), 1e-6)
	}
}

func testGCNConv(t *testing.T) {
	g := nntest.TinyGraph(t)
	for _, sparseFeats := range []bool{true, false} {
		in := nntest.Float64Inputs(t, g, sparseFeats)
		if err := nn.AddGCNAdjacency(in, g); err != nil {
			t.Fatal(err)
		}
		h := nntest.NewHarness(t, in, 3, func(scope *model.Scope, n *nn.Nodes) *Node {
			return nn.GCNConv(scope.In("conv"), n.Features(nn.InputFeatures), sparse.FromNodes(n, nn.InputGCNAdj), 2)
		})
		got, _ := h.Forward()
		w := nntest.Matrix(h.VarValues("/conv/weight"), 4, 2)
		// The bias starts at zero (PyG); set it to check it is added.
		h.Store.GetVariable("/conv/bias").MustSetValue(nntest.Float64Tensor([]float64{0.25, -0.5}, 2))
		got, _ = h.Forward()
		want := nntest.AddBias(nntest.DenseMatMul(nntest.GCNDense(g), nntest.DenseMatMul(nntest.DenseX(g), w)), []float64{0.25, -0.5})
		nntest.AssertClose(t, "Â·X·W+b", got, nntest.Flat(want), 1e-6) // Â is stored in float32
		bound := math.Sqrt(6.0 / (4 + 2))                              // glorot
		for _, v := range nntest.Flat(w) {
			if math.Abs(v) > bound {
				t.Fatalf("glorot init value %v outside ±%v", v, bound)
			}
		}
		h.CheckGradients(rand.New(rand.NewPCG(2, 2)), 1e-6)
	}
}

func testGCN2Conv(t *testing.T) {
	g := nntest.TinyGraph(t)
	in := nntest.Float64Inputs(t, g, false)
	if err := nn.AddGCNAdjacency(in, g); err != nil {
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
	h := nntest.NewHarness(t, in, 4, func(scope *model.Scope, n *nn.Nodes) *Node {
		gr := n.Graph()
		hh := scope.VariableWithValue("h", nntest.Float64Tensor(hv, 5, hdim)).NodeValue(gr)
		h0 := scope.VariableWithValue("h0", nntest.Float64Tensor(h0v, 5, hdim)).NodeValue(gr)
		return nn.GCN2Conv(scope.In("conv"), hh, MulScalar(h0, alpha), sparse.FromNodes(n, nn.InputGCNAdj), alpha, lambda, layer)
	})
	got, _ := h.Forward()
	w := nntest.Matrix(h.VarValues("/conv/weight"), hdim, hdim)
	theta := math.Log(lambda/layer + 1)
	ah := nntest.DenseMatMul(nntest.GCNDense(g), nntest.Matrix(hv, 5, hdim))
	s := make([][]float64, 5)
	for i := range s {
		s[i] = make([]float64, hdim)
		for j := range s[i] {
			s[i][j] = (1-alpha)*ah[i][j] + alpha*h0v[i*hdim+j]
		}
	}
	sw := nntest.DenseMatMul(s, w)
	var want []float64
	for i := range s {
		for j := range s[i] {
			want = append(want, theta*sw[i][j]+(1-theta)*s[i][j])
		}
	}
	nntest.AssertClose(t, "GCN2Conv", got, want, 1e-6)
	for _, v := range nntest.Flat(w) {
		if math.Abs(v) > 1/math.Sqrt(hdim) {
			t.Fatalf("init value %v outside ±1/sqrt(H)", v)
		}
	}
	h.CheckGradients(rng, 1e-6)
}

func testGATConv(t *testing.T) {
	g := nntest.TinyGraph(t)
	for _, concat := range []bool{true, false} {
		in := nntest.Float64Inputs(t, g, true)
		if err := nn.AddGATEdges(in, g); err != nil {
			t.Fatal(err)
		}
		const heads, out = 2, 3
		cfg := nn.GATConfig{Heads: heads, Out: out, Concat: concat, NegativeSlope: 0.2}
		h := nntest.NewHarness(t, in, 9, func(scope *model.Scope, n *nn.Nodes) *Node {
			return nn.GATConv(scope.In("gat"), n.Features(nn.InputFeatures), sparse.FromNodes(n, nn.InputGATEdges), cfg, false)
		})
		got, _ := h.Forward()
		w := nntest.Matrix(h.VarValues("/gat/weight"), 4, heads*out)
		as, ad := nntest.Matrix(h.VarValues("/gat/att_src"), heads, out), nntest.Matrix(h.VarValues("/gat/att_dst"), heads, out)
		xw := nntest.DenseMatMul(nntest.DenseX(g), w)
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
		nntest.AssertClose(t, "GAT", got, nntest.Flat(want), 1e-12)
		h.CheckGradients(rand.New(rand.NewPCG(6, 6)), 1e-5)
	}
}

func testLabelWiseConv(t *testing.T) {
	g := nntest.TinyGraph(t)
	// Classes: 0,1,0,0,1 over 3 classes; class 2 has no node (absent), and
	// node 4 has no class-0 in-neighbour... (4's only in-edge is 0 -> 4).
	class := []int32{0, 1, 0, 0, 1}
	lw, err := nn.NewLabelWise(5, g.Src(), g.Dst(), class, 3)
	if err != nil {
		t.Fatal(err)
	}
	if lw.NumPresent != 2 || !lw.Present[0] || !lw.Present[1] || lw.Present[2] {
		t.Fatalf("present classes %v (%d), want [true true false]", lw.Present, lw.NumPresent)
	}
	const out = 2
	var outputs [][]float64
	for _, sparseFeats := range []bool{true, false} {
		old := nn.SparseDensityThreshold
		in := nntest.Float64Inputs(t, g, sparseFeats)
		if sparseFeats {
			nn.SparseDensityThreshold = 2
		} else {
			nn.SparseDensityThreshold = 0
		}
		if err := lw.AddTo(in, "lw", g.Features()); err != nil {
			t.Fatal(err)
		}
		nn.SparseDensityThreshold = old
		h := nntest.NewHarness(t, in, 11, func(scope *model.Scope, n *nn.Nodes) *Node {
			return nn.LabelWiseConv(scope.In("lwc"), n.Features(nn.InputFeatures), n.LabelWise("lw"), out)
		})
		got, _ := h.Forward()
		ws, wc, b := h.VarValues("/lwc/weight_self"), h.VarValues("/lwc/weight_cls"), h.VarValues("/lwc/bias")
		want := nntest.LabelWiseReference(nntest.DenseX(g), g.Src(), g.Dst(), class, 3,
			nntest.LabelWiseConcatWeight(ws, wc, 4, 3, out, lw.Present), b)
		nntest.AssertClose(t, "label-wise", got, nntest.Flat(want), 1e-6) // w_e stored in float32
		// Official fan-in: (K_present + 1)·F = 3·4.
		bound := 1 / math.Sqrt(12)
		maxAbs := 0.0
		for _, v := range append(append(ws, wc...), b...) {
			maxAbs = max(maxAbs, math.Abs(v))
		}
		if maxAbs > bound || maxAbs < bound/2 {
			t.Fatalf("max |init| = %v, want <= %v (and not much smaller)", maxAbs, bound)
		}
		h.CheckGradients(rand.New(rand.NewPCG(8, 8)), 1e-6)
		outputs = append(outputs, got)
	}
	// Same seed and paths: the sparse-feature and dense-feature paths agree.
	nntest.AssertClose(t, "sparse vs dense features", outputs[0], outputs[1], 1e-9)
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
			old := nn.LabelWiseGroupedFLOPs
			defer func() { nn.LabelWiseGroupedFLOPs = old }()
			if tc.grouped {
				nn.LabelWiseGroupedFLOPs = 0
			}
			g := nntest.TinyGraph(t)
			lw, err := nn.NewLabelWise(5, g.Src(), g.Dst(), tc.class, 3)
			if err != nil {
				t.Fatal(err)
			}
			in := nntest.Float64Inputs(t, g, false)
			if err := lw.AddTo(in, "lw", nil); err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(9, 9))
			hv := make([]float64, 5*3)
			for i := range hv {
				hv[i] = rng.NormFloat64()
			}
			h := nntest.NewHarness(t, in, 12, func(scope *model.Scope, n *nn.Nodes) *Node {
				x := scope.VariableWithValue("h", nntest.Float64Tensor(hv, 5, 3)).NodeValue(n.Graph())
				return nn.LabelWiseConv(scope.In("lwc"), nn.DenseFeatures(x), n.LabelWise("lw"), 4)
			})
			got, _ := h.Forward()
			want := nntest.LabelWiseReference(nntest.Matrix(hv, 5, 3), g.Src(), g.Dst(), tc.class, 3,
				nntest.LabelWiseConcatWeight(h.VarValues("/lwc/weight_self"), h.VarValues("/lwc/weight_cls"), 3, 3, 4, lw.Present),
				h.VarValues("/lwc/bias"))
			nntest.AssertClose(t, "label-wise (dense h)", got, nntest.Flat(want), 1e-6)
			h.CheckGradients(rng, 1e-6)
		})
	}
}

func TestLabelWiseAggregates(t *testing.T) {
	g := nntest.TinyGraph(t)
	class := []int32{0, 1, 0, 0, 1}
	lw, err := nn.NewLabelWise(5, g.Src(), g.Dst(), class, 3)
	if err != nil {
		t.Fatal(err)
	}
	in := nntest.Float64Inputs(t, g, false)
	if err := lw.AddTo(in, "lw", nil); err != nil {
		t.Fatal(err)
	}
	h := nntest.NewHarness(t, in, 1, func(scope *model.Scope, n *nn.Nodes) *Node {
		return nn.LabelWiseAggregates(n.Get(nn.InputFeatures), n.LabelWise("lw"))
	})
	got, _ := h.Forward()
	// Node 1's in-edges: 0 (class 0), 2 (class 0, twice). Class-0 mean = (x0 + 2 x2)/3.
	x := nntest.DenseX(g)
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
