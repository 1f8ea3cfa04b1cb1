package nn_test

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// bigMat is a matrix of 256-bit floats: the reference below is the N x N
// closed form, itself ill-conditioned for this input (cond ~ 1e7 loses
// about 7 of float64's 16 digits, and Z's two terms nearly cancel), so it is
// evaluated with far more digits than the layer under test.
type bigMat [][]*big.Float

const bigPrec = 256

func toBig(a [][]float64) bigMat {
	m := make(bigMat, len(a))
	for i := range a {
		m[i] = make([]*big.Float, len(a[i]))
		for j, v := range a[i] {
			m[i][j] = new(big.Float).SetPrec(bigPrec).SetFloat64(v)
		}
	}
	return m
}

func (a bigMat) float64s() [][]float64 {
	out := make([][]float64, len(a))
	for i := range a {
		out[i] = make([]float64, len(a[i]))
		for j, v := range a[i] {
			out[i][j], _ = v.Float64()
		}
	}
	return out
}

func bigZero(r, c int) bigMat {
	m := make(bigMat, r)
	for i := range m {
		m[i] = make([]*big.Float, c)
		for j := range m[i] {
			m[i][j] = new(big.Float).SetPrec(bigPrec)
		}
	}
	return m
}

func (a bigMat) mul(b bigMat) bigMat {
	out := bigZero(len(a), len(b[0]))
	t := new(big.Float).SetPrec(bigPrec)
	for i := range a {
		for k := range b {
			for j := range b[0] {
				out[i][j].Add(out[i][j], t.Mul(a[i][k], b[k][j]))
			}
		}
	}
	return out
}

func (a bigMat) t() bigMat {
	out := bigZero(len(a[0]), len(a))
	for i := range a {
		for j := range a[i] {
			out[j][i].Set(a[i][j])
		}
	}
	return out
}

// axpy returns s·a + b.
func axpy(s float64, a, b bigMat) bigMat {
	out := bigZero(len(a), len(a[0]))
	bs := new(big.Float).SetPrec(bigPrec).SetFloat64(s)
	for i := range a {
		for j := range a[i] {
			out[i][j].Mul(a[i][j], bs)
			out[i][j].Add(out[i][j], b[i][j])
		}
	}
	return out
}

// inv inverts by Gauss-Jordan with partial pivoting.
func (a bigMat) inv() bigMat {
	n := len(a)
	m := bigZero(n, 2*n)
	for i := range n {
		for j := range n {
			m[i][j].Set(a[i][j])
		}
		m[i][n+i].SetInt64(1)
	}
	t := new(big.Float).SetPrec(bigPrec)
	for k := range n {
		p := k
		for i := k + 1; i < n; i++ {
			if new(big.Float).Abs(m[i][k]).Cmp(new(big.Float).Abs(m[p][k])) > 0 {
				p = i
			}
		}
		m[k], m[p] = m[p], m[k]
		piv := new(big.Float).Set(m[k][k])
		for j := range 2 * n {
			m[k][j].Quo(m[k][j], piv)
		}
		for i := range n {
			if i == k {
				continue
			}
			f := new(big.Float).Set(m[i][k])
			for j := range 2 * n {
				m[i][j].Sub(m[i][j], t.Mul(f, m[k][j]))
			}
		}
	}
	out := bigZero(n, n)
	for i := range n {
		for j := range n {
			out[i][j].Set(m[i][n+j])
		}
	}
	return out
}

// glognnBig is one GloGNN++ layer by the N x N closed form (TestGloGNNConv's
// formula) in 256-bit arithmetic:
//
//	H' = (1-γ) Z H Dw + γ H0,
//	Z  = [(1-γ) H Dw Hᵀ + β Σ_k θ_k Â^k - γ(1-γ) H0 Dw Hᵀ] [(1-γ)² H Hᵀ + (α+β) I]⁻¹
func glognnBig(h, h0, a bigMat, w, theta []float64, cfg nn.GloGNNConfig) bigMat {
	n, d := len(h), len(w)
	dw := bigZero(d, d)
	for j := range d {
		dw[j][j].SetFloat64(w[j])
	}
	c1 := 1 - cfg.Gamma
	sumA, ak := axpy(theta[0], a, bigZero(n, n)), a
	for k := 1; k < len(theta); k++ {
		ak = ak.mul(a)
		sumA = axpy(theta[k], ak, sumA)
	}
	hDw, h0Dw := h.mul(dw), h0.mul(dw)
	left := axpy(c1, hDw.mul(h.t()), axpy(cfg.Beta, sumA, axpy(-cfg.Gamma*c1, h0Dw.mul(h.t()), bigZero(n, n))))
	eye := bigZero(n, n)
	for i := range n {
		eye[i][i].SetFloat64(cfg.Alpha + cfg.Beta)
	}
	right := axpy(c1*c1, h.mul(h.t()), eye)
	z := left.mul(right.inv())
	return axpy(c1, z.mul(hDw), axpy(cfg.Gamma, h0, bigZero(n, d)))
}

