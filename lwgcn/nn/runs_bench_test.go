package nn

import (
	"fmt"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/lwgcn/toolkit/lwgcn/backend"
)

// BenchmarkPerRun measures PerRun forward and backward (the gradients for
// h and the weights) for 10 runs on Chameleon's size (N = 2277, in = 64)
// at several output widths, with the weight gradient's rows padded to
// PerRunGradientRows ("padded") and not ("exact").
func BenchmarkPerRun(b *testing.B) {
	bk, _, err := backend.Shared()
	if err != nil {
		b.Fatal(err)
	}
	const n, r, in = 2277, 10, 64
	for _, out := range []int{1, 5, 7, 8, 64} {
		for _, pad := range []bool{true, false} {
			name := map[bool]string{true: "padded", false: "exact"}[pad]
			b.Run(fmt.Sprintf("out=%d/%s", out, name), func(b *testing.B) {
				defer func(old bool) { perRunPadRows = old }(perRunPadRows)
				perRunPadRows = pad
				exec, err := NewExec(bk, func(h, wT, c *Node) []*Node {
					grads := Gradient(ReduceAllSum(Mul(PerRun(h, wT, r), c)), h, wT)
					return []*Node{ReduceAllSum(grads[0]), ReduceAllSum(grads[1])}
				})
				if err != nil {
					b.Fatal(err)
				}
				fill := func(dims ...int) *tensors.Tensor {
					t := tensors.FromShape(shapes.Make(dtypes.Float32, dims...))
					tensors.MustMutableFlatData(t, func(v []float32) {
						for i := range v {
							v[i] = float32(i%97)/97 - 0.5
						}
					})
					return t
				}
				h, wT, c := fill(n, r*in), fill(r, out, in), fill(n, r*out)
				for range 2 {
					exec.MustExec(h, wT, c)
				}
				b.ResetTimer()
				for range b.N {
					exec.MustExec(h, wT, c)
				}
			})
		}
	}
}

// BenchmarkStackRuns measures stacking 10 runs' dropout masks of one value
// per entry (Chameleon's 29,157 feature entries) into [NNZ, R]: StackRuns
// ("transposed") against the interleaving Stack(xs, 1) ("interleaved").
func BenchmarkStackRuns(b *testing.B) {
	bk, _, err := backend.Shared()
	if err != nil {
		b.Fatal(err)
	}
	const nnz, r = 29157, 10
	for _, tc := range []struct {
		name  string
		stack func([]*Node) *Node
	}{{"transposed", StackRuns}, {"interleaved", func(xs []*Node) *Node { return Stack(xs, 1) }}} {
		b.Run(tc.name, func(b *testing.B) {
			exec, err := NewExec(bk, func(x *Node) *Node {
				xs := make([]*Node, r)
				for k := range xs {
					xs[k] = AddScalar(x, float64(k))
				}
				return ReduceAllSum(tc.stack(xs))
			})
			if err != nil {
				b.Fatal(err)
			}
			v := make([]float32, nnz)
			xt := tensors.FromFlatDataAndDimensions(v, nnz)
			exec.MustExec(xt)
			b.ResetTimer()
			for range b.N {
				exec.MustExec(xt)
			}
		})
	}
}
