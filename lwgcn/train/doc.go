// Package train trains lwgcn's models full-batch, the way the PyTorch code
// of the papers does, R runs (splits, seeds) per compiled computation:
// Adam exactly as torch.optim.Adam (coupled L2 weight decay), the epoch
// with the best validation accuracy kept (with its test accuracy, its
// outputs and a copy of its weights), exact repeatability from a seed,
// NaN/Inf and divergence detection (CheckLoss: a run stops naming the
// epoch), checkpoints and resume, and mean ± std over splits.
//
// # One step, a loop and its hooks
//
// A Trainer compiles, once per (model, graph, R), the step: the
// executables of an epoch (one per Phase; with the evaluation lag, see
// below, also the evaluation alone). An epoch's
// graph takes the graph's input tensors (features, structure, labels and
// the runs' split masks, [N, R]), runs the forward pass with dropout, the
// losses, the gradients and the Adam update, then the evaluation forward
// pass with the updated weights, and returns per run a small vector of
// statistics (losses, correct counts, a finite flag, extras) plus the
// evaluation log-probabilities [N, R·C]. The loop calls the step epoch
// after epoch and books each run's epoch through its hooks, in order:
// divergence, selection (the reported epoch, its outputs and weights, the
// patience stop), progress, checkpoints. Splits and seeds reuse the
// compiled step: weights are re-drawn on the host (nn.Reinitialize) and
// the optimizer state is reset.
//
// # Runs as an axis
//
// Config.BatchSize is R, the runs trained together (nn.Runs: every layer
// builds all runs' computations at once). R = 1 trains one run at a time;
// with R > 1 each run computes what it computes alone (the same float32
// operations up to the order of sums in batched products; tested for
// every model), and the per-operation overhead of an epoch is paid once
// per batch instead of once per run. Each model estimates a run's working
// memory (nn.Model.RunBytes) and BatchFromMemory fits as many runs as
// DefaultMemoryBudget allows (BatchSizeFor). Batching removes overhead,
// not per-run work: on sparse features most of an epoch is per-run work
// (the feature product gathers every non-zero's weight row for every run),
// so larger batches stop paying early: GCN on Chameleon at two threads took
// 11.9 ms per split-epoch with 10 runs per batch and 13.3 ms with 40
// (`lwgcn bench-batched -runs 10` and 40, one block each, 2026-11-27, an
// AMD EPYC of family 25 model 1, no AVX-512).
//
// # The evaluation lag
//
// A model whose training pass computes what its evaluation pass computes
// (DeterministicPass: no dropout, e.g. LW-GCN's dense f_C) skips the
// evaluation pass: the next epoch's forward pass, which sees the same
// weights, is the evaluation, so an epoch costs one forward pass fewer and
// the run is the same. A model whose passes differ only after a last
// dropout (SharedPass, e.g. LW-GCN's small f_C) gets the same lag: one pass
// up to the dropout gives both outputs. A custom epoch gets the lag through
// Config.Lagged (LaggedEpoch: "end the previous epoch, then step", and the
// end alone); LW-GCN's selection epoch uses it with f_C (both variants),
// whose phi step and prediction come from the next epoch's pass. At a
// run's first epoch no epoch is pending: the same executable runs with
// the end's updates switched off by an input (InputPending,
// Optimizer.StepWhen), so the first epoch compiles no graph of its own.
//
// # Building blocks for other training schemes
//
// Optimizer (PyTorch Adam with parameter groups, each with its own learning
// rate and weight decay, and Step callable several times in one graph),
// MaskedNLL, CorrectCount and Total are exported so that other schemes —
// e.g. LW-GCN's "T steps of θ on the training loss, then one step of φ on
// the validation loss with the outputs detached" — can be written as one
// compiled graph:
//
//	opt := train.NewOptimizer(
//		train.Group{Name: "theta", Adam: train.NewAdam(0.01, 5e-4)},
//		train.Group{Name: "phi", Adam: train.NewAdam(0.1, 0), Match: train.ScopePrefix("/phi")})
//	graphFn := func(scope *model.Scope, g *graph.Graph, params []*graph.Node) []*graph.Node {
//		nn.UseVariableParameters(scope, g)
//		for range T {
//			out := forward(scope.ResetVisited(), nodes, true) // uses phi's current value
//			opt.Step(scope, g, train.Total(train.MaskedNLL(out, labels, trainMask)), "theta")
//		}
//		out := graph.StopGradient(forward(scope.ResetVisited(), nodes, false))
//		opt.Step(scope, g, valLossOfPhi(out), "phi")
//		...
//	}
//
// Progress reporting goes through the Progress interface (Terminal and
// Silent here; lwgcn/notebook adapts it to notebooks).
package train
