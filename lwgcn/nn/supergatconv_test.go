package nn_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// sgEdges lists the self-looped edges (u, v) of g as SuperGAT uses them.
func sgEdges(g *graph.Graph) [][2]int {
	var es [][2]int
	for e, u := range g.Src() {
		if v := g.Dst()[e]; u != v {
			es = append(es, [2]int{int(u), int(v)})
		}
	}
	for v := range g.NumNodes() {
		es = append(es, [2]int{v, v})
	}
	return es
}

// sgReference computes SuperGATConv by the formulas of the paper, edge by
// edge, from x' = X W (per head k: columns k·O .. k·O+O-1) and a [K, 2O].
func sgReference(xw [][]float64, es [][2]int, att [][]float64, heads, o int, concat bool, mx bool, bias []float64) [][]float64 {
	n := len(xw)
	dot := func(u, v, k int) float64 {
		s := 0.0
		for j := range o {
			s += xw[v][k*o+j] * xw[u][k*o+j]
		}
		return s
	}
	score := func(u, v, k int) float64 {
		var e float64
		if mx {
			lin := 0.0
			for j := range o {
				lin += att[k][j]*xw[v][k*o+j] + att[k][o+j]*xw[u][k*o+j]
			}
			e = lin / (1 + math.Exp(-dot(u, v, k)))
		} else {
			e = dot(u, v, k) / math.Sqrt(float64(o))
		}
		if e < 0 {
			e *= 0.2
		}
		return e
	}
	width := o
	if concat {
		width = heads * o
	}
	out := make([][]float64, n)
	for v := range out {
		out[v] = make([]float64, width)
	}
	for k := range heads {
		for v := range n {
			den := 0.0
			for _, e := range es {
				if e[1] == v {
					den += math.Exp(score(e[0], v, k))
				}
			}
			for _, e := range es {
				if e[1] != v {
					continue
				}
				a := math.Exp(score(e[0], v, k)) / den
				for j := range o {
					if concat {
						out[v][k*o+j] += a * xw[e[0]][k*o+j]
					} else {
						out[v][j] += a * xw[e[0]][k*o+j] / float64(heads)
					}
				}
			}
		}
	}
	return nntest.AddBias(out, bias)
}

// TestSuperGATConv: the layer against the formula, with gradients, with
// the edges multiplied densely (edge-order attention) and in the ELL
// layouts (the attention in the slot layout, sparse.RowSlots).
func TestSuperGATConv(t *testing.T) { nntest.BothLayouts(t, testSuperGATConv) }

func testSuperGATConv(t *testing.T) {
	g := nntest.TinyGraph(t)
	for _, att := range []nn.SuperGATAttention{nn.SuperGATMX, nn.SuperGATSD} {
		for _, concat := range []bool{true, false} {
			name := att.String() + "/mean"
			if concat {
				name = att.String() + "/concat"
			}
			t.Run(name, func(t *testing.T) {
				in := nntest.Float64Inputs(t, g, true)
				if err := nn.AddSuperGATInputs(in, g); err != nil {
					t.Fatal(err)
				}
				const heads, o = 2, 3
				cfg := nn.SuperGATConfig{Heads: heads, Out: o, Concat: concat, Attention: att, NegativeSlope: 0.2,
					AttentionDropout: 0.5, EdgeSampleRatio: 0.8, NegSampleRatio: 0.5}
				hr := nntest.NewHarness(t, in, 11, func(scope *model.Scope, n *nn.Nodes) *Node {
					out, loss := nn.SuperGATConv(scope.In("sg"), n.Features(nn.InputFeatures), sparse.FromNodes(n, nn.InputGATEdges),
						nn.SuperGATEdgesFrom(n), cfg, false)
					if loss != nil {
						t.Error("evaluation pass returned a link loss")
					}
					return out
				})
				got, _ := hr.Forward()
				xw := nntest.NaiveMatMul(nntest.DenseX(g), nntest.Matrix(hr.VarValues("/sg/weight"), 4, heads*o))
				var a [][]float64
				if att == nn.SuperGATMX {
					a = nntest.Matrix(hr.VarValues("/sg/att"), heads, 2*o)
				}
				want := sgReference(xw, sgEdges(g), a, heads, o, concat, att == nn.SuperGATMX, hr.VarValues("/sg/bias"))
				nntest.AssertClose(t, "SuperGATConv", got, nntest.Flat(want), 1e-12)
				hr.CheckGradients(rand.New(rand.NewPCG(7, 8)), 1e-5)
			})
		}
	}
}

