package train_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/internal/dstest"
	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/datasets"
	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/internal/runstest"
	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

// trainers makes trainers of m on g with cfg for a batch size.
func trainers(g *graph.Graph, m nn.Model, cfg train.Config) func(batch int) (*train.Trainer, error) {
	return func(batch int) (*train.Trainer, error) {
		b, _ := backend.MustShared()
		c := cfg
		if c.LR == 0 && c.Optimizer == nil {
			c.LR, c.WeightDecay = 0.01, 5e-4
		}
		c.BatchSize = batch
		return train.New(b, m, g, c)
	}
}

// The same model code trained with R > 1 runs per computation gives each
// run what it gives with R = 1: every model with its own layers for R
// runs, sparse and dense features. (The zoo's and LW-GCN's tests cover the
// other models, their own epochs included.)
func TestRunsEqualAloneTiny(t *testing.T) {
	cases := []struct {
		name   string
		sparse bool
		m      nn.Model
	}{
		{"mlp/sparse", true, models.MLP{Hidden: 8, Dropout: 0.5, InputDropout: 0.3}},
		{"mlp/dense", false, models.MLP{Hidden: 8, Dropout: 0.5, InputDropout: 0.3}},
		{"gcn/sparse", true, models.GCN{Hidden: 8, Dropout: 0.5}},
		{"gcn/dense", false, models.GCN{Hidden: 8, Dropout: 0.5}},
		{"gcn3/sparse", true, models.GCN{Hidden: 8, Dropout: 0.5, Layers: 3}},
		{"gcnii/sparse", true, models.GCNII{Layers: 4, Hidden: 8, Dropout: 0.5, Alpha: 0.1, Lambda: 0.5}},
		{"gcnii/dense", false, models.GCNII{Layers: 4, Hidden: 8, Dropout: 0.5, Alpha: 0.1, Lambda: 0.5}},
		{"gat/sparse", true, models.GAT{Hidden: 4, Heads: 3, OutHeads: 2, Dropout: 0.5, AttentionDropout: 0.3}},
		{"gat/dense", false, models.GAT{Hidden: 4, Heads: 3, OutHeads: 1, Dropout: 0.5, AttentionDropout: 0.3}},
		{"gprgnn/sparse", true, models.GPRGNN{Hidden: 8, K: 4, Alpha: 0.1, Dropout: 0.5, DropProp: 0.3}},
		{"gprgnn/dense", false, models.GPRGNN{Hidden: 8, K: 3, Alpha: 0.9, Dropout: 0.5, DropProp: 0.5}},
		{"fagcn/sparse", true, models.FAGCN{Hidden: 8, Layers: 2, Eps: 0.3, Dropout: 0.5}},
		{"fagcn/dense", false, models.FAGCN{Hidden: 8, Layers: 1, Eps: 0.2, Dropout: 0.4}},
		{"h2gcn/sparse", true, models.H2GCN{Hidden: 8, Rounds: 2, Dropout: 0.5}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := runstest.Graph(t, 60, 3, c.sparse, 5)
			// Batches of 3: the second batch (one run) is padded.
			res := runstest.Check(t, c.m.Name(), trainers(g, c.m, train.Config{Epochs: 15}), runstest.DifferentRuns, 3)
			runstest.Differ(t, res)
		})
	}
}

// The same with every sparse matrix in the bucketed ELL layout, in chunks
// small enough that the products of several runs split them further.
func TestRunsEqualAloneTinyELL(t *testing.T) {
	dense, slots, chunk := sparse.DenseMaxElements, sparse.ELLChunkSlots, sparse.ChunkBytes
	sparse.DenseMaxElements, sparse.ELLChunkSlots, sparse.ChunkBytes = 0, 16, 1024
	t.Cleanup(func() { sparse.DenseMaxElements, sparse.ELLChunkSlots, sparse.ChunkBytes = dense, slots, chunk })
	g := runstest.Graph(t, 60, 3, true, 6)
	for _, m := range []nn.Model{
		models.GCN{Hidden: 8, Dropout: 0.5, Layers: 3},
		models.MLP{Hidden: 8, Dropout: 0.5, InputDropout: 0.2},
		models.GPRGNN{Hidden: 8, K: 5, Alpha: 0.2, Dropout: 0.5, DropProp: 0.5},
		models.FAGCN{Hidden: 8, Layers: 2, Eps: 0.3, Dropout: 0.5},
		// GCNII in the sorted-padded layout (which needs an ELL adjacency).
		models.GCNII{Layers: 4, Hidden: 8, Dropout: 0.5, Alpha: 0.1, Lambda: 0.5},
	} {
		runstest.Check(t, m.Name(), trainers(g, m, train.Config{Epochs: 12}), runstest.DifferentRuns, 4)
	}
}

