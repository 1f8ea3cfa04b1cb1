package gokernels_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/gobackend"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/lwgcn/toolkit/lwgcn/gokernels"
)

// run compiles fn with the kernel k on or off, executes it once on the
// inputs (graph parameters, so that nothing is folded as a constant) and
// returns the bit patterns of each output's flat values.
func run(t *testing.T, k *gokernels.Kernel, on bool, inputs []*tensors.Tensor, fn func(in []*Node) []*Node) [][]uint64 {
	t.Helper()
	defer k.Set(on)()
	exec, err := NewExec(gobackend.GetBackend(), fn)
	if err != nil {
		t.Fatal(err)
	}
	args := make([]any, len(inputs))
	for i, in := range inputs {
		args[i] = in
	}
	outs, err := exec.Exec(args...)
	if err != nil {
		t.Fatal(err)
	}
	var bits [][]uint64
	for _, o := range outs {
		bits = append(bits, flatBits(t, o))
		o.FinalizeAll()
	}
	return bits
}

// flatBits returns the bit patterns of t's flat values.
func flatBits(tb testing.TB, t *tensors.Tensor) []uint64 {
	tb.Helper()
	var out []uint64
	err := t.ConstFlatData(func(flat any) {
		v := reflect.ValueOf(flat)
		for i := range v.Len() {
			switch x := v.Index(i).Interface().(type) {
			case float32:
				out = append(out, uint64(math.Float32bits(x)))
			case float64:
				out = append(out, math.Float64bits(x))
			case int32:
				out = append(out, uint64(uint32(x)))
			case int64:
				out = append(out, uint64(x))
			case uint8:
				out = append(out, uint64(x))
			case uint32:
				out = append(out, uint64(x))
			case uint64:
				out = append(out, x)
			default:
				tb.Fatalf("flatBits: %T", x)
			}
		}
	})
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// sameWithAndWithout runs fn with the kernel on and off and fails unless
// every output has the same bits.
func sameWithAndWithout(t *testing.T, k *gokernels.Kernel, inputs []*tensors.Tensor, fn func(in []*Node) []*Node) [][]uint64 {
	t.Helper()
	on, off := run(t, k, true, inputs, fn), run(t, k, false, inputs, fn)
	for o := range on {
		if len(on[o]) != len(off[o]) {
			t.Fatalf("output %d: %d values with %s, %d without", o, len(on[o]), k.Name, len(off[o]))
		}
		for i := range on[o] {
			if on[o][i] != off[o][i] {
				t.Fatalf("output %d, value %d: bits %#x with %s, %#x without", o, i, on[o][i], k.Name, off[o][i])
			}
		}
	}
	return on
}

func randF32(rng *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(rng.NormFloat64())
	}
	return v
}

func TestRowGatherSameAsBackend(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		dims []int // operand
		idx  []int32
	}{
		{[]int{7, 1}, []int32{0, 6, 3, -2, 9, 3}},
		{[]int{7, 5}, []int32{6, 0, 0, 2, 100, 1}},
		{[]int{9, 2, 3}, []int32{8, 1, 4, -1}},
		{[]int{300, 64}, []int32{299, 0, 17, 17, 150, 2}},
	} {
		t.Run(fmt.Sprint(tc.dims), func(t *testing.T) {
			n := 1
			for _, d := range tc.dims {
				n *= d
			}
			idx64 := make([]int64, len(tc.idx))
			for i, v := range tc.idx {
				idx64[i] = int64(v)
			}
			inputs := []*tensors.Tensor{
				tensors.FromFlatDataAndDimensions(randF32(rng, n), tc.dims...),
				tensors.FromFlatDataAndDimensions(tc.idx, 2, len(tc.idx)/2, 1),
				tensors.FromFlatDataAndDimensions(idx64, len(tc.idx), 1),
			}
			before := gokernels.MarkedRowGathers.Load()
			sameWithAndWithout(t, gokernels.RowGatherKernel, inputs, func(in []*Node) []*Node {
				x64 := ConvertDType(in[0], dtypes.Float64)
				return []*Node{Gather(in[0], in[1], false), Gather(x64, in[2], false)}
			})
			if got := gokernels.MarkedRowGathers.Load() - before; got != 2 {
				t.Errorf("%d gathers took the rowgather kernel, want 2", got)
			}
		})
	}
}