// TestSuperGATLinkLossAllEdges: with every edge kept and no negatives, the
// loss is the mean over the self-looped edges of softplus(-φ) =
// -log σ(φ), φ = mean over heads of x'_v·x'_u (/ sqrt(O) for SD).
func TestSuperGATLinkLossAllEdges(t *testing.T) {
	nntest.BothLayouts(t, testSuperGATLinkLossAllEdges)
}

func testSuperGATLinkLossAllEdges(t *testing.T) {
	g := nntest.TinyGraph(t)
	for _, att := range []nn.SuperGATAttention{nn.SuperGATMX, nn.SuperGATSD} {
		t.Run(att.String(), func(t *testing.T) {
			in := nntest.Float64Inputs(t, g, true)
			if err := nn.AddSuperGATInputs(in, g); err != nil {
				t.Fatal(err)
			}
			const heads, o = 2, 3
			cfg := nn.SuperGATConfig{Heads: heads, Out: o, Concat: true, Attention: att, NegativeSlope: 0.2,
				EdgeSampleRatio: 1}
			hr := nntest.NewHarness(t, in, 12, func(scope *model.Scope, n *nn.Nodes) *Node {
				_, loss := nn.SuperGATConv(scope.In("sg"), n.Features(nn.InputFeatures), sparse.FromNodes(n, nn.InputGATEdges),
					nn.SuperGATEdgesFrom(n), cfg, true)
				return Reshape(loss, 1)
			})
			got, _ := hr.Forward()
			xw := nntest.NaiveMatMul(nntest.DenseX(g), nntest.Matrix(hr.VarValues("/sg/weight"), 4, heads*o))
			es := sgEdges(g)
			want := 0.0
			for _, e := range es {
				phi := 0.0
				for k := range heads {
					for j := range o {
						phi += xw[e[1]][k*o+j] * xw[e[0]][k*o+j]
					}
				}
				phi /= heads
				if att == nn.SuperGATSD {
					phi /= math.Sqrt(o)
				}
				want += math.Log1p(math.Exp(-phi))
			}
			want /= float64(len(es))
			nntest.AssertClose(t, "link loss", got, []float64{want}, 1e-12)
			hr.CheckGradients(rand.New(rand.NewPCG(9, 10)), 1e-5)
		})
	}
}

// TestSuperGATBCE checks the loss for given positives and negatives against
// the formula, and its gradient.
func TestSuperGATBCE(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	const n, heads, o = 4, 2, 3
	in := nn.NewInputs()
	in.DType = dtypes.Float64
	xw := nntest.RandRounded(rng, n, heads*o)
	in.SetFloat("xw", nntest.Flat32(xw), n, heads, o)
	dot := nntest.RandRounded(rng, 3, heads) // 3 "edges"
	in.SetFloat("dot", nntest.Flat32(dot), 3, heads)
	in.SetFloat("posw", []float32{1, 0, 1}, 3)
	in.SetInt32("nsrc", []int32{0, 3, 1}, 3, 1)
	in.SetInt32("ndst", []int32{2, 1, 1}, 3, 1)
	in.SetFloat("okw", []float32{1, 1, 0}, 3)
	const scale = 0.7
	hr := nntest.NewHarness(t, in, 1, func(scope *model.Scope, nd *nn.Nodes) *Node {
		// A trainable copy of x' so that the gradient check has a variable.
		v := nn.Param(scope, nd.Graph(), "xw", dtypes.Float64, nn.Uniform(1), nil, n, heads, o)
		x := Add(v, nd.Get("xw"))
		return Reshape(nn.SuperGATBCE(x, nd.Get("dot"), nd.Get("posw"), nd.Get("nsrc"), nd.Get("ndst"), nd.Get("okw"), scale), 1)
	})
	got, _ := hr.Forward()
	v := hr.VarValues("/xw")
	x := func(i, k, j int) float64 { return xw[i][k*o+j] + v[(i*heads+k)*o+j] }
	sp := func(z float64) float64 { return math.Log1p(math.Exp(z)) }
	total := 0.0
	for _, e := range []int{0, 2} { // posw = 1
		total += sp(-scale * (dot[e][0] + dot[e][1]) / heads)
	}
	for _, p := range [][2]int{{0, 2}, {3, 1}} { // okw = 1: (src, dst)
		z := 0.0
		for k := range heads {
			for j := range o {
				z += x(p[1], k, j) * x(p[0], k, j)
			}
		}
		total += sp(scale * z / heads)
	}
	nntest.AssertClose(t, "BCE", got, []float64{total / 4}, 1e-6)
	hr.CheckGradients(rand.New(rand.NewPCG(23, 24)), 1e-5)
}

