package labelwise

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lwgcn/toolkit/internal/dstest"
	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/datasets"
	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/internal/runstest"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

// runLabels are pseudo-labels that differ per run: the true label for about
// 70 % of the nodes, a random class otherwise, drawn from (split, seed); with
// absent (if C > 3, run-dependent numbers of classes present).
func runLabels(g *graph.Graph) func(r train.Run) ([]int32, error) {
	return func(r train.Run) ([]int32, error) {
		rng := rand.New(rand.NewPCG(uint64(r.Split), uint64(r.Seed)))
		out := make([]int32, g.NumNodes())
		for i, l := range g.Labels() {
			out[i] = max(l, 0)
			if rng.Float64() < 0.3 {
				out[i] = int32(rng.IntN(g.NumClasses()))
			}
		}
		if r.Seed%2 == 0 { // one class absent in even-seeded runs: another fan-in
			for i := range out {
				if out[i] == int32(g.NumClasses()-1) {
					out[i] = 0
				}
			}
		}
		return out, nil
	}
}

// denseGraph: 40 nodes, 3 classes, dense features, three random splits.
func denseGraph(t *testing.T) *graph.Graph {
	r := rand.New(rand.NewPCG(3, 4))
	n, c, f := 40, 3, 6
	labels := make([]int32, n)
	x := make([]float32, n*f)
	var src, dst []int32
	for i := range n {
		labels[i] = int32(r.IntN(c))
		for k := range f {
			x[i*f+k] = r.Float32()
		}
		x[i*f+int(labels[i])] += 1
		for range 3 {
			j := int32(r.IntN(n))
			src, dst = append(src, int32(i), j), append(dst, j, int32(i))
		}
	}
	feats, err := graph.NewDenseFeatures(n, f, x)
	if err != nil {
		t.Fatal(err)
	}
	var splits []graph.Split
	for range 3 {
		p := r.Perm(n)
		splits = append(splits, graph.Split{Train: i32(p[:14]), Val: i32(p[14:27]), Test: i32(p[27:])})
	}
	return graph.MustNew(graph.Spec{Name: "dense", NumNodes: n, Src: src, Dst: dst, Features: feats, Labels: labels,
		NumClasses: c, Splits: splits})
}

func i32(p []int) []int32 {
	out := make([]int32, len(p))
	for i, v := range p {
		out[i] = int32(v)
	}
	return out
}

// checkFCBatchedEqualsAlone trains f_C on runs batched and each alone (with
// the label-wise structures of runLabels' pseudo-labels) and compares
// losses, accuracies, best epochs and final weights (runstest).
func checkFCBatchedEqualsAlone(t *testing.T, g *graph.Graph, fc LabelWiseGCN, epochs int, runs []train.Run) {
	t.Helper()
	checkLWBatchedEqualsAlone(t, g, fc.Variant.String(), fc, train.Config{Epochs: epochs, LR: 0.01, WeightDecay: 5e-4}, runs)
}

// checkLWBatchedEqualsAlone trains model m (configuration tc, with the
// label-wise structures of runLabels) with all runs in one computation and
// each alone, and compares every run.
func checkLWBatchedEqualsAlone(t *testing.T, g *graph.Graph, name string, m nn.Model, tc train.Config, runs []train.Run) {
	t.Helper()
	b, _ := backend.MustShared()
	labels := runLabels(g)
	tc.RunInputs = func(rs []train.Run, in *nn.Inputs) error {
		lws := make([]*nn.LabelWise, len(rs))
		for k, r := range rs {
			cls, err := labels(r)
			if err != nil {
				return err
			}
			if lws[k], err = nn.NewLabelWise(g.NumNodes(), g.Src(), g.Dst(), cls, g.NumClasses()); err != nil {
				return err
			}
		}
		return nn.AddLabelWiseRuns(in, LabelWiseInput, lws, g.Features())
	}
	runstest.Check(t, name, func(batch int) (*train.Trainer, error) {
		c := tc
		c.BatchSize = batch
		return train.New(b, m, g, c)
	}, runs, len(runs))
}

