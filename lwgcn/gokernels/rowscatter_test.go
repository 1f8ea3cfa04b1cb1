package gokernels_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/gobackend"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/lwgcn/toolkit/lwgcn/gokernels"
)

// TestRowScatterByHand checks the kernel on a scatter small enough to add
// up by hand, with an index out of range (skipped, as XLA does).
func TestRowScatterByHand(t *testing.T) {
	defer gokernels.RowScatterKernel.Set(true)()
	exec, err := NewExec(gobackend.GetBackend(), func(x, idx, upd *Node) (*Node, *Node) {
		return ScatterSum(x, idx, upd, false, false), ScatterMax(x, idx, upd, false, false)
	})
	if err != nil {
		t.Fatal(err)
	}
	before := gokernels.MarkedRowScatters.Load()
	x := tensors.FromFlatDataAndDimensions([]float32{1, 2, 3, 4, 5, 6}, 3, 2)
	idx := tensors.FromFlatDataAndDimensions([]int32{2, 0, 2, 7}, 4, 1)
	upd := tensors.FromFlatDataAndDimensions([]float32{10, -10, 20, 0, 1, 100, 9, 9}, 4, 2)
	outs, err := exec.Exec(x, idx, upd)
	if err != nil {
		t.Fatal(err)
	}
	// Row 0: [1, 2] + [20, 0]; row 1 unchanged; row 2: [5, 6] + [10, -10] + [1, 100].
	if got, want := outs[0].Value(), [][]float32{{21, 2}, {3, 4}, {16, 96}}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("ScatterSum = %v, want %v", got, want)
	}
	if got, want := outs[1].Value(), [][]float32{{20, 2}, {3, 4}, {10, 100}}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("ScatterMax = %v, want %v", got, want)
	}
	if got := gokernels.MarkedRowScatters.Load() - before; got != 2 {
		t.Errorf("%d scatters took the rowscatter kernel, want 2", got)
	}
}

// TestRowScatterSameAsBackend compares the kernel with the backend's
// generic scatter bit by bit: sums (the order of additions into a row, with
// signed zeros, infinities and NaNs), Max and Min with ties (not NaNs and
// signed zeros: the backend's answer there varies with the row width), rows
// of one value and of many, both index and value dtypes, unsorted indices
// and ascending ones large enough to be split among workers, and Gather's
// gradient.
func TestRowScatterSameAsBackend(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	nonFinite := []float32{0, float32(math.Copysign(0, -1)), float32(math.NaN()), float32(math.Inf(-1)), 1, -1}
	ties := []float32{0, 1, 1, -1, 0.5, float32(math.Inf(-1))}
	values := func(n int, special []float32) []float32 {
		v := randF32(rng, n)
		for i := range v {
			if special != nil && rng.IntN(3) == 0 {
				v[i] = special[rng.IntN(len(special))]
			}
		}
		return v
	}
	for _, tc := range []struct {
		name   string
		n, e   int
		row    []int // dims after the first
		sorted bool
	}{
		{"column", 7, 40, []int{1}, false},
		{"heads", 9, 50, []int{8}, false},
		{"heads-sorted", 9, 50, []int{8}, true},
		{"blocks", 6, 30, []int{3, 5}, false},
		{"wide-sorted-split", 2000, 9000, []int{8}, true},
		{"messages-sorted-split", 700, 3000, []int{8, 8}, true},
		{"column-sorted-split", 5000, 40000, []int{1}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := 1
			for _, d := range tc.row {
				w *= d
			}
			idx := make([]int32, tc.e)
			for i := range idx {
				idx[i] = int32(rng.IntN(tc.n))
			}
			if tc.sorted {
				slices.Sort(idx)
			}
			idx64 := make([]int64, len(idx))
			for i, v := range idx {
				idx64[i] = int64(v)
			}
			xDims, uDims := append([]int{tc.n}, tc.row...), append([]int{tc.e}, tc.row...)
			inputs := []*tensors.Tensor{
				tensors.FromFlatDataAndDimensions(values(tc.n*w, nonFinite), xDims...),
				tensors.FromFlatDataAndDimensions(idx, tc.e, 1),
				tensors.FromFlatDataAndDimensions(idx64, tc.e, 1),
				tensors.FromFlatDataAndDimensions(values(tc.e*w, nonFinite), uDims...),
				tensors.FromFlatDataAndDimensions(values(tc.n*w, ties), xDims...),
				tensors.FromFlatDataAndDimensions(values(tc.e*w, ties), uDims...),
			}
			before := gokernels.MarkedRowScatters.Load()
			sameWithAndWithout(t, gokernels.RowScatterKernel, inputs, func(in []*Node) []*Node {
				x, i32, i64, u, xt, ut := in[0], in[1], in[2], in[3], in[4], in[5]
				x64, u64 := ConvertDType(x, dtypes.Float64), ConvertDType(u, dtypes.Float64)
				xt64, ut64 := ConvertDType(xt, dtypes.Float64), ConvertDType(ut, dtypes.Float64)
				outs := []*Node{
					ScatterSum(x, i32, u, tc.sorted, false), ScatterSum(x64, i64, u64, tc.sorted, false),
					ScatterMax(xt, i32, ut, tc.sorted, false), ScatterMin(xt, i32, ut, tc.sorted, false),
					ScatterMax(xt64, i64, ut64, tc.sorted, false), ScatterMin(xt64, i32, ut64, tc.sorted, false),
				}
				// Gather's gradient is a ScatterSum into the operand's rows.
				g := Gradient(ReduceSum(Mul(Gather(x, i32, tc.sorted), u)), x)[0]
				return append(outs, g)
			})
			if got := gokernels.MarkedRowScatters.Load() - before; got < 7 {
				t.Errorf("%d scatters took the rowscatter kernel, want at least 7", got)
			}
		})
	}
}