func TestSortedContains(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for _, size := range []int{0, 1, 2, 7, 64, 1000} {
		set := map[int64]bool{}
		for len(set) < size {
			set[rng.Int64N(5000)] = true
		}
		var keys []int64
		for k := range set {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		q := make([]int64, 500)
		for i := range q {
			if i%2 == 0 && size > 0 {
				q[i] = keys[rng.IntN(size)]
			} else {
				q[i] = rng.Int64N(5100) - 50
			}
		}
		exec := MustNewExec(nntest.Backend(t), func(k, x *Node) *Node { return nn.SortedContains(k, x) })
		kt := tensors.FromFlatDataAndDimensions(append([]int64{}, keys...), len(keys))
		out := exec.MustExec(kt, tensors.FromFlatDataAndDimensions(q, len(q)))[0]
		got := tensors.MustCopyFlatData[bool](out)
		for i, x := range q {
			if got[i] != set[x] {
				t.Fatalf("size %d: contains(%d) = %v, want %v", size, x, got[i], set[x])
			}
		}
	}
}

// TestSuperGATNegatives: the sampled pairs flagged valid are never edges
// (self loops included), and they spread over the non-edges.
func TestSuperGATNegatives(t *testing.T) {
	const n = 40
	rng := rand.New(rand.NewPCG(5, 5))
	var src, dst []int32
	for range 120 {
		src, dst = append(src, int32(rng.IntN(n))), append(dst, int32(rng.IntN(n)))
	}
	m, err := nn.SelfLoopEdges(n, src, dst)
	if err != nil {
		t.Fatal(err)
	}
	keys := nn.SuperGATEdgeKeys(m)
	isEdge := map[int64]bool{}
	for _, k := range keys {
		isEdge[k] = true
	}
	for v := range n {
		if !isEdge[int64(v)*n+int64(v)] {
			t.Fatalf("self loop of %d missing from the keys", v)
		}
	}
	const numNeg = 3000
	table := make([]uint8, n*n)
	for _, k := range keys {
		table[k] = 1
	}
	kt := tensors.FromFlatDataAndDimensions(keys, len(keys))
	tt := tensors.FromFlatDataAndDimensions(table, len(table))
	// The same seed with the dense table and with the search of the keys.
	newExec := func(useTable bool) *model.Exec {
		store := model.NewStore()
		if err := store.SetRNGStateFromSeed(42); err != nil {
			t.Fatal(err)
		}
		return model.MustNewExec(nntest.Backend(t), store, func(scope *model.Scope, k, tbl *Node) []*Node {
			set := nn.SuperGATEdges{Keys: k}
			if useTable {
				set.Table = tbl
			}
			s, d, ok := nn.SuperGATNegatives(scope, set, n, numNeg)
			return []*Node{s, d, ok}
		})
	}
	exec, searched := newExec(true), newExec(false)
	outs := exec.MustExec(kt, tt)
	outsS := searched.MustExec(kt, tt)
	for i, name := range []string{"src", "dst"} {
		if a, b := tensors.MustCopyFlatData[int32](outs[i]), tensors.MustCopyFlatData[int32](outsS[i]); !slices.Equal(a, b) {
			t.Fatalf("%s: table and key search drew different negatives", name)
		}
	}
	if !slices.Equal(tensors.MustCopyFlatData[bool](outs[2]), tensors.MustCopyFlatData[bool](outsS[2])) {
		t.Fatal("table and key search disagree on the valid pairs")
	}
	s, d := tensors.MustCopyFlatData[int32](outs[0]), tensors.MustCopyFlatData[int32](outs[1])
	ok := tensors.MustCopyFlatData[bool](outs[2])
	seen := map[int64]bool{}
	valid := 0
	for i := range s {
		key := int64(s[i])*n + int64(d[i])
		if !ok[i] {
			continue
		}
		valid++
		if isEdge[key] {
			t.Fatalf("negative %d: (%d -> %d) is an edge", i, s[i], d[i])
		}
		seen[key] = true
	}
	// Edge density here is under 10%: four rounds leave < 1e-4 unfilled.
	if valid < numNeg-5 {
		t.Fatalf("%d of %d negatives valid", valid, numNeg)
	}
	// 3000 uniform draws over ~1450 non-edges cover most of them
	// (expected ~87%).
	nonEdges := n*n - len(keys)
	if frac := float64(len(seen)) / float64(nonEdges); frac < 0.8 {
		t.Fatalf("negatives cover %.2f of the non-edges, want > 0.8 (uniform sampling)", frac)
	}
	// A second call draws different pairs (the RNG state advances).
	outs2 := exec.MustExec(kt, tt)
	if slices.Equal(s, tensors.MustCopyFlatData[int32](outs2[0])) {
		t.Fatal("two sampling calls drew the same negatives")
	}
}

// TestSuperGATSlotsMatchEdgeOrder: a training pass (attention dropout,
// edge sampling and negatives drawn from the run's RNG) gives the same
// output and link loss with the attention in the slot layout (ELL edges)
// as in the edge order (edges multiplied densely): the same dropout masks,
// drawn in the edge order, the same samples.
func TestSuperGATSlotsMatchEdgeOrder(t *testing.T) {
	g := nntest.TinyGraph(t)
	for _, att := range []nn.SuperGATAttention{nn.SuperGATMX, nn.SuperGATSD} {
		t.Run(att.String(), func(t *testing.T) {
			cfg := nn.SuperGATConfig{Heads: 2, Out: 3, Concat: true, Attention: att, NegativeSlope: 0.2,
				AttentionDropout: 0.5, EdgeSampleRatio: 0.8, NegSampleRatio: 0.5}
			pass := func(denseMax int) []float64 {
				old := sparse.DenseMaxElements
				sparse.DenseMaxElements = denseMax
				defer func() { sparse.DenseMaxElements = old }()
				in := nntest.Float64Inputs(t, g, true)
				if err := nn.AddSuperGATInputs(in, g); err != nil {
					t.Fatal(err)
				}
				hr := nntest.NewHarness(t, in, 21, func(scope *model.Scope, n *nn.Nodes) *Node {
					edges := sparse.FromNodes(n, nn.InputGATEdges)
					if (edges.RowSlots() != nil) != (denseMax == 0) {
						t.Fatalf("slot layout present: %v with DenseMaxElements %d", edges.RowSlots() != nil, denseMax)
					}
					out, loss := nn.SuperGATConv(scope.In("sg"), n.Features(nn.InputFeatures), edges, nn.SuperGATEdgesFrom(n), cfg, true)
					return Concatenate([]*Node{Reshape(out, -1), Reshape(loss, 1)}, 0)
				})
				if err := hr.Store.SetRNGStateFromSeed(5); err != nil {
					t.Fatal(err)
				}
				got, _ := hr.Forward()
				return got
			}
			edgeOrder, slots := pass(1<<20), pass(0)
			nntest.AssertClose(t, "slot layout against edge order", slots, edgeOrder, 1e-12)
		})
	}
}
