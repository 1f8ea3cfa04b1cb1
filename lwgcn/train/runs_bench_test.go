package train_test

import (
	"fmt"
	"testing"

	"github.com/lwgcn/toolkit/internal/dstest"
	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/datasets"
	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

// BenchmarkSplitEpoch measures one epoch of the reference GCN (64 hidden,
// dropout 0.5) on the real datasets, R = 1, 3 and 10 runs per call, and
// reports the time per split-epoch (ns/op divided by R as ns/split-epoch).
// `lwgcn bench -batched` records the same in results/bench-batched.json.
func BenchmarkSplitEpoch(b *testing.B) {
	for _, name := range []string{"texas", "chameleon", "squirrel", "cora"} {
		g := datasets.Standard(dstest.Load(b, name))
		m := models.GCN{Hidden: 64, Dropout: 0.5}
		bk, _ := backend.MustShared()
		for _, r := range []int{1, 3, 10} {
			b.Run(fmt.Sprintf("%s/runs%d", name, r), func(b *testing.B) {
				var runs []train.Run
				for s := range r {
					runs = append(runs, train.Run{Split: s % len(g.Splits()), Seed: int64(15 + s)})
				}
				t, err := train.New(bk, m, g, train.Config{Epochs: 1, LR: 0.01, WeightDecay: 5e-4, BatchSize: len(runs)})
				if err != nil {
					b.Fatal(err)
				}
				er, err := t.PrepareRuns(runs...)
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
}
