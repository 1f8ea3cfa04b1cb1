package zoo

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/gomlx/gomlx/core/tensors"

	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

// cycleChords10Graph: 10 nodes on a cycle with chords, 6 sparse binary features,
// 3 classes, two splits.
func cycleChords10Graph(t *testing.T) *graph.Graph {
	t.Helper()
	const n, f = 10, 6
	x := make([]float32, n*f)
	labels := make([]int32, n)
	for v := range n {
		labels[v] = int32(v % 3)
		x[v*f+v%3] = 1
		x[v*f+3+(v*7)%3] = 1
	}
	feats, err := graph.NewDenseFeatures(n, f, x)
	if err != nil {
		t.Fatal(err)
	}
	var src, dst []int32
	for v := range n {
		src, dst = append(src, int32(v)), append(dst, int32((v+1)%n))
	}
	src, dst = append(src, 0, 2, 5, 3), append(dst, 5, 7, 9, 3) // chords and a self loop
	return graph.MustNew(graph.Spec{Name: "cycle-chords-10", NumNodes: n, Src: src, Dst: dst, Features: feats.ToSparse(),
		Labels: labels, Splits: []graph.Split{
			{Train: []int32{0, 1, 2, 3, 4}, Val: []int32{5, 6, 7}, Test: []int32{8, 9}},
			{Train: []int32{5, 6, 7, 8, 9}, Val: []int32{0, 1, 2}, Test: []int32{3, 4}},
		}})
}

