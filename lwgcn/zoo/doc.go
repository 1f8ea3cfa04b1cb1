// Package zoo is the registry of the baseline models the experiments compare
// LW-GCN with: each entry builds an nn.Model from hyperparameters, says how
// to train it (optimizer groups, a custom epoch when the method has an
// auxiliary loss, the graph it trains on) and gives the hyperparameters its
// authors published per dataset, or the protocol's defaults where they did
// not. Entries register themselves; `lwgcn train -model NAME` and the
// reproduction commands find them by name.
//
// One home per model, as PyG splits convolutions and models: a model's
// layer is in lwgcn/nn (<model>conv.go or the layer's name), the model in
// lwgcn/models/<model>.go (with its memory estimate), and its entry here,
// zoo/<model>.go: reference settings, training, whether runs train faster
// batched (AutoBatch), notes. Hyper is every entry's one hyperparameter
// type; Entry.Set sets one setting by name, as `lwgcn train`'s flags do.
//
// All baselines are trained with the same protocol as LW-GCN: full-batch
// Adam as PyTorch defines it, a fixed number of epochs (400 unless the entry
// says otherwise), and the epoch of best validation accuracy reported,
// except where an entry follows its official code (documented beside its
// settings, and part of its Hyper so that the runs' keys record it): the
// features its loader reads (RawFeaturesKey: SuperGAT, LINKX and ASGC read
// the raw Planetoid features; Entry.Prepare applies it and the entry's
// Graph), and the epoch it reports and when it stops (SelectKey,
// TiesLaterKey, PatienceKey: GCNII and FAGCN on Planetoid keep the lowest
// validation loss with patience, SuperGAT the later of equal epochs).
package zoo