// glognnAdj is the input name of the adjacency (models.InputGloGNNAdj).
const glognnAdj = "glognn/adj"

// TestGloGNNConvFloat32CommonMode is the regression test of GloGNN++ going
// NaN on squirrel_filtered at epoch 32 in float32: log_softmax ignores a
// shift common to a node's logits, so (without weight decay) the logits H
// grow a large common component and HᵀH becomes ill-conditioned. Here
// H = 1000·u·1ᵀ + noise on the tiny graph (cond(M) ~ 1e7): three stacked
// float32 layers (one shared scope, Squirrel's α = 0, β = 1, γ = 0, K = 2)
// must match the N x N closed form evaluated in 256-bit arithmetic (they do
// to ~2e-7). The layer as it was (float32 algebra, T = Dw Hᵀ R) gives NaN;
// float64 algebra with T = Dw Hᵀ R is off by 2e-3, and T from M⁻¹ in
// float32 by 1.5e-3: both halves of the fix are needed.
func TestGloGNNConvFloat32CommonMode(t *testing.T) {
	g := nntest.TinyGraph(t)
	in := nn.NewInputs() // float32
	if err := nn.AddGraphBasics(in, g); err != nil {
		t.Fatal(err)
	}
	u := g.ToUndirected()
	adjM, err := sparse.BinaryAdjacency(5, u.Dst(), u.Src(), true, sparse.NormRow)
	if err != nil {
		t.Fatal(err)
	}
	sparse.Set(in, glognnAdj, adjM)
	const n, d, layers = 5, 3, 3
	rng := rand.New(rand.NewPCG(5, 6))
	hv := make([]float32, n*d)
	for i := range n {
		common := 1000 * (1 + 0.1*float64(i))
		for j := range d {
			hv[i*d+j] = float32(common + rng.NormFloat64())
		}
	}
	cfg := nn.GloGNNConfig{Alpha: 0, Beta: 1, Gamma: 0, Orders: 2}
	hr := nntest.NewHarness(t, in, 1, func(scope *model.Scope, nd *nn.Nodes) *Node {
		h0 := scope.VariableWithValue("h0", tensors.FromFlatDataAndDimensions(hv, n, d)).NodeValue(nd.Graph())
		norm, out := scope.In("norm"), h0
		for range layers {
			out = nn.GloGNNConv(norm, out, h0, sparse.FromNodes(nd, glognnAdj), cfg)
		}
		return out
	})
	got, _ := hr.Forward()

	h0 := make([][]float64, n)
	for i := range n {
		h0[i] = make([]float64, d)
		for j := range d {
			h0[i][j] = float64(hv[i*d+j]) // the float32 input, exactly
		}
	}
	// w starts at float32(1/d), as the layer stores it.
	w, theta := []float64{float64(float32(1.0 / d)), float64(float32(1.0 / d)), float64(float32(1.0 / d))}, []float64{0.5, 0.5}
	a, h0b := toBig(nntest.Matrix(adjM.Dense(), n, n)), toBig(h0)
	wantB := h0b
	for range layers {
		wantB = glognnBig(wantB, h0b, a, w, theta, cfg)
	}
	want := wantB.float64s()
	scale := 0.0
	for _, v := range nntest.Flat(want) {
		scale = max(scale, math.Abs(v))
	}
	for i, v := range nntest.Flat(want) {
		// float32 rounding of the O(1e3) intermediate H: 1e-4 of the output's size.
		if !(math.Abs(got[i]-v) <= 1e-4*scale) {
			t.Fatalf("output[%d] = %v, float64 closed form %v (largest |output| %v)", i, got[i], v, scale)
		}
	}
}
