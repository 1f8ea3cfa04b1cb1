// Package nn holds the base of lwgcn's graph neural networks and their
// layers, written with GoMLX: the Model interface, the host Inputs and
// graph Nodes, parameters and their initialisation, and one layer per file
// (SparseLinear, Linear, GCNConv, GATConv, GCN2Conv, the paper's
// LabelWiseConv and the baselines' layers). Whole models built from them
// are in lwgcn/models.
//
// # Graph structure as inputs
//
// A graph enters a compiled computation as a handful of input tensors (edge
// index arrays, per-edge weights, node classes), never as constants, so one
// compiled graph serves every epoch and every split of a dataset. Inputs
// collects them on the host under names ("x", "adj/gcn", "lw/adj", ...);
// inside the graph-building function Nodes hands them back by name.
// GraphInputs builds the standard set for a *graph.Graph.
//
// # Sparse products
//
// Every sparse product (sparse features times a weight matrix, normalised
// adjacency times node features) is a SparseMatrix (host) / SpMat (graph).
// Small matrices (DenseMaxElements) are multiplied densely with one Dot.
// Larger ones use a bucketed ELL layout built on the host: rows grouped by
// their number of entries, each bucket a [K, rows] table of column indices
// stored in chunks of ELLChunkSlots slots (and whole, for narrow products);
// the product gathers the rows of the dense operand into one [K, rows, H]
// block per chunk (small enough to stay in cache), scales them by the
// entries' values when there are any (pre-arranged per slot on the host),
// and sums over K — a SIMD reduction of the Go backend — then puts the rows
// back in order. No scatter is used: on GoMLX's Go backend a scatter-sum
// costs about 1.5x a gather per row, and the sum over the leading axis is
// vectorised. Row and column scales (GCN normalisation) are applied to the
// N x H matrices, never per entry. The gradient (Aᵀ·v) is the same
// computation on the ELL layout of Aᵀ, attached through GoMLX's alternate
// gradient of fused ops, so that the forward pass costs exactly the
// product. Deep models multiplying one matrix many times (GCNII) keep their
// node matrices in the matrix's bucket order with a zero row appended
// (SetSparseSorted, SpMat.SortedPadded), which saves two passes per
// product.
//
// # Initialisation
//
// Weights are initialised on the host, as PyTorch does, with uniform
// distributions whose bounds are given per layer (PyTorch's nn.Linear:
// U(-1/sqrt(fan_in), 1/sqrt(fan_in)) for weights and bias; PyG's glorot for
// GCNConv/GATConv; GCNII's U(-1/sqrt(H), 1/sqrt(H))). Values depend only on
// the seed and the variable's path, so runs repeat exactly and Reinitialize
// can reset a model for the next split without recompiling.
package nn