var fcRunsDiffer = []train.Run{{Split: 0, Seed: 1}, {Split: 1, Seed: 2}, {Split: 2, Seed: 3}, {Split: 0, Seed: 4}}

func TestFCRunsEqualAloneDenseFeatures(t *testing.T) {
	g := denseGraph(t)
	checkFCBatchedEqualsAlone(t, g, LabelWiseGCN{Variant: Dense, Layers: 3, Hidden: 8}, 12, fcRunsDiffer)
	checkFCBatchedEqualsAlone(t, g, LabelWiseGCN{Variant: Small, Layers: 2, Hidden: 8, Dropout: 0.5}, 12, fcRunsDiffer)
}

// The grouped products (one per class, on that class's nodes; see
// LabelWiseGraph.grouped) against the one-product form alone, then both grouped;
// the even-seeded runs all lack the last class (a class with no group).
func TestFCRunsEqualAloneGrouped(t *testing.T) {
	g := denseGraph(t)
	old := nn.LabelWiseGroupedFLOPs
	t.Cleanup(func() { nn.LabelWiseGroupedFLOPs = old })
	small := LabelWiseGCN{Variant: Small, Layers: 2, Hidden: 8, Dropout: 0.5}
	// 40 nodes x 8 x 8 x 3 classes: 7,680 multiply-adds alone, 4x batched.
	nn.LabelWiseGroupedFLOPs = 10000
	checkFCBatchedEqualsAlone(t, g, small, 12, fcRunsDiffer)
	checkFCBatchedEqualsAlone(t, g, LabelWiseGCN{Variant: Dense, Layers: 3, Hidden: 8}, 12, fcRunsDiffer)
	nn.LabelWiseGroupedFLOPs = 0
	checkFCBatchedEqualsAlone(t, g, small, 12, fcRunsDiffer)
	checkFCBatchedEqualsAlone(t, g, small, 8, []train.Run{{Split: 0, Seed: 2}, {Split: 1, Seed: 4}, {Split: 2, Seed: 6}})
}

func TestFCRunsEqualAloneTexas(t *testing.T) {
	if testing.Short() {
		t.Skip("real dataset")
	}
	g := datasets.Standard(dstest.Load(t, "texas"))
	runs := []train.Run{{Split: 0, Seed: 15}, {Split: 1, Seed: 16}, {Split: 2, Seed: 15}, {Split: 3, Seed: 18}}
	checkFCBatchedEqualsAlone(t, g, LabelWiseGCN{Variant: Dense, Layers: 2, Hidden: 16}, 6, runs)
	checkFCBatchedEqualsAlone(t, g, LabelWiseGCN{Variant: Small, Layers: 2, Hidden: 16, Dropout: 0.5}, 6, runs)
	// Every sparse matrix in the bucketed ELL layout, then every one dense.
	dense, density := sparse.DenseMaxElements, sparse.DenseMinDensity
	t.Cleanup(func() { sparse.DenseMaxElements, sparse.DenseMinDensity = dense, density })
	sparse.DenseMaxElements = 0
	checkFCBatchedEqualsAlone(t, g, LabelWiseGCN{Variant: Dense, Layers: 2, Hidden: 16}, 4, runs)
	sparse.DenseMaxElements, sparse.DenseMinDensity = 1<<20, 0
	checkFCBatchedEqualsAlone(t, g, LabelWiseGCN{Variant: Dense, Layers: 2, Hidden: 16}, 4, runs)
}

