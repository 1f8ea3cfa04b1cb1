// Package batched trains R independent runs of one model on one graph (the
// protocol's splits and seeds) in a single compiled computation, so that
// the per-operation overhead of an epoch is paid once per batch instead of
// once per run.
//
// # Layout
//
// Every weight gets the runs as an extra axis. A first layer on the node
// features keeps its runs side by side in the columns, W [F, R·H] (run r
// owns columns r·H … (r+1)·H-1), so that the features are multiplied once
// for all runs and the GCN aggregation Â·(XW) runs once over [N, R·H]
// (project first, aggregate once). Deeper weights are [R, in, out] and are
// applied with one product batched over the runs; biases are [R·out].
// Masks are [N, R], the output [N, R, C].
//
// # Runs stay independent
//
// The loss is the sum of the runs' losses, so each run's gradient is its
// own loss's gradient. Adam (train.Optimizer, unchanged) is elementwise
// with scalar hyperparameters shared by all runs, so its moments and its
// weight decay separate by run too. Each run has its own random state,
// seeded as the run alone seeds the store's (SetRNGStateFromSeed), and
// draws its dropout masks in the same shapes and order as the unbatched
// model; each run's weights start from nn.InitialValues with its seed and
// the unbatched variable's path. A run in a batch therefore computes what
// the same run alone (train.Trainer) computes, up to float32 rounding of
// products summed in a different order: the tests check losses, final
// weights, best epochs and accuracies against runs alone.
//
// # Models
//
// Batched models exist here for MLP, GCN (any depth), GCNII and GAT; For
// converts an nn.Model, and says which models have no batched form yet.
// Models defined elsewhere plug in through Batchable, RunInputs (per-run
// inputs such as LW-GCN's pseudo-labels), Epocher (their own epoch) and
// MemoryEstimator: package labelwise batches f_C (LW-GCN\G) and LW-GCN with
// selection that way (labelwise.BatchedRunner). The other baselines are
// trained one run at a time. The unbatched trainer (package train) stays
// the reference and the debugging path.
//
// # Batch size
//
// Config.BatchSize forces the runs per computation; 0 chooses them from
// memory: RunBytes estimates one run's working memory, BatchSizeFor fits
// as many as Config.MemoryBudget (DefaultMemoryBudget, 6 GiB) allows, up to
// MaxBatchSize, and a run that alone exceeds the budget is refused with
// its estimate rather than silently batched.
//
// # What batching does not buy
//
// Batching removes per-operation overhead, not per-run work. On sparse
// features most of an epoch is per-run work: the feature product gathers
// every non-zero's weight row for every run (nnz x R·H values), and the
// pure-Go backend materialises those rows before summing them. Larger
// batches therefore stop paying early: GCN on Chameleon at two threads
// took 11.9 ms per split-epoch with 10 runs per batch and 13.3 ms with 40
// (lwgcn bench-batched -runs 10 and 40, one block each, 2026-11-27, an AMD
// EPYC of family 25 model 1, no AVX-512).
// For the same reason the homophily sweep batches each point's splits and
// does not train its points together as one disjoint-union graph (the
// points share the features, so that union would add exactly this per-run
// work).
package batched
