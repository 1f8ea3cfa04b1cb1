package experiments

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/limits"
)

// Bytes per float32, and copies of each weight a training run holds: the
// weight, its gradient and Adam's two moments.
const (
	floatBytes    = 4
	weightCopies  = 4
	epochLogBytes = 256 // one epoch's record in a run's history (train.EpochStats)
)

// TrainingBytes is a lower bound on the memory one training run of a model
// with these settings needs on g: every layer's weights with their gradient
// and Adam moments (input layer features x hidden x heads, hidden layers
// hidden^2 x heads, output hidden x heads x classes), one activation of
// nodes x hidden x heads per layer for the forward and backward passes, one
// value per edge and head per layer (attention, messages), and the epochs'
// history. Settings missing from params count as 1 (hidden, heads) or 2
// (layers).
func TrainingBytes(g *graph.Graph, params map[string]float64) int64 {
	get := func(name string, def int64) int64 {
		v, ok := params[name]
		if !ok || v < 1 {
			return def
		}
		if v > 1<<62 {
			return 1 << 62
		}
		return int64(v)
	}
	h, heads, layers, epochs := get("hidden", 1), get("heads", 1), get("layers", 2), get("epochs", 1)
	layers = max(layers, get("gcnii_layers", 0))
	f, c := int64(1), int64(max(g.NumClasses(), 1))
	if g.Features() != nil {
		f = int64(g.Features().NumCols())
	}
	n, e := int64(g.NumNodes()), int64(g.NumEdges())
	weights := limits.Add(limits.Mul(f, h, heads), limits.Mul(layers, h, h, heads), limits.Mul(h, heads, c))
	acts := limits.Mul(limits.Add(limits.Mul(n, h, heads), limits.Mul(e, heads)), limits.Add(layers, 2), 3)
	return limits.Add(limits.Mul(weights, weightCopies, floatBytes), limits.Mul(acts, floatBytes), limits.Mul(epochs, epochLogBytes))
}

// CheckSize refuses settings whose training on g needs more memory than
// the budget (limits.Check), naming the settings and the graph.
func CheckSize(g *graph.Graph, params map[string]float64) error {
	var named []string
	for _, k := range []string{"hidden", "layers", "gcnii_layers", "heads", "epochs"} {
		if v, ok := params[k]; ok && v > 0 {
			named = append(named, k+" "+strconv.FormatFloat(v, 'f', -1, 64))
		}
	}
	f := 0
	if g.Features() != nil {
		f = g.Features().NumCols()
	}
	what := fmt.Sprintf("%s on %s (%d nodes, %d edges, %d features)", strings.Join(named, ", "), g.Name(), g.NumNodes(),
		g.NumEdges(), f)
	return limits.Check(what, TrainingBytes(g, params))
}
