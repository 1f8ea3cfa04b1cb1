// Package graph is the graph core of lwgcn: an immutable attributed graph with
// a directed edge list, CSR views by source and by destination, dense or sparse
// (CSR) node features, integer labels and any number of train/validation/test
// splits, plus the transforms and statistics every other package builds on.
//
// Conventions:
//
//   - Edge e goes from Src()[e] to Dst()[e]. Message passing follows PyTorch
//     Geometric's "source to target" flow: a node aggregates over its
//     in-neighbours, the sources of the edges that end at it. Graph.Reverse
//     flips every edge for code (such as the official LW-GCN implementation)
//     that aggregates over out-neighbours instead.
//   - Node ids, edge ids and labels are int32, the index type fed to GoMLX.
//     Label Unlabeled (-1) marks a node without a label.
//   - A Graph is never modified after New: transforms return new graphs and
//     accessors return views that callers must not modify.
//
// The package has no dependency on GoMLX; models build their tensors from the
// views exposed here.
package graph
