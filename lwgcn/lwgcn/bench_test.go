package lwgcn

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/lwgcn/toolkit/internal/dstest"
	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/datasets"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

// BenchmarkEpoch measures one full LW-GCN epoch (both branches forward,
// backward and update, the evaluation forward and the selection step) on
// the real datasets with the reference settings.
func BenchmarkEpoch(b *testing.B) {
	for _, name := range []string{"texas", "chameleon", "squirrel", "cora"} {
		b.Run(name, func(b *testing.B) {
			g := datasets.Standard(dstest.Load(b, name))
			if v := os.Getenv("LWGCN_SPARSE_THRESHOLD"); v != "" {
				fmt.Sscan(v, &nn.SparseDensityThreshold)
			}
			bk, info, err := backend.Shared()
			if err != nil {
				b.Fatal(err)
			}
			cfg := Defaults(name)
			cfg.Epochs = 1
			r, err := NewRunner(bk, info, g, cfg, nil)
			if err != nil {
				b.Fatal(err)
			}
			pr, err := r.pseudo.RunOne(context.Background(), train.Run{Split: 0, Seed: DefaultSeed})
			if err != nil {
				b.Fatal(err)
			}
			r.labels, _ = r.argmaxLabels(pr.LogProbs, g.Splits()[0])
			er, err := r.main.PrepareRun(train.Run{Split: 0, Seed: DefaultSeed})
			if err != nil {
				b.Fatal(err)
			}
			er.Epoch() // warm up
			b.ResetTimer()
			for range b.N {
				if _, err := er.Epoch(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
