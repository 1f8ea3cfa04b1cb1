package sparse

import (
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
)

// InEdgeSoftmax normalises per-edge scores over each destination's in-edges
// (PyG's torch_geometric.utils.softmax(score, index=dst)):
//
//	alpha_e = exp(s_e - m_v) / Σ_{e' into v} exp(s_e' - m_v),   v = dst(e)
//
// with m_v the largest score into v (ScatterMax, gradient stopped as PyG
// does). Shapes: score [E, K] (K independent heads), dst [E, 1] int32
// destinations (dstSorted: ascending, as SpMat.Rows are), numNodes N; result
// [E, K]. A node without in-edges simply gets no entries.
func InEdgeSoftmax(score, dst *Node, numNodes int, dstSorted bool) *Node {
	g := score.Graph()
	dt := score.DType()
	k := score.Shape().Dimensions[1]
	lowest := BroadcastToShape(Infinity(g, dt, -1), shapes.Make(dt, numNodes, k))
	segMax := StopGradient(ScatterMax(lowest, dst, score, dstSorted, false))
	ex := Exp(Sub(score, Gather(segMax, dst, dstSorted)))
	segSum := ScatterSum(Zeros(g, shapes.Make(dt, numNodes, k)), dst, ex, dstSorted, false)
	return Div(ex, Gather(segSum, dst, dstSorted))
}

// AggregateEdges returns out_v = Σ_{e: u -> v} w_e · h_u: messages gathered
// from the sources, weighted per edge and summed into the destinations.
// Shapes: h [N, H] (or [N, K, O] with w [E, K]), w [E, 1] / [E, K], src and
// dst [E, 1] int32 (dst sorted ascending); result like h. Unlike SpMat.Mul,
// gradients flow to the weights w (attention coefficients).
func AggregateEdges(h, w, src, dst *Node) *Node {
	msg := Gather(h, src)
	for w.Rank() < msg.Rank() {
		w = ExpandAxes(w, -1)
	}
	return ScatterSum(ZerosLike(h), dst, Mul(msg, w), true, false)
}
