// Package bench is lwgcn's speed benchmark suite: one training epoch
// (forward, backward, Adam update and the evaluation forward pass, as
// train.Trainer runs it) of GCN, GCNII (2 and 64 layers), MLP and a
// two-layer label-wise network, on random graphs with the sizes of Texas,
// Chameleon, Squirrel, Cora and arxiv-year, with GoMLX fusion on and off.
// Suite runs them through testing.Benchmark and reports ms/epoch and peak
// memory; `lwgcn bench` writes the report to results/bench.json.
// BenchmarkPrimitives times the backend's primitive ops per element (the
// rates docs/SPEED.md derives its lower bounds on an epoch from).
package bench
