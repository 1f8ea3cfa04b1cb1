package nn

import (
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/graph"
)

// Model is a full-graph node classifier.
type Model interface {
	// Name is a short identifier ("gcn", "gcnii", ...).
	Name() string
	// Prepare adds to in the tensors Forward reads (features, structure,
	// labels); it is called once per graph, before building any graph.
	Prepare(g *graph.Graph, in *Inputs) error
	// Forward builds the output [N, C] (logits or log-probabilities: see
	// each model). train enables dropout.
	Forward(scope *model.Scope, in *Nodes, train bool) *Node
}

// UseVariableParameters must be called at the start of every graph-building
// function that reads model variables. GoMLX's Go backend embeds variables
// as constants in graphs not marked as training (so later value changes
// would be ignored and every new value would need a recompilation); lwgcn
// marks all its graphs as training and turns dropout on or off with an
// explicit train flag instead.
func UseVariableParameters(scope *model.Scope, g *Graph) { scope.SetTraining(g, true) }
