package batched

import (
	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
)

// MaskedNLL is train.MaskedNLL per run: logp [N, R, C], labels [N] int32,
// mask [N, R]; the result [R] holds each run's
// -Σ_i mask_ir·logp[i, r, label_i] / max(Σ_i mask_ir, 1).
func MaskedNLL(logp, labels, mask *Node) *Node {
	c := logp.Shape().Dimensions[2]
	oh := ExpandAxes(OneHot(labels, c, logp.DType()), 1) // [N, 1, C]
	picked := ReduceSum(Mul(logp, oh), 2)                // [N, R]
	m := ConvertDType(mask, logp.DType())
	total := ReduceSum(m, 0)
	return Neg(Div(ReduceSum(Mul(picked, m), 0), Max(total, OnesLike(total))))
}

// CorrectCount is train.CorrectCount per run: [R] counts of masked nodes
// whose argmax prediction is their label.
func CorrectCount(logp, labels, mask *Node) *Node {
	pred := ArgMax(logp, 2, dtypes.Int32) // [N, R]
	hit := ConvertDType(Equal(pred, ExpandAxes(ConvertDType(labels, dtypes.Int32), 1)), logp.DType())
	return ReduceSum(Mul(hit, ConvertDType(mask, logp.DType())), 0)
}
