package nn_test

import (
	"math"
	"testing"

	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/nn"
)

// dropoutRun applies Dropout to x (ones [rows, cols]) and returns the output
// and the gradient of Σ out·w (w = 1 + index) with respect to x.
func dropoutRun(t *testing.T, seed int64, rows, cols int, rate float64) (out, grad []float32) {
	t.Helper()
	store := model.NewStore()
	if err := store.SetRNGStateFromSeed(seed); err != nil {
		t.Fatal(err)
	}
	exec, err := model.NewExec(nntest.Backend(t), store, func(scope *model.Scope, x *Node) []*Node {
		y := nn.Dropout(scope, x, rate, true)
		w := AddScalar(ConvertDType(Iota(x.Graph(), shapes.Make(x.DType(), rows, cols), 1), x.DType()), 1)
		return []*Node{y, Gradient(ReduceAllSum(Mul(y, w)), x)[0]}
	})
	if err != nil {
		t.Fatal(err)
	}
	ones := make([]float32, rows*cols)
	for i := range ones {
		ones[i] = 1
	}
	res, err := exec.Exec(tensors.FromFlatDataAndDimensions(ones, rows, cols))
	if err != nil {
		t.Fatal(err)
	}
	return tensors.MustCopyFlatData[float32](res[0]), tensors.MustCopyFlatData[float32](res[1])
}

// TestDropoutKeepRate checks the fraction of kept entries against 1 - rate
// (within 4 standard errors), the scaling of kept entries, the gradient
// (the same mask times the upstream gradient) and reproducibility.
func TestDropoutKeepRate(t *testing.T) {
	const rows, cols = 301, 97 // not a multiple of the bytes per random word
	for _, rate := range []float64{0.5, 0.6, 0.65, 0.1} {
		out, grad := dropoutRun(t, 7, rows, cols, rate)
		scale := float32(1 / (1 - rate))
		kept := 0
		for i, v := range out {
			switch {
			case v == 0:
				if grad[i] != 0 {
					t.Fatalf("rate %v: dropped entry %d has gradient %v", rate, i, grad[i])
				}
			case math.Abs(float64(v-scale)) < 1e-6:
				kept++
				if want := scale * float32(i%cols+1); math.Abs(float64(grad[i]-want)) > 1e-4*float64(want) {
					t.Fatalf("rate %v: gradient %d = %v, want %v", rate, i, grad[i], want)
				}
			default:
				t.Fatalf("rate %v: entry %d = %v, want 0 or %v", rate, i, v, scale)
			}
		}
		n := float64(rows * cols)
		p := 1 - rate
		se := math.Sqrt(p * (1 - p) / n)
		if got := float64(kept) / n; math.Abs(got-p) > 4*se {
			t.Errorf("rate %v: kept fraction %.4f, want %.4f ± %.4f", rate, got, p, 4*se)
		}
		again, _ := dropoutRun(t, 7, rows, cols, rate)
		other, _ := dropoutRun(t, 8, rows, cols, rate)
		same, diff := true, false
		for i := range out {
			same = same && again[i] == out[i]
			diff = diff || other[i] != out[i]
		}
		if !same || !diff {
			t.Errorf("rate %v: same seed reproduces: %v; another seed differs: %v", rate, same, diff)
		}
	}
}

// TestDropoutMaskColumnsIndependent: entries of one row are not copies of
// each other (each comes from its own random bits).
func TestDropoutMaskColumnsIndependent(t *testing.T) {
	out, _ := dropoutRun(t, 3, 2000, 8, 0.5)
	// For each pair of adjacent columns the fraction of equal decisions
	// should be about 1/2.
	for c := 0; c+1 < 8; c++ {
		eq := 0
		for r := range 2000 {
			if (out[r*8+c] == 0) == (out[r*8+c+1] == 0) {
				eq++
			}
		}
		if f := float64(eq) / 2000; math.Abs(f-0.5) > 4*math.Sqrt(0.25/2000) {
			t.Errorf("columns %d and %d agree on %.3f of the rows, want 0.5", c, c+1, f)
		}
	}
}