// LW-GCN with model selection (f_G a GCNII, and LW-GCN_GCN's GCN): the
// bi-level epoch (inner theta steps, phi step) per run.
func TestSelectionRunsEqualAloneTexas(t *testing.T) {
	if testing.Short() {
		t.Skip("real dataset")
	}
	g := datasets.Standard(dstest.Load(t, "texas"))
	runs := []train.Run{{Split: 0, Seed: 15}, {Split: 1, Seed: 16}, {Split: 2, Seed: 15}}
	for _, backbone := range []string{BackboneGCNII, BackboneGCN} {
		cfg := Defaults("texas")
		cfg.Hidden, cfg.Epochs, cfg.Backbone = 16, 5, backbone
		fg, err := cfg.backbone()
		if err != nil {
			t.Fatal(err)
		}
		adj, err := OfficialAdjacency(g)
		if err != nil {
			t.Fatal(err)
		}
		fc := LabelWiseGCN{Variant: cfg.Variant, Layers: cfg.Layers, Hidden: cfg.Hidden, Dropout: cfg.Dropout}
		sel := &Selection{FC: fc, FG: fg, Adj: adj, InnerSteps: cfg.InnerSteps}
		checkLWBatchedEqualsAlone(t, g, "lwgcn/"+backbone, sel,
			train.Config{Epochs: cfg.Epochs, Optimizer: cfg.optimizer(), Epoch: sel.Epoch}, runs)
	}
}

// The whole method batched (f_P, pseudo-labels, f_C with selection) against
// Runner one run at a time: LW-GCN, LW-GCN\G and LW-GCN\P on Texas.
func TestRunnerRunsEqualAloneTexas(t *testing.T) {
	if testing.Short() {
		t.Skip("real dataset")
	}
	g := datasets.Standard(dstest.Load(t, "texas"))
	b, info := backend.MustShared()
	runs := []train.Run{{Split: 0, Seed: 15}, {Split: 1, Seed: 15}, {Split: 4, Seed: 7}}
	base := Defaults("texas")
	base.Hidden, base.Epochs = 16, 8
	for _, cfg := range []Config{base, base.WithoutSelection(), base.WithGCNPseudoLabels()} {
		br, err := NewRunner(b, info, g, cfg, nil, WithBatch(len(runs)))
		if err != nil {
			t.Fatal(err)
		}
		got, err := br.RunAll(context.Background(), runs)
		if err != nil {
			t.Fatal(err)
		}
		alone, err := NewRunner(b, info, g, cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i, run := range runs {
			want, err := alone.Run(context.Background(), run.Split, run.Seed)
			if err != nil {
				t.Fatal(err)
			}
			gr, wr := got[i].Final(), want.Final()
			what := fmt.Sprintf("%s run %d (split %d, seed %d)", cfg.Name(), i, run.Split, run.Seed)
			if got[i].PseudoTestAcc != want.PseudoTestAcc || gr.PseudoAcc != wr.PseudoAcc {
				t.Fatalf("%s: f_P test accuracy %v (pseudo-labels %v) batched, %v (%v) alone", what,
					got[i].PseudoTestAcc, gr.PseudoAcc, want.PseudoTestAcc, wr.PseudoAcc)
			}
			if gr.BestEpoch != wr.BestEpoch || gr.TestAcc != wr.TestAcc || gr.ValAcc != wr.ValAcc {
				t.Fatalf("%s: best epoch %d (val %v, test %v) batched, %d (val %v, test %v) alone", what,
					gr.BestEpoch, gr.ValAcc, gr.TestAcc, wr.BestEpoch, wr.ValAcc, wr.TestAcc)
			}
			if !(math.Abs(gr.WeightFC-wr.WeightFC) <= 1e-5) && !(math.IsNaN(gr.WeightFC) && math.IsNaN(wr.WeightFC)) {
				t.Fatalf("%s: weight of f_C %v batched, %v alone", what, gr.WeightFC, wr.WeightFC)
			}
			for v := range want.Predictions {
				if got[i].Predictions[v] != want.Predictions[v] {
					t.Fatalf("%s: prediction of node %d: %d batched, %d alone", what, v, got[i].Predictions[v], want.Predictions[v])
				}
			}
			want.Finalize()
			got[i].Finalize()
		}
	}
}
