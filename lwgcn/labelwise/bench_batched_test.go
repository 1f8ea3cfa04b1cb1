package labelwise

import (
	"context"
	"testing"

	"github.com/lwgcn/toolkit/internal/dstest"
	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/datasets"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

// BenchmarkBatchedEpoch measures one full LW-GCN epoch of 10 runs (splits
// 0..9, or seeds 15..24 on a single split) trained in one computation
// (BatchedRunner), with the reference settings; ns/split-epoch is the time
// per run. BenchmarkEpoch is the same epoch one run at a time; `lwgcn
// bench-batched` records both in results/bench-batched.json.
func BenchmarkBatchedEpoch(b *testing.B) {
	for _, name := range []string{"texas", "chameleon", "squirrel", "cora"} {
		b.Run(name, func(b *testing.B) {
			g := datasets.Standard(dstest.Load(b, name))
			bk, info, err := backend.Shared()
			if err != nil {
				b.Fatal(err)
			}
			var runs []train.Run
			for s := range 10 {
				runs = append(runs, train.Run{Split: s % len(g.Splits()), Seed: int64(15 + s)})
			}
			cfg := Defaults(name)
			cfg.PseudoEpochs = 20 // f_P only provides pseudo-labels here
			r, err := NewBatchedRunner(bk, info, g, cfg, len(runs), nil)
			if err != nil {
				b.Fatal(err)
			}
			er, err := r.PrepareEpochs(context.Background(), runs)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := er.Epoch(); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				if _, err := er.Epoch(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(runs)), "ns/split-epoch")
		})
	}
}
