package parity

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/gomlx/compute"

	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/labelwise"
	"github.com/lwgcn/toolkit/lwgcn/train"
	"github.com/lwgcn/toolkit/lwgcn/zoo"
)

// trainingEpochs is short: enough Adam steps for a wrong gradient or update
// to show, few enough that float32 rounding does not compound past the
// tolerance.
const trainingEpochs = 4

// compareRuns compares two backends' runs epoch by epoch (training and
// validation loss, extras such as LW-GCN's selection weight) and their
// best-epoch predictions.
func compareRuns(t *testing.T, got, want *train.RunResult) {
	t.Helper()
	if len(got.History) != len(want.History) {
		t.Fatalf("%d epochs on XLA, %d on Go", len(got.History), len(want.History))
	}
	for i := range want.History {
		g, w := got.History[i], want.History[i]
		check(t, "epoch "+itoa(w.Epoch)+" training loss", []float64{g.TrainLoss}, []float64{w.TrainLoss}, TrainingTolerance, 0)
		check(t, "epoch "+itoa(w.Epoch)+" validation loss", []float64{g.ValLoss}, []float64{w.ValLoss}, TrainingTolerance, 0)
		for k, v := range w.Extra {
			check(t, "epoch "+itoa(w.Epoch)+" "+k, []float64{g.Extra[k]}, []float64{v}, TrainingTolerance, 0)
		}
	}
	if got.BestEpoch != want.BestEpoch {
		t.Fatalf("best epoch %d on XLA, %d on Go", got.BestEpoch, want.BestEpoch)
	}
	check(t, "best-epoch log-probabilities", toFloat64(t, got.LogProbs), toFloat64(t, want.LogProbs), TrainingTolerance, 0)
}

func itoa(i int) string { return string(rune('0'+i/10)) + string(rune('0'+i%10)) }

// zooTraining are the zoo models whose training differs from the standard
// epoch (Adam on the NLL, whose parts every model's gradient check covers):
// their own epochs (auxiliary losses, AdamW, SGD, exact L2 terms, MLP
// pre-training) and optimizer groups. SuperGAT is left out: its epoch
// samples negative edges with the backend's random generator, which differs
// between backends by design (its forward pass and gradients are compared
// in TestModelsForwardAndGradients).
var zooTraining = []string{"asgc", "bmgcn", "glognn++", "gprgnn", "linkx", "mixhop", "simpgcn"}

// TestZooTraining trains those models a few epochs with every dropout off
// on both backends.
func TestZooTraining(t *testing.T) {
	goB, xlaB := backends(t)
	g := tinyGraph(t, 40, 12, 3, rand.New(rand.NewPCG(3, 4)))
	for _, name := range zooTraining {
		t.Run(name, func(t *testing.T) {
			e, ok := zoo.Lookup(name)
			if !ok {
				t.Fatalf("zoo has no %q", name)
			}
			h := e.Defaults("texas")
			h.Dropout, h.Epochs = 0, trainingEpochs
			for _, k := range []string{"dprate", "input_dropout", "mlp_dropout"} { // GPRGNN's, MixHop's, BM-GCN's
				if _, ok := h.Extra[k]; ok {
					h = h.With(k, 0)
				}
			}
			if _, ok := h.Extra["mlp_epochs"]; ok { // BM-GCN's MLP pre-training
				h = h.With("mlp_epochs", 2)
			}
			run := func(b compute.Backend) *train.RunResult {
				tr, err := zoo.NewTrainer(b, backend.Describe(b), g, name, h, nil)
				if err != nil {
					t.Fatal(err)
				}
				res, err := tr.Run(context.Background(), train.Runs([]int{0}, seed))
				if err != nil {
					t.Fatalf("%s: %v", b.Name(), err)
				}
				return res.Runs[0]
			}
			want, got := run(goB), run(xlaB)
			defer want.Finalize()
			defer got.Finalize()
			compareRuns(t, got, want)
		})
	}
}

// TestLWGCNTraining runs LW-GCN's whole pipeline (f_P, pseudo-labels, the
// bi-level epoch with T inner steps) in both f_C variants and with the GCN
// backbone on both backends. LW-GCN\P is left out (its GCN pseudo-labeller
// has a fixed dropout of 0.5, drawn differently by each backend); LW-GCN\G
// is f_C with the standard epoch (both compared above).
func TestLWGCNTraining(t *testing.T) {
	goB, xlaB := backends(t)
	g := tinyGraph(t, 40, 12, 3, rand.New(rand.NewPCG(5, 6)))
	small := labelwise.Defaults("texas")
	small.Hidden, small.GCNIILayers = 16, 2
	dense := labelwise.Defaults("chameleon")
	dense.Hidden = 16
	for name, cfg := range map[string]labelwise.Config{
		"lwgcn-small": small,
		"lwgcn-dense": dense,
		"lwgcn-gcn":   small.WithGCNBackbone(),
	} {
		t.Run(name, func(t *testing.T) {
			cfg.Dropout, cfg.PseudoDropout, cfg.Epochs, cfg.PseudoEpochs = 0, 0, trainingEpochs, trainingEpochs
			run := func(b compute.Backend) *labelwise.SplitResult {
				r, err := labelwise.NewRunner(b, backend.Describe(b), g, cfg, nil)
				if err != nil {
					t.Fatal(err)
				}
				res, err := r.Run(context.Background(), 0, seed)
				if err != nil {
					t.Fatalf("%s: %v", b.Name(), err)
				}
				return res
			}
			want, got := run(goB), run(xlaB)
			defer want.Finalize()
			defer got.Finalize()
			if d := Compare(i32s(got.Predictions), i32s(want.Predictions), Tolerance{}); !d.OK() && d.MaxAbs != 0 {
				t.Errorf("predictions differ: %v", d)
			}
			compareRuns(t, got.Main, want.Main)
		})
	}
}

func i32s(x []int32) []float64 {
	f := make([]float64, len(x))
	for i, v := range x {
		f[i] = float64(v)
	}
	return f
}
