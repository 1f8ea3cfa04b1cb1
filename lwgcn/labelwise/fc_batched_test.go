package labelwise

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gomlx/gomlx/core/tensors"

	"github.com/lwgcn/toolkit/internal/dstest"
	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/datasets"
	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
	"github.com/lwgcn/toolkit/lwgcn/train"
	"github.com/lwgcn/toolkit/lwgcn/train/batched"
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
// the label-wise structure of the same pseudo-labels) and compares losses,
// accuracies, best epochs and final weights (tolerances: see
// lwgcn/train/batched's tests).
func checkFCBatchedEqualsAlone(t *testing.T, g *graph.Graph, fc LabelWiseGCN, epochs int, runs []train.Run) {
	t.Helper()
	labels := runLabels(g)
	checkLWBatchedEqualsAlone(t, g, fc.Variant.String(), fc, BatchedFC{LabelWiseGCN: fc, Labels: labels},
		train.Config{Epochs: epochs, LR: 0.01, WeightDecay: 5e-4},
		batched.Config{Epochs: epochs, LR: 0.01, WeightDecay: 5e-4, BatchSize: len(runs)}, runs)
}

// checkLWBatchedEqualsAlone trains model m alone (configuration tc, with
// the label-wise structure of runLabels) and its batched form bm (bc) and
// compares every run.
func checkLWBatchedEqualsAlone(t *testing.T, g *graph.Graph, name string, m, bm nn.Model, tc train.Config, bc batched.Config, runs []train.Run) {
	t.Helper()
	b, _ := backend.MustShared()
	labels := runLabels(g)
	bt, err := batched.New(b, bm, g, bc)
	if err != nil {
		t.Fatal(err)
	}
	res, err := bt.Run(context.Background(), runs)
	if err != nil {
		t.Fatal(err)
	}
	var maxLoss, maxW float64
	for k, run := range runs {
		what := fmt.Sprintf("%s run %d (split %d, seed %d)", name, k, run.Split, run.Seed)
		cfg := tc
		cfg.PrepareRun = func(r train.Run, in *nn.Inputs) error {
			cls, err := labels(r)
			if err != nil {
				return err
			}
			lw, err := nn.NewLabelWise(g.NumNodes(), g.Src(), g.Dst(), cls, g.NumClasses())
			if err != nil {
				return err
			}
			return lw.AddTo(in, LabelWiseInput, g.Features())
		}
		tr, err := train.New(b, m, g, cfg)
		if err != nil {
			t.Fatal(err)
		}
		want, err := tr.RunOne(context.Background(), run)
		if err != nil {
			t.Fatal(err)
		}
		got := res.Runs[k]
		for e := range want.History {
			gl, wl := got.History[e].TrainLoss, want.History[e].TrainLoss
			maxLoss = max(maxLoss, math.Abs(gl-wl)/max(1, math.Abs(wl)))
			if math.Abs(gl-wl) > 1e-4*max(1, math.Abs(wl)) {
				t.Fatalf("%s: epoch %d: train loss %.8f batched, %.8f alone", what, e+1, gl, wl)
			}
			if got.History[e].ValAcc != want.History[e].ValAcc || got.History[e].TestAcc != want.History[e].TestAcc {
				t.Fatalf("%s: epoch %d: val/test accuracy %v/%v batched, %v/%v alone", what, e+1,
					got.History[e].ValAcc, got.History[e].TestAcc, want.History[e].ValAcc, want.History[e].TestAcc)
			}
		}
		for e := range want.History {
			for name, w := range want.History[e].Extra {
				if gv := got.History[e].Extra[name]; math.Abs(gv-w) > 1e-5 {
					t.Fatalf("%s: epoch %d: %s %v batched, %v alone", what, e+1, name, gv, w)
				}
			}
		}
		if got.BestEpoch != want.BestEpoch || got.TestAcc != want.TestAcc {
			t.Fatalf("%s: best epoch %d (test %v) batched, %d (test %v) alone", what, got.BestEpoch, got.TestAcc,
				want.BestEpoch, want.TestAcc)
		}
		gw, err := bt.RunWeights(k)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for v := range tr.Store().IterVariables() {
			if !nn.IsParam(tr.Store(), v) {
				continue
			}
			n++
			val, _ := v.Value()
			ww, err := tensors.CopyFlatData[float32](val)
			if err != nil {
				t.Fatal(err)
			}
			g := gw[v.Path()]
			if len(g) != len(ww) {
				t.Fatalf("%s: weight %s: %d values batched, %d alone", what, v.Path(), len(g), len(ww))
			}
			for i := range ww {
				d := math.Abs(float64(g[i] - ww[i]))
				maxW = max(maxW, d)
				if d > 5e-4 || math.IsNaN(d) {
					t.Fatalf("%s: weight %s[%d]: %v batched, %v alone", what, v.Path(), i, g[i], ww[i])
				}
			}
		}
		if n != len(gw) {
			t.Fatalf("%s: %d weights batched, %d alone", what, len(gw), n)
		}
	}
	t.Logf("largest differences batched vs alone: loss %.2g (relative), weight %.2g", maxLoss, maxW)
}

