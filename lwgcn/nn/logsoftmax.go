package nn

import (
	. "github.com/gomlx/gomlx/core/graph"
)

// ClassLogSoftmaxPairwiseMax is the widest class axis whose maximum
// ClassLogSoftmax takes by pairwise Max of the class slices; wider axes
// use ReduceMax.
const ClassLogSoftmaxPairwiseMax = 16

// ClassLogSoftmax is log_softmax over the last (class) axis of logits
// [..., C]: x - m - log Σ_c exp(x_c - m) with m the row's maximum under
// StopGradient, exactly GoMLX's LogSoftmax(logits, -1). The only change is
// how m is found for a narrow class axis: GoMLX's Go backend reduces a
// trailing axis of 5 element by element (ReduceMax over [2277, 10, 5]: 3.2 ms,
// against 0.6 ms for four Max of the class slices). The maximum is exact
// either way, so for finite logits the result is the same bit for bit. A
// NaN logit gives a NaN entry (and a NaN loss where its class is the label);
// whether the rest of its row is NaN too differs here as it does between
// the Go backend's own ReduceMax paths.
func ClassLogSoftmax(logits *Node) *Node {
	c := logits.Shape().Dimensions[logits.Rank()-1]
	if c > ClassLogSoftmaxPairwiseMax {
		return LogSoftmax(logits, -1)
	}
	m := SliceAxis(logits, -1, AxisElem(0))
	for k := 1; k < c; k++ {
		m = Max(m, SliceAxis(logits, -1, AxisElem(k)))
	}
	shifted := Sub(logits, StopGradient(m))
	return Sub(shifted, Log(ReduceAndKeep(Exp(shifted), ReduceSum, -1)))
}
