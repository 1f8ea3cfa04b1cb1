package zoo

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/gomlx/gomlx/core/tensors"

	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

// ring12Graph: 12 nodes in 3 classes, binary features that carry the class
// (plus noise), a ring of edges, one split.
func ring12Graph(t *testing.T) *graph.Graph {
	t.Helper()
	const n, f = 12, 6
	x := make([]float32, n*f)
	labels := make([]int32, n)
	var src, dst []int32
	for i := range n {
		labels[i] = int32(i % 3)
		x[i*f+i%3] = 1
		x[i*f+3+(i*7)%3] = 1
		src, dst = append(src, int32(i)), append(dst, int32((i+1)%n))
	}
	feat, err := graph.NewDenseFeatures(n, f, x)
	if err != nil {
		t.Fatal(err)
	}
	return graph.MustNew(graph.Spec{Name: "ring-12", NumNodes: n, Src: src, Dst: dst, Features: feat, Labels: labels,
		NumClasses: 3, Splits: []graph.Split{{Train: []int32{0, 1, 2, 3, 4, 5}, Val: []int32{6, 7, 8}, Test: []int32{9, 10, 11}}}})
}

// TestLINKXSimPGCNGloGNNEntriesTrain: LINKX, SimP-GCN and GloGNN++ build from every
// dataset's defaults and train on a tiny graph: finite losses that go down,
// and the features (which give the class away) learnt.
func TestLINKXSimPGCNGloGNNEntriesTrain(t *testing.T) {
	b, info, err := backend.Shared()
	if err != nil {
		t.Fatal(err)
	}
	g := ring12Graph(t)
	for _, name := range []string{"linkx", "simpgcn", "glognn++"} {
		t.Run(name, func(t *testing.T) {
			e, ok := Lookup(name)
			if !ok {
				t.Fatalf("%s not registered", name)
			}
			for _, d := range []string{"texas", "wisconsin", "cornell", "chameleon", "squirrel", "cora", "citeseer",
				"chameleon_filtered", "squirrel_filtered", "pubmed"} {
				if _, _, err := e.Build(e.Defaults(d)); err != nil {
					t.Fatalf("defaults of %s: %v", d, err)
				}
			}
			h := e.Defaults("texas")
			h.Epochs, h.Hidden, h.Dropout, h.LR = 60, 8, 0, 0.02
			tr, err := NewTrainer(b, info, g, name, h, train.Silent{})
			if err != nil {
				t.Fatal(err)
			}
			res, err := tr.Run(context.Background(), train.Runs([]int{0}, 1))
			if err != nil {
				t.Fatal(err)
			}
			hist := res.Runs[0].History
			first, last := hist[0].TrainLoss, hist[len(hist)-1].TrainLoss
			if math.IsNaN(last) || !(last < first) {
				t.Fatalf("training loss %v -> %v", first, last)
			}
			if res.Runs[0].TrainAcc < 0.99 {
				t.Fatalf("train accuracy %v after %d epochs, want 1", res.Runs[0].TrainAcc, h.Epochs)
			}
			if name == "simpgcn" && hist[0].Extra[ExtraSSLLoss] <= 0 {
				t.Fatalf("self-supervised loss not reported: %v", hist[0].Extra)
			}
		})
	}
}

func TestLINKXSimPGCNGloGNNRejectBadSettings(t *testing.T) {
	for _, tc := range []struct {
		name, key string
		v         float64
		want      string
	}{
		{"glognn++", GloGNNGamma, 1, "gamma must be in [0, 1)"},
		{"glognn++", GloGNNOrders, 0, "orders must be >= 1"},
		{"simpgcn", SimPK, 0, "k >= 1"},
		{"linkx", LINKXLayersA, 0, "layers_a"},
	} {
		e, _ := Lookup(tc.name)
		if _, _, err := e.Build(e.Defaults("texas").With(tc.key, tc.v)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s with %s = %v: err = %v, want %q", tc.name, tc.key, tc.v, err, tc.want)
		}
	}
}

// TestLINKXGloGNNWeightDecayOfOffsets checks the decays on one epoch with no
// training node (zero loss, zero gradient), where only the weight decay
// moves the weights: AdamW (LINKX) gives p·(1 - lr·wd) for every weight and
// δ - lr·wd·(1 + δ) for the batch-norm scales 1 + δ; coupled Adam with the
// offset correction (GloGNN++) makes its first step on the gradient
// wd·(c + δ) = wd·c > 0 at δ = 0, so δ moves by -lr (up to Adam's eps),
// where plain Adam would leave it at 0.
func TestLINKXGloGNNWeightDecayOfOffsets(t *testing.T) {
	b, info, err := backend.Shared()
	if err != nil {
		t.Fatal(err)
	}
	g, err := ring12Graph(t).WithSplits([]graph.Split{{Val: []int32{6, 7, 8}, Test: []int32{9, 10, 11}}})
	if err != nil {
		t.Fatal(err)
	}
	const lr, wd = 0.01, 0.1
	values := func(tr *train.Trainer) map[string][]float32 {
		out := map[string][]float32{}
		for v := range tr.Store().IterVariables() {
			if v.Trainable && nn.IsParam(tr.Store(), v) {
				out[v.Path()] = tensors.MustCopyFlatData[float32](v.MustValue())
			}
		}
		return out
	}
	oneEpoch := func(name string, h Hyper) (before, after map[string][]float32) {
		h.LR, h.WeightDecay, h.Epochs = lr, wd, 1
		tr, err := NewTrainer(b, info, g, name, h, train.Silent{})
		if err != nil {
			t.Fatal(err)
		}
		er, err := tr.PrepareRuns(train.Run{Split: 0, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := er.Epoch(); err != nil { // compiles and creates the variables
			t.Fatal(err)
		}
		if er, err = tr.PrepareRuns(train.Run{Split: 0, Seed: 3}); err != nil {
			t.Fatal(err)
		}
		before = values(tr)
		if _, err := er.Epoch(); err != nil {
			t.Fatal(err)
		}
		return before, values(tr)
	}

	h := linkxSimpGloDefaults("linkx", "texas")
	h.Hidden, h.Layers = 4, 2
	before, after := oneEpoch("linkx", h)
	checked := 0
	for path, p := range before {
		for i := range p {
			want := p[i] * (1 - lr*wd)
			if strings.HasSuffix(path, "bn0/weight") {
				want = p[i] - lr*wd*(1+p[i])
			}
			if math.Abs(float64(after[path][i]-want)) > 1e-7 {
				t.Fatalf("linkx %s[%d]: %v -> %v, want %v", path, i, p[i], after[path][i], want)
			}
			checked++
		}
	}
	if _, ok := before["/mlpf/bn0/weight"]; !ok || checked == 0 {
		t.Fatalf("batch-norm scale not among the weights %v", len(before))
	}

	before, after = oneEpoch("glognn++", linkxSimpGloDefaults("glognn++", "texas"))
	for _, path := range []string{"/norm/diag_weight", "/norm/orders_weight"} {
		for i, v := range after[path] {
			if before[path][i] != 0 || math.Abs(float64(v)+lr) > 1e-6 {
				t.Fatalf("glognn++ %s[%d]: %v -> %v, want -lr = %v", path, i, before[path][i], v, -lr)
			}
		}
	}
}

// linkxSimpGloDefaults returns the registered entry's defaults for a dataset (tests).
func linkxSimpGloDefaults(name, dataset string) Hyper {
	e, _ := Lookup(name)
	return e.Defaults(dataset)
}