var fcRunsDiffer = []train.Run{{Split: 0, Seed: 1}, {Split: 1, Seed: 2}, {Split: 2, Seed: 3}, {Split: 0, Seed: 4}}

func TestBatchedFCEqualsAloneDenseFeatures(t *testing.T) {
	g := denseGraph(t)
	checkFCBatchedEqualsAlone(t, g, LabelWiseGCN{Variant: Dense, Layers: 3, Hidden: 8}, 12, fcRunsDiffer)
	checkFCBatchedEqualsAlone(t, g, LabelWiseGCN{Variant: Small, Layers: 2, Hidden: 8, Dropout: 0.5}, 12, fcRunsDiffer)
}

// The grouped products (one per class, on that class's nodes; see
// lwRuns.grouped) against the one-product form alone, then both grouped;
// the even-seeded runs all lack the last class (a class with no group).
func TestBatchedFCEqualsAloneGrouped(t *testing.T) {
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

func TestBatchedFCEqualsAloneTexas(t *testing.T) {
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
func TestBatchedSelectionEqualsAloneTexas(t *testing.T) {
	if testing.Short() {
		t.Skip("real dataset")
	}
	g := datasets.Standard(dstest.Load(t, "texas"))
	runs := []train.Run{{Split: 0, Seed: 15}, {Split: 1, Seed: 16}, {Split: 2, Seed: 15}}
	labels := runLabels(g)
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
		bsel := &BatchedSelection{Selection: *sel, Labels: labels}
		checkLWBatchedEqualsAlone(t, g, "lwgcn/"+backbone, sel, bsel,
			train.Config{Epochs: cfg.Epochs, Optimizer: cfg.optimizer(), Epoch: sel.Epoch},
			batched.Config{Epochs: cfg.Epochs, Optimizer: cfg.optimizer(), BatchSize: len(runs)}, runs)
	}
}

// The whole method batched (f_P, pseudo-labels, f_C with selection) against
// Runner one run at a time: LW-GCN, LW-GCN\G and LW-GCN\P on Texas.
func TestBatchedRunnerEqualsRunnerTexas(t *testing.T) {
	if testing.Short() {
		t.Skip("real dataset")
	}
	g := datasets.Standard(dstest.Load(t, "texas"))
	b, info := backend.MustShared()
	runs := []train.Run{{Split: 0, Seed: 15}, {Split: 1, Seed: 15}, {Split: 4, Seed: 7}}
	base := Defaults("texas")
	base.Hidden, base.Epochs = 16, 8
	for _, cfg := range []Config{base, base.WithoutSelection(), base.WithGCNPseudoLabels()} {
		br, err := NewBatchedRunner(b, info, g, cfg, len(runs), nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := br.Run(context.Background(), runs)
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
