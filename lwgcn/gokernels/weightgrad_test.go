package gokernels_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/lwgcn/toolkit/lwgcn/gokernels"
)

// TestWeightGradSameAsBackend: xᵀ·dy (DotGeneral contracting the first axis
// of both, as GoMLX writes a weight gradient) with the weightgrad kernel
// and with the backend's transposes and product give the same bits, and the
// kernel takes exactly the products it can run in the backend's order.
func TestWeightGradSameAsBackend(t *testing.T) {
	if !gokernels.HaveWeightGrad {
		t.Skip("the weightgrad kernel needs AVX-512 and the simd experiment")
	}
	// Without weightgrad, the products are compute's large ones, which the
	// largedot kernel would otherwise take (with the same tile loop).
	defer gokernels.LargeDotKernel.Set(false)()
	rng := rand.New(rand.NewPCG(20, 21))
	for _, c := range []struct {
		n, m, k int
		fused   bool
	}{
		{2708, 64, 64, true},    // Cora's GCNII layers: 15 panels, the last partial
		{1000, 67, 96, true},    // 8 tiles of rows and 3 single rows
		{20000, 5, 64, true},    // a classifier's gradient: single rows only
		{192, 160, 160, true},   // exactly one panel
		{5201, 32, 256, true},   // Squirrel's rows
		{3000, 67, 32, true},    // one column tile: split by rows, 3 rows left to the last part
		{2708, 5, 64, false},    // too small: the backend's small kernel has another order
		{2708, 64, 48, false},   // columns not in blocks of 32
		{1024, 64, 1024, false}, // k == n: the shapes fit both layouts
	} {
		t.Run(fmt.Sprint(c.n, "x", c.m, "x", c.k), func(t *testing.T) {
			inputs := []*tensors.Tensor{tensors.FromFlatDataAndDimensions(randF32(rng, c.n*c.m), c.n, c.m),
				tensors.FromFlatDataAndDimensions(randF32(rng, c.n*c.k), c.n, c.k)}
			fused, ran := gokernels.FusedWeightGrads.Load(), gokernels.WeightGradsRun.Load()
			sameWithAndWithout(t, gokernels.WeightGradKernel, inputs, func(in []*Node) []*Node {
				// The backend transposes both operands of the first; the
				// second is aᵀ written out, with b in the backend's other
				// layout (its contracting axis leading), as MatMul's
				// gradient writes it.
				return []*Node{DotGeneral(in[0], []int{0}, nil, in[1], []int{0}, nil),
					MatMul(Transpose(in[0], 0, 1), in[1])}
			})
			want := int64(0)
			if c.fused {
				want = 2
			}
			if got := gokernels.FusedWeightGrads.Load() - fused; got != want {
				t.Errorf("%d products rewritten, want %d", got, want)
			}
			if got := gokernels.WeightGradsRun.Load() - ran; got != want {
				t.Errorf("the kernel ran %d products, want %d", got, want)
			}
		})
	}
}
