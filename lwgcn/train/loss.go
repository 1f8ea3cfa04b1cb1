package train

import (
	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
)

// MaskedNLL is PyTorch's F.nll_loss(logp[idx], labels[idx]) for the nodes
// where mask is 1: -Σ mask_i · logp[i, label_i] / Σ mask_i.
// Shapes: logp [N, C] (log-probabilities), labels [N] int32, mask [N].
func MaskedNLL(logp, labels, mask *Node) *Node {
	c := logp.Shape().Dimensions[1]
	picked := ReduceSum(Mul(logp, OneHot(labels, c, logp.DType())), 1) // [N]
	m := ConvertDType(mask, logp.DType())
	total := ReduceAllSum(m)
	return Neg(Div(ReduceAllSum(Mul(picked, m)), Max(total, OnesLike(total))))
}

// CorrectCount is the number of nodes with mask 1 whose argmax prediction
// equals their label (as a float of logp's dtype).
func CorrectCount(logp, labels, mask *Node) *Node {
	pred := ArgMax(logp, 1, dtypes.Int32)
	hit := ConvertDType(Equal(pred, ConvertDType(labels, dtypes.Int32)), logp.DType())
	return ReduceAllSum(Mul(hit, ConvertDType(mask, logp.DType())))
}