// rowsChunk is ellChunk without the zero row.
func rowsChunk(x, idx, w *Node, k, r int) *Node {
	h := x.Shape().Dimensions[1]
	blk := Mul(Gather(x, idx, false), w)
	return Reshape(ReduceSum(Reshape(blk, k, r*h), 0), r, h)
}

// ellChunk is nn/sparse's ELL chunk product: the operand with a zero row
// appended, Gather [K, r, H], an optional weight per slot, the sum over K.
func ellChunk(x, idx, w *Node, k, r int) *Node {
	h := x.Shape().Dimensions[1]
	xp := Concatenate([]*Node{x, Zeros(x.Graph(), shapes.Make(x.DType(), 1, h))}, 0)
	blk := Gather(xp, idx, false)
	if w != nil {
		blk = Mul(blk, w)
	}
	return Reshape(ReduceSum(Reshape(blk, k, r*h), 0), r, h)
}

func TestGatherSumByHand(t *testing.T) {
	// x has 3 rows; index 3 is the appended zero row, 7 is clamped to it.
	x := tensors.FromValue([][]float32{{1, 2}, {3, 4}, {5, 6}})
	idx := []int32{0, 1, 2, 3, 2, 7} // [K=3, r=2, 1]
	w := tensors.FromFlatDataAndDimensions([]float32{1, 10, 0.5, 2, -1, 3}, 3, 2, 1)
	before := gokernels.FusedGatherSums.Load()
	// Each product has its own index tensor: with one, both would share
	// one deduplicated Gather, which then has two consumers.
	inputs := []*tensors.Tensor{x, tensors.FromFlatDataAndDimensions(idx, 3, 2, 1), tensors.FromFlatDataAndDimensions(idx, 3, 2, 1), w}
	got := run(t, gokernels.GatherSumKernel, true, inputs, func(in []*Node) []*Node {
		return []*Node{ellChunk(in[0], in[1], nil, 3, 2), ellChunk(in[0], in[2], in[3], 3, 2)}
	})
	if n := gokernels.FusedGatherSums.Load() - before; n != 2 {
		t.Errorf("%d chunks fused, want 2", n)
	}
	// Row 0 gathers rows 0, 2, 2; row 1 gathers 1, 3 (zero), 3 (7 clamped).
	plain := []float32{1 + 5 + 5, 2 + 6 + 6, 3, 4}
	weighted := []float32{1*1 + 0.5*5 - 1*5, 1*2 + 0.5*6 - 1*6, 10 * 3, 10 * 4}
	for o, want := range [][]float32{plain, weighted} {
		for i, v := range want {
			if got[o][i] != uint64(math.Float32bits(v)) {
				t.Errorf("output %d value %d: %v, want %v", o, i, math.Float32frombits(uint32(got[o][i])), v)
			}
		}
	}
}

