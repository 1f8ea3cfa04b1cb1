package batched

import (
	"fmt"
	"math"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"

	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// GCNII is models.GCNII for R runs, layer by layer the same computation (in
// the sorted-padded node order when the adjacency has it, so that the runs
// draw the same dropout masks as alone): every aggregation runs once over
// [N+1, R·H], every layer's weights [R, H, H] in one batched product.
type GCNII struct{ models.GCNII }

// Forward implements Model; it returns log-probabilities [N, R, C].
func (m GCNII) Forward(b *Builder, in *nn.Nodes, train bool) *Node {
	adj := sparse.FromNodes(in, nn.InputGCNAdj).ForPass(train)
	x := in.Features(nn.InputFeatures).ForPass(train)
	n, f := x.NumRows(), x.NumCols()
	c := in.Meta(nn.InputNumClasses)
	h0 := ReLU(b.FirstLayer("/fc0", x, m.Dropout, train, m.Hidden, true, nn.LinearInit(f), nn.LinearInit(f)))
	out := func(h *Node) *Node {
		h = b.Dropout(h, m.Dropout, train)
		return b.Linear("/fc1", h, c, true, nn.LinearInit(m.Hidden), nn.LinearInit(m.Hidden))
	}
	view, sorted := adj.SortedPadded()
	if !sorted {
		alphaH0 := MulScalar(h0, m.Alpha)
		h := h0
		for l := 1; l <= m.Layers; l++ {
			h = b.Dropout(h, m.Dropout, train)
			h = ReLU(b.gcn2Conv(l, h, alphaH0, adj, m.Alpha, m.Lambda))
		}
		return nn.ClassLogSoftmax(Reshape(out(h), n, b.Runs, c))
	}
	// As models.GCNII: node matrices kept as c ⊙ h in sorted-padded order.
	h := view.ToSortedPadded(h0)
	folded := view
	if cs := view.ColScale; cs != nil {
		fv := *view
		fv.RowScale, fv.ColScale = cs, nil
		if view.RowScale != nil {
			fv.RowScale = Mul(view.RowScale, cs)
		}
		folded = &fv
		h = Mul(h, cs)
	}
	alphaH0 := MulScalar(h, m.Alpha)
	for l := 1; l <= m.Layers; l++ {
		h = b.Dropout(h, m.Dropout, train)
		h = ReLU(b.gcn2Conv(l, h, alphaH0, folded, m.Alpha, m.Lambda))
	}
	if view.ColScale != nil {
		h = Mul(h, view.InvColScale())
	}
	return nn.ClassLogSoftmax(Reshape(view.FromSortedPadded(out(h)), n, b.Runs, c))
}

// gcn2Conv is nn.GCN2Conv for R runs: S = (1-α)·Â·h + α·h0 aggregated
// once over [rows, R·H], then S_r·(θ·W_r + (1-θ)·I) batched over the runs;
// W is "/conv<layer>/weight" [H, H] per run, held transposed as [R, H, H]
// (RunsTransposed; I is its own transpose).
func (b *Builder) gcn2Conv(layer int, h, alphaH0 *Node, adj *sparse.SpMat, alpha, lambda float64) *Node {
	hd := h.Shape().Dimensions[1] / b.Runs
	theta := math.Log(lambda/float64(layer) + 1)
	w := b.Param(fmt.Sprintf("/conv%d/weight", layer), nn.Uniform(1/math.Sqrt(float64(hd))), RunsTransposed, hd, hd)
	a := *adj
	if a.RowScale != nil {
		a.RowScale = MulScalar(ConvertDType(a.RowScale, h.DType()), 1-alpha)
	} else {
		a.RowScale = Scalar(b.g, h.DType(), 1-alpha)
	}
	s := Add(a.MulRuns(h, b.Runs, nil), alphaH0)
	eye := ConvertDType(Equal(Iota(b.g, shapes.Make(dtypes.Int32, hd, hd), 0), Iota(b.g, shapes.Make(dtypes.Int32, hd, hd), 1)), h.DType())
	wEff := Add(MulScalar(w, theta), ExpandAxes(MulScalar(eye, 1-theta), 0)) // [R, H, H], transposed
	return b.PerRun(s, wEff)
}
