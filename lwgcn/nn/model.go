package nn

import (
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/graph"
)

// Model is a full-graph node classifier, written once for any number of
// runs R (see Runs).
type Model interface {
	// Name is a short identifier ("gcn", "gcnii", ...).
	Name() string
	// Prepare adds to in the tensors Forward reads (features, structure,
	// labels); it is called once per graph, before building any graph.
	Prepare(g *graph.Graph, in *Inputs) error
	// Forward builds the output [N, R·C] (each run's logits or
	// log-probabilities, see each model; [N, C] for one run). train enables
	// dropout.
	Forward(scope *model.Scope, in *Nodes, train bool) *Node
	// RunBytes estimates the working memory one run of the model adds to a
	// computation on g (how many runs fit in memory at once).
	RunBytes(g *graph.Graph) int64
}

// bytesPerValue is float32's size.
const bytesPerValue = 4

// LayersRunBytes is the working memory of one run of a model of layers
// layers of width hidden on g (float32): its weights with Adam's two
// moments and gradient (4 copies), its dropout masks, and its node
// activations kept for the backward pass (about 12 [N, width] buffers per
// layer: projection, aggregation, bias, ReLU, dropout and their gradients;
// a [K, rows, width] gather block is bounded by sparse.ChunkBytes and not
// counted), plus extra values (a model's buffers beyond the layers, such as
// per-edge attention).
func LayersRunBytes(g *graph.Graph, hidden, layers int, extra int64) int64 {
	n, f, c := int64(g.NumNodes()), int64(g.Features().NumCols()), int64(g.NumClasses())
	h, l := int64(hidden), int64(layers)
	weights := f*h + (l-2)*h*h + h*c + (l-1)*h + c
	masks := n * h * (l - 1) // hidden dropout
	if g.Features().Density() < SparseDensityThreshold {
		rows, _, _ := g.Features().COO()
		masks += 2 * int64(len(rows)) // a mask and the dropped values per stored entry
	} else {
		masks += 3 * n * f // mask, dropped features and their product's operand
	}
	acts := 12 * n * (l*h + c)
	return bytesPerValue * (4*weights + masks + acts + extra)
}

// UseVariableParameters must be called at the start of every graph-building
// function that reads model variables. GoMLX's Go backend embeds variables
// as constants in graphs not marked as training (so later value changes
// would be ignored and every new value would need a recompilation); lwgcn
// marks all its graphs as training and turns dropout on or off with an
// explicit train flag instead.
func UseVariableParameters(scope *model.Scope, g *Graph) { scope.SetTraining(g, true) }