// The real features and sizes of Texas (sparse bag-of-words features, the
// ELL paths of the sparse products) for a few epochs, 10 splits per batch.
func TestRunsEqualAloneTexas(t *testing.T) {
	if testing.Short() {
		t.Skip("real dataset")
	}
	g := datasets.Standard(dstest.Load(t, "texas"))
	runs := train.Runs([]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, 15)
	runstest.Check(t, "gcn", trainers(g, models.GCN{Hidden: 64, Dropout: 0.5}, train.Config{Epochs: 8}), runs, 10)
	runstest.Check(t, "mlp", trainers(g, models.MLP{Hidden: 32, Dropout: 0.5}, train.Config{Epochs: 8}), runs[:3], 10)
}

// GCNII with two parameter groups (the official Planetoid setting: weight
// decay 0.01 on the convolutions, 5e-4 on the dense layers).
func TestRunsEqualAloneGroups(t *testing.T) {
	g := runstest.Graph(t, 50, 3, true, 8)
	m := models.GCNII{Layers: 3, Hidden: 8, Dropout: 0.5, Alpha: 0.1, Lambda: 0.5}
	opt := train.NewOptimizer(
		train.Group{Name: "conv", Adam: train.NewAdam(0.01, 0.01), Match: train.ScopePrefix("/conv")},
		train.Group{Name: "dense", Adam: train.NewAdam(0.01, 5e-4)})
	runstest.Check(t, "gcnii groups", trainers(g, m, train.Config{Epochs: 10, Optimizer: opt}), runstest.DifferentRuns[:3], 3)
}

// GCNII's selection (lowest validation loss, patience) stops each run of a
// batch where the same run alone stops, with the same epochs and the same
// reported epoch; the batch ends with its last run.
func TestRunsSelectionEqualsAlone(t *testing.T) {
	g := runstest.Graph(t, 60, 3, true, 9)
	m := models.GCN{Hidden: 8, Dropout: 0.5}
	const epochs = 150
	cfg := train.Config{Epochs: epochs, LR: 0.05, WeightDecay: 5e-4, Selection: train.Selection{By: train.ByValLoss, Patience: 5}}
	res := runstest.Check(t, "selection", trainers(g, m, cfg), runstest.DifferentRuns, 4)
	stops := map[int]bool{}
	for i, rr := range res.Runs {
		if rr.Epochs == epochs {
			t.Fatalf("run %d never stopped: make the test's runs overfit", i)
		}
		stops[rr.Epochs] = true
	}
	if len(stops) < 2 {
		t.Fatalf("every run stopped at the same epoch %v: the test cannot tell a batch-wide stop from per-run stops", stops)
	}
}

// ROC-AUC selection (two classes) picks each run's epoch of a batch as
// alone, with the same ROC-AUCs.
func TestRunsROCAUCEqualsAlone(t *testing.T) {
	g := runstest.Graph(t, 60, 2, true, 10)
	cfg := train.Config{Epochs: 12, Selection: train.Selection{By: train.ByValROCAUC}}
	res := runstest.Check(t, "roc-auc", trainers(g, models.GCN{Hidden: 8, Dropout: 0.5}, cfg), runstest.DifferentRuns, 4)
	for i, rr := range res.Runs {
		es := rr.History[rr.BestEpoch-1]
		if rr.ValROCAUC == 0 || rr.ValROCAUC != es.ValROCAUC || rr.TestROCAUC != es.TestROCAUC {
			t.Fatalf("run %d: ROC-AUC val %v test %v, its best epoch's %v %v", i, rr.ValROCAUC, rr.TestROCAUC,
				es.ValROCAUC, es.TestROCAUC)
		}
	}
}

// A run whose loss explodes stops the batch with the run and the epoch
// named (train.CheckLoss): a learning rate of 1e6 drives GCN's loss far
// past its start, often while staying finite.
func TestRunsDivergenceStopsNamingTheEpoch(t *testing.T) {
	g := runstest.Graph(t, 60, 3, true, 5)
	tr, err := trainers(g, models.GCN{Hidden: 8}, train.Config{Epochs: 50, LR: 1e6})(2)
	if err != nil {
		t.Fatal(err)
	}
	_, err = tr.Run(context.Background(), runstest.DifferentRuns[:2])
	if err == nil {
		t.Fatal("a run with learning rate 1e6 trained 50 epochs without an error")
	}
	if !errors.Is(err, train.ErrDiverged) && !errors.Is(err, train.ErrNonFinite) {
		t.Fatalf("err = %v, want ErrDiverged or ErrNonFinite", err)
	}
	if !strings.Contains(err.Error(), "split ") || !strings.Contains(err.Error(), ": epoch ") {
		t.Fatalf("err = %v: does not name the split and the epoch", err)
	}
}

// Checkpoints are kept per run: a batch of several runs with checkpoints is
// refused when configured.
func TestRunsCheckpointsNeedOneRun(t *testing.T) {
	g := runstest.Graph(t, 30, 3, true, 5)
	_, err := trainers(g, models.MLP{Hidden: 4}, train.Config{Epochs: 2, CheckpointDir: t.TempDir()})(3)
	if err == nil || !strings.Contains(err.Error(), "checkpoints are kept per run: train with a batch size of 1") {
		t.Fatalf("err = %v", err)
	}
}

