package nn

import (
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"
)

// PyTorch's BatchNorm1d defaults.
const (
	BatchNormMomentum = 0.1
	BatchNormEps      = 1e-5
)

// BatchNorm1d is PyTorch's nn.BatchNorm1d over the rows of x [N, H]
// (affine, tracking running statistics, momentum BatchNormMomentum, eps
// BatchNormEps):
//
//	train:  y = (x - mean_B) / sqrt(var_B + eps) ⊙ weight + bias     (var_B biased)
//	        running_mean <- (1 - m) running_mean + m mean_B
//	        running_var  <- (1 - m) running_var  + m var_B · N/(N-1)   (unbiased)
//	eval:   y = (x - running_mean) / sqrt(running_var + eps) ⊙ weight + bias
//
// Variables: "weight" (starts at 1, an OffsetParam), "bias" (zeros),
// "running_mean" (zeros) and "running_var" (ones), the last two not
// trainable and updated in the graph by training passes, so an evaluation
// pass built after a training pass in the same graph sees the updated
// statistics, as PyTorch's eval after a training step does. All four are
// Params: Reinitialize resets them for the next run.
func BatchNorm1d(scope *model.Scope, x *Node, train bool) *Node {
	g := x.Graph()
	dt := x.DType()
	n, h := x.Shape().Dimensions[0], x.Shape().Dimensions[1]
	weight := OffsetParam(scope, g, "weight", dt, 1, h)
	bias := Param(scope, g, "bias", dt, ZeroInit, nil, h)
	runMean := Param(scope, g, "running_mean", dt, ZeroInit, nil, h)
	runVar := OffsetParam(scope, g, "running_var", dt, 1, h)
	scope.GetVariable("running_mean").SetTrainable(false)
	scope.GetVariable("running_var").SetTrainable(false)
	var mean, variance *Node
	if train {
		mean = ReduceMean(x, 0)
		centred := Sub(x, ExpandAxes(mean, 0))
		variance = ReduceMean(Square(centred), 0)
		m := BatchNormMomentum
		unbiased := variance
		if n > 1 {
			unbiased = MulScalar(variance, float64(n)/float64(n-1))
		}
		newMean := Add(MulScalar(runMean, 1-m), MulScalar(StopGradient(mean), m))
		newVar := Add(MulScalar(runVar, 1-m), MulScalar(StopGradient(unbiased), m))
		SetRunValue(scope, g, "running_mean", newMean)
		SetRunValue(scope, g, "running_var", AddScalar(newVar, -1)) // the stored δ of 1 + δ
	} else {
		mean, variance = runMean, runVar
	}
	// Sqrt then Div: GoMLX defines no gradient for Rsqrt.
	inv := Div(weight, Sqrt(AddScalar(variance, BatchNormEps))) // [H]
	return Add(Mul(Sub(x, ExpandAxes(mean, 0)), ExpandAxes(inv, 0)), ExpandAxes(bias, 0))
}
