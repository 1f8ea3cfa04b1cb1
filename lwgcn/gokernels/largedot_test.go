package gokernels_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/lwgcn/toolkit/lwgcn/gokernels"
)

// TestLargeDotSameAsBackend: products x·w and x·vᵀ (the forward product of
// a dense layer and its input gradient) with the largedot kernel and with
// compute's large kernel give the same bits, and the kernel takes exactly
// the products compute runs with that kernel whose columns come in blocks
// of 32: on one part (the kernel would leave the products to compute) and
// on as many as the test has threads.
func TestLargeDotSameAsBackend(t *testing.T) {
	if !gokernels.HaveWeightGrad {
		t.Skip("the largedot kernel needs AVX-512 and the simd experiment")
	}
	defer gokernels.WeightGradKernel.Set(false)()
	defer func(prev int) { *gokernels.LargeDotMinParts = prev }(*gokernels.LargeDotMinParts)
	*gokernels.LargeDotMinParts = 1
	rng := rand.New(rand.NewPCG(22, 23))
	for _, c := range []struct {
		batch, m, k, n int
		fused          bool
	}{
		{1, 2708, 64, 64, true},   // Cora's GCNII layers: 4 rows after the last tile
		{1, 5201, 256, 256, true}, // Squirrel's: two panels (192 + 64)
		{1, 1001, 400, 96, true},  // three panels, the last partial; 1 row left over
		{3, 700, 96, 64, true},    // a batch of runs
		{1, 100, 64, 64, false},   // too small: compute's small kernel (another order)
		{1, 2708, 64, 48, false},  // columns not in blocks of 32
	} {
		t.Run(fmt.Sprint(c.batch, "x", c.m, "x", c.k, "x", c.n), func(t *testing.T) {
			x := tensors.FromFlatDataAndDimensions(randF32(rng, c.batch*c.m*c.k), c.batch, c.m, c.k)
			w := tensors.FromFlatDataAndDimensions(randF32(rng, c.batch*c.k*c.n), c.batch, c.k, c.n)
			v := tensors.FromFlatDataAndDimensions(randF32(rng, c.batch*c.n*c.k), c.batch, c.n, c.k)
			ran := gokernels.LargeDotsRun.Load()
			sameWithAndWithout(t, gokernels.LargeDotKernel, []*tensors.Tensor{x, w, v}, func(in []*Node) []*Node {
				// rhs [k, n] (compute's non-transposed layout) and [n, k]
				// (its transposed one).
				return []*Node{DotGeneral(in[0], []int{2}, []int{0}, in[1], []int{1}, []int{0}),
					DotGeneral(in[0], []int{2}, []int{0}, in[2], []int{2}, []int{0})}
			})
			want := int64(0)
			if c.fused {
				want = 2
			}
			if got := gokernels.LargeDotsRun.Load() - ran; got != want {
				t.Errorf("the kernel ran %d products, want %d", got, want)
			}
		})
	}
	// Where the product cannot be split into enough parts, compute runs it.
	*gokernels.LargeDotMinParts = 1 << 30
	x := tensors.FromFlatDataAndDimensions(randF32(rng, 2708*64), 2708, 64)
	w := tensors.FromFlatDataAndDimensions(randF32(rng, 64*64), 64, 64)
	ran := gokernels.LargeDotsRun.Load()
	sameWithAndWithout(t, gokernels.LargeDotKernel, []*tensors.Tensor{x, w}, func(in []*Node) []*Node {
		return []*Node{MatMul(in[0], in[1])}
	})
	if got := gokernels.LargeDotsRun.Load() - ran; got != 0 {
		t.Errorf("the kernel ran %d products on fewer parts than largeDotMinParts, want 0", got)
	}
}
