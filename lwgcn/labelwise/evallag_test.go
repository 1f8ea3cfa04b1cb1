package labelwise

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/gomlx/gomlx/core/tensors"

	"github.com/lwgcn/toolkit/internal/dstest"
	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/datasets"
	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

// hidePass hides a model's DeterministicPass and SharedPass (the trainer
// evaluates after every step).
type hidePass struct{ nn.Model }

// TestFCEvalLagGivesTheSameRun: f_C trains with the evaluation lag of
// package train (one forward pass per epoch: the dense variant's
// DeterministicPass, the small variant's SharedPass up to its classifier's
// dropout) and gives exactly what it gives with an evaluation pass after
// every step.
func TestFCEvalLagGivesTheSameRun(t *testing.T) {
	if !(LabelWiseGCN{Variant: Dense}).DeterministicPass() || (LabelWiseGCN{Variant: Small, Dropout: 0.5}).DeterministicPass() {
		t.Fatal("DeterministicPass: want the dense variant only")
	}
	b, info, err := backend.Shared()
	if err != nil {
		t.Fatal(err)
	}
	g := datasets.Standard(dstest.Load(t, "chameleon"))
	for _, variant := range []Variant{Dense, Small} {
		cfg := Defaults("chameleon")
		fc := LabelWiseGCN{Variant: variant, Layers: cfg.Layers, Hidden: cfg.Hidden, Dropout: 0.5}
		var hist [][]train.EpochStats
		var best []int
		for _, m := range []nn.Model{fc, hidePass{fc}} {
			r := &Runner{cfg: cfg, g: g, mg: modelGraph(g, cfg.Direction), labels: map[train.Run][]int32{{Split: 0, Seed: 15}: g.Labels()}}
			tr, err := train.New(b, m, r.mg, train.Config{Epochs: 12, LR: cfg.LR, WeightDecay: cfg.WeightDecay,
				Backend: info, RunInputs: r.addLabelWise})
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
				t.Fatalf("variant %v: epoch %d with the lag %+v, without %+v", variant, i+1, es, w)
			}
		}
		if len(hist[0]) != 12 || best[0] != best[1] {
			t.Fatalf("variant %v: %d epochs, best epochs %v", variant, len(hist[0]), best)
		}
	}
}

// TestSelectionEvalLagGivesTheSameRun: LW-GCN with a dense f_C trains with
// the selection epoch's evaluation lag (Selection.Lagged: an epoch's phi
// step and prediction from the next epoch's pass of f_C) and gives exactly
// the run of Selection.Epoch: every epoch's losses, accuracies and f_C
// weight, the best epoch's prediction and weights (phi included, read after
// the call that steps it), with and without checkpoints, and interrupted
// and resumed from its last checkpoint; with an f_G
// without dropout (its training pass ends the epoch too) and with dropout.
func TestSelectionEvalLagGivesTheSameRun(t *testing.T) {
	_, info, err := backend.Shared()
	if err != nil {
		t.Fatal(err)
	}
	g := datasets.Standard(dstest.Load(t, "chameleon"))
	cfg := Defaults("chameleon")
	cfg.Hidden, cfg.LR = 32, 0.03 // a best epoch inside a short run
	r := &Runner{cfg: cfg, g: g, mg: modelGraph(g, cfg.Direction), labels: map[train.Run][]int32{{Split: 0, Seed: 15}: g.Labels()}}
	adj, err := OfficialAdjacency(r.mg)
	if err != nil {
		t.Fatal(err)
	}
	fc := LabelWiseGCN{Variant: cfg.Variant, Layers: cfg.Layers, Hidden: cfg.Hidden, Dropout: cfg.Dropout}
	fg, err := cfg.backbone()
	if err != nil {
		t.Fatal(err)
	}
	if (&Selection{FC: hidePass{fc}, FG: fg}).Lagged() != nil {
		t.Fatal("Lagged: want it only for an f_C with a shared pass")
	}
	// f_G as in the reference settings (no dropout: its training pass ends
	// the epoch too), and with dropout (an evaluation pass of its own); the
	// small f_C (dropout before its classifier) with f_G's dropout.
	small := LabelWiseGCN{Variant: Small, Layers: cfg.Layers, Hidden: cfg.Hidden, Dropout: 0.5}
	for _, c := range []struct {
		fc      LabelWiseGCN
		dropout float64
	}{{fc, cfg.Dropout}, {fc, 0.5}, {small, 0.5}} {
		gcnii := fg.(models.GCNII)
		gcnii.Dropout = c.dropout
		sel := &Selection{FC: c.fc, FG: gcnii, Adj: adj, InnerSteps: cfg.InnerSteps}
		t.Run(fmt.Sprintf("f_C %v, f_G dropout %v", c.fc.Variant, c.dropout), func(t *testing.T) { checkSelectionLag(t, sel, r, cfg, info) })
	}
}

