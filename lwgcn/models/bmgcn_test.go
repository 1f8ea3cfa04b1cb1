package models_test

import (
	"math"
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
)

func TestBMGCNMatchesDenseReference(t *testing.T) {
	nntest.BothLayouts(t, testBMGCNMatchesDenseReference)
}

func testBMGCNMatchesDenseReference(t *testing.T) {
	g := nntest.TinyGraph(t)
	split := graph.Split{Train: []int32{0, 1}, Val: []int32{2}, Test: []int32{3, 4}}
	// Self loops of weight 1.5 (weighted entries), and none (every entry
	// 1: the slot layout's weights are then left out).
	for _, tc := range []struct {
		layers   int
		selfLoop float64
	}{{2, 1.5}, {3, 1.5}, {2, 0}} {
		layers := tc.layers
		m := models.BMGCN{Hidden: 4, Layers: layers, Dropout: 0.5, MLPDropout: 0.5, Enhance: 0.8, SelfLoop: tc.selfLoop}
		in := nntest.Float64Inputs(t, g, true)
		if err := m.Prepare(g, in); err != nil {
			t.Fatal(err)
		}
		if err := nn.SetSplitMasks(in, g, split); err != nil {
			t.Fatal(err)
		}
		hr := nntest.NewHarness(t, in, 13, func(scope *model.Scope, n *nn.Nodes) *Node {
			logits, mlp := m.ForwardBoth(scope, n, false)
			return Concatenate([]*Node{logits, mlp}, 1)
		})
		got, dims := hr.Forward()
		if dims[0] != 5 || dims[1] != 6 {
			t.Fatalf("output %v, want [5 6]", dims)
		}
		adj, w, err := nn.BMGCNAdjacency(5, g.Src(), g.Dst(), m.SelfLoop)
		if err != nil {
			t.Fatal(err)
		}
		adj.Vals = w
		train, _, _ := split.Masks(5)
		logits, mlp := bmgcnReference(hr, g, m, adj.Dense(), train)
		want := make([][]float64, 5)
		for i := range want {
			want[i] = append(append([]float64(nil), logits[i]...), mlp[i]...)
		}
		nntest.AssertClose(t, "BM-GCN", got, nntest.Flat(want), 1e-10)

		// Gradients of the whole model, MLP included (through B, H, Q and
		// alpha), in a deterministic training pass.
		m.Dropout, m.MLPDropout = 0, 0
		hg := nntest.NewHarness(t, in, 13, func(scope *model.Scope, n *nn.Nodes) *Node {
			logits, mlp := m.ForwardBoth(scope, n, true)
			return Concatenate([]*Node{logits, mlp}, 1)
		})
		hg.CheckGradients(rand.New(rand.NewPCG(uint64(layers), 1)), 1e-5)
	}
}

// bmgcnReference is the official BM-GCN forward pass with dense N x N
// matrices (model.py BMGCN.forward, get_block_matrix, GCN with GraphConv).
func bmgcnReference(hr *nntest.Harness, g *graph.Graph, m models.BMGCN, adj []float64, train []bool) (logits, mlp [][]float64) {
	n, c := g.NumNodes(), g.NumClasses()
	x := nntest.DenseX(g)
	f := len(x[0])
	relu := func(a [][]float64) [][]float64 {
		for _, r := range a {
			for j := range r {
				r[j] = max(r[j], 0)
			}
		}
		return a
	}
	lin := func(path string, in [][]float64, fin, fout int) [][]float64 {
		return nntest.AddBias(nntest.NaiveMatMul(in, nntest.Matrix(hr.VarValues(path+"/weight"), fin, fout)), hr.VarValues(path+"/bias"))
	}
	mlp = lin("/mlp/fc2", relu(lin("/mlp/fc1", x, f, m.Hidden)), m.Hidden, c)
	b := make([][]float64, n)
	for i := range b {
		b[i] = make([]float64, c)
		s := 0.0
		for j := range c {
			b[i][j] = math.Exp(mlp[i][j])
			s += b[i][j]
		}
		for j := range c {
			b[i][j] /= s
		}
	}
	// soft_y[train] = one-hot labels; H = (Yᵀ A Y) / (Yᵀ A 1).
	y := make([][]float64, n)
	for i := range y {
		y[i] = append([]float64(nil), b[i]...)
		if train[i] {
			for j := range c {
				y[i][j] = 0
			}
			y[i][g.Labels()[i]] = 1
		}
	}
	a := nntest.Matrix(adj, n, n)
	yt := make([][]float64, c)
	for j := range yt {
		yt[j] = make([]float64, n)
		for i := range n {
			yt[j][i] = y[i][j]
		}
	}
	yta := nntest.NaiveMatMul(yt, a)
	h := nntest.NaiveMatMul(yta, y)
	for r := range c {
		den := 0.0
		for i := range n {
			den += yta[r][i]
		}
		for j := range c {
			h[r][j] /= den
		}
	}
	ht := make([][]float64, c)
	for i := range ht {
		ht[i] = make([]float64, c)
		for j := range c {
			ht[i][j] = h[j][i]
		}
	}
	q := nntest.NaiveMatMul(h, ht)
	for i := range c {
		q[i][i] *= m.Enhance
		s := 0.0
		for j := range c {
			s += q[i][j]
		}
		for j := range c {
			q[i][j] /= s
		}
	}
	bt := make([][]float64, c)
	for j := range bt {
		bt[j] = make([]float64, n)
		for i := range n {
			bt[j][i] = b[i][j]
		}
	}
	score := nntest.NaiveMatMul(nntest.NaiveMatMul(b, q), bt)
	gm := make([][]float64, n)
	for i := range gm {
		gm[i] = make([]float64, n)
		mx := math.Inf(-1)
		for j := range n {
			if a[i][j] > 0 {
				mx = max(mx, score[i][j]*a[i][j])
			}
		}
		s := 0.0
		for j := range n {
			if a[i][j] > 0 {
				gm[i][j] = math.Exp(score[i][j]*a[i][j] - mx)
				s += gm[i][j]
			}
		}
		for j := range n {
			gm[i][j] /= s
		}
	}
	hcur, fin := x, f
	for l := range m.Layers {
		out := m.Hidden
		if l == m.Layers-1 {
			out = c
		}
		prefix := "/gcn/layer" + string(rune('0'+l))
		y := nntest.NaiveMatMul(gm, hcur)
		y = lin(prefix+"/agg", y, fin, out)
		self := lin(prefix+"/self", hcur, fin, out)
		for i := range y {
			for j := range y[i] {
				y[i][j] += self[i][j]
			}
		}
		if l < m.Layers-1 {
			y = relu(y)
		}
		hcur, fin = y, out
	}
	return hcur, mlp
}
