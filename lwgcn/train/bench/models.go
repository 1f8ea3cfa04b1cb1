package bench

import (
	"math/rand/v2"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/nn"
)

// LabelWiseNet is the benchmark's label-wise network, the shape of LW-GCN's
// f_C for dense graphs: LabelWiseConv(X -> Hidden) -> ReLU -> Dropout ->
// LabelWiseConv(Hidden -> C), with random (pseudo) labels drawn from Seed.
// It is a benchmark model, not the LW-GCN model.
type LabelWiseNet struct {
	Hidden  int
	Dropout float64
	Seed    uint64
}

// Name implements nn.Model.
func (m LabelWiseNet) Name() string { return "labelwise" }

// Prepare implements nn.Model.
func (m LabelWiseNet) Prepare(g *graph.Graph, in *nn.Inputs) error {
	if err := nn.AddGraphBasics(in, g); err != nil {
		return err
	}
	r := rand.New(rand.NewPCG(m.Seed, 1))
	class := make([]int32, g.NumNodes())
	for i := range class {
		class[i] = int32(r.IntN(g.NumClasses()))
	}
	lw, err := nn.NewLabelWise(g.NumNodes(), g.Src(), g.Dst(), class, g.NumClasses())
	if err != nil {
		return err
	}
	return lw.AddTo(in, "lw", g.Features())
}

// RunBytes implements nn.Model: two layers of Hidden (the suite trains one
// run at a time, its label-wise structure being one run's).
func (m LabelWiseNet) RunBytes(g *graph.Graph) int64 { return nn.LayersRunBytes(g, m.Hidden, 2, 0) }

// Forward implements nn.Model; it returns logits.
func (m LabelWiseNet) Forward(scope *model.Scope, in *nn.Nodes, train bool) *Node {
	lw := in.LabelWise("lw").ForPass(train)
	h := nn.ReLU(nn.LabelWiseConv(scope.In("lw1"), in.Features(nn.InputFeatures).ForPass(train), lw, m.Hidden))
	h = nn.Dropout(scope, h, m.Dropout, train)
	return nn.LabelWiseConv(scope.In("lw2"), nn.DenseFeatures(h), lw, in.Meta(nn.InputNumClasses))
}
