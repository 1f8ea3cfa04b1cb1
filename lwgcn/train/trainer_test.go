package train

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
)

// plantedGraph: n nodes in c classes, edges mostly within class, noisy
// class-indicator features (sparse), two random splits.
func plantedGraph(t testing.TB, n, c int, seed uint64) *graph.Graph {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 1))
	labels := make([]int32, n)
	for i := range labels {
		labels[i] = int32(i % c)
	}
	var src, dst []int32
	for i := range n {
		for range 3 {
			j := r.IntN(n)
			if r.Float64() < 0.7 {
				j = (j/c)*c + int(labels[i])
				if j >= n {
					j -= c
				}
			}
			src, dst = append(src, int32(i), int32(j)), append(dst, int32(j), int32(i))
		}
	}
	f := 3 * c
	x := make([]float32, n*f)
	for i := range n {
		if r.Float64() < 0.6 {
			x[i*f+int(labels[i])] = 1
		}
		x[i*f+c+r.IntN(2*c)] = 1
	}
	feats, err := graph.NewDenseFeatures(n, f, x)
	if err != nil {
		t.Fatal(err)
	}
	var splits []graph.Split
	for range 2 {
		perm := r.Perm(n)
		tr, va, te := make([]bool, n), make([]bool, n), make([]bool, n)
		for k, v := range perm {
			switch {
			case k < n/2:
				tr[v] = true
			case k < 3*n/4:
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
	return graph.MustNew(graph.Spec{Name: "planted", NumNodes: n, Src: src, Dst: dst, Features: feats,
		Labels: labels, NumClasses: c, Splits: splits})
}

func quickTrainer(t *testing.T, g *graph.Graph, m nn.Model, cfg Config) *Trainer {
	t.Helper()
	if cfg.Epochs == 0 {
		cfg.Epochs = 30
	}
	if cfg.LR == 0 && cfg.Optimizer == nil {
		cfg.LR, cfg.WeightDecay = 0.01, 5e-4
	}
	tr, err := New(testBackend(t), m, g, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func TestGCNLearnsAndSeedsRepeat(t *testing.T) {
	g := plantedGraph(t, 90, 3, 1)
	m := models.GCN{Hidden: 16, Dropout: 0.5}
	run := func(seed int64) *Result {
		res, err := quickTrainer(t, g, m, Config{Epochs: 40}).Run(context.Background(), Runs([]int{0, 1}, seed))
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	a, b, c := run(15), run(15), run(16)
	if a.TestAcc.Mean < 0.6 {
		t.Fatalf("GCN on a planted-partition graph: test accuracy %.3f, want > 0.6", a.TestAcc.Mean)
	}
	for i := range a.Runs {
		ha, hb := a.Runs[i].History, b.Runs[i].History
		for e := range ha {
			if ha[e].TrainLoss != hb[e].TrainLoss || ha[e].ValAcc != hb[e].ValAcc || ha[e].TestAcc != hb[e].TestAcc {
				t.Fatalf("run %d epoch %d differs with the same seed: %+v vs %+v", i, e+1, ha[e], hb[e])
			}
		}
	}
	same := true
	for e := range a.Runs[0].History {
		if a.Runs[0].History[e].TrainLoss != c.Runs[0].History[e].TrainLoss {
			same = false
		}
	}
	if same {
		t.Fatal("different seeds gave identical training losses")
	}
	// Mean ± population std over runs.
	x, y := a.Runs[0].TestAcc, a.Runs[1].TestAcc
	if math.Abs(a.TestAcc.Mean-(x+y)/2) > 1e-12 || math.Abs(a.TestAcc.Std-math.Abs(x-y)/2) > 1e-12 {
		t.Fatalf("mean ± std %v ± %v for runs %v, %v", a.TestAcc.Mean, a.TestAcc.Std, x, y)
	}
	if !strings.Contains(a.String(), "population std") {
		t.Fatalf("summary %q does not say which std", a.String())
	}
}

// scriptedModel has one weight whose value is set to the epoch number, and
// outputs whose validation accuracy follows a script: at epoch e the first
// script[e-1] validation nodes are right. Its wrong-class log-probability is
// -epoch, so kept outputs reveal their epoch. At epoch nanAt the loss is NaN.
type scriptedModel struct {
	script []int
	nanAt  int
	split  graph.Split
	n, c   int
}

func (s *scriptedModel) Name() string { return "scripted" }

func (s *scriptedModel) Prepare(g *graph.Graph, in *nn.Inputs) error {
	if err := nn.AddGraphBasics(in, g); err != nil {
		return err
	}
	// rank of each validation node (or a large number).
	rank := make([]float32, g.NumNodes())
	for i := range rank {
		rank[i] = 1e9
	}
	for k, v := range s.split.Val {
		rank[v] = float32(k)
	}
	in.SetFloat("valrank", rank, g.NumNodes())
	return nil
}

func (s *scriptedModel) Forward(*model.Scope, *nn.Nodes, bool) *Node { panic("unused") }

func (s *scriptedModel) RunBytes(*graph.Graph) int64 { return 0 }

func (s *scriptedModel) epoch(scope *model.Scope, g *Graph, in *nn.Nodes, _ *Optimizer) EpochNodes {
	counter := scope.In("counter").VariableWithValue("epochs", 0.0).SetTrainable(false)
	ep := AddScalar(counter.NodeValue(g), 1)
	counter.SetNodeValue(ep)
	// A model weight (snapshotted as the best weights) equal to the epoch.
	ms := scope.In("model")
	w := nn.Param(ms, g, "w", dtypes.Float64, nn.ZeroInit, nil, 2)
	ms.GetVariable("w").SetNodeValue(Add(Mul(w, ZerosLike(w)), BroadcastToDims(ep, 2)))
	script := Const(g, s.script)
	count := ConvertDType(Gather(ConvertDType(script, dtypes.Float64), ExpandAxes(ConvertDType(AddScalar(ep, -1), dtypes.Int32), 0)), dtypes.Float64)
	right := LessThan(ConvertDType(in.Get("valrank"), dtypes.Float64), BroadcastToDims(count, s.n))
	labels := in.Get(nn.InputLabels)
	other := ConvertDType(Mod(AddScalar(labels, 1), Scalar(g, dtypes.Int32, s.c)), dtypes.Int32)
	pred := Where(right, labels, other)
	onehot := OneHot(pred, s.c, dtypes.Float64)
	logp := Sub(onehot, OnesLike(onehot))                      // 0 for the predicted class, -1 elsewhere ...
	logp = Mul(logp, ExpandAxes(BroadcastToDims(ep, s.n), -1)) // ... times the epoch
	loss := ReduceAllSum(ZerosLike(ep))
	if s.nanAt > 0 {
		nanIf := Where(Equal(ep, Scalar(g, dtypes.Float64, float64(s.nanAt))), Scalar(g, dtypes.Float64, math.NaN()),
			Scalar(g, dtypes.Float64, 0))
		loss = Add(loss, nanIf)
	}
	_ = shapes.Make
	return EpochNodes{TrainLoss: Reshape(loss, 1), LogProbs: logp}
}

func TestBestEpochAndWeightCopies(t *testing.T) {
	g := plantedGraph(t, 40, 2, 2)
	s := &scriptedModel{script: []int{1, 4, 4, 2, 4, 3}, split: g.Splits()[0], n: 40, c: 2}
	tr := quickTrainer(t, g, s, Config{Epochs: len(s.script), Epoch: s.epoch})
	rr, err := tr.RunOne(context.Background(), Run{Split: 0, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	nVal := float64(len(s.split.Val))
	if rr.BestEpoch != 2 || rr.ValAcc != 4/nVal {
		t.Fatalf("best epoch %d (val %v), want 2 (strictly greater, first wins), val %v", rr.BestEpoch, rr.ValAcc, 4/nVal)
	}
	if rr.TestAcc != rr.History[1].TestAcc {
		t.Fatalf("test accuracy %v is not epoch 2's (%v)", rr.TestAcc, rr.History[1].TestAcc)
	}
	// Kept outputs are epoch 2's (wrong-class log-probability -2), although
	// the model ran 4 more epochs.
	lp := tensors.MustCopyFlatData[float64](rr.LogProbs)
	minLP := 0.0
	for _, v := range lp {
		minLP = min(minLP, v)
	}
	if minLP != -2 {
		t.Fatalf("kept log-probabilities have minimum %v, want -2 (epoch 2's)", minLP)
	}
	w := tensors.MustCopyFlatData[float64](rr.Weights["/model/w"])
	if w[0] != 2 || w[1] != 2 {
		t.Fatalf("kept weights %v, want epoch 2's [2 2]", w)
	}
	cur := tensors.MustCopyFlatData[float64](tr.Store().GetVariable("/model/w").MustValue())
	if cur[0] != 6 {
		t.Fatalf("current weight %v, want 6 after 6 epochs", cur)
	}
	// A second run does not invalidate the first run's copies.
	if _, err := tr.RunOne(context.Background(), Run{Split: 0, Seed: 2}); err != nil {
		t.Fatal(err)
	}
	if w := tensors.MustCopyFlatData[float64](rr.Weights["/model/w"]); w[0] != 2 {
		t.Fatalf("kept weights changed to %v by a later run", w)
	}
}

func TestNaNStopsNamingTheEpoch(t *testing.T) {
	g := plantedGraph(t, 40, 2, 3)
	s := &scriptedModel{script: []int{1, 2, 3, 4, 5}, nanAt: 3, split: g.Splits()[0], n: 40, c: 2}
	tr := quickTrainer(t, g, s, Config{Epochs: 5, Epoch: s.epoch})
	_, err := tr.RunOne(context.Background(), Run{Split: 0, Seed: 1})
	if err == nil || !errors.Is(err, ErrNonFinite) || !strings.Contains(err.Error(), "epoch 3:") {
		t.Fatalf("err = %v, want a non-finite error naming epoch 3", err)
	}
	// A real divergence: a huge learning rate.
	tr = quickTrainer(t, g, models.MLP{Hidden: 8}, Config{Epochs: 50, LR: 1e30})
	_, err = tr.RunOne(context.Background(), Run{Split: 0, Seed: 1})
	if err == nil || !(errors.Is(err, ErrNonFinite) || errors.Is(err, ErrDiverged)) || !strings.Contains(err.Error(), "epoch ") {
		t.Fatalf("lr 1e30: err = %v, want a non-finite or diverged error naming the epoch", err)
	}
}

// cancelAt cancels the context after a given epoch.
type cancelAt struct {
	Silent
	epoch  int
	cancel func()
}

func (c cancelAt) EndEpoch(s EpochStats) {
	if s.Epoch == c.epoch {
		c.cancel()
	}
}

func TestCheckpointResumeRepeatsExactly(t *testing.T) {
	g := plantedGraph(t, 60, 3, 4)
	m := models.GCN{Hidden: 8, Dropout: 0.5}
	cfg := Config{Epochs: 12}
	full, err := quickTrainer(t, g, m, cfg).RunOne(context.Background(), Run{Split: 1, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	cfg.CheckpointDir, cfg.CheckpointEvery = t.TempDir(), 4
	resumed := interruptAndResume(t, g, m, cfg, 6)
	if !resumed.Resumed {
		t.Fatal("run did not resume from its checkpoint")
	}
	if resumed.TestAcc != full.TestAcc || resumed.BestEpoch != full.BestEpoch || resumed.ValAcc != full.ValAcc {
		t.Fatalf("resumed %v, uninterrupted %v", resumed, full)
	}
	last := resumed.History[len(resumed.History)-1]
	if want := full.History[11]; last.Epoch != 12 || last.TrainLoss != want.TrainLoss || last.ValAcc != want.ValAcc {
		t.Fatalf("resumed epoch 12 %+v, uninterrupted %+v", last, want)
	}
	// Finished: a third trainer returns the stored result without training.
	again, err := quickTrainer(t, g, m, cfg).RunOne(context.Background(), Run{Split: 1, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if again.TestAcc != full.TestAcc || again.LogProbs == nil || len(again.Weights) == 0 {
		t.Fatalf("finished checkpoint gave %v (log-probs %v, %d weights)", again, again.LogProbs != nil, len(again.Weights))
	}
}

// interruptAndResume trains run (split 1, seed 7) with cfg's checkpoints,
// cancels it after epoch stopAt, and returns the run a new trainer resumes
// from the checkpoint.
func interruptAndResume(t *testing.T, g *graph.Graph, m nn.Model, cfg Config, stopAt int) *RunResult {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg.Progress = cancelAt{epoch: stopAt, cancel: cancel}
	if _, err := quickTrainer(t, g, m, cfg).RunOne(ctx, Run{Split: 1, Seed: 7}); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: err = %v", err)
	}
	cfg.Progress = nil
	resumed, err := quickTrainer(t, g, m, cfg).RunOne(context.Background(), Run{Split: 1, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	return resumed
}

func TestConfigErrors(t *testing.T) {
	g := plantedGraph(t, 20, 2, 5)
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{Epochs: 0, LR: 0.01}, "epochs must be positive"},
		{Config{Epochs: 1, LR: 0}, "learning rate must be positive"},
		{Config{Epochs: 1, LR: 0.1, WeightDecay: -1}, "weight decay must be >= 0"},
		{Config{Epochs: 1, LR: 0.1, Lagged: &LaggedEpoch{FinishAndStep: StandardEpoch(models.MLP{Hidden: 4})}},
			"Config.Lagged needs FinishAndStep and Finish"},
		{Config{Epochs: 1, LR: 0.1, Lagged: &LaggedEpoch{}, Epoch: StandardEpoch(models.MLP{Hidden: 4})},
			"Config.Lagged excludes Config.Epoch and Config.Phases"},
	} {
		if _, err := New(testBackend(t), models.MLP{Hidden: 4}, g, tc.cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("config %+v: err = %v, want %q", tc.cfg, err, tc.want)
		}
	}
	tr := quickTrainer(t, g, models.MLP{Hidden: 4}, Config{Epochs: 1})
	if _, err := tr.RunOne(context.Background(), Run{Split: 5}); err == nil || !strings.Contains(err.Error(), "split 5 out of range") {
		t.Errorf("bad split: err = %v", err)
	}
}

// withPhaseExtra wraps an epoch function to report its phase as an extra.
func withPhaseExtra(epoch EpochFunc, phase float64) EpochFunc {
	return func(scope *model.Scope, g *Graph, in *nn.Nodes, opt *Optimizer) EpochNodes {
		ep := epoch(scope, g, in, opt)
		ep.Extra = map[string]*Node{"phase": Reshape(Scalar(g, dtypes.Float64, phase), 1)}
		return ep
	}
}

// TestPhasesContinueOneRun: a run split into phases of the same epoch
// function, each its own compiled graph, repeats the run of one graph
// exactly (the weights, Adam state and dropout RNG carry over), and each
// epoch runs in its phase; a checkpoint resumes into the right phase.
func TestPhasesContinueOneRun(t *testing.T) {
	g := plantedGraph(t, 60, 3, 4)
	m := models.GCN{Hidden: 8, Dropout: 0.5}
	one, err := quickTrainer(t, g, m, Config{Epochs: 9, Epoch: withPhaseExtra(StandardEpoch(m), 0)}).
		RunOne(context.Background(), Run{Split: 1, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	phases := []Phase{{Epochs: 2, Epoch: withPhaseExtra(StandardEpoch(m), 1)},
		{Epochs: 3, Epoch: withPhaseExtra(StandardEpoch(m), 2)}, {Epoch: withPhaseExtra(StandardEpoch(m), 3)}}
	cfg := Config{Epochs: 9, Phases: phases}
	split, err := quickTrainer(t, g, m, cfg).RunOne(context.Background(), Run{Split: 1, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	wantPhase := []float64{1, 1, 2, 2, 2, 3, 3, 3, 3}
	for e, es := range split.History {
		if ref := one.History[e]; es.TrainLoss != ref.TrainLoss || es.ValLoss != ref.ValLoss || es.TestAcc != ref.TestAcc {
			t.Fatalf("epoch %d in phases %+v, in one graph %+v", e+1, es, ref)
		}
		if es.Extra["phase"] != wantPhase[e] {
			t.Fatalf("epoch %d ran in phase %v, want %v", e+1, es.Extra["phase"], wantPhase[e])
		}
	}
	// Interrupted in phase 2, resumed: phase 2 then 3 again.
	cfg.CheckpointDir, cfg.CheckpointEvery = t.TempDir(), 1
	resumed := interruptAndResume(t, g, m, cfg, 4)
	if !resumed.Resumed || len(resumed.History) != 9 {
		t.Fatalf("resumed %v with %d epochs of history", resumed.Resumed, len(resumed.History))
	}
	for e := 4; e < 9; e++ {
		if es, ref := resumed.History[e], split.History[e]; es.TrainLoss != ref.TrainLoss || es.Extra["phase"] != ref.Extra["phase"] {
			t.Fatalf("resumed epoch %d %+v, uninterrupted %+v", e+1, es, ref)
		}
	}
}

func TestPhaseConfigErrors(t *testing.T) {
	g := plantedGraph(t, 20, 2, 5)
	m := models.MLP{Hidden: 4}
	std := StandardEpoch(m)
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{Epochs: 3, LR: 0.1, Epoch: std, Phases: []Phase{{Epoch: std}}}, "Config.Epoch and Config.Phases are exclusive"},
		{Config{Epochs: 3, LR: 0.1, Phases: []Phase{{Epoch: std}, {Epoch: std}}}, "phase 1: epochs must be >= 1 (0 only for the last phase), got 0"},
		{Config{Epochs: 3, LR: 0.1, Phases: []Phase{{Epochs: 1, Epoch: std}, {}}}, "phase 2 has no epoch function"},
	} {
		if _, err := New(testBackend(t), m, g, tc.cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("phases %+v: err = %v, want %q", tc.cfg.Phases, err, tc.want)
		}
	}
	// Phases reporting different extras are refused at compilation.
	tr := quickTrainer(t, g, m, Config{Epochs: 3, Phases: []Phase{{Epochs: 1, Epoch: withPhaseExtra(std, 1)}, {Epoch: std}}})
	if _, err := tr.RunOne(context.Background(), Run{Split: 0, Seed: 1}); err == nil ||
		!strings.Contains(err.Error(), "phase 2 reports extras [], phase 1 [phase]") {
		t.Fatalf("different extras: err = %v", err)
	}
}
