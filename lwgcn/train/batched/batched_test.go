package batched

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gomlx/gomlx/core/tensors"

	"github.com/lwgcn/toolkit/internal/dstest"
	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/datasets"
	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

// Tolerances of a run in a batch against the same run alone. Both compute
// the same float32 operations, except that products are summed in another
// order (fused [F, R·H] projections, products batched over runs): a few
// ulp (1e-7 relative) per product. Losses then agree to about 4e-7
// (relative) over the tests' epochs. Weights drift more (2e-5 on Texas
// after 8 epochs): Adam divides a step by sqrt(v), so a weight whose
// gradient is rounding noise (a feature column nearly absent from the
// training nodes) moves by up to the learning rate on noise alone. The
// tolerances sit 25-250x above what the tests observe and far below what a
// mixed-up run gives (another split or dropout mask changes the first
// epoch's loss in the second or third decimal: the planted-fault check).
const (
	lossTol   = 1e-4 // relative to max(1, |loss|)
	weightTol = 5e-4 // absolute, on weights of magnitude ~0.1-1
)

// Largest differences seen (logged by the tests, to keep the tolerances honest).
var maxLossDiff, maxWeightDiff float64

// tinyGraph: n nodes in c classes, edges mostly within class, noisy class
// features (sparse when sparse is set, else dense and dense enough to stay
// a dense matrix), and three random splits.
func tinyGraph(t testing.TB, n, c int, sparse bool, seed uint64) *graph.Graph {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 7))
	labels := make([]int32, n)
	for i := range labels {
		labels[i] = int32(r.IntN(c))
	}
	var src, dst []int32
	for i := range n {
		for range 3 {
			j := r.IntN(n)
			if r.Float64() < 0.6 {
				for k := 0; k < 20 && labels[j] != labels[i]; k++ {
					j = r.IntN(n)
				}
			}
			if j != i {
				src, dst = append(src, int32(i), int32(j)), append(dst, int32(j), int32(i))
			}
		}
	}
	f := 4 * c
	x := make([]float32, n*f)
	for i := range n {
		if r.Float64() < 0.5 {
			x[i*f+int(labels[i])] = 1
		}
		x[i*f+c+r.IntN(3*c)] = 1 + r.Float32()
		if !sparse {
			for k := range f {
				x[i*f+k] += r.Float32()
			}
		}
	}
	feats, err := graph.NewDenseFeatures(n, f, x)
	if err != nil {
		t.Fatal(err)
	}
	var splits []graph.Split
	for range 3 {
		perm := r.Perm(n)
		tr, va, te := make([]bool, n), make([]bool, n), make([]bool, n)
		for k, v := range perm {
			switch {
			case k < n/3:
				tr[v] = true
			case k < 2*n/3:
				va[v] = true
			default:
				te[v] = true
			}
		}
		s, err := graph.SplitFromMasks(tr, va, te)
		if err != nil {
			t.Fatal(err)
		}
		splits = append(splits, s)
	}
	return graph.MustNew(graph.Spec{Name: "tiny", NumNodes: n, Src: src, Dst: dst, Features: feats,
		Labels: labels, NumClasses: c, Splits: splits})
}

