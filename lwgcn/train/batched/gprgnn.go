package batched

import (
	. "github.com/gomlx/gomlx/core/graph"

	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// GPRGNN is models.GPRGNN for R runs: the MLP as MLP's (first projection
// fused over the runs), then the K propagation steps Â·x once over
// [N, R·C] for all runs, each run weighting step k by its own γ_k:
//
//	out_r = Σ_{k=0..K} γ_{r,k} Â^k z_r,   γ_r = γ0 + δ_r  ("/prop/gamma_offset", [R, K+1])
//
// Why batching pays here: z is C columns wide, so a propagation step of one
// run gathers one short row per stored entry of Â and the Go backend's
// per-row cost dominates; R runs share every gathered row's index work.
type GPRGNN struct{ models.GPRGNN }

// Forward implements Model; it returns logits [N, R, C].
func (m GPRGNN) Forward(b *Builder, in *nn.Nodes, train bool) *Node {
	adj := sparse.FromNodes(in, nn.InputGCNAdj).ForPass(train)
	x := in.Features(nn.InputFeatures).ForPass(train)
	n, f, c := x.NumRows(), x.NumCols(), in.Meta(nn.InputNumClasses)
	h := ReLU(b.FirstLayer("/lin1", x, m.Dropout, train, m.Hidden, true, nn.LinearInit(f), nn.LinearInit(f)))
	h = b.Dropout(h, m.Dropout, train)
	z := b.Linear("/lin2", h, c, true, nn.LinearInit(m.Hidden), nn.LinearInit(m.Hidden))
	z = b.Dropout(z, m.DropProp, train) // [N, R·C]

	gamma0 := nn.GPRPPRInit(m.K, m.Alpha)
	gamma := Add(ExpandAxes(ConstAsDType(b.Graph(), b.DType, gamma0), 0),
		b.Param("/prop/gamma_offset", nn.ZeroInit, RunsFirst, m.K+1)) // [R, K+1]
	var out *Node
	step := z
	for k := 0; k <= m.K; k++ {
		if k > 0 {
			step = adj.MulRuns(step, b.Runs, nil)
		}
		gk := Reshape(Slice(gamma, AxisRange(), AxisElem(k)), 1, b.Runs, 1)
		term := Mul(Reshape(step, n, b.Runs, c), gk)
		if out == nil {
			out = term
		} else {
			out = Add(out, term)
		}
	}
	return out
}
