// Package nn holds the base of lwgcn's graph neural networks and their
// layers, written with GoMLX: the Model interface, the host Inputs and
// graph Nodes, parameters and their initialisation, and one layer per file
// (SparseLinear, Linear, GCNConv, GATConv, GCN2Conv and its stack as one
// loop for XLA, GCN2ConvLoop, the paper's LabelWiseConv and the baselines'
// layers). Whole models built from them
// are in lwgcn/models; the sparse engine they multiply with (SparseMatrix
// on the host, SpMat in a graph) is lwgcn/nn/sparse.
//
// # Runs as an axis
//
// A model is written once for any number R of independent runs (splits,
// seeds) trained in one computation: the layers read R from the scope
// (Runs) and hold every run's weights and node matrices side by side
// ([N, R·H]), each run starting from, and drawing, what it would alone
// (see runs.go). The main layers compute all runs at once (one sparse
// aggregation over every run's columns, products batched over the runs:
// PerRun); a layer or model without that form builds each run's
// computation in turn (EachRun). R = 1 is the plain model.
//
// # Graph structure as inputs
//
// A graph enters a compiled computation as a handful of input tensors (edge
// index arrays, per-edge weights, node classes), never as constants, so one
// compiled graph serves every epoch and every split of a dataset. Inputs
// collects them on the host under names ("x", "adj/gcn", "lw/adj", ...);
// inside the graph-building function Nodes hands them back by name.
// AddGraphBasics, AddGCNAdjacency and the layers' Add* functions build the
// standard sets for a *graph.Graph; sparse matrices among them are added
// with sparse.Set and read back with sparse.FromNodes.
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