// aloneRun trains one run with the unbatched trainer and returns its
// result and final weights by path.
func aloneRun(t *testing.T, g *graph.Graph, m nn.Model, epochs int, r train.Run) (*train.RunResult, map[string][]float32) {
	t.Helper()
	b, _ := backend.MustShared()
	tr, err := train.New(b, m, g, train.Config{Epochs: epochs, LR: 0.01, WeightDecay: 5e-4})
	if err != nil {
		t.Fatal(err)
	}
	rr, err := tr.RunOne(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	w := map[string][]float32{}
	for v := range tr.Store().IterVariables() {
		if !nn.IsParam(tr.Store(), v) {
			continue
		}
		val, err := v.Value()
		if err != nil {
			t.Fatal(err)
		}
		flat, err := tensors.CopyFlatData[float32](val)
		if err != nil {
			t.Fatal(err)
		}
		w[v.Path()] = flat
	}
	return rr, w
}

// compareRun checks a batched run against the same run alone.
func compareRun(t *testing.T, what string, got, want *train.RunResult) {
	t.Helper()
	if len(got.History) != len(want.History) {
		t.Fatalf("%s: %d epochs batched, %d alone", what, len(got.History), len(want.History))
	}
	for e := range want.History {
		g, w := got.History[e], want.History[e]
		for _, p := range [][3]any{{"train loss", g.TrainLoss, w.TrainLoss}, {"val loss", g.ValLoss, w.ValLoss}} {
			a, b := p[1].(float64), p[2].(float64)
			maxLossDiff = max(maxLossDiff, math.Abs(a-b)/max(1, math.Abs(b)))
			if math.Abs(a-b) > lossTol*max(1, math.Abs(b)) {
				t.Fatalf("%s: epoch %d: %s %.8f batched, %.8f alone", what, e+1, p[0], a, b)
			}
		}
		if g.TrainAcc != w.TrainAcc || g.ValAcc != w.ValAcc || g.TestAcc != w.TestAcc {
			t.Fatalf("%s: epoch %d: accuracies train/val/test %.4f/%.4f/%.4f batched, %.4f/%.4f/%.4f alone", what, e+1,
				g.TrainAcc, g.ValAcc, g.TestAcc, w.TrainAcc, w.ValAcc, w.TestAcc)
		}
	}
	if got.BestEpoch != want.BestEpoch || got.TestAcc != want.TestAcc || got.ValAcc != want.ValAcc {
		t.Fatalf("%s: best epoch %d (val %.4f, test %.4f) batched, %d (val %.4f, test %.4f) alone", what,
			got.BestEpoch, got.ValAcc, got.TestAcc, want.BestEpoch, want.ValAcc, want.TestAcc)
	}
}

func compareWeights(t *testing.T, what string, got, want map[string][]float32) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d weights batched (%v), %d alone", what, len(got), keys(got), len(want))
	}
	for path, w := range want {
		g, ok := got[path]
		if !ok || len(g) != len(w) {
			t.Fatalf("%s: weight %s: %d values batched, %d alone", what, path, len(g), len(w))
		}
		for i := range w {
			d := math.Abs(float64(g[i] - w[i]))
			maxWeightDiff = max(maxWeightDiff, d)
			if d > weightTol || math.IsNaN(d) {
				t.Fatalf("%s: weight %s[%d]: %v batched, %v alone", what, path, i, g[i], w[i])
			}
		}
	}
}

func keys(m map[string][]float32) []string {
	var k []string
	for p := range m {
		k = append(k, p)
	}
	return k
}

// checkBatchedEqualsAlone trains runs batched (batch size r) and each alone,
// and compares every run; it returns the batched result.
func checkBatchedEqualsAlone(t *testing.T, g *graph.Graph, m nn.Model, epochs, r int, runs []train.Run) *train.Result {
	t.Helper()
	b, _ := backend.MustShared()
	bt, err := New(b, m, g, Config{Epochs: epochs, LR: 0.01, WeightDecay: 5e-4, BatchSize: r})
	if err != nil {
		t.Fatal(err)
	}
	res, err := bt.Run(context.Background(), runs)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Runs) != len(runs) {
		t.Fatalf("%d results for %d runs", len(res.Runs), len(runs))
	}
	last := (len(runs) - 1) / r * r // first run of the last batch
	for i, run := range runs {
		what := fmt.Sprintf("%s run %d (split %d, seed %d)", m.Name(), i, run.Split, run.Seed)
		want, wantW := aloneRun(t, g, m, epochs, run)
		compareRun(t, what, res.Runs[i], want)
		if i >= last {
			gotW, err := bt.RunWeights(i - last)
			if err != nil {
				t.Fatal(err)
			}
			compareWeights(t, what, gotW, wantW)
		}
	}
	t.Logf("largest differences batched vs alone so far: loss %.2g (relative), weight %.2g", maxLossDiff, maxWeightDiff)
	return res
}

