package gokernels_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/lwgcn/toolkit/lwgcn/gokernels"
)

// TestSmallDotSameAsBackend: products the backend runs with its small
// AVX-512 kernel give the same bits with the smalldot kernel, in both of the
// backend's layouts (rhs [k, n], and rhs [n, k] or transposed to it),
// with rows and columns left over by its tiles, contracting axes shorter
// and longer than a vector, and batch axes; the kernel takes exactly the
// products it runs in that order.
func TestSmallDotSameAsBackend(t *testing.T) {
	if !gokernels.HaveSmallDot {
		t.Skip("the smalldot kernel needs AVX-512 and the simd experiment")
	}
	rng := rand.New(rand.NewPCG(22, 23))
	for _, c := range []struct {
		name       string
		b, m, n, k int
		transposed bool // rhs [n, k]
		fused      bool
	}{
		{"classifier input gradient", 1, 2277, 64, 5, true, true}, // k < 16: no lanes, one chain
		{"k between vectors", 1, 2277, 64, 25, true, true},
		{"all remainders", 1, 19, 18, 33, true, true},
		{"k < 16, leftover rows and columns", 1, 21, 7, 9, true, true},
		{"k < 16, leftover columns inside a vector", 1, 20, 23, 9, true, true},
		{"k a multiple of 16", 1, 64, 19, 32, true, true},
		{"n >= 16, k short", 1, 2277, 25, 64, false, true},
		{"n >= 16, k long", 1, 64, 25, 2277, false, true},
		{"n a multiple of 64", 1, 9, 128, 10, false, true},
		{"n a multiple of 16, read in place", 1, 128, 80, 183, false, true},
		{"n >= 16, few rows", 1, 3, 17, 2, false, true},
		{"n < 16, k < 16 (transposed first)", 1, 2277, 5, 7, false, true},
		{"a vector, k < 16", 1, 10, 1, 3, false, true},
		{"batched, n >= 16", 3, 9, 20, 18, false, true},
		{"batched, transposed", 3, 17, 20, 18, true, true},
		{"k = 63, the longest tree", 1, 33, 20, 63, true, true},
		{"transposed, 3 of 7 rows scalar", 1, 7, 64, 2708, true, true},
		{"transposed, 2 rows, k < 16", 1, 2, 40, 9, true, true},
		{"transposed, 1 of 5 rows scalar, k >= 64: left to the backend", 1, 5, 64, 2277, true, false},
		{"transposed, k >= 64: left to the backend", 1, 183, 128, 64, true, false},
		{"n < 16, k >= 16: left to the backend", 1, 2277, 5, 64, false, false},
		{"a vector, k >= 16: left to the backend", 1, 10, 1, 30, false, false},
		{"large: the backend's large kernel", 1, 256, 256, 64, false, false},
	} {
		t.Run(fmt.Sprint(c.name), func(t *testing.T) {
			lhs := tensors.FromFlatDataAndDimensions(randF32(rng, c.b*c.m*c.k), c.b, c.m, c.k)
			rdims := []int{c.b, c.k, c.n}
			if c.transposed {
				rdims = []int{c.b, c.n, c.k}
			}
			rhs := tensors.FromFlatDataAndDimensions(randF32(rng, c.b*c.n*c.k), rdims...)
			rc := 1
			if c.transposed {
				rc = 2
			}
			fused, ran := gokernels.FusedSmallDots.Load(), gokernels.SmallDotsRun.Load()
			sameWithAndWithout(t, gokernels.SmallDotKernel, []*tensors.Tensor{lhs, rhs}, func(in []*Node) []*Node {
				return []*Node{DotGeneral(in[0], []int{2}, []int{0}, in[1], []int{rc}, []int{0})}
			})
			want := int64(0)
			if c.fused {
				want = 1
			}
			if got := gokernels.FusedSmallDots.Load() - fused; got != want {
				t.Errorf("%d products rewritten, want %d", got, want)
			}
			if got := gokernels.SmallDotsRun.Load() - ran; got != want {
				t.Errorf("the kernel ran %d products, want %d", got, want)
			}
		})
	}
}
