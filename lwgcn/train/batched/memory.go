package batched

import (
	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
)

// DefaultMemoryBudget is the working memory a batch may use when the batch
// size is chosen from memory: 6 GiB, a quarter of the 24 GiB machine the
// protocol targets, leaving room for the graph's shared inputs, the Go
// runtime and a second process.
const DefaultMemoryBudget = 6 << 30

// MaxBatchSize caps the batch chosen from memory: the protocol's 10 splits
// fit in one batch, and larger batches only add padding for them.
const MaxBatchSize = 10

// bytesPerValue is float32's size.
const bytesPerValue = 4

// RunBytes estimates the working memory one run adds to a batch of model m
// on g: its weights with Adam's two moments and gradient (4 copies), its
// dropout masks, and its node activations kept for the backward pass
// (about 12 [N, width] buffers per layer: projection, aggregation, bias,
// ReLU, dropout and their gradients; a [K, rows, width] gather block is
// bounded by sparse.ChunkBytes and not counted).
// Models outside this package estimate themselves (MemoryEstimator).
func RunBytes(g *graph.Graph, m nn.Model) int64 {
	if e, ok := m.(MemoryEstimator); ok {
		return e.RunBytes(g)
	}
	n, f, c := int64(g.NumNodes()), int64(g.Features().NumCols()), int64(g.NumClasses())
	var hidden, layers, edgeActs int64 = 64, 2, 0 // edgeActs: a model's buffers beyond the layers
	switch m := m.(type) {
	case models.GAT:
		// Per edge and head: score, softmax terms, attention and its mask
		// (about 8 [E, K] buffers), and the messages [E, K, O] with their
		// gradient, for both layers.
		hidden = int64(m.Heads * m.Hidden)
		e := int64(len(g.Src()) + g.NumNodes()) // with self loops
		k2 := int64(max(m.OutHeads, 1))
		edgeActs = e * (8*int64(m.Heads) + 2*hidden + 8*k2 + 2*k2*int64(g.NumClasses()))
	case models.MLP:
		hidden = int64(m.Hidden)
	case models.GCN:
		hidden, layers = int64(m.Hidden), int64(max(m.Layers, 2))
	case models.GCNII:
		hidden, layers = int64(m.Hidden), int64(m.Layers+2)
	case models.FAGCN:
		// Per edge and layer: score, tanh, mask, coefficient and their
		// gradients (about 8 [E] buffers).
		hidden, layers = int64(m.Hidden), int64(m.Layers+1)
		edgeActs = 8 * int64(len(g.Src())) * int64(m.Layers)
	case models.GPRGNN:
		// An MLP, then K+1 propagated [N, C] matrices with their weighted
		// terms, partial sums and gradients (about 4 each), and the mask.
		hidden = int64(m.Hidden)
		edgeActs = (4*int64(m.K+1) + 1) * n * c
	}
	weights := f*hidden + (layers-2)*hidden*hidden + hidden*c + (layers-1)*hidden + c
	masks := n * hidden * (layers - 1) // hidden dropout
	if g.Features().Density() < nn.SparseDensityThreshold {
		rows, _, _ := g.Features().COO()
		masks += 2 * int64(len(rows)) // a mask and the dropped values per stored entry
	} else {
		masks += 3 * n * f // mask, dropped features and their product's operand
	}
	acts := 12 * n * (layers*hidden + c)
	return bytesPerValue * (4*weights + masks + acts + edgeActs)
}

// MemoryEstimator is a model that estimates the working memory one of its
// runs adds to a batch on g (see RunBytes).
type MemoryEstimator interface {
	RunBytes(g *graph.Graph) int64
}

// BatchSizeFor is the number of runs of m on g whose estimated working
// memory (RunBytes) fits budget (0: DefaultMemoryBudget), at most
// MaxBatchSize, and 0 when a single run does not fit (such a run belongs to
// the unbatched trainer, or needs a larger budget).
func BatchSizeFor(g *graph.Graph, m nn.Model, budget int64) int {
	if budget <= 0 {
		budget = DefaultMemoryBudget
	}
	r := budget / max(RunBytes(g, m), 1)
	return int(min(r, MaxBatchSize))
}
