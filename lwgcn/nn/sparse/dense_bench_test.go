package sparse_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// BenchmarkDenseMul measures A·x and its gradient with respect to x on
// 183-node directed graphs (Texas's size), GCN-normalised by row and
// column scales, for x of several widths (128: one LW-GCN run; 1280: ten
// runs batched): "webkb" has 325 edges with skewed in-degrees (hub pages)
// plus self loops (1.5% dense), "deg10" 1,830 uniform edges plus self
// loops (5.6%). The forms: the dense product with its gradient from the
// stored Aᵀ ("stored-transpose"), with GoMLX's gradient of Dot
// ("gomlx-gradient"), and the bucketed ELL layout ("ell").
func BenchmarkDenseMul(b *testing.B) {
	const n = 183
	for _, gr := range benchGraphs {
		rng := rand.New(rand.NewPCG(1, 2))
		m := benchGraph(b, rng, n, gr.edges, gr.skewed)
		for _, h := range []int{5, 16, 64, 128, 1280} {
			fill := func() *tensors.Tensor {
				v := make([]float32, n*h)
				for i := range v {
					v[i] = float32(rng.NormFloat64())
				}
				return tensors.FromFlatDataAndDimensions(v, n, h)
			}
			x, rr := fill(), fill()
			for _, form := range []string{"stored-transpose", "gomlx-gradient", "ell"} {
				if form == "gomlx-gradient" && h != 128 {
					continue
				}
				b.Run(fmt.Sprintf("%s/h=%d/%s", gr.name, h, form), func(b *testing.B) {
					defer sparse.SetDenseGradientTranspose(sparse.SetDenseGradientTranspose(form == "stored-transpose"))
					defer useForm(form == "ell")()
					benchProduct(b, m, func(a *sparse.SpMat, x, r *Node) []*Node {
						return Gradient(ReduceAllSum(Mul(a.Mul(x), r)), x)
					}, x, rr)
				})
			}
		}
	}
}

// benchGraphs are BenchmarkDenseMul's and BenchmarkDenseMulWeighted's
// 183-node graphs.
var benchGraphs = []struct {
	name   string
	edges  int
	skewed bool
}{{"webkb", 325, true}, {"deg10", 1830, false}}

// benchGraph returns a GCN-normalised directed graph of n nodes with self
// loops and the given number of random edges (skewed: in-degrees
// concentrated on a few nodes, as WebKB's hub pages).
func benchGraph(b *testing.B, rng *rand.Rand, n, edges int, skewed bool) *sparse.SparseMatrix {
	var r, c []int32
	for i := range n {
		r, c = append(r, int32(i)), append(c, int32(i))
	}
	for range edges {
		col := rng.IntN(n)
		if skewed {
			u := rng.Float64()
			col = int(float64(n) * u * u * u)
		}
		r, c = append(r, int32(rng.IntN(n))), append(c, int32(col))
	}
	m, err := sparse.NewSparseMatrix(n, n, r, c, nil)
	if err != nil {
		b.Fatal(err)
	}
	out, in := make([]float32, n), make([]float32, n)
	for i := range r {
		out[r[i]]++
		in[c[i]]++
	}
	m.RowScale, m.ColScale = make([]float32, n), make([]float32, n)
	for i := range n {
		m.RowScale[i], m.ColScale[i] = float32(1/math.Sqrt(float64(out[i]))), float32(1/math.Sqrt(float64(in[i])))
	}
	return m
}

// BenchmarkDenseMulWeighted measures A_w·x with per-entry weights w (GAT's
// attention) and its gradients with respect to x and w on the same graphs,
// in the dense form ("dense") and the ELL layout ("ell").
func BenchmarkDenseMulWeighted(b *testing.B) {
	const n = 183
	for _, gr := range benchGraphs {
		rng := rand.New(rand.NewPCG(1, 2))
		m := benchGraph(b, rng, n, gr.edges, gr.skewed)
		wv := make([]float32, m.NNZ())
		for i := range wv {
			wv[i] = rng.Float32()
		}
		w := tensors.FromFlatDataAndDimensions(wv, m.NNZ())
		for _, h := range []int{8, 64, 640} {
			v := make([]float32, n*h)
			for i := range v {
				v[i] = float32(rng.NormFloat64())
			}
			x := tensors.FromFlatDataAndDimensions(v, n, h)
			for _, form := range []string{"dense", "ell"} {
				b.Run(fmt.Sprintf("%s/h=%d/%s", gr.name, h, form), func(b *testing.B) {
					defer useForm(form == "ell")()
					benchProduct(b, m, func(a *sparse.SpMat, x, w *Node) []*Node {
						y := a.MulWeighted(x, w)
						return Gradient(ReduceAllSum(Mul(y, y)), x, w)
					}, x, w)
				})
			}
		}
	}
}

// useForm makes sparse.Set and the products use the ELL layout (ell) or
// the dense form at any width and density; the returned function restores
// the settings.
func useForm(ell bool) func() {
	oldMax, oldDensity := sparse.DenseMaxElements, sparse.DenseMinDensity
	if ell {
		sparse.DenseMaxElements = 0
	} else {
		sparse.DenseMinDensity = 0
	}
	return func() { sparse.DenseMaxElements, sparse.DenseMinDensity = oldMax, oldDensity }
}

// benchProduct times fn on m (added with sparse.Set under the current
// settings) and the tensors p and q, after three untimed calls.
func benchProduct(b *testing.B, m *sparse.SparseMatrix, fn func(a *sparse.SpMat, p, q *Node) []*Node, p, q *tensors.Tensor) {
	inputs := nn.NewInputs()
	sparse.Set(inputs, "a", m)
	k := len(inputs.Tensors())
	exec, err := NewExec(nntest.Backend(b), func(params []*Node) []*Node {
		return fn(sparse.FromNodes(inputs.Nodes(params[:k]), "a"), params[k], params[k+1])
	})
	if err != nil {
		b.Fatal(err)
	}
	args := append(inputs.Tensors(), p, q)
	for range 3 {
		exec.MustExec(args...)
	}
	b.ResetTimer()
	for range b.N {
		exec.MustExec(args...)
	}
}
