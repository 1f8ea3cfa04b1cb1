package zoo

import (
	"context"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

// ringChords16Graph is a 16-node graph with 3 classes, binary features correlated with
// the class, a ring plus random chords, and one split.
func ringChords16Graph(t *testing.T) *graph.Graph {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	const n, f = 16, 8
	labels := make([]int32, n)
	x := make([]float32, n*f)
	for i := range n {
		labels[i] = int32(i % 3)
		for j := range f {
			if rng.Float64() < 0.2 || j == int(labels[i]) {
				x[i*f+j] = 1
			}
		}
	}
	var src, dst []int32
	for i := range n {
		src, dst = append(src, int32(i)), append(dst, int32((i+1)%n))
		src, dst = append(src, int32(rng.IntN(n))), append(dst, int32(i))
	}
	feat, err := graph.NewDenseFeatures(n, f, x)
	if err != nil {
		t.Fatal(err)
	}
	return graph.MustNew(graph.Spec{Name: "ring-chords-16", NumNodes: n, Src: src, Dst: dst, Features: feat, Labels: labels,
		Splits: []graph.Split{{Train: []int32{0, 1, 2, 3, 4, 5, 6, 7}, Val: []int32{8, 9, 10, 11}, Test: []int32{12, 13, 14, 15}}}})
}

// trainOnRingChords16 trains entry name with h on the tiny graph and returns the run.
func trainOnRingChords16(t *testing.T, name string, h Hyper) (*train.Trainer, *train.RunResult) {
	t.Helper()
	b, info, err := backend.Shared()
	if err != nil {
		t.Fatal(err)
	}
	tr, err := NewTrainer(b, info, ringChords16Graph(t), name, h, nil)
	if err != nil {
		t.Fatal(err)
	}
	rr, err := tr.RunOne(context.Background(), train.Run{Split: 0, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	return tr, rr
}

func checkTinyRun(t *testing.T, rr *train.RunResult, epochs int) {
	t.Helper()
	if rr.Epochs != epochs || len(rr.History) != epochs {
		t.Fatalf("ran %d epochs (%d in history), want %d", rr.Epochs, len(rr.History), epochs)
	}
	for _, es := range rr.History {
		if math.IsNaN(es.TrainLoss) || es.TrainLoss <= 0 {
			t.Fatalf("epoch %d: train loss %v", es.Epoch, es.TrainLoss)
		}
	}
	if rr.TestAcc < 0 || rr.TestAcc > 1 || rr.BestEpoch < 1 {
		t.Fatalf("test accuracy %v, best epoch %d", rr.TestAcc, rr.BestEpoch)
	}
}

// checkRunRepeats: a second run with the same seed repeats the first exactly
// (weights, RNG and optimizer state are all reset between runs).
func checkRunRepeats(t *testing.T, tr *train.Trainer, first *train.RunResult) {
	t.Helper()
	again, err := tr.RunOne(context.Background(), train.Run{Split: 0, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	for i, es := range again.History {
		if es.TrainLoss != first.History[i].TrainLoss || es.ValLoss != first.History[i].ValLoss {
			t.Fatalf("epoch %d: second run train/val loss %v/%v, first %v/%v", es.Epoch, es.TrainLoss, es.ValLoss,
				first.History[i].TrainLoss, first.History[i].ValLoss)
		}
	}
}

func TestFAGCNEntry(t *testing.T) {
	e, ok := Lookup("fagcn")
	if !ok {
		t.Fatal("fagcn not registered")
	}
	h := e.Defaults("chameleon") // the official train.py defaults
	if h.Hidden != FAGCNHidden || h.Alpha != FAGCNEps || h.Layers != FAGCNLayers || h.WeightDecay != 5e-5 {
		t.Fatalf("chameleon defaults %+v", h)
	}
	if h := e.Defaults("texas"); h.Hidden != 64 || h.LR != 0.05 { // tuned on validation
		t.Fatalf("texas defaults %+v", h)
	}
	h.Epochs = 15
	tr, rr := trainOnRingChords16(t, "fagcn", h)
	checkTinyRun(t, rr, 15)
	checkRunRepeats(t, tr, rr)
	// The entry's graph: row-normalised features, symmetric, no self loops.
	g := FAGCNGraph(ringChords16Graph(t), Hyper{})
	if !g.IsSymmetric() || g.NumSelfLoops() != 0 {
		t.Fatalf("FAGCN graph symmetric %v, self loops %d", g.IsSymmetric(), g.NumSelfLoops())
	}
	for i, s := range g.Features().RowSums() {
		if math.Abs(float64(s)-1) > 1e-6 {
			t.Fatalf("row %d of the features sums to %v", i, s)
		}
	}
	h.Dropout = 1
	if _, _, err := e.Build(h); err == nil || !strings.Contains(err.Error(), "dropout") {
		t.Fatalf("dropout 1: error %v", err)
	}
}

func TestSuperGATEntry(t *testing.T) {
	e, _ := Lookup("supergat")
	for _, att := range []float64{0, 1} {
		h := e.Defaults("chameleon").With(SuperGATAttentionKey, att).With(SuperGATLambdaKey, 1)
		h.Epochs = 12
		tr, rr := trainOnRingChords16(t, "supergat", h)
		checkTinyRun(t, rr, 12)
		for _, es := range rr.History {
			// The link loss is a mean of -log σ(·) terms: positive.
			if l := es.Extra[ExtraLinkLoss]; !(l > 0) {
				t.Fatalf("attention %v, epoch %d: link loss %v", att, es.Epoch, l)
			}
		}
		checkRunRepeats(t, tr, rr)
	}
	h := e.Defaults("texas").With(SuperGATAttentionKey, 2)
	if _, _, err := e.Build(h); err == nil || !strings.Contains(err.Error(), "attention") {
		t.Fatalf("attention 2: error %v", err)
	}
	h = e.Defaults("texas").With(SuperGATEdgeRatioKey, 2)
	if _, _, err := e.Build(h); err == nil || !strings.Contains(err.Error(), "edge_ratio") {
		t.Fatalf("edge ratio 2: error %v", err)
	}
	// Published settings: WebKB graphs take GAT-WebKB4Univ's learning rate.
	if h := e.Defaults("texas"); h.LR != 0.001 || h.Epochs != 500 || h.Get(SuperGATNegRatioKey, 0) != 0.7 {
		t.Fatalf("texas defaults %+v", h)
	}
}

func TestBMGCNEntryPhases(t *testing.T) {
	e, _ := Lookup("bmgcn")
	h := e.Defaults("texas")
	if h.Layers != 2 || h.Get(BMGCNEnhanceKey, 0) != 1 || h.Epochs != BMGCNMLPEpochs+BMGCNJointEpochs {
		t.Fatalf("texas defaults %+v", h)
	}
	const pre, epochs = 6, 14
	h.Epochs, h.LR = epochs, 0.02
	h = h.With(BMGCNMLPEpochsKey, pre)
	tr, rr := trainOnRingChords16(t, "bmgcn", h)
	checkTinyRun(t, rr, epochs)
	for _, es := range rr.History {
		phase := es.Extra[ExtraPhase]
		if es.Epoch <= pre {
			// Pre-training epochs report a prediction wrong everywhere.
			if phase != 0 || es.ValAcc != 0 || es.TrainAcc != 0 || es.TestAcc != 0 {
				t.Fatalf("epoch %d: phase %v, accuracies %v/%v/%v, want phase 0 and 0", es.Epoch, phase, es.TrainAcc,
					es.ValAcc, es.TestAcc)
			}
		} else if phase != 1 {
			t.Fatalf("epoch %d: phase %v, want 1", es.Epoch, phase)
		}
	}
	if rr.BestEpoch <= pre {
		t.Fatalf("best epoch %d is a pre-training epoch", rr.BestEpoch)
	}
	checkRunRepeats(t, tr, rr)

	h.Epochs = pre
	if _, _, err := e.Build(h); err == nil || !strings.Contains(err.Error(), "mlp_epochs") {
		t.Fatalf("mlp_epochs = epochs: error %v", err)
	}
}

// TestBMGCNPhasesEqualOneGraph: the entry's two phase graphs train every
// epoch exactly as BMGCNEpoch's single graph computing both phases
// (dropout on, so the pre-training graph must draw the joint model's masks
// for the joint epochs to match), and end with the same weights.
func TestBMGCNPhasesEqualOneGraph(t *testing.T) {
	e, _ := Lookup("bmgcn")
	const pre, epochs = 8, 14
	h := e.Defaults("chameleon").With(BMGCNMLPEpochsKey, pre)
	h.Epochs, h.LR = epochs, 0.5
	m, _, err := e.Build(h)
	if err != nil {
		t.Fatal(err)
	}
	b, info, err := backend.Shared()
	if err != nil {
		t.Fatal(err)
	}
	run := func(configure ...func(*train.Config)) *train.RunResult {
		tr, err := NewTrainer(b, info, ringChords16Graph(t), "bmgcn", h, nil, configure...)
		if err != nil {
			t.Fatal(err)
		}
		rr, err := tr.RunOne(context.Background(), train.Run{Split: 0, Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		return rr
	}
	phased := run()
	one := run(func(cfg *train.Config) {
		cfg.Phases, cfg.Epoch = nil, BMGCNEpoch(m.(models.BMGCN), pre, h.LR, h.WeightDecay, 1)
	})
	for i, es := range phased.History {
		ref := one.History[i]
		if es.TrainLoss != ref.TrainLoss || es.ValLoss != ref.ValLoss || es.TrainAcc != ref.TrainAcc ||
			es.ValAcc != ref.ValAcc || es.TestAcc != ref.TestAcc || !maps.Equal(es.Extra, ref.Extra) {
			t.Fatalf("epoch %d: phases %+v, one graph %+v", i+1, es, ref)
		}
	}
	// The joint phase must start from kept MLP weights that are not the
	// last pre-training epoch's, or the test could not see a phase graph
	// skip that.
	bestAcc := 0.0
	for _, es := range phased.History[:pre] {
		bestAcc = max(bestAcc, es.Extra[ExtraMLPValAcc])
	}
	if last := phased.History[pre-1].Extra[ExtraMLPValAcc]; last >= bestAcc {
		t.Fatalf("the last pre-training epoch has the best MLP validation accuracy (%v)", last)
	}
	if len(phased.Weights) == 0 || len(phased.Weights) != len(one.Weights) {
		t.Fatalf("%d and %d kept weights", len(phased.Weights), len(one.Weights))
	}
	for name, w := range phased.Weights {
		if !slices.Equal(tensors.MustCopyFlatData[float32](w), tensors.MustCopyFlatData[float32](one.Weights[name])) {
			t.Fatalf("weight %s differs", name)
		}
	}
}

// TestBMGCNKeepsBestMLP follows pre-training epoch by epoch: the kept MLP
// weights are those after the last epoch of best MLP validation accuracy,
// and the joint phase starts from them (its first Adam step moves every
// weight by at most lr).
func TestBMGCNKeepsBestMLP(t *testing.T) {
	e, _ := Lookup("bmgcn")
	h := e.Defaults("texas").With(BMGCNMLPEpochsKey, 8)
	h.Epochs, h.LR = 9, 0.5
	b, info, err := backend.Shared()
	if err != nil {
		t.Fatal(err)
	}
	tr, err := NewTrainer(b, info, ringChords16Graph(t), "bmgcn", h, nil)
	if err != nil {
		t.Fatal(err)
	}
	er, err := tr.PrepareRuns(train.Run{Split: 0, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	store := tr.Store()
	read := func(path string) []float64 {
		v := store.GetVariable(path)
		if v == nil {
			t.Fatalf("no variable %s", path)
		}
		val := v.MustValue()
		switch val.DType() {
		case dtypes.Float64:
			return tensors.MustCopyFlatData[float64](val)
		}
		f := tensors.MustCopyFlatData[float32](val)
		out := make([]float64, len(f))
		for i, x := range f {
			out[i] = float64(x)
		}
		return out
	}
	const w = "/mlp/fc1/weight"
	const kept = "/adam/bmgcn/best/mlp/fc1/weight"
	var bestWeights []float64
	for epoch := 1; epoch <= 8; epoch++ {
		if _, err := er.Epoch(); err != nil {
			t.Fatal(err)
		}
		cur := read(w)
		// After every pre-training epoch: kept == current when the current
		// accuracy reached the best so far (>=), else unchanged.
		k := read(kept)
		if equalF(k, cur) {
			bestWeights = cur
		} else if bestWeights == nil || !equalF(k, bestWeights) {
			t.Fatalf("epoch %d: kept weights are neither the current nor the previous best", epoch)
		}
	}
	if last := read(w); equalF(last, bestWeights) {
		t.Fatal("the best MLP epoch is the last one: the test cannot tell the kept weights from the last ones")
	}
	if _, err := er.Epoch(); err != nil { // first joint epoch
		t.Fatal(err)
	}
	after := read(w)
	for i := range after {
		if d := math.Abs(after[i] - bestWeights[i]); d > h.LR*(1+1e-4) {
			t.Fatalf("weight %d moved %v from the kept value in one Adam step (lr %v)", i, d, h.LR)
		}
	}
}

func equalF(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestGatedAdamMatchesAdam: with the gate open, gatedAdam's steps equal
// train.Optimizer's PyTorch Adam (weight decay included); with it closed,
// weights and state do not move.
func TestGatedAdamMatchesAdam(t *testing.T) {
	b, _, err := backend.Shared()
	if err != nil {
		t.Fatal(err)
	}
	target := []float64{1, -2, 0.5, 3}
	lossOf := func(scope *model.Scope, g *Graph) *Node {
		ms := scope.In("m")
		w := nn.Param(ms, g, "weight", dtypes.Float64, nn.Uniform(1), nil, 4)
		bias := nn.Param(ms, g, "bias", dtypes.Float64, nn.Uniform(1), nil, 1)
		d := Sub(AddScalar(Mul(w, w), 0), Const(g, target))
		return Add(ReduceAllSum(Mul(d, d)), ReduceAllSum(Mul(bias, bias)))
	}
	run := func(step func(scope *model.Scope, g *Graph, loss *Node, open *Node), gates []bool) []float64 {
		store := model.NewStore()
		nn.SetSeed(store, 7)
		exec := model.MustNewExec(b, store, func(scope *model.Scope, open *Node) *Node {
			g := open.Graph()
			nn.UseVariableParameters(scope, g)
			step(scope, g, lossOf(scope, g), open)
			return ScalarZero(g, dtypes.Float64)
		})
		for _, gate := range gates {
			exec.MustExec(gate)
		}
		w := tensors.MustCopyFlatData[float64](store.GetVariable("/m/weight").MustValue())
		return append(w, tensors.MustCopyFlatData[float64](store.GetVariable("/m/bias").MustValue())...)
	}
	opt := train.NewOptimizer(
		train.Group{Name: "nd", Adam: train.NewAdam(0.1, 0), Match: train.ScopePrefix("/m/bias")},
		train.Group{Name: "d", Adam: train.NewAdam(0.1, 0.01)})
	ref := run(func(scope *model.Scope, g *Graph, loss, _ *Node) { opt.Step(scope, g, loss) }, []bool{true, true, true})
	ga := gatedAdam{name: "test", groups: []gatedAdamGroup{
		{name: "nd", adam: train.NewAdam(0.1, 0), match: func(v *model.Variable) bool { return v.Name() == "bias" }},
		{name: "d", adam: train.NewAdam(0.1, 0.01), match: func(*model.Variable) bool { return true }},
	}}
	gated := func(scope *model.Scope, g *Graph, loss, open *Node) { ga.step(scope, g, loss, open) }
	got := run(gated, []bool{true, true, true})
	for i := range ref {
		if math.Abs(got[i]-ref[i]) > 1e-12 {
			t.Fatalf("open gate: parameter %d = %v, Adam %v", i, got[i], ref[i])
		}
	}
	// Closed steps in between change nothing: not the weights, not the
	// moments, not the step counts (bias corrections).
	got = run(gated, []bool{false, true, false, false, true, true, false})
	for i := range ref {
		if math.Abs(got[i]-ref[i]) > 1e-12 {
			t.Fatalf("closed gates interleaved: parameter %d = %v, Adam %v", i, got[i], ref[i])
		}
	}
	closed1, closed3, open1 := run(gated, []bool{false}), run(gated, []bool{false, false, false}), run(gated, []bool{true})
	if !equalF(closed1, closed3) || equalF(closed1, open1) {
		t.Fatalf("closed gates moved the weights (%v after one, %v after three; %v after an open one)", closed1,
			closed3, open1)
	}
}
