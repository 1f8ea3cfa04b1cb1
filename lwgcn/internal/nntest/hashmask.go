package nntest

import (
	"math"
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/lwgcn/toolkit/lwgcn/nn"
)

// fmix32 is MurmurHash3's 32-bit finaliser.
func fmix32(x uint32) uint32 {
	x ^= x >> 16
	x *= 0x85ebca6b
	x ^= x >> 13
	x *= 0xc2b2ae35
	return x ^ x>>16
}

// hashKeeps is nn.HashMask's formula written out on the host: which of n
// values the mask keeps from state at rate.
func hashKeeps(state [3]uint64, n int, rate float64) []bool {
	keep := make([]bool, n)
	key := state[0]
	for i := range keep {
		c := state[1] + uint64(i)
		h := fmix32(uint32(c)*0x9E3779B9 ^ uint32(key))
		h = fmix32(h ^ uint32(c>>32) ^ uint32(key>>32))
		keep[i] = h>>8 >= uint32(rate*(1<<24))
	}
	return keep
}

// CompareHashMask checks nn.HashMask on backend be against its formula
// computed on the host (every value, float32 and float64, a counter that
// crosses 2^32 within the draw), the state it returns (counter advanced by
// the draw's size, the other words unchanged), and the share of kept
// values on a large draw.
func CompareHashMask(t *testing.T, be compute.Backend) {
	t.Helper()
	draw := func(state [3]uint64, shape shapes.Shape, rate float64) ([]float64, [3]uint64) {
		exec, err := NewExec(be, func(s *Node) []*Node {
			next, mask := nn.HashMask(s.Graph(), s, shape, rate)
			return []*Node{next, mask}
		})
		if err != nil {
			t.Fatal(err)
		}
		out, err := exec.Exec(tensors.FromFlatDataAndDimensions(state[:], 3))
		if err != nil {
			t.Fatal(err)
		}
		next := tensors.MustCopyFlatData[uint64](out[0])
		return Float64s(out[1]), [3]uint64(next)
	}
	for _, c := range []struct {
		state [3]uint64
		shape shapes.Shape
		rate  float64
	}{
		{[3]uint64{0x0123456789abcdef, 5, 77}, shapes.Make(dtypes.Float32, 7, 5), 0.3},
		{[3]uint64{42, 1<<32 - 3, 0}, shapes.Make(dtypes.Float64, 3, 4), 0.5},
	} {
		mask, next := draw(c.state, c.shape, c.rate)
		n := c.shape.Size()
		scale := 1 / (1 - c.rate)
		if c.shape.DType == dtypes.Float32 {
			scale = float64(float32(scale))
		}
		for i, k := range hashKeeps(c.state, n, c.rate) {
			want := 0.0
			if k {
				want = scale
			}
			if mask[i] != want {
				t.Fatalf("%s: state %v, value %d = %g, want %g", be.Name(), c.state, i, mask[i], want)
			}
		}
		if want := [3]uint64{c.state[0], c.state[1] + uint64(n), c.state[2]}; next != want {
			t.Errorf("%s: state after %d values %v, want %v", be.Name(), n, next, want)
		}
	}
	const rate, rows, cols = 0.6, 1000, 100
	mask, _ := draw([3]uint64{7, 0, 0}, shapes.Make(dtypes.Float32, rows, cols), rate)
	kept := 0
	for _, v := range mask {
		if v != 0 {
			kept++
		}
	}
	// 3.3 standard deviations of the share kept.
	if share, sd := float64(kept)/(rows*cols), math.Sqrt(rate*(1-rate)/(rows*cols)); math.Abs(share-(1-rate)) > 3.3*sd {
		t.Errorf("%s: %.4f of the values kept at rate %g, want %.4f ± %.4f", be.Name(), share, rate, 1-rate, 3.3*sd)
	}
}
