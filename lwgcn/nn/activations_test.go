package nn_test

import (
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/nn"
)

// TestReLU checks values and the gradient (1 where x > 0, 0 elsewhere,
// including at 0, as torch.relu) with and without GoMLX fusion. (NaN maps
// to 0 in both, as GoMLX's Max does; torch.relu keeps NaN.)
func TestReLU(t *testing.T) {
	x := []float64{-2, 0, 0.5, 3}
	wantY := []float64{0, 0, 0.5, 3}
	wantG := []float64{0, 0, 1, 1}
	for _, fusion := range []string{"0", "1"} {
		t.Setenv(FusionEnv, fusion)
		exec, err := NewExec(nntest.Backend(t), func(x *Node) []*Node {
			y := nn.ReLU(x)
			w := Const(x.Graph(), []float64{1, 2, 3, 4})
			return []*Node{y, Gradient(ReduceAllSum(Mul(y, w)), x)[0]}
		})
		if err != nil {
			t.Fatal(err)
		}
		res, err := exec.Exec(tensors.FromFlatDataAndDimensions(x, len(x)))
		if err != nil {
			t.Fatal(err)
		}
		y, g := tensors.MustCopyFlatData[float64](res[0]), tensors.MustCopyFlatData[float64](res[1])
		for i := range x {
			if y[i] != wantY[i] {
				t.Errorf("fusion %s: relu(%v) = %v, want %v", fusion, x[i], y[i], wantY[i])
			}
		}
		for i, w := range wantG {
			if want := w * float64(i+1); g[i] != want {
				t.Errorf("fusion %s: gradient at %v = %v, want %v", fusion, x[i], g[i], want)
			}
		}
	}
}
