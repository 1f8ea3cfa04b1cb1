package train

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gomlx/gomlx/core/tensors"

	"github.com/lwgcn/toolkit/lwgcn/models"
)

// TestSelectorRules: each rule's reported epoch and stopping epoch on a
// hand-made sequence of validation accuracies and losses.
func TestSelectorRules(t *testing.T) {
	acc := []float64{0.1, 0.4, 0.4, 0.2, 0.4, 0.3}
	loss := []float64{0.9, 1.2, 1.8, 3.2, 3.0, 0.9}
	cases := []struct {
		name       string
		s          Selection
		best, stop int // epochs from 1; stop 0: never
	}{
		{"accuracy, first on ties", Selection{}, 2, 0},
		{"accuracy, later on ties", Selection{LaterOnTies: true}, 5, 0},
		{"loss, first on ties", Selection{By: ByValLoss}, 1, 0},
		{"loss, later on ties", Selection{By: ByValLoss, LaterOnTies: true}, 6, 0},
		// GCNII: bad_counter reaches 2 at epoch 4 (epochs 3 and 4 bring no new best).
		{"accuracy, patience 2", Selection{Patience: 2}, 2, 4},
		{"loss, patience 3", Selection{By: ByValLoss, Patience: 3}, 1, 4},
		// FAGCN: only epoch 1 lowers the loss and raises the accuracy together.
		{"loss, patience 2 on both", Selection{By: ByValLoss, Patience: 2, PatienceOnBoth: true}, 1, 3},
	}
	for _, c := range cases {
		x := c.s.NewSelector()
		best, stop := 0, 0
		for e := range acc {
			sel, st := x.Observe(EpochStats{Epoch: e + 1, ValAcc: acc[e], ValLoss: loss[e]})
			if sel {
				best = e + 1
			}
			if st {
				stop = e + 1
				break
			}
		}
		if best != c.best || stop != c.stop {
			t.Errorf("%s: best epoch %d, stop %d; want %d, %d", c.name, best, stop, c.best, c.stop)
		}
	}
}

