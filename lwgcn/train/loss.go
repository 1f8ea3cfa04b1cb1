package train

import (
	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
)

// MaskedNLL is PyTorch's F.nll_loss(logp[idx], labels[idx]) for the nodes
// where mask is 1, per run: -Σ_i mask_ir · logp_r[i, label_i] / Σ_i mask_ir.
// Shapes: logp [N, R·C] (each run's log-probabilities), labels [N] int32,
// mask [N, R]; the result is [R].
func MaskedNLL(logp, labels, mask *Node) *Node {
	n, r := mask.Shape().Dimensions[0], mask.Shape().Dimensions[1]
	c := logp.Shape().Dimensions[1] / r
	picked := ReduceSum(Mul(Reshape(logp, n, r, c), ExpandAxes(OneHot(labels, c, logp.DType()), 1)), 2) // [N, R]
	m := ConvertDType(mask, logp.DType())
	total := sumNodes(m)
	return Neg(Div(sumNodes(Mul(picked, m)), Max(total, OnesLike(total))))
}

// sumNodes sums x [N, R] over the nodes, [R]: along the last axis, the
// order in which ReduceAllSum sums one run's [N] (the Go backend sums a
// leading axis in another order, which changes the last bits).
func sumNodes(x *Node) *Node { return ReduceSum(Transpose(x, 0, 1), 1) }

// CorrectCount is, per run, the number of nodes with mask 1 whose argmax
// prediction equals their label (as floats of logp's dtype): logp [N, R·C],
// labels [N], mask [N, R], result [R].
func CorrectCount(logp, labels, mask *Node) *Node {
	n, r := mask.Shape().Dimensions[0], mask.Shape().Dimensions[1]
	pred := ArgMax(Reshape(logp, n, r, -1), 2, dtypes.Int32) // [N, R]
	hit := ConvertDType(Equal(pred, ExpandAxes(ConvertDType(labels, dtypes.Int32), 1)), logp.DType())
	return ReduceSum(Mul(hit, ConvertDType(mask, logp.DType())), 0)
}
