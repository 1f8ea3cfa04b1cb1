// Package models holds lwgcn's whole node classifiers: each type implements
// nn.Model (Prepare adds the inputs it reads, Forward builds the output,
// RunBytes estimates a run's working memory) out of the layers of lwgcn/nn.
// MLP, GCN, GAT and GCNII are the paper's f_G candidates; the others
// (MixHop, H2GCN, GPR-GNN, FAGCN, SuperGAT, SimP-GCN, BM-GCN, GloGNN++,
// LINKX, ASGC) are the baselines of its tables, each following its official
// code, cited in its file. The hyperparameters live in the types' fields;
// lwgcn/zoo holds the per-dataset settings and the registry.
//
// # Outputs and runs
//
// Models return an N x C matrix: logits for MLP, GCN and GAT;
// log-probabilities (log_softmax) for GCNII, as its official code does.
// Applying LogSoftmax to either gives log-probabilities (it is idempotent on
// log-probabilities), which is what the trainer does. Every model is
// written once for R runs trained together (nn.Runs), returning [N, R·C]:
// MLP, GCN, GCNII, GAT, GPR-GNN and FAGCN through layers that compute all
// runs at once, the other baselines by building each run's layers in turn
// (nn.EachRun).
package models
