package train

import (
	"context"
	"os"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/datasets"
	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
)

// loadCora loads Cora (public Planetoid split) with row-normalised
// features, or skips when the data cannot be had offline.
func loadCora(t *testing.T) *graph.Graph {
	t.Helper()
	var opts []datasets.Option
	if os.Getenv(datasets.EnvMirror) == "" {
		if st, err := os.Stat("/work/shared/datasets"); err == nil && st.IsDir() {
			opts = append(opts, datasets.WithMirror("/work/shared/datasets"))
		}
	}
	g, err := datasets.Load(context.Background(), "cora", opts...)
	if err != nil {
		t.Skipf("Cora unavailable: %v", err)
	}
	return g.RowNormalizeFeatures()
}

// TestCoraLiteratureAccuracy: GCN (Kipf & Welling: 81.5 %) and MLP (about
// 55-59 % in the literature) on Cora's public split, 5 seeds, 200 epochs,
// Adam lr 0.01, weight decay 5e-4, best validation epoch.
func TestCoraLiteratureAccuracy(t *testing.T) {
	if testing.Short() {
		t.Skip("trains 10 models")
	}
	g := loadCora(t)
	seeds := []int64{1, 2, 3, 4, 5}
	for _, tc := range []struct {
		m      nn.Model
		lo, hi float64
	}{
		{models.GCN{Hidden: 16, Dropout: 0.5}, 0.79, 0.835},
		{models.MLP{Hidden: 64, Dropout: 0.5, InputDropout: 0.5}, 0.53, 0.62},
	} {
		tr, err := New(testBackend(t), tc.m, g, Config{Epochs: 200, LR: 0.01, WeightDecay: 5e-4})
		if err != nil {
			t.Fatal(err)
		}
		res, err := tr.Run(context.Background(), Runs([]int{0}, seeds...))
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s", res)
		if res.TestAcc.Mean < tc.lo || res.TestAcc.Mean > tc.hi {
			t.Errorf("%s: mean test accuracy %.4f outside the literature range [%.3f, %.3f]", tc.m.Name(),
				res.TestAcc.Mean, tc.lo, tc.hi)
		}
	}
}
