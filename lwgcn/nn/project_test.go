package nn_test

import (
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/nn"
)

// TestProject checks y = x·w and both gradients of Σ y ⊙ r against the
// hand-computed products: dx = r·wᵀ, dw = xᵀ·r (3 x 2 times 2 x 2).
func TestProject(t *testing.T) {
	x := []float64{1, 2, 3, 4, 5, 6}  // [3, 2]
	w := []float64{1, -1, 2, 0.5}     // [2, 2]
	r := []float64{1, 0, 0, 2, -1, 1} // [3, 2]
	wantY := []float64{5, 0, 11, -1, 17, -2}
	// dx[i][k] = Σ_j r[i][j] w[k][j]
	wantDX := []float64{1, 2, -2, 1, -2, -1.5}
	// dw[k][j] = Σ_i x[i][k] r[i][j]
	wantDW := []float64{-4, 11, -4, 14}
	exec, err := NewExec(nntest.Backend(t), func(x, w, r *Node) []*Node {
		y := nn.Project(x, w)
		g := Gradient(ReduceAllSum(Mul(y, r)), x, w)
		return []*Node{y, g[0], g[1]}
	})
	if err != nil {
		t.Fatal(err)
	}
	res, err := exec.Exec(tensors.FromFlatDataAndDimensions(x, 3, 2), tensors.FromFlatDataAndDimensions(w, 2, 2),
		tensors.FromFlatDataAndDimensions(r, 3, 2))
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range [][]float64{wantY, wantDX, wantDW} {
		nntest.AssertClose(t, []string{"y", "dx", "dw"}[i], tensors.MustCopyFlatData[float64](res[i]), want, 1e-12)
	}
}
