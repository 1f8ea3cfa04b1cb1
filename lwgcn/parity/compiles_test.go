package parity

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/gomlx/compute"

	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/labelwise"
	"github.com/lwgcn/toolkit/lwgcn/synth"
	"github.com/lwgcn/toolkit/lwgcn/train"
	"github.com/lwgcn/toolkit/lwgcn/zoo"
)

// cellGraph is tinyGraph with three random splits.
func cellGraph(t *testing.T) *graph.Graph {
	t.Helper()
	g := tinyGraph(t, 40, 12, 3, rand.New(rand.NewPCG(7, 8)))
	splits, err := synth.RandomSplits(g.Labels(), synth.SplitOptions{NumSplits: 3, TrainFraction: 0.4, ValFraction: 0.3},
		rand.New(rand.NewPCG(9, 10)))
	if err != nil {
		t.Fatal(err)
	}
	if g, err = g.WithSplits(splits); err != nil {
		t.Fatal(err)
	}
	return g
}

// cellRuns are a cell's runs: three splits, two seeds each.
var cellRuns = []train.Run{{Split: 0, Seed: 1}, {Split: 1, Seed: 1}, {Split: 2, Seed: 1},
	{Split: 0, Seed: 2}, {Split: 1, Seed: 2}, {Split: 2, Seed: 2}}

// TestCellCompilesOnce: a cell of six runs (three splits, two seeds), each
// trained alone, compiles its epoch graphs once, at the first run, on XLA
// (and on pure Go): masks, seeds and weights are inputs of the compiled
// epoch, not constants, and the runs keep their shapes. Checked for a zoo
// model (GCN) and LW-GCN's runner (f_P and the main model, whose
// label-wise inputs are built from each run's pseudo-labels).
func TestCellCompilesOnce(t *testing.T) {
	goB, xlaB := backends(t)
	g := cellGraph(t)
	ctx := context.Background()
	for _, b := range []compute.Backend{xlaB, goB} {
		t.Run("gcn/"+b.String(), func(t *testing.T) {
			e, ok := zoo.Lookup("gcn")
			if !ok {
				t.Fatal("zoo has no gcn")
			}
			h := e.Defaults("texas")
			h.Epochs = 3
			tr, err := zoo.NewTrainer(b, backend.Describe(b), g, "gcn", h, nil)
			if err != nil {
				t.Fatal(err)
			}
			first := -1
			for i, run := range cellRuns {
				res, err := tr.RunOne(ctx, run)
				if err != nil {
					t.Fatal(err)
				}
				res.Finalize()
				if i == 0 {
					first = tr.Compiles()
				}
			}
			if first < 1 || tr.Compiles() != first {
				t.Errorf("GCN: %d epoch graphs compiled after the first run, %d after %d runs: want the same, >= 1",
					first, tr.Compiles(), len(cellRuns))
			}
			if tr.EpochOps() <= 0 {
				t.Errorf("GCN: epoch graph op count %d", tr.EpochOps())
			}
			// One compile time per graph compiled; the longest is the
			// largest of them, and they add up to no more than the total.
			times, sum := tr.GraphCompiles(), time.Duration(0)
			for _, d := range times {
				sum += d
			}
			if len(times) != tr.Compiles() || sum > tr.CompileTime() || len(times) > 0 && tr.LongestCompile() != slices.Max(times) {
				t.Errorf("GCN on %s: compile times %v (longest %v, total %v) for %d graphs", b, times, tr.LongestCompile(),
					tr.CompileTime(), tr.Compiles())
			}
			// XLA compiles a StableHLO program (a line of text per op at
			// least); pure Go compiles none.
			if hlo, isXLA := tr.EpochHLOBytes(), b == xlaB; isXLA && hlo < 10*tr.EpochOps() || !isXLA && hlo != 0 {
				t.Errorf("GCN on %s: StableHLO program of %d bytes for %d ops", b, hlo, tr.EpochOps())
			}
		})
		t.Run("lwgcn/"+b.String(), func(t *testing.T) {
			cfg := labelwise.Defaults("texas")
			cfg.Hidden, cfg.GCNIILayers, cfg.Epochs, cfg.PseudoEpochs = 16, 2, 3, 3
			r, err := labelwise.NewRunner(b, backend.Describe(b), g, cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			first := -1
			for i, run := range cellRuns {
				res, err := r.Run(ctx, run.Split, run.Seed)
				if err != nil {
					t.Fatal(err)
				}
				res.Finalize()
				if i == 0 {
					first = r.Compiles()
				}
			}
			if first < 2 || r.Compiles() != first {
				t.Errorf("LW-GCN: %d epoch graphs compiled after the first run, %d after %d runs: want the same, >= 2 (f_P and f_C)",
					first, r.Compiles(), len(cellRuns))
			}
		})
	}
}
