// Package runstest is the test harness of the runs axis (nn.Runs): it
// trains a model's runs in one computation (R > 1) and each alone (R = 1)
// with the same model code, and checks that every run is the same run.
package runstest

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/synth"
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
// epoch's loss in the second or third decimal).
const (
	LossTol   = 1e-4 // relative to max(1, |loss|)
	WeightTol = 5e-4 // absolute, on weights of magnitude ~0.1-1
	ExtraTol  = 1e-5 // absolute, on per-epoch extras (selection weights, auxiliary losses)
)

// Largest differences seen (logged, to keep the tolerances honest).
var maxLossDiff, maxWeightDiff float64

// Compare checks got, a run trained in a batch, against want, the same run
// alone: every epoch's losses, accuracies and extras, the reported epoch.
func Compare(t testing.TB, what string, got, want *train.RunResult) {
	t.Helper()
	if len(got.History) != len(want.History) {
		t.Fatalf("%s: %d epochs batched, %d alone", what, len(got.History), len(want.History))
	}
	for e := range want.History {
		g, w := got.History[e], want.History[e]
		for _, p := range [][3]any{{"train loss", g.TrainLoss, w.TrainLoss}, {"val loss", g.ValLoss, w.ValLoss}} {
			a, b := p[1].(float64), p[2].(float64)
			maxLossDiff = max(maxLossDiff, math.Abs(a-b)/max(1, math.Abs(b)))
			if !(math.Abs(a-b) <= LossTol*max(1, math.Abs(b))) {
				t.Fatalf("%s: epoch %d: %s %.8f batched, %.8f alone", what, e+1, p[0], a, b)
			}
		}
		if g.TrainAcc != w.TrainAcc || g.ValAcc != w.ValAcc || g.TestAcc != w.TestAcc {
			t.Fatalf("%s: epoch %d: accuracies train/val/test %.4f/%.4f/%.4f batched, %.4f/%.4f/%.4f alone", what, e+1,
				g.TrainAcc, g.ValAcc, g.TestAcc, w.TrainAcc, w.ValAcc, w.TestAcc)
		}
		for name, wv := range w.Extra {
			if gv, ok := g.Extra[name]; !ok || !(math.Abs(gv-wv) <= ExtraTol) {
				t.Fatalf("%s: epoch %d: %s %v batched, %v alone", what, e+1, name, gv, wv)
			}
		}
	}
	if got.BestEpoch != want.BestEpoch || got.TestAcc != want.TestAcc || got.ValAcc != want.ValAcc {
		t.Fatalf("%s: best epoch %d (val %.4f, test %.4f) batched, %d (val %.4f, test %.4f) alone", what,
			got.BestEpoch, got.ValAcc, got.TestAcc, want.BestEpoch, want.ValAcc, want.TestAcc)
	}
}

// CompareWeights checks a batched run's weights against the run's alone
// (both by variable path, in the order of the weight a run alone holds).
func CompareWeights(t testing.TB, what string, got, want map[string][]float32) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d weights batched, %d alone", what, len(got), len(want))
	}
	for path, w := range want {
		g, ok := got[path]
		if !ok || len(g) != len(w) {
			t.Fatalf("%s: weight %s: %d values batched, %d alone", what, path, len(g), len(w))
		}
		for i := range w {
			d := math.Abs(float64(g[i] - w[i]))
			maxWeightDiff = max(maxWeightDiff, d)
			if !(d <= WeightTol) {
				t.Fatalf("%s: weight %s[%d]: %v batched, %v alone", what, path, i, g[i], w[i])
			}
		}
	}
}

// Check trains runs with the trainers newTrainer makes: r per computation,
// then each alone (batch size 1), and compares every run, and the final
// weights of the last batch's runs. It returns the batched result.
func Check(t testing.TB, what string, newTrainer func(batch int) (*train.Trainer, error), runs []train.Run, r int) *train.Result {
	t.Helper()
	bt, err := newTrainer(r)
	if err != nil {
		t.Fatal(err)
	}
	res, err := bt.Run(context.Background(), runs)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Runs) != len(runs) || bt.BatchSize() != min(r, len(runs)) {
		t.Fatalf("%s: %d results for %d runs, batch of %d for %d", what, len(res.Runs), len(runs), bt.BatchSize(), r)
	}
	last := (len(runs) - 1) / r * r // first run of the last batch
	// A run the selection's patience stopped keeps training in its batch
	// while the others do: only the last batch's runs that ran as long as
	// it did end with the weights they end with alone.
	batchEpochs := 0
	for _, rr := range res.Runs[last:] {
		batchEpochs = max(batchEpochs, rr.Epochs)
	}
	for i, run := range runs {
		w := fmt.Sprintf("%s run %d (split %d, seed %d)", what, i, run.Split, run.Seed)
		tr, err := newTrainer(1)
		if err != nil {
			t.Fatal(err)
		}
		want, err := tr.RunOne(context.Background(), run)
		if err != nil {
			t.Fatal(err)
		}
		Compare(t, w, res.Runs[i], want)
		if i >= last && res.Runs[i].Epochs == batchEpochs {
			gotW, err := bt.RunWeights(i - last)
			if err != nil {
				t.Fatal(err)
			}
			wantW, err := tr.RunWeights(0)
			if err != nil {
				t.Fatal(err)
			}
			CompareWeights(t, w, gotW, wantW)
		}
		want.Finalize()
	}
	t.Logf("largest differences batched vs alone so far: loss %.2g (relative), weight %.2g", maxLossDiff, maxWeightDiff)
	return res
}

// Differ checks that runs 0 and 3 of res (same split, other seeds) start
// with different losses: else Check could not tell runs apart.
func Differ(t testing.TB, res *train.Result) {
	t.Helper()
	if a, b := res.Runs[0].History[0].TrainLoss, res.Runs[3].History[0].TrainLoss; a == b {
		t.Fatalf("runs on split 0 with seeds 1 and 4 have the same first loss %v", a)
	}
}

// DifferentRuns are runs on different splits and seeds (and one repeated
// split with another seed), so that a batch mixing up runs' masks, dropout
// or weights gives other numbers.
var DifferentRuns = []train.Run{{Split: 0, Seed: 1}, {Split: 1, Seed: 2}, {Split: 2, Seed: 3}, {Split: 0, Seed: 4}}

// Graph: n nodes in c classes, edges mostly within class, noisy class
// features (sparse when sparse is set, else dense and dense enough to stay
// a dense matrix), and three random splits.
func Graph(t testing.TB, n, c int, sparse bool, seed uint64) *graph.Graph {
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
	splits, err := synth.RandomSplits(labels, synth.SplitOptions{NumSplits: 3, TrainFraction: 1.0 / 3, ValFraction: 1.0 / 3}, r)
	if err != nil {
		t.Fatal(err)
	}
	return graph.MustNew(graph.Spec{Name: "tiny", NumNodes: n, Src: src, Dst: dst, Features: feats,
		Labels: labels, NumClasses: c, Splits: splits})
}
