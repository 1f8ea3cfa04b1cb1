package nn

import (
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"
)

// BatchStatsNormEpsilon is tf.contrib.layers.batch_norm's default epsilon.
const BatchStatsNormEpsilon = 1e-3

// BatchStatsNorm is batch normalisation with the statistics of the batch in
// every pass, the way MixHop's official code calls
// tf.contrib.layers.batch_norm (defaults: is_training=True, center=True,
// scale=False): each column of x [N, H] is standardised with its mean and
// (biased) variance over the N rows, then shifted:
//
//	y[:, h] = (x[:, h] - mean_h) / sqrt(var_h + eps) + beta_h
//
// Full-batch training makes the batch all the nodes, so evaluation passes
// use the statistics of all nodes too (no moving averages). beta [H]
// ("offset", zeros) is trainable; there is no scale, as in the official code.
func BatchStatsNorm(scope *model.Scope, x *Node, eps float64) *Node {
	if x.Rank() != 2 {
		panicf("nn.BatchStatsNorm: want a rank-2 input, got %s", x.Shape())
	}
	h := x.Shape().Dimensions[1]
	mean := ReduceAndKeep(x, ReduceMean, 0)
	centered := Sub(x, mean)
	variance := ReduceAndKeep(Square(centered), ReduceMean, 0)
	y := Div(centered, Sqrt(AddScalar(variance, eps))) // Rsqrt has no gradient in GoMLX
	beta := Param(scope, x.Graph(), "offset", x.DType(), ZeroInit, nil, h)
	return Add(y, ExpandAxes(beta, 0))
}