func TestGatherSumSameAsBackend(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct{ n, h, k, r int }{
		{5, 1, 3, 4}, {40, 7, 2, 9}, {40, 16, 5, 11}, {100, 37, 8, 30}, {500, 256, 4, 64}, {20, 64, 1, 7}, {30, 50, 3, 12},
	} {
		t.Run(fmt.Sprint(tc), func(t *testing.T) {
			idx := make([]int32, tc.k*tc.r)
			for i := range idx {
				idx[i] = int32(rng.IntN(tc.n + 1)) // tc.n: the zero row
			}
			idx[0] = int32(tc.n + 3) // clamped
			// Without the zero row: indices past either end clamp to x's
			// first and last rows.
			rowIdx := make([]int32, tc.k*tc.r)
			for i := range rowIdx {
				rowIdx[i] = int32(rng.IntN(tc.n))
			}
			rowIdx[0] = int32(tc.n + 3)
			if len(rowIdx) > 1 {
				rowIdx[1] = -2
			}
			// One index tensor per product (see TestGatherSumByHand).
			inputs := []*tensors.Tensor{
				tensors.FromFlatDataAndDimensions(randF32(rng, tc.n*tc.h), tc.n, tc.h),
				tensors.FromFlatDataAndDimensions(randF32(rng, tc.k*tc.r), tc.k, tc.r, 1),
				tensors.FromFlatDataAndDimensions(idx, tc.k, tc.r, 1),
				tensors.FromFlatDataAndDimensions(idx, tc.k, tc.r, 1),
				tensors.FromFlatDataAndDimensions(idx, tc.k, tc.r, 1),
				tensors.FromFlatDataAndDimensions(rowIdx, tc.k, tc.r, 1),
			}
			before := gokernels.FusedGatherSums.Load()
			sameWithAndWithout(t, gokernels.GatherSumKernel, inputs, func(in []*Node) []*Node {
				x64, w64 := ConvertDType(in[0], dtypes.Float64), ConvertDType(in[1], dtypes.Float64)
				return []*Node{
					ellChunk(in[0], in[2], nil, tc.k, tc.r), ellChunk(in[0], in[3], in[1], tc.k, tc.r),
					ellChunk(x64, in[4], w64, tc.k, tc.r), rowsChunk(in[0], in[5], in[1], tc.k, tc.r),
				}
			})
			if n := gokernels.FusedGatherSums.Load() - before; n != 4 {
				t.Errorf("%d chunks fused, want 4", n)
			}
		})
	}
}

// A block with another consumer (nn/sparse's entry gradients record it)
// stays unfused, and the results stay the same.
func TestGatherSumLeavesSharedBlocks(t *testing.T) {
	inputs := []*tensors.Tensor{
		tensors.FromValue([][]float32{{1, 2}, {3, 4}}),
		tensors.FromFlatDataAndDimensions([]int32{0, 1, 1, 2}, 2, 2, 1),
	}
	before := gokernels.FusedGatherSums.Load()
	sameWithAndWithout(t, gokernels.GatherSumKernel, inputs, func(in []*Node) []*Node {
		xp := Concatenate([]*Node{in[0], Zeros(in[0].Graph(), shapes.Make(dtypes.Float32, 1, 2))}, 0)
		blk := Gather(xp, in[1], false)
		return []*Node{Reshape(ReduceSum(Reshape(blk, 2, 4), 0), 2, 2), ReduceSum(blk)}
	})
	if n := gokernels.FusedGatherSums.Load() - before; n != 0 {
		t.Errorf("%d chunks fused, want 0", n)
	}
}

func TestRNGSameStream(t *testing.T) {
	// The last two sizes are filled in parts on the workers (from 32 k draws).
	for _, size := range []int{1, 7, 8, 13, 4096 + 3, 300_001, 1 << 20} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			state, err := RNGStateFromSeed(42)
			if err != nil {
				t.Fatal(err)
			}
			inputs := []*tensors.Tensor{state}
			sameWithAndWithout(t, gokernels.RNGKernel, inputs, func(in []*Node) []*Node {
				s, u := RandomUniform(in[0], shapes.Make(dtypes.Float32, size))
				s, b := RandomUniform(s, shapes.Make(dtypes.Float64, size+1))
				s, n := RandomNormal(s, shapes.Make(dtypes.Float32, 3))
				// The state's PCG words (the backend leaves the last one
				// as it finds it in a pooled buffer: TestRNGCarriesTheStateTail).
				return []*Node{u, b, n, Slice(s, AxisRange(0, 2))}
			})
		})
	}
}

