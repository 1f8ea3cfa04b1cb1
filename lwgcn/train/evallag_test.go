package train

import (
	"context"
	"slices"
	"testing"

	"github.com/gomlx/gomlx/core/tensors"

	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
)

// detModel declares (det) that its training pass is its evaluation pass.
type detModel struct {
	nn.Model
	det bool
}

func (m detModel) DeterministicPass() bool { return m.det }

// TestEvalLagGivesTheSameRun: with the evaluation lag (a DeterministicPass
// model: each epoch's evaluation taken from the next epoch's pass) a run
// gives exactly the run without it, epoch by epoch, with its best epoch's
// outputs and weights, and so does a run with checkpoints, interrupted and
// resumed.
func TestEvalLagGivesTheSameRun(t *testing.T) {
	g := plantedGraph(t, 60, 3, 5)
	m := models.MLP{Hidden: 8} // no dropout: deterministic passes
	cfg := Config{Epochs: 12}
	run := func(det bool, cfg Config) *RunResult {
		t.Helper()
		tr := quickTrainer(t, g, detModel{m, det}, cfg)
		if got := tr.step.eval != nil; got != det {
			t.Fatalf("evaluation lag %v, want %v", got, det)
		}
		rr, err := tr.RunOne(context.Background(), Run{Split: 1, Seed: 7})
		if err != nil {
			t.Fatal(err)
		}
		return rr
	}
	want := run(false, cfg)
	check := func(what string, got *RunResult, fromEpoch int) {
		t.Helper()
		if len(got.History) != len(want.History)-(fromEpoch-1) {
			t.Fatalf("%s: %d epochs, want %d", what, len(got.History), len(want.History)-(fromEpoch-1))
		}
		for i, es := range got.History {
			w := want.History[fromEpoch-1+i]
			if es.Epoch != w.Epoch || es.TrainLoss != w.TrainLoss || es.ValLoss != w.ValLoss ||
				es.TrainAcc != w.TrainAcc || es.ValAcc != w.ValAcc || es.TestAcc != w.TestAcc {
				t.Fatalf("%s: epoch %+v, without the lag %+v", what, es, w)
			}
		}
		if got.BestEpoch != want.BestEpoch || got.TestAcc != want.TestAcc || got.Epochs != want.Epochs {
			t.Fatalf("%s: best epoch %d (test %v, %d epochs), without the lag %d (%v, %d)", what, got.BestEpoch,
				got.TestAcc, got.Epochs, want.BestEpoch, want.TestAcc, want.Epochs)
		}
		if !slices.Equal(tensors.MustCopyFlatData[float32](got.LogProbs), tensors.MustCopyFlatData[float32](want.LogProbs)) {
			t.Fatalf("%s: best epoch's log-probabilities differ", what)
		}
		if len(want.Weights) == 0 {
			t.Fatal("no weights kept without the lag")
		}
		for path, w := range want.Weights { // (a resumed run also reads the checkpoint's step counter)
			if got.Weights[path] == nil {
				t.Fatalf("%s: best epoch's weight %s not kept", what, path)
			}
			if !slices.Equal(tensors.MustCopyFlatData[float32](got.Weights[path]), tensors.MustCopyFlatData[float32](w)) {
				t.Fatalf("%s: best epoch's weight %s differs", what, path)
			}
		}
	}
	if want.BestEpoch == want.Epochs || want.BestEpoch == 1 {
		t.Fatalf("best epoch %d of %d: the test needs one inside the run", want.BestEpoch, want.Epochs)
	}
	check("lagged", run(true, cfg), 1)

	cfg.CheckpointDir, cfg.CheckpointEvery = t.TempDir(), 4
	check("lagged, checkpoints", run(true, cfg), 1)
	cfg.CheckpointDir = t.TempDir()
	resumed := interruptAndResume(t, g, detModel{m, true}, cfg, 6)
	if !resumed.Resumed {
		t.Fatal("run did not resume from its checkpoint")
	}
	check("lagged, resumed at epoch 5", resumed, 1)
}
