package batched

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
// dropout 0.5) on the real datasets: "batched" trains 10 splits per call
// and reports the time per split-epoch (ns/op divided by 10 as
// ns/split-epoch), "alone" one split per call. `lwgcn bench -batched`
// records the same in results/bench-batched.json.
func BenchmarkSplitEpoch(b *testing.B) {
	for _, name := range []string{"texas", "chameleon", "squirrel", "cora"} {
		g := datasets.Standard(dstest.Load(b, name))
		m := models.GCN{Hidden: 64, Dropout: 0.5}
		bk, _ := backend.MustShared()
		for _, r := range []int{1, 3, 10} {
			b.Run(fmt.Sprintf("%s/batched%d", name, r), func(b *testing.B) {
				var runs []train.Run
				for s := range r {
					runs = append(runs, train.Run{Split: s % len(g.Splits()), Seed: int64(15 + s)})
				}
				t, err := New(bk, m, g, Config{Epochs: 1, LR: 0.01, WeightDecay: 5e-4, BatchSize: len(runs)})
				if err != nil {
					b.Fatal(err)
				}
				er, err := t.PrepareBatch(runs)
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
		b.Run(name+"/alone", func(b *testing.B) {
			t, err := train.New(bk, m, g, train.Config{Epochs: 1, LR: 0.01, WeightDecay: 5e-4})
			if err != nil {
				b.Fatal(err)
			}
			er, err := t.PrepareRun(train.Run{Split: 0, Seed: 15})
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
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/split-epoch")
		})
	}
}