// TestTrainerSelection: the trainer reports the selected epoch and stops at
// the patience, with the scripted model (validation accuracy count/10 and
// loss epoch·(10-count)/10 at each epoch).
func TestTrainerSelection(t *testing.T) {
	g := plantedGraph(t, 40, 2, 2)
	s := &scriptedModel{script: []int{1, 4, 4, 2, 4, 3}, split: g.Splits()[0], n: 40, c: 2}
	run := func(sel Selection) *RunResult {
		tr := quickTrainer(t, g, s, Config{Epochs: len(s.script), Epoch: s.epoch, Selection: sel})
		rr, err := tr.RunOne(context.Background(), Run{Split: 0, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		return rr
	}
	if rr := run(Selection{LaterOnTies: true}); rr.BestEpoch != 5 || rr.Epochs != 6 {
		t.Errorf("later on ties: best epoch %d of %d, want 5 of 6", rr.BestEpoch, rr.Epochs)
	}
	rr := run(Selection{By: ByValLoss})
	// Losses 0.9, 1.2, 1.8, 3.2, 3.0, 4.2: epoch 1.
	if rr.BestEpoch != 1 || math.Abs(rr.ValLoss-0.9) > 1e-9 || rr.ValAcc != 0.1 {
		t.Errorf("loss: best epoch %d (val loss %v, acc %v), want 1 (0.9, 0.1)", rr.BestEpoch, rr.ValLoss, rr.ValAcc)
	}
	rr = run(Selection{Patience: 2})
	if rr.BestEpoch != 2 || rr.Epochs != 4 || len(rr.History) != 4 {
		t.Errorf("patience 2: best epoch %d, %d epochs run (%d in history), want 2, 4", rr.BestEpoch, rr.Epochs, len(rr.History))
	}
	if _, err := New(testBackend(t), s, g, Config{Epochs: 3, Epoch: s.epoch, LR: 0.01,
		Selection: Selection{Patience: -1}}); err == nil || !strings.Contains(err.Error(), "patience must be >= 0") {
		t.Errorf("negative patience: error %v", err)
	}
	g3 := plantedGraph(t, 30, 3, 2)
	if _, err := New(testBackend(t), s, g3, Config{Epochs: 3, Epoch: s.epoch, LR: 0.01,
		Selection: Selection{By: ByValROCAUC}}); err == nil || !strings.Contains(err.Error(), "two-class graph") {
		t.Errorf("ROC-AUC on 3 classes: error %v", err)
	}
}

// TestROCAUC against hand-computed areas (ties count one half).
func TestROCAUC(t *testing.T) {
	cases := []struct {
		scores []float64
		pos    []bool
		want   float64
	}{
		{[]float64{0.1, 0.4, 0.35, 0.8}, []bool{false, false, true, true}, 0.75}, // scikit-learn's example
		{[]float64{1, 2, 3}, []bool{false, true, true}, 1},
		{[]float64{3, 2, 1}, []bool{false, true, true}, 0},
		{[]float64{1, 1, 1, 1}, []bool{false, true, false, true}, 0.5},
		// Pairs (pos, neg): (2,1) win, (2,2) half, (2,3) loss, (4,*) 3 wins: 4.5/6.
		{[]float64{1, 2, 3, 2, 4}, []bool{false, false, false, true, true}, 4.5 / 6},
	}
	for _, c := range cases {
		if got := ROCAUC(c.scores, c.pos); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("ROCAUC(%v, %v) = %v, want %v", c.scores, c.pos, got, c.want)
		}
	}
	if got := ROCAUC([]float64{1, 2}, []bool{true, true}); !math.IsNaN(got) {
		t.Errorf("one class only: %v, want NaN", got)
	}
}

// TestPatienceWithEvalLag: a run stopped by its patience is the same with and
// without the evaluation lag (whose last call has already stepped into the
// epoch after the stop), epoch by epoch, best epoch and outputs included;
// and it is the full run cut where the selector stops it.
func TestPatienceWithEvalLag(t *testing.T) {
	g := plantedGraph(t, 60, 3, 5)
	m := models.MLP{Hidden: 8} // no dropout: deterministic passes
	run := func(det bool, sel Selection) *RunResult {
		t.Helper()
		tr := quickTrainer(t, g, detModel{m, det}, Config{Epochs: 60, LR: 0.05, Selection: sel})
		rr, err := tr.RunOne(context.Background(), Run{Split: 1, Seed: 7})
		if err != nil {
			t.Fatal(err)
		}
		return rr
	}
	sel := Selection{By: ByValLoss, Patience: 4}
	full := run(false, Selection{By: ByValLoss})
	x, stop := sel.NewSelector(), 0
	for _, es := range full.History {
		if _, st := x.Observe(es); st {
			stop = es.Epoch
			break
		}
	}
	if stop == 0 || stop >= 60 {
		t.Fatalf("the full run's validation loss never stalls for 4 epochs (stop %d): make the test's run overfit", stop)
	}
	for _, det := range []bool{false, true} {
		rr := run(det, sel)
		if rr.Epochs != stop || len(rr.History) != stop {
			t.Fatalf("lag %v: %d epochs (%d in history), want %d", det, rr.Epochs, len(rr.History), stop)
		}
		for i, es := range rr.History {
			if w := full.History[i]; es.ValLoss != w.ValLoss || es.TestAcc != w.TestAcc {
				t.Fatalf("lag %v: epoch %d %+v, full run %+v", det, i+1, es, w)
			}
		}
		if rr.BestEpoch > stop || rr.ValLoss != full.History[rr.BestEpoch-1].ValLoss {
			t.Fatalf("lag %v: best epoch %d (val loss %v)", det, rr.BestEpoch, rr.ValLoss)
		}
		for _, es := range rr.History {
			if es.ValLoss < rr.ValLoss {
				t.Fatalf("lag %v: epoch %d has a lower validation loss %v than the selected %v", det, es.Epoch, es.ValLoss, rr.ValLoss)
			}
		}
		probs := tensors.MustCopyFlatData[float32](rr.LogProbs)
		if d := run(!det, sel); !slices.Equal(probs, tensors.MustCopyFlatData[float32](d.LogProbs)) {
			t.Fatalf("lag %v: best-epoch outputs differ from the other path's", det)
		}
	}
}
