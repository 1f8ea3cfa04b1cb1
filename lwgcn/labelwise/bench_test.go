package labelwise

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/internal/dstest"
	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/datasets"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

// BenchmarkEpoch measures one full LW-GCN epoch (both branches forward,
// backward and update, the evaluation forward and the selection step) on
// the real datasets with the reference settings, for R = 1 and 10 runs per
// computation (splits 0..9, or seeds 15..24 on a single split);
// ns/split-epoch is the time per run. `lwgcn bench` records the epoch of
// one run in results/bench-lwgcn.json, `lwgcn bench-batched` both in
// results/bench-batched.json.
//
// The "-hubs-first" cases renumber the graph's nodes by decreasing degree
// (graph.DegreeOrder) first: the same epoch with the hubs' rows together,
// to measure what a cache-friendly node order gives the sparse products.
func BenchmarkEpoch(b *testing.B) {
	for _, name := range []string{"texas", "chameleon", "squirrel", "cora", "squirrel-hubs-first", "chameleon-hubs-first"} {
		for _, r := range []int{1, 10} {
			b.Run(fmt.Sprintf("%s/runs%d", name, r), func(b *testing.B) {
				dataset, hubsFirst := strings.CutSuffix(name, "-hubs-first")
				g := datasets.Standard(dstest.Load(b, dataset))
				if hubsFirst {
					var err error
					if g, err = g.Renumbered(g.DegreeOrder()); err != nil {
						b.Fatal(err)
					}
				}
				bk, info, err := backend.Shared()
				if err != nil {
					b.Fatal(err)
				}
				var runs []train.Run
				for s := range r {
					runs = append(runs, train.Run{Split: s % len(g.Splits()), Seed: int64(15 + s)})
				}
				cfg := Defaults(dataset)
				cfg.PseudoEpochs = 20 // f_P only provides pseudo-labels here
				rn, err := NewRunner(bk, info, g, cfg, nil, WithBatch(r))
				if err != nil {
					b.Fatal(err)
				}
				er, err := rn.PrepareEpochs(context.Background(), runs...)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := er.Epoch(); err != nil { // warm-up (first call compiles nothing, allocates buffers)
					b.Fatal(err)
				}
				b.ResetTimer()
				for range b.N {
					if _, err := er.Epoch(); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*r), "ns/split-epoch")
			})
		}
	}
}