// differentRuns are runs on different splits and seeds (and one repeated
// split with another seed), so that a batch mixing up runs' masks, dropout
// or weights gives other numbers.
var differentRuns = []train.Run{{Split: 0, Seed: 1}, {Split: 1, Seed: 2}, {Split: 2, Seed: 3}, {Split: 0, Seed: 4}}

func TestBatchedEqualsAloneTiny(t *testing.T) {
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
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := tinyGraph(t, 60, 3, c.sparse, 5)
			// Batches of 3: the second batch (one run) is padded.
			res := checkBatchedEqualsAlone(t, g, c.m, 15, 3, differentRuns)
			// Runs that differ must give different losses (else the check
			// above could not tell runs apart).
			if res.Runs[0].History[0].TrainLoss == res.Runs[3].History[0].TrainLoss {
				t.Fatalf("runs on split 0 with seeds 1 and 4 have the same first loss %v", res.Runs[0].History[0].TrainLoss)
			}
		})
	}
}

// The same with every sparse matrix in the bucketed ELL layout, in chunks
// small enough that the batched products split them further.
func TestBatchedEqualsAloneTinyELL(t *testing.T) {
	dense, slots, chunk := sparse.DenseMaxElements, sparse.ELLChunkSlots, sparse.ChunkBytes
	sparse.DenseMaxElements, sparse.ELLChunkSlots, sparse.ChunkBytes = 0, 16, 1024
	t.Cleanup(func() { sparse.DenseMaxElements, sparse.ELLChunkSlots, sparse.ChunkBytes = dense, slots, chunk })
	g := tinyGraph(t, 60, 3, true, 6)
	checkBatchedEqualsAlone(t, g, models.GCN{Hidden: 8, Dropout: 0.5, Layers: 3}, 12, 4, differentRuns)
	checkBatchedEqualsAlone(t, g, models.MLP{Hidden: 8, Dropout: 0.5, InputDropout: 0.2}, 12, 4, differentRuns)
	checkBatchedEqualsAlone(t, g, models.GPRGNN{Hidden: 8, K: 5, Alpha: 0.2, Dropout: 0.5, DropProp: 0.5}, 12, 4, differentRuns)
	checkBatchedEqualsAlone(t, g, models.FAGCN{Hidden: 8, Layers: 2, Eps: 0.3, Dropout: 0.5}, 12, 4, differentRuns)
	// GCNII in the sorted-padded layout (which needs an ELL adjacency).
	checkBatchedEqualsAlone(t, g, models.GCNII{Layers: 4, Hidden: 8, Dropout: 0.5, Alpha: 0.1, Lambda: 0.5}, 12, 4, differentRuns)
}

// The real features and sizes of Texas (sparse bag-of-words features, the
// ELL paths of the sparse products) for a few epochs, 10 splits per batch.
func TestBatchedEqualsAloneTexas(t *testing.T) {
	if testing.Short() {
		t.Skip("real dataset")
	}
	g := datasets.Standard(dstest.Load(t, "texas"))
	runs := train.Runs([]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, 15)
	checkBatchedEqualsAlone(t, g, models.GCN{Hidden: 64, Dropout: 0.5}, 8, 10, runs)
	checkBatchedEqualsAlone(t, g, models.MLP{Hidden: 32, Dropout: 0.5}, 8, 10, runs[:3])
}

// GCNII with two parameter groups (the official Planetoid setting: weight
// decay 0.01 on the convolutions, 5e-4 on the dense layers).
func TestBatchedEqualsAloneGroups(t *testing.T) {
	g := tinyGraph(t, 50, 3, true, 8)
	m := models.GCNII{Layers: 3, Hidden: 8, Dropout: 0.5, Alpha: 0.1, Lambda: 0.5}
	opt := func() *train.Optimizer {
		return train.NewOptimizer(
			train.Group{Name: "conv", Adam: train.NewAdam(0.01, 0.01), Match: train.ScopePrefix("/conv")},
			train.Group{Name: "dense", Adam: train.NewAdam(0.01, 5e-4)})
	}
	b, _ := backend.MustShared()
	bt, err := New(b, m, g, Config{Epochs: 10, Optimizer: opt(), BatchSize: 3})
	if err != nil {
		t.Fatal(err)
	}
	runs := differentRuns[:3]
	res, err := bt.Run(context.Background(), runs)
	if err != nil {
		t.Fatal(err)
	}
	for i, run := range runs {
		tr, err := train.New(b, m, g, train.Config{Epochs: 10, Optimizer: opt()})
		if err != nil {
			t.Fatal(err)
		}
		want, err := tr.RunOne(context.Background(), run)
		if err != nil {
			t.Fatal(err)
		}
		compareRun(t, fmt.Sprintf("gcnii groups run %d", i), res.Runs[i], want)
	}
}

