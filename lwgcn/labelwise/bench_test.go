package labelwise

import (
	"context"
	"testing"

	"github.com/lwgcn/toolkit/internal/dstest"
	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/datasets"
)

// BenchmarkEpoch measures one full LW-GCN epoch (both branches forward,
// backward and update, the evaluation forward and the selection step) on
// the real datasets with the reference settings. `lwgcn bench` records the
// same measurement in results/bench-lwgcn.json.
func BenchmarkEpoch(b *testing.B) {
	for _, name := range []string{"texas", "chameleon", "squirrel", "cora"} {
		b.Run(name, func(b *testing.B) {
			g := datasets.Standard(dstest.Load(b, name))
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
			er, err := r.PrepareEpochs(context.Background())
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
		})
	}
}
