// Package models holds lwgcn's whole node classifiers: each type implements
// nn.Model (Prepare adds the inputs it reads, Forward builds the N x C
// output) out of the layers of lwgcn/nn. MLP, GCN, GAT and GCNII are the
// paper's f_G candidates; the others (MixHop, H2GCN, GPR-GNN, FAGCN,
// SuperGAT, SimP-GCN, BM-GCN, GloGNN++, LINKX, ASGC) are the baselines of
// its tables, each following its official code, cited in its file. The
// hyperparameters live in the types' fields; lwgcn/zoo holds the per-dataset
// settings.
//
// # Outputs
//
// Models return an N x C matrix: logits for MLP, GCN and GAT;
// log-probabilities (log_softmax) for GCNII, as its official code does.
// Applying LogSoftmax to either gives log-probabilities (it is idempotent on
// log-probabilities), which is what the trainer does.
package models
