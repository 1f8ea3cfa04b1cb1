package batched

import (
	"math"

	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"

	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// GAT is models.GAT for R runs: each run's heads become R·K heads of one
// attention layer (scores, segment softmax and aggregation over [E, R·K]
// once per batch), with each run's own weights, and dropout masks drawn in
// the unbatched model's order (features, conv1's attention, hidden,
// conv2's attention).
//
// The attention stays in the edge order. In the slot layout of
// sparse.RowSlots (scores, softmax and the weighted sum per slot, as BM-GCN
// computes its weights) a batch of 10 was slower: Chameleon 83-116 ms per
// split-epoch against 70-76, Squirrel 418-545 against 427-452 (two
// threads, AVX2 host, 2026-11-27). Batched, the edge-order rows are already
// R·K values wide, so the per-row costs the layout saves are small, while
// its blocks take more ops and more CPU time.
type GAT struct{ models.GAT }

// Forward implements Model; it returns logits [N, R, C].
func (m GAT) Forward(b *Builder, in *nn.Nodes, train bool) *Node {
	edges := sparse.FromNodes(in, nn.InputGATEdges)
	x := in.Features(nn.InputFeatures).ForPass(train)
	n, f, r := x.NumRows(), x.NumCols(), b.Runs
	k, hd := m.Heads, m.Hidden
	xw := b.FirstLayer("/conv1", x, m.Dropout, train, k*hd, false, nn.GlorotInit(f, k*hd), nn.ZeroInit)
	h := Reshape(b.gatAttend("/conv1", xw, edges, k, hd, m.AttentionDropout, train), n, r*k*hd)
	h = Add(h, ExpandAxes(b.Param("/conv1/bias", nn.ZeroInit, FusedCols, k*hd), 0))
	h = b.Dropout(nn.ELU(h), m.Dropout, train)
	c := in.Meta(nn.InputNumClasses)
	ko := max(m.OutHeads, 1)
	xw = b.Linear("/conv2", h, ko*c, false, nn.GlorotInit(k*hd, ko*c), nn.ZeroInit)
	out := ReduceMean(b.gatAttend("/conv2", xw, edges, ko, c, m.AttentionDropout, train), 2) // [N, R, C]
	return Add(out, Reshape(b.Param("/conv2/bias", nn.ZeroInit, FusedCols, c), 1, r, c))
}

// gatAttend is nn.GATConv after its projection, for R runs: xw [N, R·K·O]
// (run-major, then head), the attention vectors "<scope>/att_src" and
// "<scope>/att_dst" [K, O] per run; it returns the heads aggregated over
// each node's in-edges, [N, R, K, O], without the bias.
func (b *Builder) gatAttend(scope string, xw *Node, edges *sparse.SpMat, k, o int, attDrop float64, train bool) *Node {
	g, dt, r := xw.Graph(), xw.DType(), b.Runs
	n, rk := xw.Shape().Dimensions[0], r*k
	xw3 := Reshape(xw, n, rk, o)
	bound := nn.Uniform(math.Sqrt(6 / float64(k+o)))
	aSrc := Reshape(b.Param(scope+"/att_src", bound, RunsFirst, k, o), 1, rk, o)
	aDst := Reshape(b.Param(scope+"/att_dst", bound, RunsFirst, k, o), 1, rk, o)
	sSrc := ReduceSum(Mul(xw3, aSrc), -1) // [N, R·K]
	sDst := ReduceSum(Mul(xw3, aDst), -1)
	dst, src := edges.Rows, edges.Cols
	score := nn.LeakyReLU(Add(Gather(sSrc, src), Gather(sDst, dst, true)), 0.2) // [E, R·K]
	lowest := BroadcastToShape(Infinity(g, dt, -1), shapes.Make(dt, n, rk))
	segMax := StopGradient(ScatterMax(lowest, dst, score, true, false))
	ex := Exp(Sub(score, Gather(segMax, dst, true)))
	segSum := ScatterSum(Zeros(g, shapes.Make(dt, n, rk)), dst, ex, true, false)
	alpha := Div(ex, Gather(segSum, dst, true)) // [E, R·K]
	if train && attDrop > 0 {
		e := alpha.Shape().Dimensions[0]
		alpha = Mul(alpha, Reshape(StackRuns(b.Masks(attDrop, e, k)), e, rk))
	}
	msg := Mul(Gather(xw3, src), ExpandAxes(alpha, -1)) // [E, R·K, O]
	out := ScatterSum(Zeros(g, shapes.Make(dt, n, rk, o)), dst, msg, true, false)
	return Reshape(out, n, r, k, o)
}
