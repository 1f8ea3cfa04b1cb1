package models_test

import (
	"math"
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// simpDenseAdj is D^-1/2 (A + I) D^-1/2 of the tiny graph's rows (row =
// source), built independently: A binary, the 2 -> 2 loop plus I gives 2.
func simpDenseAdj() [][]float64 {
	ai := [][]float64{
		{1, 1, 0, 0, 1},
		{1, 1, 1, 0, 0},
		{0, 1, 2, 0, 0},
		{0, 0, 1, 1, 0},
		{0, 0, 0, 1, 1},
	}
	d := []float64{3, 3, 3, 2, 2}
	for i := range ai {
		for j := range ai[i] {
			ai[i][j] /= math.Sqrt(d[i] * d[j])
		}
	}
	return ai
}

// TestSimPConv checks the layer against its formula computed densely, with
// a non-zero score bias and random self-loop weights, for ReLU and identity
// activations; then gradients.
func TestSimPConv(t *testing.T) {
	nntest.BothLayouts(t, func(t *testing.T) {
		for _, relu := range []bool{true, false} {
			g := nntest.TinyGraph(t)
			in := nntest.Float64Inputs(t, g, true)
			m := models.SimPGCN{Hidden: 2, K: 2}
			if err := m.Prepare(g, in); err != nil {
				t.Fatal(err)
			}
			knnM := nntest.Matrix(sparseDense(in, t, models.InputSimPKNN), 5, 5)
			cfg := nn.SimPConfig{Out: 2, Gamma: 0.7, ScoreBias: 0.5}
			if relu {
				cfg.Activation = nn.ReLU
			}
			h := nntest.NewHarness(t, in, 13, func(scope *model.Scope, nd *nn.Nodes) *Node {
				return nn.SimPConv(scope.In("c"), nd.Features(nn.InputFeatures), sparse.FromNodes(nd, models.InputSimPAdj), sparse.FromNodes(nd, models.InputSimPKNN), cfg)
			})
			got, _ := h.Forward()
			x := nntest.DenseX(g)
			w, b := nntest.Matrix(h.VarValues("/c/weight"), 4, 2), h.VarValues("/c/bias")
			p, q := h.VarValues("/c/score"), h.VarValues("/c/dk")
			bk := h.VarValues("/c/dk_bias")[0]
			bs := 0.5 + h.VarValues("/c/score_bias")[0]
			for _, v := range append(append([]float64{}, p...), q...) {
				if math.Abs(v) > 1 {
					t.Fatalf("score/dk init %v outside U(-1, 1)", v)
				}
			}
			act := func(v float64) float64 {
				if relu {
					return max(v, 0)
				}
				return v
			}
			z := nntest.DenseMatMul(x, w)
			az, fz := nntest.DenseMatMul(simpDenseAdj(), z), nntest.DenseMatMul(knnM, z)
			var want []float64
			for i := range 5 {
				sp, kq := bs, bk
				for c := range 4 {
					sp += x[i][c] * p[c]
					kq += x[i][c] * q[c]
				}
				s := 1 / (1 + math.Exp(-sp))
				for j := range 2 {
					want = append(want, s*act(az[i][j]+b[j])+(1-s)*act(fz[i][j]+b[j])+0.7*kq*act(z[i][j]+b[j]))
				}
			}
			nntest.AssertClose(t, "SimPConv", got, want, 1e-6)
			h.CheckGradients(rand.New(rand.NewPCG(4, 4)), 1e-6)
		}
	})
}

// sparseDense returns the dense form of an input sparse matrix (tests).
func sparseDense(in *nn.Inputs, t *testing.T, name string) []float64 {
	t.Helper()
	n, _ := in.Meta(name + "/numrows")
	c, _ := in.Meta(name + "/numcols")
	rows := bl3Int32(in.Tensor(name + "/rows"))
	cols := bl3Int32(in.Tensor(name + "/cols"))
	vals := []float64(nil)
	if v := in.Tensor(name + "/vals"); v != nil {
		vals = nntest.Float64s(v)
	}
	var rs, cs []float64
	if v := in.Tensor(name + "/rowscale"); v != nil {
		rs = nntest.Float64s(v)
	}
	if v := in.Tensor(name + "/colscale"); v != nil {
		cs = nntest.Float64s(v)
	}
	d := make([]float64, n*c)
	for e := range rows {
		v := 1.0
		if vals != nil {
			v = vals[e]
		}
		if rs != nil {
			v *= rs[rows[e]]
		}
		if cs != nil {
			v *= cs[cols[e]]
		}
		d[int(rows[e])*c+int(cols[e])] += v
	}
	return d
}

// TestSimPSSLLoss: with fewer pairs than drawn per epoch, the loss is the
// mean over all pairs of (Linear(|h_a - h_b|) - s)², computed by hand.
func TestSimPSSLLoss(t *testing.T) {
	g := nntest.TinyGraph(t)
	in := nntest.Float64Inputs(t, g, false)
	m := models.SimPGCN{Hidden: 3, K: 2, Lambda: 1}
	if err := m.Prepare(g, in); err != nil {
		t.Fatal(err)
	}
	a, b := bl3Int32(in.Tensor(models.InputSimPPairA)), bl3Int32(in.Tensor(models.InputSimPPairB))
	s := nntest.Float64s(in.Tensor(models.InputSimPTarget))
	if len(a) == 0 || len(a) > models.SimPPairsPerEpoch {
		t.Fatalf("%d pairs", len(a))
	}
	rng := rand.New(rand.NewPCG(9, 10))
	hv := nntest.RandMatrix(rng, 5, 3)
	h := nntest.NewHarness(t, in, 2, func(scope *model.Scope, nd *nn.Nodes) *Node {
		x := scope.VariableWithValue("h", nntest.Float64Tensor(hv, 5, 3)).NodeValue(nd.Graph())
		return m.SSLLoss(scope, nd, x)
	})
	got, _ := h.Forward()
	w, bias := h.VarValues("/ssl/weight"), h.VarValues("/ssl/bias")[0]
	want := 0.0
	for p := range a {
		pred := bias
		for j := range 3 {
			pred += w[j] * math.Abs(hv[int(a[p])*3+j]-hv[int(b[p])*3+j])
		}
		want += (pred - s[p]) * (pred - s[p]) / float64(len(a))
	}
	nntest.AssertClose(t, "SSL loss", got, []float64{want}, 1e-12)
	h.CheckGradients(rng, 1e-6)
}

func bl3Int32(t *tensors.Tensor) []int32 { return tensors.MustCopyFlatData[int32](t) }
