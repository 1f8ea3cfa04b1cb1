// Package zoo is the registry of the baseline models the experiments compare
// LW-GCN with: each entry builds an nn.Model from hyperparameters, says how
// to train it (optimizer groups, a custom epoch when the method has an
// auxiliary loss, the graph it trains on) and gives the hyperparameters its
// authors published per dataset, or the protocol's defaults where they did
// not. Entries register themselves; `lwgcn train -model NAME` and the
// reproduction commands find them by name.
//
// All baselines are trained with the same protocol as LW-GCN: full-batch
// Adam as PyTorch defines it, a fixed number of epochs (400 unless the entry
// says otherwise), and the epoch of best validation accuracy reported.
package zoo
