// Package train trains lwgcn's models full-batch, the way the PyTorch code
// of the papers does: Adam exactly as torch.optim.Adam (coupled L2 weight
// decay), one compiled graph per epoch doing the training step and the
// evaluation forward pass, the epoch with the best validation accuracy kept
// (with its test accuracy, its outputs and a copy of its weights), exact
// repeatability from a seed, NaN/Inf and divergence detection (CheckLoss: a run
// stops naming the epoch), checkpoints and resume, and
// mean ± std over splits.
//
// # One call per epoch
//
// Trainer compiles, once per (model, graph), a graph that takes the
// graph's input tensors (features, structure, labels and the split's masks),
// runs the forward pass with dropout, the loss, the gradients and the Adam
// update, then the evaluation forward pass with the updated weights, and
// returns a small vector of statistics (losses, correct counts, a finite
// flag) plus the evaluation log-probabilities. Only the statistics are read
// on the host each epoch; the log-probabilities stay a device tensor that is
// kept only when validation accuracy improves. Splits and seeds reuse the
// compiled graph: weights are re-drawn on the host (nn.Reinitialize) and the
// optimizer state is reset.
//
// A model whose training pass computes what its evaluation pass computes
// (DeterministicPass: no dropout, e.g. LW-GCN's dense f_C) skips the
// evaluation pass: the next epoch's forward pass, which sees the same
// weights, is the evaluation, so an epoch costs one forward pass fewer and
// the run is the same. A custom epoch gets the same lag through
// Config.Lagged (LaggedEpoch: the step alone, "end the previous epoch, then
// step", and the end alone); LW-GCN's selection epoch uses it with the dense
// f_C, whose phi step and prediction come from the next epoch's pass.
//
// # Building blocks for other training schemes
//
// Optimizer (PyTorch Adam with parameter groups, each with its own learning
// rate and weight decay, and Step callable several times in one graph),
// MaskedNLL and CorrectCount are exported so that other schemes — e.g.
// LW-GCN's "T steps of θ on the training loss, then one step of φ on the
// validation loss with the outputs detached" — can be written as one
// compiled graph:
//
//	opt := train.NewOptimizer(
//		train.Group{Name: "theta", Adam: train.NewAdam(0.01, 5e-4)},
//		train.Group{Name: "phi", Adam: train.NewAdam(0.1, 0), Match: train.ScopePrefix("/phi")})
//	graphFn := func(scope *model.Scope, g *graph.Graph, params []*graph.Node) []*graph.Node {
//		nn.UseVariableParameters(scope, g)
//		for range T {
//			out := forward(scope.ResetVisited(), nodes, true) // uses phi's current value
//			opt.Step(scope, g, train.MaskedNLL(out, labels, trainMask), "theta")
//		}
//		out := graph.StopGradient(forward(scope.ResetVisited(), nodes, false))
//		opt.Step(scope, g, valLossOfPhi(out), "phi")
//		...
//	}
//
// Progress reporting goes through the Progress interface (Terminal and
// Silent here; lwgcn/notebook adapts it to notebooks).
package train
