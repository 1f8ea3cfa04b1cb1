package models_test

import (
	"fmt"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
)

// forward runs m's evaluation pass on g for the runs of seeds and returns
// its output's dims and values.
func forward(m nn.Model, g *graph.Graph, seeds ...int64) ([]int, []float32) {
	b, _, err := backend.Shared()
	if err != nil {
		panic(err)
	}
	in := nn.NewInputs()
	if err := m.Prepare(g, in); err != nil {
		panic(err)
	}
	store := model.NewStore()
	nn.SetSeed(store, seeds...)
	exec := model.MustNewExec(b, store, func(scope *model.Scope, gr *Graph, params []*Node) *Node {
		nn.UseVariableParameters(scope, gr)
		return m.Forward(scope, in.Nodes(params), false)
	})
	out := exec.MustCall(in.Tensors()...)[0]
	return out.Shape().Dimensions, tensors.MustCopyFlatData[float32](out)
}

// A two-layer GCN's logits on a 4-node path of two classes, for one run and
// for two runs at once (each run's C columns side by side), and H2GCN, a
// baseline whose layers build each run in turn: the same model code for any
// number of runs.
func Example() {
	x, _ := graph.NewDenseFeatures(4, 2, []float32{1, 0, 0, 1, 1, 1, 0, 0})
	g := graph.MustNew(graph.Spec{Name: "path4", NumNodes: 4, Src: []int32{0, 1, 1, 2, 2, 3},
		Dst: []int32{1, 0, 2, 1, 3, 2}, Features: x, Labels: []int32{0, 1, 0, 1}, NumClasses: 2})
	gcn := models.GCN{Hidden: 4, Dropout: 0.5}
	dims, y := forward(gcn, g, 3)
	fmt.Printf("gcn, one run: %v, node 0: %+.3f %+.3f\n", dims, y[0], y[1])
	dims, y = forward(gcn, g, 3, 4)
	fmt.Printf("gcn, two runs: %v, node 0 of run 0: %+.3f %+.3f\n", dims, y[0], y[1])
	dims, _ = forward(models.H2GCN{Hidden: 4, Rounds: 1}, g, 3, 4, 5)
	fmt.Printf("h2gcn, three runs: %v\n", dims)
	// Output:
	// gcn, one run: [4 2], node 0: -0.073 -0.023
	// gcn, two runs: [4 4], node 0 of run 0: -0.073 -0.023
	// h2gcn, three runs: [4 6]
}
