package gokernels_test

import (
	"context"
	"math"
	"testing"

	"github.com/gomlx/compute"

	"github.com/lwgcn/toolkit/internal/dstest"
	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/datasets"
	"github.com/lwgcn/toolkit/lwgcn/gokernels"
	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/labelwise"
	"github.com/lwgcn/toolkit/lwgcn/train"
	"github.com/lwgcn/toolkit/lwgcn/zoo"
)

// goDataset loads a dataset with the standard preprocessing and returns the
// shared backend, skipping the test off the pure-Go backend (the kernels
// are its).
func goDataset(t *testing.T, dataset string) (*graph.Graph, compute.Backend, backend.Info) {
	t.Helper()
	g := datasets.Standard(dstest.Load(t, dataset))
	b, info, err := backend.Shared()
	if err != nil {
		t.Fatal(err)
	}
	if !info.IsGo() {
		t.Skipf("the kernels are the pure-Go backend's (backend %s)", info.Name)
	}
	return g, b, info
}

// sameLossesAndBits fails unless two runs' epochs have the same losses (and
// accuracies, when accuracies is set) and their best-epoch
// log-probabilities the same bits.
func sameLossesAndBits(t *testing.T, histOn, histOff []train.EpochStats, lpOn, lpOff []uint64, accuracies bool) {
	t.Helper()
	for i := range histOn {
		a, b := histOn[i], histOff[i]
		if math.Float64bits(a.TrainLoss) != math.Float64bits(b.TrainLoss) || math.Float64bits(a.ValLoss) != math.Float64bits(b.ValLoss) ||
			(accuracies && (a.ValAcc != b.ValAcc || a.TestAcc != b.TestAcc)) {
			t.Fatalf("epoch %d: train loss %v val loss %v val %v test %v with the kernels; %v %v %v %v without",
				a.Epoch, a.TrainLoss, a.ValLoss, a.ValAcc, a.TestAcc, b.TrainLoss, b.ValLoss, b.ValAcc, b.TestAcc)
		}
	}
	if len(lpOn) == 0 || len(lpOn) != len(lpOff) {
		t.Fatalf("%d log-probabilities with the kernels, %d without", len(lpOn), len(lpOff))
	}
	for i := range lpOn {
		if lpOn[i] != lpOff[i] {
			t.Fatalf("best-epoch log-probability %d differs: %#x with the kernels, %#x without", i, lpOn[i], lpOff[i])
		}
	}
}

// lwgcnRun trains LW-GCN on one split of a dataset with every kernel on or
// off (the runner compiles its computations then) and returns its epochs
// and best-epoch log-probabilities.
func lwgcnRun(t *testing.T, dataset string, epochs int, on bool) ([]train.EpochStats, []uint64) {
	t.Helper()
	defer gokernels.SetAll(on)()
	g, b, info := goDataset(t, dataset)
	cfg := labelwise.Defaults(dataset)
	cfg.Epochs = epochs
	r, err := labelwise.NewRunner(b, info, g, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.Run(context.Background(), 0, labelwise.DefaultSeed)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Finalize()
	return res.Main.History, flatBits(t, res.Main.LogProbs)
}

// A whole LW-GCN run (f_P, pseudo-labels, the bi-level epochs) computes the
// same bits with the kernels as without, and every kernel took effect in it:
// Texas (the small variant, dropout, WebKB's dense-form products) and Cora
// (GCNII-64 on the sorted layout, dropout on every layer).
func TestLWGCNSameWithAndWithoutKernels(t *testing.T) {
	if testing.Short() {
		t.Skip("trains LW-GCN twice per dataset")
	}
	for _, tc := range []struct {
		dataset string
		epochs  int
	}{{"texas", 12}, {"cora", 3}} {
		t.Run(tc.dataset, func(t *testing.T) {
			counts := func() map[string]int64 {
				return map[string]int64{"gathersum": gokernels.FusedGatherSums.Load(), "rowgather": gokernels.MarkedRowGathers.Load(), "rowscatter": gokernels.MarkedRowScatters.Load(),
					"dropoutmask": gokernels.FusedDropoutMasks.Load(), "ellproduct": gokernels.FusedELLProducts.Load(), "adam": gokernels.FusedAdam.Load(), "transpose": gokernels.TransposesRun.Load(),
					"weightgrad": gokernels.WeightGradsRun.Load(), "smalldot": gokernels.SmallDotsRun.Load(), "largedot": gokernels.LargeDotsRun.Load()}
			}
			// largedot on one thread too (it leaves products it cannot split
			// to compute).
			defer func(prev int) { *gokernels.LargeDotMinParts = prev }(*gokernels.LargeDotMinParts)
			*gokernels.LargeDotMinParts = 1
			before := counts()
			histOn, lpOn := lwgcnRun(t, tc.dataset, tc.epochs, true)
			for k, v := range counts() {
				if (k == "weightgrad" || k == "largedot") && !gokernels.HaveWeightGrad || (k == "smalldot" && !gokernels.HaveSmallDot) {
					continue // AVX-512 only
				}
				if v == before[k] {
					t.Errorf("the %s kernel never took effect in LW-GCN's computations", k)
				}
			}
			histOff, lpOff := lwgcnRun(t, tc.dataset, tc.epochs, false)
			if len(histOn) != tc.epochs || len(histOff) != tc.epochs {
				t.Fatalf("%d epochs with the kernels, %d without, want %d", len(histOn), len(histOff), tc.epochs)
			}
			sameLossesAndBits(t, histOn, histOff, lpOn, lpOff, true)
		})
	}
}

// The attention baselines (GAT, SuperGAT, BM-GCN, FAGCN: segment softmaxes
// and messages scattered per edge, Gather's gradients) train to the same
// bits with the kernels as without on Texas, and the rowscatter kernel took
// effect in each.
func TestAttentionModelsSameWithAndWithoutKernels(t *testing.T) {
	if testing.Short() {
		t.Skip("trains four baselines twice")
	}
	g, b, info := goDataset(t, "texas")
	for _, name := range []string{"gat", "supergat", "bmgcn", "fagcn"} {
		t.Run(name, func(t *testing.T) {
			e, ok := zoo.Lookup(name)
			if !ok {
				t.Fatalf("zoo has no %q", name)
			}
			h := e.Defaults("texas")
			h.Epochs = 6
			if _, ok := h.Extra["mlp_epochs"]; ok { // BM-GCN's MLP pre-training
				h = h.With("mlp_epochs", 2)
			}
			run := func(on bool) *train.RunResult {
				defer gokernels.SetAll(on)()
				tr, err := zoo.NewTrainer(b, info, g, name, h, nil)
				if err != nil {
					t.Fatal(err)
				}
				res, err := tr.Run(context.Background(), train.Runs([]int{0}, 15))
				if err != nil {
					t.Fatal(err)
				}
				return res.Runs[0]
			}
			before := gokernels.MarkedRowScatters.Load()
			on := run(true)
			defer on.Finalize()
			if gokernels.MarkedRowScatters.Load() == before {
				t.Errorf("the rowscatter kernel never took effect in %s's computations", name)
			}
			off := run(false)
			defer off.Finalize()
			if len(on.History) != h.Epochs || len(off.History) != h.Epochs {
				t.Fatalf("%d epochs with the kernels, %d without, want %d", len(on.History), len(off.History), h.Epochs)
			}
			sameLossesAndBits(t, on.History, off.History, flatBits(t, on.LogProbs), flatBits(t, off.LogProbs), false)
		})
	}
}
