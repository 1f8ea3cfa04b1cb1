package nn_test

import (
	"math"
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/nn"
)

// TestBatchNorm1d checks PyTorch's formulas: the training pass normalises
// with the batch statistics (biased variance); the evaluation pass built
// after it in the same graph uses the running statistics updated with
// momentum 0.1 and the unbiased variance; after the call the store holds
// those statistics; gradients of the training pass match finite differences.
func TestBatchNorm1d(t *testing.T) {
	const n, hdim = 5, 3
	rng := rand.New(rand.NewPCG(7, 8))
	xv := nntest.RandMatrix(rng, n, hdim)
	in := nntest.Float64Inputs(t, nntest.TinyGraph(t), false)
	var train bool
	h := nntest.NewHarness(t, in, 1, func(scope *model.Scope, nd *nn.Nodes) *Node {
		x := scope.VariableWithValue("x", nntest.Float64Tensor(xv, n, hdim)).NodeValue(nd.Graph())
		y := nn.BatchNorm1d(scope.In("bn"), x, true)
		if train {
			return y
		}
		return Concatenate([]*Node{y, nn.BatchNorm1d(scope.ResetVisited().In("bn"), x, false)}, 0)
	})
	got, _ := h.Forward()
	x := nntest.Matrix(xv, n, hdim)
	var wantTrain, wantEval [][]float64
	mean, bvar := make([]float64, hdim), make([]float64, hdim)
	for j := range hdim {
		for i := range n {
			mean[j] += x[i][j] / n
		}
		for i := range n {
			bvar[j] += (x[i][j] - mean[j]) * (x[i][j] - mean[j]) / n
		}
	}
	for i := range n {
		rt, re := make([]float64, hdim), make([]float64, hdim)
		for j := range hdim {
			rt[j] = (x[i][j] - mean[j]) / math.Sqrt(bvar[j]+1e-5)
			rm, rv := 0.1*mean[j], 0.9+0.1*bvar[j]*n/(n-1)
			re[j] = (x[i][j] - rm) / math.Sqrt(rv+1e-5)
		}
		wantTrain, wantEval = append(wantTrain, rt), append(wantEval, re)
	}
	nntest.AssertClose(t, "train then eval", got, append(nntest.Flat(wantTrain), nntest.Flat(wantEval)...), 1e-10)
	// The call stored the updated statistics (running_var as 1 + δ).
	rm, rvDelta := h.VarValues("/bn/running_mean"), h.VarValues("/bn/running_var")
	for j := range hdim {
		if math.Abs(rm[j]-0.1*mean[j]) > 1e-12 || math.Abs(1+rvDelta[j]-(0.9+0.1*bvar[j]*n/(n-1))) > 1e-12 {
			t.Fatalf("running stats [%d] = %v, 1+%v", j, rm[j], rvDelta[j])
		}
	}
	if v := h.Store.GetVariable("/bn/running_mean"); v.Trainable {
		t.Fatal("running_mean is trainable")
	}
	// Gradients of a training pass only (the harness runs forward passes
	// that update the running statistics, which the training pass ignores).
	train = true
	g := nntest.NewHarness(t, in, 1, h.Fn)
	g.CheckGradients(rng, 1e-6)
}
