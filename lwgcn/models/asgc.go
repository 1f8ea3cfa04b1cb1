package models

import (
	"fmt"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/nn"
)

// InputASGCFeatures holds ASGC's filtered features ([N, F], dense).
const InputASGCFeatures = "x/asgc"

// ASGC is Adaptive Simple Graph Convolution (Chanpuriya & Musco, NeurIPS
// 2022): a precomputed, per-feature adaptive polynomial filter of the
// features (ASGCFilter, on the host, once per graph) followed by a linear
// classifier:
//
//	logits = ASGCFilter(X; K, Reg) W + b     ("fc": W [F, C], b [C], zeros)
//
// The official code trains scikit-learn's LogisticRegression (L2, C = 1,
// unpenalised intercept) on the filtered features; the zoo entry adds that
// penalty to the loss. The weights start at zero (the problem is convex),
// so runs do not depend on the seed.
//
// Shapes: filtered features [N, F] ("x/asgc", dense: filtering fills in
// the sparse bag-of-words), logits [N, C].
type ASGC struct {
	// K is the number of hops (Krylov dimension K+1); Reg the ridge weight
	// on the coefficient of the raw feature (N·Reg·β_0²).
	K   int
	Reg float64
	// Workers for the filter (0: GOMAXPROCS).
	Workers int
}

// Name implements Model.
func (m ASGC) Name() string { return "asgc" }

// RunBytes implements nn.Model: a linear classifier on the filtered
// features (weights with Adam's state, logits and their gradients).
func (m ASGC) RunBytes(g *graph.Graph) int64 {
	n, f, c := int64(g.NumNodes()), int64(g.Features().NumCols()), int64(g.NumClasses())
	return 4 * (4*f*c + 12*n*c)
}

// Prepare implements Model: labels and the filtered features.
func (m ASGC) Prepare(g *graph.Graph, in *nn.Inputs) error {
	if g.Features() == nil {
		return fmt.Errorf("models: graph %q has no features", g.Name())
	}
	labels := make([]int32, g.NumNodes())
	for i, c := range g.Labels() {
		labels[i] = max(c, 0)
	}
	in.SetInt32(nn.InputLabels, labels, g.NumNodes())
	in.SetMeta(nn.InputNumClasses, g.NumClasses())
	res, err := nn.ASGCFilter(g.NumNodes(), g.Src(), g.Dst(), g.Features(), m.K, m.Reg, m.Workers)
	if err != nil {
		return fmt.Errorf("models: ASGC on graph %q: %w", g.Name(), err)
	}
	in.SetFloat(InputASGCFeatures, res.Features, res.NumNodes, res.NumFeatures)
	return nil
}

// Forward implements Model; it returns logits. Each run builds its own
// layers (nn.EachRun).
func (m ASGC) Forward(scope *model.Scope, in *nn.Nodes, train bool) *Node {
	return nn.EachRunNode(scope, in, func(scope *model.Scope, in *nn.Nodes) *Node { return m.forward(scope, in, train) })
}

// forward is one run's Forward.
func (m ASGC) forward(scope *model.Scope, in *nn.Nodes, train bool) *Node {
	x := ConvertDType(in.Get(InputASGCFeatures), in.DType)
	return nn.LinearWithInit(scope.In("fc"), x, numClasses(in), true, nn.ZeroInit, nn.ZeroInit)
}

// ASGCWeight returns the classifier's weight W [F, C] in g (after Forward
// has created it), for the L2 penalty of the training loss.
func ASGCWeight(scope *model.Scope, g *Graph) *Node {
	s := scope.At("fc")
	if s.GetVariable("weight") == nil {
		panicf("models.ASGCWeight: no variable fc/weight under %q; call Forward first", scope.Scope())
	}
	return nn.ParamValue(s, g, "weight")
}
