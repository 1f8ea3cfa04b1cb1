package labelwise

import (
	"context"
	"runtime"
	"testing"

	"github.com/lwgcn/toolkit/internal/dstest"
	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/datasets"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

// TestRunDoesNotDependOnThreadCount: a seed gives the same LW-GCN run, epoch
// by epoch and bit for bit, at GOMAXPROCS 1 and 2 (no layout or product is
// chosen by the thread count; see sparse.DenseColumnMaxThreads). Texas:
// its bag-of-words features have hub columns.
func TestRunDoesNotDependOnThreadCount(t *testing.T) {
	b, info, err := backend.Shared()
	if err != nil {
		t.Fatal(err)
	}
	g := datasets.Standard(dstest.Load(t, "texas"))
	cfg := Defaults("texas")
	cfg.Epochs = 30
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var hist [][]train.EpochStats
	for _, procs := range []int{1, 2} {
		runtime.GOMAXPROCS(procs)
		r, err := NewRunner(b, info, g, cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := r.Run(context.Background(), 4, 15)
		if err != nil {
			t.Fatal(err)
		}
		hist = append(hist, res.Main.History)
		res.Finalize()
	}
	if len(hist[0]) != cfg.Epochs || len(hist[1]) != cfg.Epochs {
		t.Fatalf("%d and %d epochs, want %d", len(hist[0]), len(hist[1]), cfg.Epochs)
	}
	for i, es := range hist[0] {
		w := hist[1][i]
		if es.TrainLoss != w.TrainLoss || es.ValLoss != w.ValLoss || es.Extra[ExtraWeightFC] != w.Extra[ExtraWeightFC] {
			t.Fatalf("epoch %d at GOMAXPROCS=1: %+v; at 2: %+v", i+1, es, w)
		}
	}
}