func TestForRefusesModelsWithoutBatchedForm(t *testing.T) {
	_, err := For(models.H2GCN{})
	if err == nil || err.Error() != `batched: no batched form of model "h2gcn" (batched: mlp, gcn, gcnii, gat, gprgnn, fagcn, and models with a Batched method such as LW-GCN's f_C)` {
		t.Fatalf("got %v", err)
	}
}

// The batch size chosen from memory: RunBytes by hand for a GCN, the
// budget's quotient, the cap, and arxiv-year's size (169,343 nodes, 128
// dense features, 5 classes, 1.17 M edges) staying within a 24 GiB machine.
func TestBatchSizeFromMemory(t *testing.T) {
	g := tinyGraph(t, 60, 3, false, 5) // dense features 60 x 12
	m := models.GCN{Hidden: 8, Dropout: 0.5}
	// weights 12·8 + 8·3 + 8 + 3 = 131; masks 60·8 + 3·60·12 = 2640; activations 12·60·(2·8+3) = 13680.
	want := int64(4 * (4*131 + 2640 + 13680))
	if got := RunBytes(g, m); got != want {
		t.Fatalf("RunBytes = %d, want %d", got, want)
	}
	if got := BatchSizeFor(g, m, 3*want+1); got != 3 {
		t.Fatalf("BatchSizeFor(3 runs' budget) = %d, want 3", got)
	}
	if got := BatchSizeFor(g, m, 0); got != MaxBatchSize {
		t.Fatalf("BatchSizeFor(default budget) = %d, want the cap %d", got, MaxBatchSize)
	}
	if got := BatchSizeFor(g, m, want-1); got != 0 {
		t.Fatalf("BatchSizeFor(below one run) = %d, want 0", got)
	}
	b, _ := backend.MustShared()
	bt, err := New(b, m, g, Config{Epochs: 1, LR: 0.01, MemoryBudget: want - 1})
	if err != nil {
		t.Fatal(err)
	}
	_, err = bt.Run(context.Background(), differentRuns)
	if err == nil || !strings.Contains(err.Error(), "batched: one run of gcn on tiny needs about 0.0 GB, above the 0.0 GB budget") {
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
	r := BatchSizeFor(big, gm, 0)
	if total := int64(r) * RunBytes(big, gm); r < 1 || total > DefaultMemoryBudget {
		t.Fatalf("arxiv-sized GCN: batch %d of %d bytes each exceeds the %d-byte budget", r, RunBytes(big, gm), int64(DefaultMemoryBudget))
	}
	t.Logf("arxiv-sized GCN (256 hidden): %d runs per batch, %.2f GB per run", r, float64(RunBytes(big, gm))/1e9)
}

// GAT's estimate adds its per-edge buffers to the dense part (hidden =
// heads x hidden), by hand on the tiny graph.
func TestRunBytesGAT(t *testing.T) {
	g := tinyGraph(t, 60, 3, false, 5) // dense features 60 x 12
	m := models.GAT{Hidden: 4, Heads: 2, OutHeads: 1}
	e := int64(len(g.Src()) + 60)
	// hidden 8: weights 12·8 + 8·3 + 8 + 3 = 131; masks 60·8 + 3·60·12 = 2640; activations 12·60·(2·8+3) = 13680;
	// per edge 8·2 + 2·8 + 8·1 + 2·1·3 = 46.
	want := 4 * (4*131 + 2640 + 13680 + 46*e)
	if got := RunBytes(g, m); got != want {
		t.Fatalf("RunBytes(GAT) = %d, want %d (%d edges)", got, want, e)
	}
}

// GPRGNN's estimate adds its K+1 propagated [N, C] matrices to the MLP's,
// by hand on the tiny graph.
func TestRunBytesGPRGNN(t *testing.T) {
	g := tinyGraph(t, 60, 3, false, 5) // dense features 60 x 12
	m := models.GPRGNN{Hidden: 8, K: 10}
	// As GCN with 8 hidden: weights 131, masks 2640, activations 13680; propagation (4·11 + 1)·60·3 = 8100.
	want := int64(4 * (4*131 + 2640 + 13680 + 8100))
	if got := RunBytes(g, m); got != want {
		t.Fatalf("RunBytes(GPRGNN) = %d, want %d", got, want)
	}
}

// FAGCN's estimate: the dense part with layers+1 layers plus 8 per-edge
// buffers per FAConv layer, by hand on the tiny graph.
func TestRunBytesFAGCN(t *testing.T) {
	g := tinyGraph(t, 60, 3, false, 5) // dense features 60 x 12
	m := models.FAGCN{Hidden: 8, Layers: 2}
	e := int64(len(g.Src()))
	// 3 layers of 8: weights 12·8 + 8·8 + 8·3 + 2·8 + 3 = 203; masks 60·8·2 + 3·60·12 = 3120;
	// activations 12·60·(3·8+3) = 19440; per edge 8·2 = 16.
	want := 4 * (4*203 + 3120 + 19440 + 16*e)
	if got := RunBytes(g, m); got != want {
		t.Fatalf("RunBytes(FAGCN) = %d, want %d (%d edges)", got, want, e)
	}
}

// TestBatchedSelectionEqualsAlone: GCNII's selection (lowest validation loss,
// patience) stops each batched run where the same run alone stops, with the
// same epochs and the same reported epoch; the batch ends with its last run.
func TestBatchedSelectionEqualsAlone(t *testing.T) {
	g := tinyGraph(t, 60, 3, true, 9)
	m := models.GCN{Hidden: 8, Dropout: 0.5}
	sel := train.Selection{By: train.ByValLoss, Patience: 5}
	b, _ := backend.MustShared()
	const epochs = 150
	bt, err := New(b, m, g, Config{Epochs: epochs, LR: 0.05, WeightDecay: 5e-4, BatchSize: 4, Selection: sel})
	if err != nil {
		t.Fatal(err)
	}
	res, err := bt.Run(context.Background(), differentRuns)
	if err != nil {
		t.Fatal(err)
	}
	stops := map[int]bool{}
	for i, run := range differentRuns {
		tr, err := train.New(b, m, g, train.Config{Epochs: epochs, LR: 0.05, WeightDecay: 5e-4, Selection: sel})
		if err != nil {
			t.Fatal(err)
		}
		want, err := tr.RunOne(context.Background(), run)
		if err != nil {
			t.Fatal(err)
		}
		if want.Epochs == epochs {
			t.Fatalf("run %d alone never stopped: make the test's runs overfit", i)
		}
		stops[want.Epochs] = true
		got := res.Runs[i]
		if got.Epochs != want.Epochs || math.Abs(got.ValLoss-want.ValLoss) > lossTol*max(1, want.ValLoss) {
			t.Fatalf("run %d: %d epochs (val loss %v) batched, %d (%v) alone", i, got.Epochs, got.ValLoss, want.Epochs, want.ValLoss)
		}
		compareRun(t, fmt.Sprintf("selection run %d", i), got, want)
	}
	if len(stops) < 2 {
		t.Fatalf("every run stopped at the same epoch %v: the test cannot tell a batch-wide stop from per-run stops", stops)
	}
	if _, err := New(b, m, g, Config{Epochs: 3, LR: 0.01, Selection: train.Selection{By: train.ByValROCAUC}}); err == nil ||
		!strings.Contains(err.Error(), "ROC-AUC selection is not supported") {
		t.Fatalf("ROC-AUC: error %v", err)
	}
}
