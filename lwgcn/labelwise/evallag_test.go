package labelwise

import (
	"context"
	"testing"

	"github.com/lwgcn/toolkit/internal/dstest"
	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/datasets"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

// hidePass hides a model's DeterministicPass (the trainer evaluates after
// every step).
type hidePass struct{ nn.Model }

// TestDenseFCEvalLagGivesTheSameRun: the dense f_C (no dropout) trains with
// the evaluation lag of package train (one forward pass per epoch) and gives
// exactly what it gives with an evaluation pass after every step; the small
// variant (dropout) does not use the lag.
func TestDenseFCEvalLagGivesTheSameRun(t *testing.T) {
	if !(LabelWiseGCN{Variant: Dense}).DeterministicPass() || (LabelWiseGCN{Variant: Small, Dropout: 0.5}).DeterministicPass() {
		t.Fatal("DeterministicPass: want the dense variant only")
	}
	b, info, err := backend.Shared()
	if err != nil {
		t.Fatal(err)
	}
	g := datasets.Standard(dstest.Load(t, "chameleon"))
	cfg := Defaults("chameleon")
	fc := LabelWiseGCN{Variant: cfg.Variant, Layers: cfg.Layers, Hidden: cfg.Hidden, Dropout: cfg.Dropout}
	var hist [][]train.EpochStats
	var best []int
	for _, m := range []nn.Model{fc, hidePass{fc}} {
		r := &Runner{cfg: cfg, g: g, mg: modelGraph(g, cfg.Direction), labels: g.Labels()}
		tr, err := train.New(b, m, r.mg, train.Config{Epochs: 12, LR: cfg.LR, WeightDecay: cfg.WeightDecay,
			Backend: info, PrepareRun: r.addLabelWise})
		if err != nil {
			t.Fatal(err)
		}
		rr, err := tr.RunOne(context.Background(), train.Run{Split: 0, Seed: 15})
		if err != nil {
			t.Fatal(err)
		}
		hist, best = append(hist, rr.History), append(best, rr.BestEpoch)
		rr.Finalize()
	}
	for i, es := range hist[0] {
		w := hist[1][i]
		if es.TrainLoss != w.TrainLoss || es.ValLoss != w.ValLoss || es.ValAcc != w.ValAcc || es.TestAcc != w.TestAcc {
			t.Fatalf("epoch %d with the lag %+v, without %+v", i+1, es, w)
		}
	}
	if len(hist[0]) != 12 || best[0] != best[1] {
		t.Fatalf("%d epochs, best epochs %v", len(hist[0]), best)
	}
}
