package nn

import (
	"math"
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"
)

// TestBatchNorm1d checks PyTorch's formulas: the training pass normalises
// with the batch statistics (biased variance); the evaluation pass built
// after it in the same graph uses the running statistics updated with
// momentum 0.1 and the unbiased variance; after the call the store holds
// those statistics; gradients of the training pass match finite differences.
func TestBatchNorm1d(t *testing.T) {
	const n, hdim = 5, 3
	rng := rand.New(rand.NewPCG(7, 8))
	xv := bl3RandMatrix(rng, n, hdim)
	in := float64Inputs(t, tinyGraph(t), false)
	var train bool
	h := newHarness(t, in, 1, func(scope *model.Scope, nd *Nodes) *Node {
		x := scope.VariableWithValue("x", x0Tensor(xv, n, hdim)).NodeValue(nd.Graph())
		y := BatchNorm1d(scope.In("bn"), x, true)
		if train {
			return y
		}
		return Concatenate([]*Node{y, BatchNorm1d(scope.ResetVisited().In("bn"), x, false)}, 0)
	})
	got, _ := h.forward()
	x := reshape(xv, n, hdim)
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
	assertClose(t, "train then eval", got, append(flat(wantTrain), flat(wantEval)...), 1e-10)
	// The call stored the updated statistics (running_var as 1 + δ).
	rm, rvDelta := h.varValues("/bn/running_mean"), h.varValues("/bn/running_var")
	for j := range hdim {
		if math.Abs(rm[j]-0.1*mean[j]) > 1e-12 || math.Abs(1+rvDelta[j]-(0.9+0.1*bvar[j]*n/(n-1))) > 1e-12 {
			t.Fatalf("running stats [%d] = %v, 1+%v", j, rm[j], rvDelta[j])
		}
	}
	if v := h.store.GetVariable("/bn/running_mean"); v.Trainable {
		t.Fatal("running_mean is trainable")
	}
	// Gradients of a training pass only (the harness runs forward passes
	// that update the running statistics, which the training pass ignores).
	train = true
	g := newHarness(t, in, 1, h.fn)
	g.checkGradients(rng, 1e-6)
}