func trainOnCycleChords10(t *testing.T, name string, h Hyper) (*train.Trainer, *train.RunResult) {
	t.Helper()
	b, info, err := backend.Shared()
	if err != nil {
		t.Fatal(err)
	}
	tr, err := NewTrainer(b, info, cycleChords10Graph(t), name, h, nil)
	if err != nil {
		t.Fatal(err)
	}
	rr, err := tr.RunOne(context.Background(), train.Run{Split: 1, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if rr.Epochs != h.Epochs || len(rr.History) != h.Epochs {
		t.Fatalf("%s: ran %d epochs (%d recorded), want %d", name, rr.Epochs, len(rr.History), h.Epochs)
	}
	for _, es := range rr.History {
		if math.IsNaN(es.TrainLoss) || es.TrainAcc < 0 || es.TrainAcc > 1 || es.ValAcc < 0 || es.ValAcc > 1 {
			t.Fatalf("%s: bad epoch statistics %+v", name, es)
		}
	}
	return tr, rr
}

func storeScalar(t *testing.T, tr *train.Trainer, path string) float64 {
	t.Helper()
	v := tr.Store().GetVariable(path)
	if v == nil {
		t.Fatalf("no variable %s", path)
	}
	return tensors.MustCopyFlatData[float64](v.MustValue())[0]
}

func TestMixHopEntryTrains(t *testing.T) {
	h := mixhopDefaults("texas")
	h.Hidden, h.Epochs = 6, 4
	tr, _ := trainOnCycleChords10(t, "mixhop", h)
	// 1e-3·mean(q²) over the 3 powers: weight decay 2e-3/3 on q; none on the
	// batch-norm offsets; the official L2 (Keras 5e-4 = decay 1e-3) on the kernels.
	for path, want := range map[string]float64{"/adam/psum/weight_decay": 2e-3 / 3, "/adam/bn/weight_decay": 0,
		"/adam/kernels/weight_decay": 1e-3} {
		if got := storeScalar(t, tr, path); math.Abs(got-want) > 1e-15 {
			t.Fatalf("%s = %v, want %v", path, got, want)
		}
	}
	for _, p := range []string{"/adam/psum/psum/q_m", "/adam/bn/bn1/offset_m", "/adam/kernels/mixhop1/weight_p0_m"} {
		if tr.Store().GetVariable(p) == nil {
			t.Fatalf("optimizer state %s missing: wrong parameter group", p)
		}
	}
}

func TestH2GCNEntryTrains(t *testing.T) {
	h := h2gcnDefaults("texas")
	h.Hidden, h.Epochs = 4, 3
	trainOnCycleChords10(t, "h2gcn", h)
	// The transform drops self loops and row-normalises the features.
	e, _ := Lookup("h2gcn")
	g := e.Graph(cycleChords10Graph(t), Hyper{})
	if g.NumSelfLoops() != 0 || !g.IsSymmetric() {
		t.Fatalf("h2gcn graph: %d self loops, symmetric %v", g.NumSelfLoops(), g.IsSymmetric())
	}
	for _, s := range g.Features().RowSums() {
		if math.Abs(float64(s)-1) > 1e-6 {
			t.Fatalf("row sum %v, want 1", s)
		}
	}
}

func TestGPRGNNEntryTrains(t *testing.T) {
	h := gprgnnDefaults("texas")
	h.Hidden, h.Epochs = 5, 3
	tr, _ := trainOnCycleChords10(t, "gprgnn", h)
	// Official optimizer: no weight decay on γ, weight decay on the MLP.
	if got := storeScalar(t, tr, "/adam/prop/weight_decay"); got != 0 {
		t.Fatalf("γ weight decay %v, want 0", got)
	}
	if got := storeScalar(t, tr, "/adam/mlp/weight_decay"); got != 5e-4 {
		t.Fatalf("MLP weight decay %v, want 5e-4", got)
	}
	if tr.Store().GetVariable("/adam/prop/prop/gamma_offset_m") == nil {
		t.Fatal("γ is not in the prop group")
	}
}

func TestASGCEntryTrains(t *testing.T) {
	h := asgcDefaults("texas")
	h.Epochs = 3
	_, rr := trainOnCycleChords10(t, "asgc", h)
	// Zero-initialised logistic regression: the first loss is ln(3) (all
	// logits 0, no L2 penalty yet); later losses are smaller.
	if got := rr.History[0].TrainLoss; math.Abs(got-math.Log(3)) > 1e-6 {
		t.Fatalf("first training loss %v, want ln 3 = %v", got, math.Log(3))
	}
	if rr.History[2].TrainLoss >= rr.History[0].TrainLoss {
		t.Fatalf("loss did not decrease: %v -> %v", rr.History[0].TrainLoss, rr.History[2].TrainLoss)
	}
}

func TestMixHopGPRGNNPublishedDefaults(t *testing.T) {
	// GPRGNN's Reproduce_GPRGNN.sh.
	c := gprgnnDefaults("chameleon")
	if c.LR != 0.05 || c.Alpha != 1 || c.WeightDecay != 0 || c.Get("dprate", 0) != 0.7 || c.Get("k", 0) != 10 || c.Epochs != 1000 {
		t.Fatalf("gprgnn chameleon defaults %+v", c)
	}
	if s := gprgnnDefaults("squirrel"); s.Alpha != 0 || s.LR != 0.05 {
		t.Fatalf("gprgnn squirrel defaults %+v", s)
	}
	if x := gprgnnDefaults("texas"); x.LR != 0.05 || x.Alpha != 1 || x.WeightDecay != 5e-4 || x.Get("dprate", 0) != 0.5 {
		t.Fatalf("gprgnn texas defaults %+v", x)
	}
	// MixHop's trainer flags: input dropout 0.7, layer dropout 0.9.
	if m := mixhopDefaults("texas"); m.Dropout != 0.9 || m.Get("input_dropout", 0) != 0.7 {
		t.Fatalf("mixhop texas defaults %+v", m)
	}
}

func TestMixHopH2GCNGPRGNNASGCBuildErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		h    Hyper
		want string
	}{
		{"gprgnn", gprgnnDefaults("texas").With("k", -1), "extra k (propagation steps) must be >= 0, got -1"},
		{"gprgnn", Hyper{Hidden: 8, Alpha: 1.5}, "alpha (PPR teleport) must be in [0, 1], got 1.5"},
		{"mixhop", Hyper{Hidden: 2}, "hidden 2 is smaller than the 3 powers"},
		{"h2gcn", Hyper{Hidden: 8}, "layers (aggregation rounds K) must be >= 1, got 0"},
		{"h2gcn", Hyper{Hidden: 8, Layers: 1}.With("relu", 2), "extra relu must be 0 or 1, got 2"},
		{"asgc", asgcDefaults("texas").With("k", 1.5), "extra k (hops) must be a non-negative integer, got 1.5"},
		{"asgc", asgcDefaults("texas").With("c", 0), "extra c (inverse L2 strength) must be positive, got 0"},
	} {
		e, _ := Lookup(tc.name)
		_, _, err := e.Build(tc.h)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Fatalf("%s: got error %v, want %q", tc.name, err, tc.want)
		}
	}
}
