package sparse_test

import (
	"math"
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// BenchmarkDenseMul measures A·x and its gradient with respect to x for a
// Texas-sized directed graph in the dense form (183 nodes, 325 random
// edges plus self loops, GCN-normalised by row and column scales; x
// [183, 128]): the gradient from the stored Aᵀ ("stored-transpose")
// against GoMLX's gradient of Dot ("gomlx-gradient").
func BenchmarkDenseMul(b *testing.B) {
	const n, h, edges = 183, 128, 325
	rng := rand.New(rand.NewPCG(1, 2))
	var r, c []int32
	for i := range n {
		r, c = append(r, int32(i)), append(c, int32(i))
	}
	for range edges {
		r, c = append(r, int32(rng.IntN(n))), append(c, int32(rng.IntN(n)))
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
	fill := func() *tensors.Tensor {
		v := make([]float32, n*h)
		for i := range v {
			v[i] = float32(rng.NormFloat64())
		}
		return tensors.FromFlatDataAndDimensions(v, n, h)
	}
	x, rr := fill(), fill()
	for _, stored := range []bool{true, false} {
		name := map[bool]string{true: "stored-transpose", false: "gomlx-gradient"}[stored]
		b.Run(name, func(b *testing.B) {
			defer sparse.SetDenseGradientTranspose(sparse.SetDenseGradientTranspose(stored))
			inputs := nn.NewInputs()
			sparse.Set(inputs, "a", m)
			k := len(inputs.Tensors())
			exec, err := NewExec(nntest.Backend(b), func(params []*Node) *Node {
				a := sparse.FromNodes(inputs.Nodes(params[:k]), "a")
				return Gradient(ReduceAllSum(Mul(a.Mul(params[k]), params[k+1])), params[k])[0]
			})
			if err != nil {
				b.Fatal(err)
			}
			args := append(inputs.Tensors(), x, rr)
			for range 3 {
				exec.MustExec(args...)
			}
			b.ResetTimer()
			for range b.N {
				exec.MustExec(args...)
			}
		})
	}
}
