package models

import (
	"fmt"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// H2GCN input names: the normalised 1-hop and exact 2-hop adjacencies.
const (
	InputH2GCNHop1 = "adj/h2gcn/1"
	InputH2GCNHop2 = "adj/h2gcn/2"
)

// H2GCN is the H2GCN-K network of Zhu et al. (NeurIPS 2020) as its official
// code builds it (GemsLab/H2GCN, network setup
// "M<H>[-R]-T1-G-V[-T2-G-V]-C1[-C2][-D<p>]-MO"):
//
//	r_0   = [ReLU](X W_e)                               ("embed": no bias, glorot)
//	r_k   = H2GCNConv(r_{k-1}) = Â1 r_{k-1} ‖ Â2 r_{k-1}  k = 1..Rounds
//	out   = Dropout(r_0 ‖ r_1 ‖ ... ‖ r_Rounds) W_o     ("out": no bias, glorot)
//
// Design (1) ego/neighbour separation: Â1, Â2 have no self loops and r_0
// carries the ego embedding; (2) higher-order neighbourhoods: the exact
// 2-hop Â2; (3) combination of intermediate representations: the final
// concatenation (jumping knowledge). The official code concatenates in the
// order r_K, r_0, r_1, ...; the order only permutes W_o's rows.
//
// Shapes: X N x F (features row-normalised by the zoo entry, as the
// official default), r_k [N, 2^k·Hidden], concatenation [N, (2^(Rounds+1)-1)·Hidden],
// logits [N, C]. Â1, Â2 from "adj/h2gcn/1", "adj/h2gcn/2" (sparse.SetAuto:
// the 2-hop matrix of dense graphs is kept dense).
type H2GCN struct {
	Hidden, Rounds int
	// Dropout before the output layer (the official setups use 0 or 0.5).
	Dropout float64
	// EmbedReLU applies ReLU to the embedding ("R" in the setup string).
	EmbedReLU bool
}

// Name implements Model.
func (m H2GCN) Name() string { return "h2gcn" }

// RunBytes implements nn.Model: the concatenated representations, each
// round doubling the width, into the output layer.
func (m H2GCN) RunBytes(g *graph.Graph) int64 {
	return nn.LayersRunBytes(g, m.Hidden*((2<<m.Rounds)-1), 2, 0)
}

// Prepare implements Model: features, labels and the two neighbourhoods.
func (m H2GCN) Prepare(g *graph.Graph, in *nn.Inputs) error {
	if m.Hidden < 1 || m.Rounds < 1 {
		return fmt.Errorf("models: H2GCN needs hidden >= 1 and rounds >= 1, got hidden %d, rounds %d", m.Hidden, m.Rounds)
	}
	if err := nn.AddGraphBasics(in, g); err != nil {
		return err
	}
	if in.Has(InputH2GCNHop1+"/numrows") && in.Has(InputH2GCNHop2+"/numrows") {
		return nil
	}
	a1, a2, err := nn.H2GCNNeighborhoods(g.NumNodes(), g.Src(), g.Dst())
	if err != nil {
		return fmt.Errorf("models: graph %q: %w", g.Name(), err)
	}
	sparse.SetAuto(in, InputH2GCNHop1, a1)
	sparse.SetAuto(in, InputH2GCNHop2, a2)
	return nil
}

// Forward implements Model; it returns logits. Each run builds its own
// layers (nn.EachRun).
func (m H2GCN) Forward(scope *model.Scope, in *nn.Nodes, train bool) *Node {
	return nn.EachRunNode(scope, in, func(scope *model.Scope, in *nn.Nodes) *Node { return m.forward(scope, in, train) })
}

// forward is one run's Forward.
func (m H2GCN) forward(scope *model.Scope, in *nn.Nodes, train bool) *Node {
	a1, a2 := sparse.AutoFromNodes(in, InputH2GCNHop1, train), sparse.AutoFromNodes(in, InputH2GCNHop2, train)
	x := in.Features(nn.InputFeatures).ForPass(train)
	r := nn.SparseLinearWithInit(scope.In("embed"), x, m.Hidden, false, nn.GlorotInit(x.NumCols(), m.Hidden), nn.ZeroInit)
	if m.EmbedReLU {
		r = nn.ReLU(r)
	}
	reps := []*Node{r}
	for range m.Rounds {
		r = nn.H2GCNConv(r, a1, a2)
		reps = append(reps, r)
	}
	h := Concatenate(reps, 1)
	h = nn.Dropout(scope, h, m.Dropout, train)
	width := h.Shape().Dimensions[1]
	return nn.LinearWithInit(scope.In("out"), h, numClasses(in), false, nn.GlorotInit(width, numClasses(in)), nn.ZeroInit)
}