// checkSelectionLag compares sel's runs with and without the lag.
func checkSelectionLag(t *testing.T, sel *Selection, r *Runner, cfg Config, info backend.Info) {
	b, _, err := backend.Shared()
	if err != nil {
		t.Fatal(err)
	}
	// run trains split 0; with stopAt > 0 it is interrupted after that
	// epoch's statistics and resumed from its last checkpoint.
	run := func(lagged bool, ckDir string, stopAt int) *train.RunResult {
		t.Helper()
		tc := train.Config{Epochs: 80, Backend: info, RunInputs: r.addLabelWise, Optimizer: cfg.optimizer(),
			CheckpointDir: ckDir}
		if ckDir != "" {
			tc.CheckpointEvery = 25
		}
		if lagged {
			tc.Lagged = sel.Lagged()
		} else {
			tc.Epoch = sel.Epoch
		}
		if stopAt > 0 {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			tc.Progress = cancelAt{epoch: stopAt, cancel: cancel}
			tr, err := train.New(b, sel, r.mg, tc)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := tr.RunOne(ctx, train.Run{Split: 0, Seed: 15}); !errors.Is(err, context.Canceled) {
				t.Fatalf("interrupted run: err = %v", err)
			}
			tc.Progress = nil
		}
		tr, err := train.New(b, sel, r.mg, tc)
		if err != nil {
			t.Fatal(err)
		}
		rr, err := tr.RunOne(context.Background(), train.Run{Split: 0, Seed: 15})
		if err != nil {
			t.Fatal(err)
		}
		if rr.Resumed != (stopAt > 0) {
			t.Fatalf("resumed %v, want %v", rr.Resumed, stopAt > 0)
		}
		return rr
	}
	want := run(false, "", 0)
	defer want.Finalize()
	if want.BestEpoch == 1 || want.BestEpoch == want.Epochs {
		t.Fatalf("best epoch %d of %d: the test needs one inside the run", want.BestEpoch, want.Epochs)
	}
	if want.Weights["/phi/phi"] == nil {
		t.Fatalf("no phi among the kept weights %v", want.WeightNames())
	}
	for _, tc := range []struct {
		ck     string
		stopAt int
	}{{"", 0}, {t.TempDir(), 0}, {t.TempDir(), 40}} {
		ck := fmt.Sprintf("%q, stopped at %d", tc.ck, tc.stopAt)
		got := run(true, tc.ck, tc.stopAt)
		if len(got.History) != len(want.History) { // (a resumed run keeps its checkpoint's history)
			t.Fatalf("checkpoints %s: %d epochs, want %d", ck, len(got.History), len(want.History))
		}
		for i, es := range got.History {
			w := want.History[i]
			if es.Epoch != w.Epoch || es.TrainLoss != w.TrainLoss || es.ValLoss != w.ValLoss || es.ValAcc != w.ValAcc ||
				es.TestAcc != w.TestAcc || es.Extra[ExtraWeightFC] != w.Extra[ExtraWeightFC] {
				t.Fatalf("checkpoints %s: epoch %d with the lag %+v, without %+v", ck, i+1, es, w)
			}
		}
		if got.BestEpoch != want.BestEpoch || !slices.Equal(tensors.MustCopyFlatData[float32](got.LogProbs),
			tensors.MustCopyFlatData[float32](want.LogProbs)) {
			t.Fatalf("checkpoints %s: best epoch %d, without the lag %d (or its prediction differs)", ck, got.BestEpoch, want.BestEpoch)
		}
		if !slices.Equal(got.WeightNames(), want.WeightNames()) {
			t.Fatalf("checkpoints %s: weights %v, want %v", ck, got.WeightNames(), want.WeightNames())
		}
		for path, w := range want.Weights {
			if !slices.Equal(tensors.MustCopyFlatData[float32](got.Weights[path]), tensors.MustCopyFlatData[float32](w)) {
				t.Fatalf("checkpoints %s: best epoch's weight %s differs", ck, path)
			}
		}
		got.Finalize()
	}
}

// cancelAt cancels a run once it has reported an epoch.
type cancelAt struct {
	train.Silent
	epoch  int
	cancel func()
}

func (c cancelAt) EndEpoch(s train.EpochStats) {
	if s.Epoch == c.epoch {
		c.cancel()
	}
}