// The batch size chosen from memory: the model's RunBytes by hand for a GCN,
// the budget's quotient, the cap, and arxiv-year's size (169,343 nodes, 128
// dense features, 5 classes, 1.17 M edges) staying within a 24 GiB machine.
func TestBatchSizeFromMemory(t *testing.T) {
	g := runstest.Graph(t, 60, 3, false, 5) // dense features 60 x 12
	m := models.GCN{Hidden: 8, Dropout: 0.5}
	// weights 12·8 + 8·3 + 8 + 3 = 131; masks 60·8 + 3·60·12 = 2640; activations 12·60·(2·8+3) = 13680.
	want := int64(4 * (4*131 + 2640 + 13680))
	if got := m.RunBytes(g); got != want {
		t.Fatalf("RunBytes = %d, want %d", got, want)
	}
	if got := train.BatchSizeFor(g, m, 3*want+1); got != 3 {
		t.Fatalf("BatchSizeFor(3 runs' budget) = %d, want 3", got)
	}
	if got := train.BatchSizeFor(g, m, 0); got != train.MaxBatchSize {
		t.Fatalf("BatchSizeFor(default budget) = %d, want the cap %d", got, train.MaxBatchSize)
	}
	if got := train.BatchSizeFor(g, m, want-1); got != 0 {
		t.Fatalf("BatchSizeFor(below one run) = %d, want 0", got)
	}
	b, _ := backend.MustShared()
	tr, err := train.New(b, m, g, train.Config{Epochs: 1, LR: 0.01, BatchSize: train.BatchFromMemory, MemoryBudget: want - 1})
	if err != nil {
		t.Fatal(err)
	}
	_, err = tr.Run(context.Background(), runstest.DifferentRuns)
	if err == nil || !strings.Contains(err.Error(), "train: one run of gcn on tiny needs about 0.0 GB, above the 0.0 GB budget") {
		t.Fatalf("a run above the budget: got %v", err)
	}
	n, f := 169343, 128
	x := make([]float32, n*f)
	for i := range x {
		x[i] = 1
	}
	feats, err := graph.NewDenseFeatures(n, f, x)
	if err != nil {
		t.Fatal(err)
	}
	labels := make([]int32, n)
	for i := range labels {
		labels[i] = int32(i % 5)
	}
	src, dst := make([]int32, 2*n), make([]int32, 2*n)
	for i := range src {
		src[i], dst[i] = int32(i%n), int32((i*7+1)%n)
	}
	big := graph.MustNew(graph.Spec{Name: "arxiv-sized", NumNodes: n, Src: src, Dst: dst, Features: feats, Labels: labels, NumClasses: 5})
	gm := models.GCN{Hidden: 256, Dropout: 0.5}
	r := train.BatchSizeFor(big, gm, 0)
	if total := int64(r) * gm.RunBytes(big); r < 1 || total > train.DefaultMemoryBudget {
		t.Fatalf("arxiv-sized GCN: batch %d of %d bytes each exceeds the %d-byte budget", r, gm.RunBytes(big), int64(train.DefaultMemoryBudget))
	}
	t.Logf("arxiv-sized GCN (256 hidden): %d runs per batch, %.2f GB per run", r, float64(gm.RunBytes(big))/1e9)
}

// GAT's, GPRGNN's and FAGCN's estimates add their own buffers to the dense
// part, by hand on the tiny graph.
func TestRunBytesOfModels(t *testing.T) {
	g := runstest.Graph(t, 60, 3, false, 5) // dense features 60 x 12
	e := int64(len(g.Src()))
	for _, c := range []struct {
		m    nn.Model
		want int64
	}{
		// hidden 8: weights 12·8 + 8·3 + 8 + 3 = 131; masks 60·8 + 3·60·12 = 2640; activations 12·60·(2·8+3) = 13680;
		// per edge (self loops added) 8·2 + 2·8 + 8·1 + 2·1·3 = 46.
		{models.GAT{Hidden: 4, Heads: 2, OutHeads: 1}, 4 * (4*131 + 2640 + 13680 + 46*(e+60))},
		// As GCN with 8 hidden; propagation (4·11 + 1)·60·3 = 8100.
		{models.GPRGNN{Hidden: 8, K: 10}, 4 * (4*131 + 2640 + 13680 + 8100)},
		// 3 layers of 8: weights 12·8 + 8·8 + 8·3 + 2·8 + 3 = 203; masks 60·8·2 + 3·60·12 = 3120;
		// activations 12·60·(3·8+3) = 19440; per edge 8·2 = 16.
		{models.FAGCN{Hidden: 8, Layers: 2}, 4 * (4*203 + 3120 + 19440 + 16*e)},
	} {
		if got := c.m.RunBytes(g); got != c.want {
			t.Errorf("RunBytes(%s) = %d, want %d (%d edges)", c.m.Name(), got, c.want, e)
		}
	}
}
