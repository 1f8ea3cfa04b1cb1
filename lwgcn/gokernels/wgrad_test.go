package gokernels_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/lwgcn/toolkit/lwgcn/gokernels"
)

// The weight gradient xᵀ·v, as autodiff builds it for a dense layer and as
// an explicit DotGeneral, against a float64 sum: each value within float32's
// rounding of the sum of its terms' magnitudes, with the kernel and without.
func TestWeightGradient(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 15))
	for _, c := range []struct{ n, a, b int }{{2708, 64, 64}, {183, 128, 5}, {37, 7, 40}, {1000, 5, 33}, {600, 12, 128}} {
		t.Run(fmt.Sprint(c), func(t *testing.T) {
			x, v := randF32(rng, c.n*c.a), randF32(rng, c.n*c.b)
			inputs := []*tensors.Tensor{tensors.FromFlatDataAndDimensions(x, c.n, c.a), tensors.FromFlatDataAndDimensions(v, c.n, c.b),
				tensors.FromFlatDataAndDimensions(randF32(rng, c.a*c.b), c.a, c.b)}
			fn := func(in []*Node) []*Node {
				explicit := DotGeneral(in[0], []int{0}, nil, in[1], []int{0}, nil)
				// d/dW of Σ (x·W) ⊙ v is xᵀ·v.
				grad := Gradient(ReduceAllSum(Mul(Dot(in[0], in[2]).Product(), in[1])), in[2])[0]
				return []*Node{explicit, grad}
			}
			before := gokernels.FusedWeightGradients.Load()
			on := run(t, gokernels.WeightGradientKernel, true, inputs, fn)
			if n := gokernels.FusedWeightGradients.Load() - before; n != 2 {
				t.Errorf("%d products took the kernel, want 2", n)
			}
			off := run(t, gokernels.WeightGradientKernel, false, inputs, fn)
			for i := range c.a {
				for j := range c.b {
					var sum, mag float64
					for n := range c.n {
						p := float64(x[n*c.a+i]) * float64(v[n*c.b+j])
						sum, mag = sum+p, mag+math.Abs(p)
					}
					tol := 1e-6*mag + 1e-30
					for name, got := range map[string][][]uint64{"kernel": on, "backend": off} {
						for o := range got {
							g := float64(math.Float32frombits(uint32(got[o][i*c.b+j])))
							if math.Abs(g-sum) > tol {
								t.Fatalf("%s, output %d, [%d, %d]: %g, want %g ± %.2g", name, o, i, j, g, sum, tol)
							}
						}
					}
				}
			}
		})
	}
}
