package nn_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/nn"
)

// TestPerRun: PerRun's value and its gradients for h and the transposed
// weights against each run's product computed on the host, loop by loop:
// y_r = h_r·W_r, and for the loss Σ c ⊙ y, dh_r = c_r·W_rᵀ, dW_r = h_rᵀ·c_r
// (held transposed, dwT_r = c_rᵀ·h_r). Output widths below
// PerRunGradientRows (whose weight gradient is computed padded) and above.
func TestPerRun(t *testing.T) {
	for _, out := range []int{1, 5, 8, 11, 12} {
		t.Run(fmt.Sprintf("out=%d", out), func(t *testing.T) { testPerRun(t, out) })
	}
}

func testPerRun(t *testing.T, out int) {
	bk, _, err := backend.Shared()
	if err != nil {
		t.Fatal(err)
	}
	const n, r, in = 7, 3, 4
	rng := rand.New(rand.NewPCG(1, 2))
	rand := func(size int) []float64 {
		v := make([]float64, size)
		for i := range v {
			v[i] = rng.Float64()*2 - 1
		}
		return v
	}
	h, wT, c := rand(n*r*in), rand(r*out*in), rand(n*r*out)
	exec, err := NewExec(bk, func(h, wT, c *Node) []*Node {
		y := nn.PerRun(h, wT, r)
		grads := Gradient(ReduceAllSum(Mul(y, c)), h, wT)
		return []*Node{y, grads[0], grads[1]}
	})
	if err != nil {
		t.Fatal(err)
	}
	res, err := exec.Exec(tensors.FromFlatDataAndDimensions(h, n, r*in), tensors.FromFlatDataAndDimensions(wT, r, out, in),
		tensors.FromFlatDataAndDimensions(c, n, r*out))
	if err != nil {
		t.Fatal(err)
	}
	y, dh, dw := tensors.MustCopyFlatData[float64](res[0]), tensors.MustCopyFlatData[float64](res[1]), tensors.MustCopyFlatData[float64](res[2])
	// Host reference: H(u, k, i) = h[u, k·in + i], W_k[i, o] = wT[k, o, i].
	hAt := func(u, k, i int) float64 { return h[u*r*in+k*in+i] }
	wAt := func(k, i, o int) float64 { return wT[(k*out+o)*in+i] }
	cAt := func(u, k, o int) float64 { return c[u*r*out+k*out+o] }
	check := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("%s = %.12g, want %.12g", what, got, want)
		}
	}
	for k := range r {
		for u := range n {
			for o := range out {
				var s float64
				for i := range in {
					s += hAt(u, k, i) * wAt(k, i, o)
				}
				check("y", y[u*r*out+k*out+o], s)
			}
			for i := range in {
				var s float64
				for o := range out {
					s += cAt(u, k, o) * wAt(k, i, o)
				}
				check("dh", dh[u*r*in+k*in+i], s)
			}
		}
		for o := range out {
			for i := range in {
				var s float64
				for u := range n {
					s += hAt(u, k, i) * cAt(u, k, o)
				}
				check("dwT", dw[(k*out+o)*in+i], s)
			}
		}
	}
}
