package batched

import (
	"fmt"

	. "github.com/gomlx/gomlx/core/graph"

	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// FAGCN is models.FAGCN for R runs: the projections as MLP's, and each
// FAConv layer's gate scores, their dropout and the signed aggregation
// over [E, R] and [N, R·H] once per batch (sparse.MulWeightedRuns), with
// each run's own gate; dropout masks are drawn in the unbatched model's
// order (features, h⁰, then each layer's edge coefficients). As for GAT,
// the gates in the slot layout of sparse.RowSlots were slower batched:
// Squirrel 134-145 ms per split-epoch against 113-133 (10 runs, two
// threads, AVX2 host, 2026-11-27).
type FAGCN struct{ models.FAGCN }

// Forward implements Model; it returns logits [N, R, C].
func (m FAGCN) Forward(b *Builder, in *nn.Nodes, train bool) *Node {
	edges := sparse.FromNodes(in, nn.InputFAEdges).ForPass(train)
	x := in.Features(nn.InputFeatures).ForPass(train)
	n, f, c := x.NumRows(), x.NumCols(), in.Meta(nn.InputNumClasses)
	h := ReLU(b.FirstLayer("/t1", x, m.Dropout, train, m.Hidden, true, nn.XavierNormalAsUniform(f, m.Hidden, 1.414),
		nn.LinearInit(f)))
	h = b.Dropout(h, m.Dropout, train)
	raw := MulScalar(h, m.Eps)
	for l := range m.Layers {
		h = Add(raw, b.faConv(fmt.Sprintf("/layer%d", l), h, edges, m.Dropout, train))
	}
	out := b.Linear("/t2", h, c, true, nn.XavierNormalAsUniform(m.Hidden, c, 1.414), nn.LinearInit(m.Hidden))
	return Reshape(out, n, b.Runs, c)
}

// faConv is nn.FAConv for R runs, h [N, R·H]: the gate
// "<scope>/gate/weight" [2H, 1] (held transposed, [R, 1, 2H]: destination
// half, then source half) and "<scope>/gate/bias" [1] per run; the result
// is [N, R·H].
func (b *Builder) faConv(scope string, h *Node, edges *sparse.SpMat, rate float64, train bool) *Node {
	hid := h.Shape().Dimensions[1] / b.Runs
	w := b.Param(scope+"/gate/weight", nn.XavierNormalAsUniform(2*hid, 1, 1.414), RunsTransposed, 2*hid, 1)
	bias := b.Param(scope+"/gate/bias", nn.LinearInit(2*hid), FusedCols, 1)                          // [R]
	sDst := b.PerRun(h, Slice(w, AxisRange(), AxisRange(), AxisRange(0, hid)))                       // [N, R]
	sSrc := b.PerRun(h, Slice(w, AxisRange(), AxisRange(), AxisRange(hid, 2*hid)))                   // [N, R]
	score := Add(Add(Gather(sDst, edges.Rows, true), Gather(sSrc, edges.Cols)), ExpandAxes(bias, 0)) // [E, R]
	e := b.Dropout(Tanh(score), rate, train)
	return edges.MulWeightedRuns(h, e, b.Runs)
}