// TestRNGCarriesTheStateTail: the state words after the PCG's two are
// carried to the new state (the backend's own executor leaves a pooled
// buffer's old words there), so that a state is the same from run to run.
func TestRNGCarriesTheStateTail(t *testing.T) {
	const tail = 0xdeadbeef
	for _, size := range []int{5, 300_001} {
		state := tensors.FromFlatDataAndDimensions([]uint64{1, 2, tail}, 3)
		got := run(t, gokernels.RNGKernel, true, []*tensors.Tensor{state}, func(in []*Node) []*Node {
			s, _ := RandomUniform(in[0], shapes.Make(dtypes.Float32, size))
			s, _ = RandomUniform(s, shapes.Make(dtypes.Float32, 3))
			return []*Node{s}
		})
		if got[0][2] != tail {
			t.Errorf("%d draws: state %#x, want its last word %#x carried", size, got[0], tail)
		}
	}
}

// dropoutMask is nn.DropoutMask's graph on an RNG state.
func dropoutMask(state *Node, shape shapes.Shape, rate float64) (*Node, *Node) {
	g := state.Graph()
	state, u := RandomUniform(state, shape)
	keep := GreaterOrEqual(u, Scalar(g, shape.DType, rate))
	return state, StopGradient(Where(keep, Scalar(g, shape.DType, 1/(1-rate)), Scalar(g, shape.DType, 0)))
}

func TestDropoutMaskSameAsBackend(t *testing.T) {
	state, err := RNGStateFromSeed(7)
	if err != nil {
		t.Fatal(err)
	}
	x := tensors.FromFlatDataAndDimensions(randF32(rand.New(rand.NewPCG(8, 9)), 300*7), 300, 7)
	before := gokernels.FusedDropoutMasks.Load()
	got := sameWithAndWithout(t, gokernels.DropoutMaskKernel, []*tensors.Tensor{state, x}, func(in []*Node) []*Node {
		s, m1 := dropoutMask(in[0], in[1].Shape(), 0.6)
		_, m2 := dropoutMask(s, shapes.Make(dtypes.Float32, 13), 0.25)
		return []*Node{Mul(in[1], m1), m2}
	})
	if n := gokernels.FusedDropoutMasks.Load() - before; n != 2 {
		t.Errorf("%d masks fused, want 2", n)
	}
	// The mask keeps about 40% of the values, scaled by 1/0.4.
	kept := 0
	for i, b := range got[0] {
		v := math.Float32frombits(uint32(b))
		if v != 0 {
			kept++
			if x0 := flatBits(t, x)[i]; float32(math.Float32frombits(uint32(x0))*float32(1/0.4)) != v {
				t.Fatalf("value %d: %v, want the input times 2.5", i, v)
			}
		}
	}
	if frac := float64(kept) / float64(len(got[0])); frac < 0.35 || frac > 0.45 {
		t.Errorf("kept %.3f of the values, want about 0.4", frac)
	}
}

