package nn_test

import (
	"fmt"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// path4 is a path graph 0 - 1 - 2 - 3 with two features per node.
func path4() *graph.Graph {
	x, _ := graph.NewDenseFeatures(4, 2, []float32{1, 0, 0, 1, 1, 1, 0, 0})
	return graph.MustNew(graph.Spec{Name: "path4", NumNodes: 4, Src: []int32{0, 1, 1, 2, 2, 3},
		Dst: []int32{1, 0, 2, 1, 3, 2}, Features: x, Labels: []int32{0, 1, 0, 1}, NumClasses: 2})
}

// gcnConv is one GCNConv of g's features into 2 units per run, with the runs'
// seeds: its output [4, 2·R].
func gcnConv(g *graph.Graph, seeds ...int64) []float32 {
	b, _, err := backend.Shared()
	if err != nil {
		panic(err)
	}
	in := nn.NewInputs()
	if err := nn.AddGraphBasics(in, g); err != nil {
		panic(err)
	}
	if err := nn.AddGCNAdjacency(in, g); err != nil {
		panic(err)
	}
	store := model.NewStore()
	nn.SetSeed(store, seeds...)
	exec := model.MustNewExec(b, store, func(scope *model.Scope, gr *Graph, params []*Node) *Node {
		nn.UseVariableParameters(scope, gr)
		nodes := in.Nodes(params)
		adj := sparse.FromNodes(nodes, nn.InputGCNAdj)
		return nn.GCNConv(scope.In("conv"), nodes.Features(nn.InputFeatures), adj, 2)
	})
	out := exec.MustCall(in.Tensors()...)
	return tensors.MustCopyFlatData[float32](out[0])
}

// A graph convolution on a 4-node path: Â (X W) + b, one row per node.
func ExampleGCNConv() {
	y := gcnConv(path4(), 7)
	for v := range 4 {
		fmt.Printf("node %d: %+.3f %+.3f\n", v, y[2*v], y[2*v+1])
	}
	// Output:
	// node 0: -0.066 -0.366
	// node 1: -0.064 -0.556
	// node 2: +0.178 -0.324
	// node 3: -0.012 -0.314
}

// The runs axis: with the seeds of two runs the same layer computes both
// runs at once, each run's columns side by side, and each is what the run
// gives alone.
func ExampleRuns() {
	g := path4()
	both := gcnConv(g, 7, 8)
	alone := [][]float32{gcnConv(g, 7), gcnConv(g, 8)}
	same := true
	for v := range 4 {
		for r := range 2 {
			for j := range 2 {
				same = same && both[v*4+r*2+j] == alone[r][v*2+j]
			}
		}
	}
	fmt.Printf("%d values for 4 nodes, 2 runs of 2 units; each run as alone: %v\n", len(both), same)
	// Output:
	// 16 values for 4 nodes, 2 runs of 2 units; each run as alone: true
}
