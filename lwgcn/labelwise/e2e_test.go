package labelwise

import (
	"context"
	"testing"

	"github.com/lwgcn/toolkit/internal/dstest"
	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/datasets"
	"github.com/lwgcn/toolkit/lwgcn/results"
)

// A quick end-to-end run on Texas: few epochs, two splits; accuracy must be
// well above the majority class (55 %).
func TestTexasEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	g := datasets.Standard(dstest.Load(t, "texas"))
	b, info, err := backend.Shared()
	if err != nil {
		t.Fatal(err)
	}
	cfg := Defaults("texas")
	cfg.Epochs = 60
	r, err := NewRunner(b, info, g, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	var accs []float64
	for split := range 2 {
		res, err := r.Run(context.Background(), split, DefaultSeed)
		if err != nil {
			t.Fatal(err)
		}
		f := res.Final()
		t.Logf("split %d: test %.3f val %.3f weight_fc %.3f pseudo acc %.3f f_P test %.3f, %.1f ms/epoch",
			split, f.TestAcc, f.ValAcc, f.WeightFC, f.PseudoAcc, res.PseudoTestAcc, f.MsPerEpoch)
		accs = append(accs, f.TestAcc)
		if !(f.WeightFC > 0 && f.WeightFC < 1) {
			t.Errorf("selection weight %v outside (0, 1)", f.WeightFC)
		}
		res.Finalize()
	}
	if m := results.MeanStd(accs).Mean; m < 0.65 {
		t.Errorf("mean test accuracy %.3f, want > 0.65", m)
	}
}
