package nn_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/nn"
)

// TestClassLogSoftmaxMatchesGoMLX checks values and gradients against
// GoMLX's LogSoftmax(x, -1) bit for bit, for class axes below, inside and
// above the pairwise range, ranks 1 to 3, logits up to ±300 (exp overflows
// float32 unless the row's true maximum is subtracted), the maximum in
// every class position. With a NaN logit the entry is NaN (the rest of
// its row is not compared: the Go backend's own ReduceMax keeps or drops a
// NaN depending on the axis' width).
func TestClassLogSoftmaxMatchesGoMLX(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	cases := []struct {
		dims []int
	}{{[]int{1}}, {[]int{2, 2}}, {[]int{6, 4}}, {[]int{7, 5}}, {[]int{6, 3, 5}}, {[]int{4, 16}}, {[]int{3, 2, 17}}, {[]int{5, 40}}}
	for _, tc := range cases {
		n := 1
		for _, d := range tc.dims {
			n *= d
		}
		c := tc.dims[len(tc.dims)-1]
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(rng.NormFloat64() * 3)
		}
		// Row r has a large maximum at class r mod C.
		for r := 0; r < n/c; r++ {
			x[r*c+r%c] = 300
		}
		nanAt := -1
		if n > c {
			nanAt = c + (1+c/2)%c // in the second row, not at its maximum
			x[nanAt] = float32(math.NaN())
		}
		w := make([]float32, n)
		for i := range w {
			w[i] = float32(rng.Float64())
		}
		// ClassLogSoftmax, and the pairwise form at every width.
		for _, f := range []struct {
			name string
			fn   func(*Node) *Node
		}{{"ClassLogSoftmax", nn.ClassLogSoftmax}, {"pairwise", nn.PairwiseLogSoftmax}} {
			exec, err := NewExec(nntest.Backend(t), func(x, w *Node) []*Node {
				ours, ref := f.fn(x), LogSoftmax(x, -1)
				return []*Node{ours, ref, Gradient(ReduceAllSum(Mul(ours, w)), x)[0], Gradient(ReduceAllSum(Mul(ref, w)), x)[0]}
			})
			if err != nil {
				t.Fatal(err)
			}
			res, err := exec.Exec(tensors.FromFlatDataAndDimensions(x, tc.dims...), tensors.FromFlatDataAndDimensions(w, tc.dims...))
			if err != nil {
				t.Fatal(err)
			}
			checkLogSoftmax(t, fmt.Sprintf("%s %v", f.name, tc.dims), res, c, nanAt)
		}
	}
}

// checkLogSoftmax compares values and gradients (res: ours, GoMLX's, our
// gradient, GoMLX's) bit for bit outside the row of the NaN at nanAt (-1:
// none), where it checks that the NaN entry's value is NaN.
func checkLogSoftmax(t *testing.T, name string, res []*tensors.Tensor, c, nanAt int) {
	t.Helper()
	for k, what := range []string{"value", "gradient"} {
		got, want := tensors.MustCopyFlatData[float32](res[2*k]), tensors.MustCopyFlatData[float32](res[2*k+1])
		for i := range got {
			if nanAt >= 0 && i/c == nanAt/c {
				if what == "value" && i == nanAt && !isNaN32(got[i]) {
					t.Errorf("%s: the NaN logit's value is %v, want NaN", name, got[i])
				}
				continue
			}
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Errorf("%s: %s %d = %v, GoMLX's LogSoftmax gives %v", name, what, i, got[i], want[i])
			}
			if isNaN32(got[i]) || math.IsInf(float64(got[i]), 0) {
				t.Errorf("%s: %s %d = %v (not finite)", name, what, i, got[i])
			}
		}
	}
}

func isNaN32(v float32) bool { return v != v }

// BenchmarkClassLogSoftmax measures log_softmax over the classes of 10
// runs' outputs on Chameleon's node count ([2277, 10, C]), forward and
// gradient, for several class counts: the pairwise maximum of
// ClassLogSoftmax ("pairwise", forced) against GoMLX's LogSoftmax
// ("reducemax").
func BenchmarkClassLogSoftmax(b *testing.B) {
	for _, c := range []int{2, 4, 5, 7, 16} {
		b.Run(fmt.Sprintf("C=%d", c), func(b *testing.B) { benchmarkClassLogSoftmax(b, c) })
	}
}

func benchmarkClassLogSoftmax(b *testing.B, c int) {
	dims := []int{2277, 10, c}
	n := dims[0] * dims[1] * dims[2]
	x, w := make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], w[i] = float32(i%13)/3-2, float32(i%7)/7
	}
	for _, tc := range []struct {
		name string
		fn   func(*Node) *Node
	}{{"pairwise", nn.PairwiseLogSoftmax}, {"reducemax", func(x *Node) *Node { return LogSoftmax(x, -1) }}} {
		b.Run(tc.name, func(b *testing.B) {
			exec, err := NewExec(nntest.Backend(b), func(x, w *Node) []*Node {
				y := tc.fn(x)
				return []*Node{ReduceAllSum(y), ReduceAllSum(Gradient(ReduceAllSum(Mul(y, w)), x)[0])}
			})
			if err != nil {
				b.Fatal(err)
			}
			xt, wt := tensors.FromFlatDataAndDimensions(x, dims...), tensors.FromFlatDataAndDimensions(w, dims...)
			exec.MustExec(xt, wt)
			b.ResetTimer()
			for range b.N {
				exec.MustExec(xt, wt)
			}
		})
	}
}
