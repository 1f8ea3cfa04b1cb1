// Package labelwise implements the paper's method, LW-GCN (Dai et al., LoG 2022),
// exactly as its authors' code runs it, with its ablations and one extension:
//
//   - f_P, the pseudo-labeller: an MLP (one hidden layer of 64) trained on the
//     training nodes with the epoch of best validation accuracy kept; its
//     argmax labels every node, training nodes keep their true labels.
//     LW-GCN\P replaces it with a GCN.
//   - f_C, the label-wise GCN: layers of nn.LabelWiseConv over the label-wise
//     adjacency of the pseudo-labels, in one of two architectures (Variant):
//     label-wise layers straight on the raw features for dense graphs
//     (Chameleon, Squirrel, Crocodile), or a linear projection first with
//     jumping-knowledge concatenation for small graphs (WebKB, Planetoid).
//   - f_G, a GNN for homophilic graphs: GCNII (LW-GCN_GCN uses GCN).
//   - model selection: the prediction is softmax(phi)_1 log_softmax(f_C) +
//     softmax(phi)_2 log_softmax(f_G), phi = (0, 0) at start; each epoch
//     takes T inner Adam steps on theta = (theta_C, theta_G) against the
//     training NLL with phi fixed, then one Adam step (lr 0.1) on phi against
//     the validation NLL with the model outputs detached (first-order
//     bi-level optimisation). The reported prediction and selection weight
//     are those of the epoch with the best validation accuracy. LW-GCN\G
//     trains f_C alone. With the dense f_C (no dropout) an epoch's
//     evaluation comes from the next epoch's training pass (Selection.Lagged,
//     train.LaggedEpoch): one forward pass of f_C per epoch, the same run.
//   - Refinement (beyond the paper, its first future direction): K rounds in
//     which LW-GCN's own predictions replace the pseudo-labels of the
//     non-training nodes and the models are retrained.
//
// # Edge direction
//
// The official code builds every adjacency as A[i, j] = 1 for each edge row
// (i, j) of PyTorch Geometric's edge_index and multiplies A·H, so node i
// aggregates over the j of its rows: its out-neighbours in PyG's terms. The
// paper writes the same, N_k(v) = {u : (v, u) in E, y_u = k}. lwgcn's layers
// aggregate in-neighbours, so DirectionOfficial (the default) runs the models
// on the reversed graph; DirectionInNeighbours keeps PyG's message direction.
// On symmetric graphs (Planetoid) the two coincide.
//
// # f_G's adjacency
//
// The official code normalises f_G's adjacency with GCNII's
// sys_normalized_adjacency: D^-1/2 (A + I) D^-1/2 with the identity added
// on top of existing self loops (a node with a self loop gets weight 2) and
// D the row sums (duplicate rows counted). OfficialAdjacency builds exactly
// that; PyG's gcn_norm (nn.GCNNormalized) replaces self loops instead.
package labelwise
