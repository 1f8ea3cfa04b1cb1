package nn

import (
	"fmt"
	"math"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// InputFAEdges is the input name of FAConv's edges (FAEdges).
const InputFAEdges = "adj/fagcn"

// FAConfig configures FAConv.
type FAConfig struct {
	// Dropout is the dropout rate on the edge coefficients (training only):
	// the official FALayer drops entries of e = tanh(·)·d_v^-1/2·d_u^-1/2.
	Dropout float64
}

// FAEdges returns the edges FAConv aggregates over, as the official FAGCN
// (bdy9527/FAGCN) builds them: self loops dropped, every other edge u -> v
// (row v, column u) of weight 1, and RowScale = ColScale = d^-1/2 with d(v)
// the number of in-edges of v clamped to at least 1 (DGL's
// in_degrees().clamp(min=1)). FAGCN runs on the symmetric closure of the
// graph (dgl.to_bidirected), which the caller provides.
func FAEdges(numNodes int, src, dst []int32) (*sparse.SparseMatrix, error) {
	rows, cols, deg, err := offDiagonalEdges(numNodes, src, dst, 0)
	if err != nil {
		return nil, err
	}
	m, err := sparse.NewSparseMatrix(numNodes, numNodes, rows, cols, nil)
	if err != nil {
		return nil, err
	}
	dinv := make([]float32, numNodes)
	for v, d := range deg {
		dinv[v] = float32(1 / math.Sqrt(max(d, 1)))
	}
	m.RowScale, m.ColScale = dinv, dinv
	return m, nil
}

// AddFAEdges adds FAEdges of g as "adj/fagcn".
func AddFAEdges(in *Inputs, g *graph.Graph) error {
	if in.Has(InputFAEdges + "/rows") {
		return nil
	}
	m, err := FAEdges(g.NumNodes(), g.Src(), g.Dst())
	if err != nil {
		return fmt.Errorf("nn: graph %q: %w", g.Name(), err)
	}
	if m.NNZ() == 0 {
		return fmt.Errorf("nn: graph %q has no edges besides self loops: FAConv has nothing to aggregate", g.Name())
	}
	sparse.SetWeighted(in, InputFAEdges, m)
	return nil
}

// FAConv is the frequency-adaptive aggregation of FAGCN (Bo et al., "Beyond
// Low-frequency Information in Graph Convolutional Networks", AAAI 2021), as
// the official FALayer computes it: a signed attention coefficient per edge
// u -> v from a gate on the concatenated endpoints, scaled by the symmetric
// degree normalisation, then a weighted sum of the neighbours:
//
//	g_uv  = tanh(wᵀ [h_v ‖ h_u] + b)                  ∈ (-1, 1): low-pass (> 0) or high-pass (< 0)
//	e_uv  = g_uv · d_v^-1/2 · d_u^-1/2                (then dropout on e)
//	out_v = Σ_{u -> v} e_uv · h_u
//
// The model adds ε·h⁰ (FAGCN). Shapes: h [N, H]; w [2H, 1] ("gate/weight":
// first H rows for the destination, last H for the source, as the official
// torch.cat([dst, src])), b [1] ("gate/bias"); edges "adj/fagcn" (FAEdges:
// rows = destination, no self loops, scales d^-1/2); result [N, H].
// Initialisation: w xavier_normal with gain 1.414 as the official code, drawn
// here from the uniform distribution of the same variance (bound
// 1.414·sqrt(6/(2H+1))); b PyTorch nn.Linear's default U(±1/sqrt(2H)).
//
// The gate is computed per node and gathered per edge (wᵀ[h_v ‖ h_u] =
// w_dstᵀh_v + w_srcᵀh_u), so the only per-edge tensors are the [E, 1]
// scores; the aggregation is sparse.SpMat.MulWeighted. With R runs (h
// [N, R·H]) the scores are [E, R], one gate per run, and the aggregation
// is one pass for every run (sparse.SpMat.MulWeightedRuns). In the slot
// layout of sparse.RowSlots the gates were slower with 10 runs: Squirrel
// 134-145 ms per split-epoch against 113-133 (two threads, AVX2 host,
// 2026-11-27).
func FAConv(scope *model.Scope, h *Node, edges *sparse.SpMat, cfg FAConfig, train bool) *Node {
	g := h.Graph()
	dt := h.DType()
	r := Runs(scope)
	hid := h.Shape().Dimensions[1] / r
	gs := scope.In("gate")
	w := RunsParam(gs, g, "weight", dt, XavierNormalAsUniform(2*hid, 1, 1.414), nil, RunsTransposed, 2*hid, 1)
	b := RunsParam(gs, g, "bias", dt, LinearInit(2*hid), nil, FusedCols, 1)
	dot := func(w *Node) *Node { // [N, R]
		if r == 1 {
			return Dot(h, w).Product()
		}
		return PerRun(h, w, r)
	}
	sDst := dot(runsSliceIn(w, r, 0, hid))
	sSrc := dot(runsSliceIn(w, r, hid, 2*hid))
	dst, src := edges.Rows, edges.Cols                                              // [E, 1]
	score := Add(Add(Gather(sDst, dst, true), Gather(sSrc, src)), ExpandAxes(b, 0)) // [E, R]
	e := Dropout(scope, Tanh(score), cfg.Dropout, train)
	// Σ_u g_uv d_v^-1/2 d_u^-1/2 h_u, the scales being FAEdges' row and
	// column scales.
	return edges.MulWeightedRuns(h, e, r)
}

// XavierNormalAsUniform is the uniform distribution with the variance of
// PyTorch's xavier_normal_(gain): std = gain·sqrt(2/(fanIn+fanOut)), bound
// std·sqrt(3). Param only draws uniform values; the first two moments match.
func XavierNormalAsUniform(fanIn, fanOut int, gain float64) Init {
	std := gain * math.Sqrt(2/float64(max(fanIn+fanOut, 1)))
	return Uniform(std * math.Sqrt(3))
}