// TestELLProductSameAsBackend builds nn/sparse's whole product: parts in
// bucket order (a block of empty rows, chunks of 3 slots weighted and not,
// single-slot chunks, a part computed by a Dot), concatenated, gathered
// back into row order (one row taken twice, one never) and scaled per row.
func TestELLProductSameAsBackend(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 11))
	const n, h = 30, 19
	idxT := func(k, r int) *tensors.Tensor {
		v := make([]int32, k*r)
		for i := range v {
			v[i] = int32(rng.IntN(n + 1))
		}
		return tensors.FromFlatDataAndDimensions(v, k, r, 1)
	}
	// Rows of cat: 2 empty + 5 + 4 + 6 + 3 + 2 (Dot) = 22.
	var productWith func(in []*Node, dt dtypes.DType, scale, gathered bool) *Node
	pos := make([]int32, 24)
	for i := range pos {
		pos[i] = int32(i % 22)
	}
	pos[3], pos[4] = 7, 7 // row 7 twice, rows 3 and 4 never (pos 22, 23 wrap to 0, 1)
	inputs := []*tensors.Tensor{
		tensors.FromFlatDataAndDimensions(randF32(rng, n*h), n, h),
		idxT(3, 5), idxT(3, 4), idxT(1, 6), idxT(1, 3),
		tensors.FromFlatDataAndDimensions(randF32(rng, 3*4), 3, 4, 1),
		tensors.FromFlatDataAndDimensions(randF32(rng, 3), 1, 3, 1),
		tensors.FromFlatDataAndDimensions(pos, 24, 1),
		tensors.FromFlatDataAndDimensions(randF32(rng, 24), 24, 1),
		tensors.FromFlatDataAndDimensions(randF32(rng, 2*n), 2, n),
	}
	product := func(in []*Node, dt dtypes.DType, scale bool) *Node { return productWith(in, dt, scale, true) }
	productWith = func(in []*Node, dt dtypes.DType, scale, gathered bool) *Node {
		x, w1, w2, rs, d := ConvertDType(in[0], dt), ConvertDType(in[5], dt), ConvertDType(in[6], dt), ConvertDType(in[8], dt), ConvertDType(in[9], dt)
		xp := Concatenate([]*Node{x, Zeros(x.Graph(), shapes.Make(dt, 1, h))}, 0)
		parts := []*Node{
			Zeros(x.Graph(), shapes.Make(dt, 2, h)),
			ellChunk(x, in[1], nil, 3, 5),
			ellChunk(x, in[2], w1, 3, 4),
			Reshape(Gather(xp, in[3], false), 6, h),
			Reshape(Mul(Gather(xp, in[4], false), w2), 3, h),
			Dot(d, x).Product(),
		}
		y := Concatenate(parts, 0) // nn/sparse's sorted layout: rows stay in bucket order
		if gathered {
			y = Gather(y, in[7], false)
		}
		if scale {
			if !gathered {
				rs = Slice(rs, AxisRange(0, 22))
			}
			y = Mul(y, rs)
		}
		return y
	}
	defer gokernels.GatherSumKernel.Set(true)() // ellproduct folds gathersum's chunks
	before := gokernels.FusedELLProducts.Load()
	sameWithAndWithout(t, gokernels.ELLProductKernel, inputs, func(in []*Node) []*Node {
		return []*Node{product(in, dtypes.Float32, true), product(in, dtypes.Float64, true)}
	})
	sameWithAndWithout(t, gokernels.ELLProductKernel, inputs, func(in []*Node) []*Node {
		return []*Node{product(in, dtypes.Float32, false)}
	})
	sameWithAndWithout(t, gokernels.ELLProductKernel, inputs, func(in []*Node) []*Node {
		return []*Node{productWith(in, dtypes.Float32, true, false), productWith(in, dtypes.Float64, false, false)}
	})
	if n := gokernels.FusedELLProducts.Load() - before; n != 5 {
		t.Errorf("%d products fused, want 5", n)
	}
}

// Transposes of float32 and int32 matrices (random int32 bits: NaN
// patterns among them, moved unchanged) of sizes that are and are not
// multiples of the kernel's tiles (4 scalar, 8 SIMD) and blocks (16): the
// same values as the backend's; rank 3 and 8-byte values are left to the
// backend.
func TestTransposeSameAsBackend(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 19))
	for _, c := range [][2]int{{1, 1}, {3, 5}, {4, 4}, {8, 8}, {9, 23}, {24, 40}, {100, 7}, {17, 33}, {2708, 64}, {64, 2708}, {37, 16}} {
		t.Run(fmt.Sprint(c), func(t *testing.T) {
			n := c[0] * c[1]
			ints := make([]int32, n)
			for i := range ints {
				ints[i] = rng.Int32()
			}
			inputs := []*tensors.Tensor{tensors.FromFlatDataAndDimensions(randF32(rng, n), c[0], c[1]),
				tensors.FromFlatDataAndDimensions(ints, c[0], c[1])}
			before := gokernels.TransposesRun.Load()
			sameWithAndWithout(t, gokernels.TransposeKernel, inputs, func(in []*Node) []*Node {
				return []*Node{Transpose(in[0], 0, 1), Transpose(in[1], 0, 1), Transpose(ConvertDType(in[0], dtypes.Float64), 0, 1),
					Transpose(Reshape(in[0], 1, c[0], c[1]), 1, 2)}
			})
			if got := gokernels.TransposesRun.Load() - before; got != 2 {
				t.Errorf("the kernel ran %d transposes, want 2 (float32 and int32)", got)
			}
		})
	}
}
