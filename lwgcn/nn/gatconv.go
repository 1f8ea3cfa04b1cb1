package nn

import (
	"math"

	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// GATConfig configures GATConv.
type GATConfig struct {
	// Heads is the number of attention heads K; Out the features per head.
	Heads, Out int
	// Concat concatenates the heads (output K·Out) instead of averaging them
	// (output Out).
	Concat bool
	// NegativeSlope of the LeakyReLU on the scores (0.2 in the GAT paper).
	NegativeSlope float64
	// AttentionDropout is the dropout rate on the attention coefficients
	// (training only).
	AttentionDropout float64
}

// GATConv is Velickovic et al.'s graph attention layer as PyG's GATConv
// computes it (self loops added, source -> target):
//
//	x'_u      = W x_u                                  (per head k: x'_u,k ∈ R^Out)
//	e_uv,k    = LeakyReLU(a_src,k · x'_u,k + a_dst,k · x'_v,k)   for edges u -> v
//	alpha_uv,k = softmax over v's in-edges of e_uv,k   (segment softmax, then dropout)
//	out_v,k   = Σ_u alpha_uv,k x'_u,k
//	out_v     = concat_k out_v,k  (or mean_k) + b
//
// Shapes: X N x F (Features), W [F, K·Out] ("weight", glorot), a_src, a_dst
// [K, Out] ("att_src", "att_dst", glorot over (K, Out) as PyG), b ("bias",
// zeros) [K·Out] or [Out]; edges: Inputs "adj/gat" (rows = destination,
// columns = source, one self loop per node). Result [N, K·Out] or [N, Out].
//
// The segment softmax subtracts each node's maximum score (ScatterMax, with
// the gradient stopped as PyG does), exponentiates, and divides by the
// ScatterSum of the exponentials. The messages are gathered per edge and
// summed with one ScatterSum: aggregating through the ELL layout instead
// (sparse.SpMat.MulWeightedRuns with the heads as runs, gathers only)
// measured no faster on the Go backend (Chameleon 118-125 against 115-117
// ms per epoch, Squirrel 661 against 658; 2026-11-27), nor with the
// engine's kernels (Chameleon 90.5 and 85.6 against 79.8 and 102.5, Cora
// 28.7 and 33.8 against 27.4 and 36.4; one thread, Intel family 6 model
// 207, 2026-11-29): the gather-sum kernel fuses one weight per slot, not one
// per head, and the weights' gradient reads the gathered blocks anyway.
//
// With R runs each run's heads become R·K heads of one attention layer
// (scores, segment softmax and aggregation over [E, R·K] once), each run
// with its own weights and attention dropout; the result is [N, R·K·Out]
// or [N, R·Out]. The attention stays in the edge order: in the slot layout
// of sparse.RowSlots (scores, softmax and the weighted sum per slot) 10
// runs were slower, Chameleon 83-116 ms per split-epoch against 70-76,
// Squirrel 418-545 against 427-452 (two threads, AVX2 host, 2026-11-27):
// the edge-order rows are already R·K values wide, so the per-row costs the
// layout saves are small, while its blocks take more ops and CPU time.
func GATConv(scope *model.Scope, x Features, edges *sparse.SpMat, cfg GATConfig, train bool) *Node {
	g := x.Graph()
	dt := x.DType()
	r := Runs(scope)
	k, o := cfg.Heads, cfg.Out
	n, rk := x.NumRows(), r*cfg.Heads
	xw := SparseLinearWithInit(scope, x, k*o, false, GlorotInit(x.colsPerRun(r), k*o), ZeroInit) // [N, R·K·O]
	xw3 := Reshape(xw, n, rk, o)
	attBound := math.Sqrt(6 / float64(k+o))
	aSrc := Reshape(Param(scope, g, "att_src", dt, Uniform(attBound), nil, k, o), 1, rk, o)
	aDst := Reshape(Param(scope, g, "att_dst", dt, Uniform(attBound), nil, k, o), 1, rk, o)
	k = rk
	sSrc := ReduceSum(Mul(xw3, aSrc), -1) // [N, R·K]
	sDst := ReduceSum(Mul(xw3, aDst), -1) // [N, R·K]

	dst, src := edges.Rows, edges.Cols                       // [E, 1]
	score := Add(Gather(sSrc, src), Gather(sDst, dst, true)) // [E, K]
	score = LeakyReLU(score, cfg.NegativeSlope)
	// Segment softmax over each destination's in-edges.
	lowest := BroadcastToShape(Infinity(g, dt, -1), shapes.Make(dt, n, k))
	segMax := StopGradient(ScatterMax(lowest, dst, score, true, false)) // [N, K]
	ex := Exp(Sub(score, Gather(segMax, dst, true)))
	segSum := ScatterSum(Zeros(g, shapes.Make(dt, n, k)), dst, ex, true, false)
	alpha := Div(ex, Gather(segSum, dst, true)) // [E, K]
	alpha = Dropout(scope, alpha, cfg.AttentionDropout, train)

	msg := Mul(Gather(xw3, src), ExpandAxes(alpha, -1)) // [E, K, O]
	out := ScatterSum(Zeros(g, shapes.Make(dt, n, k, o)), dst, msg, true, false)
	var y *Node
	if cfg.Concat {
		y = Reshape(out, n, k*o)
	} else {
		y = Reshape(ReduceMean(Reshape(out, n*r, cfg.Heads, o), 1), n, r*o)
	}
	b := RunsParam(scope, g, "bias", dt, ZeroInit, nil, FusedCols, y.Shape().Dimensions[1]/r)
	return Add(y, ExpandAxes(b, 0))
}
