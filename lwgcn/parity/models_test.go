package parity

import (
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/labelwise"
	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/train"
	"github.com/lwgcn/toolkit/lwgcn/zoo"
)

// EnvParityXLA names the XLA backend to compare with (a GOMLX_BACKEND value).
const EnvParityXLA = "LWGCN_PARITY_XLA"

const seed = 15

type pair struct {
	goB, xlaB compute.Backend
	xlaInfo   backend.Info
	err       error
	skip      string
}

var (
	pairOnce sync.Once
	shared   pair
)

// backends returns the pure-Go backend and the XLA one under test; it skips
// when no XLA backend is configured and fails when one is but cannot start.
func backends(t *testing.T) (goB, xlaB compute.Backend) {
	t.Helper()
	pairOnce.Do(func() {
		config := os.Getenv(EnvParityXLA)
		if config == "" {
			if os.Getenv(backend.EnvXLAPlugin) == "" {
				shared.skip = "no XLA backend to compare with: set " + EnvParityXLA + " (e.g. xla:cuda) or " +
					backend.EnvXLAPlugin + " (`make xla`; `make test` sets it)"
				return
			}
			config = "xla:cpu"
		}
		shared.goB, _, shared.err = backend.NewFor("go")
		if shared.err != nil {
			return
		}
		shared.xlaB, shared.xlaInfo, shared.err = backend.NewFor(config)
	})
	if shared.skip != "" {
		t.Skip(shared.skip)
	}
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.goB, shared.xlaB
}

// tinyGraph is a random directed graph with sparse binary features, every
// class present in the training split; small enough for quick compiles,
// large enough that every node has neighbours of several classes.
func tinyGraph(t *testing.T, n, f, c int, rng *rand.Rand) *graph.Graph {
	t.Helper()
	labels := make([]int32, n)
	for i := range labels {
		labels[i] = int32(i % c)
	}
	rng.Shuffle(n, func(i, j int) { labels[i], labels[j] = labels[j], labels[i] })
	seen := map[[2]int32]bool{}
	var src, dst []int32
	for u := range n {
		for range 3 {
			v := rng.IntN(n)
			if v == u || seen[[2]int32{int32(u), int32(v)}] {
				continue
			}
			seen[[2]int32{int32(u), int32(v)}] = true
			src, dst = append(src, int32(u)), append(dst, int32(v))
		}
	}
	rowPtr := []int32{0}
	var cols []int32
	var vals []float32
	for u := range n {
		for j := range f {
			// Class-dependent features, so that models learn something.
			if j%c == int(labels[u]) && rng.Float64() < 0.7 || rng.Float64() < 0.15 {
				cols, vals = append(cols, int32(j)), append(vals, 1)
			}
		}
		rowPtr = append(rowPtr, int32(len(cols)))
	}
	feats, err := graph.NewSparseFeatures(n, f, rowPtr, cols, vals)
	if err != nil {
		t.Fatal(err)
	}
	var split graph.Split
	for u := range n {
		switch {
		case u < 2*c || u%3 == 0:
			split.Train = append(split.Train, int32(u))
		case u%3 == 1:
			split.Val = append(split.Val, int32(u))
		default:
			split.Test = append(split.Test, int32(u))
		}
	}
	g, err := graph.New(graph.Spec{Name: "tiny", NumNodes: n, Src: src, Dst: dst, Features: feats, Labels: labels,
		NumClasses: c, Splits: []graph.Split{split}})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func toFloat64(t *testing.T, x *tensors.Tensor) []float64 {
	t.Helper()
	switch x.DType() {
	case dtypes.Float32:
		f := tensors.MustCopyFlatData[float32](x)
		d := make([]float64, len(f))
		for i, v := range f {
			d[i] = float64(v)
		}
		return d
	case dtypes.Float64:
		return tensors.MustCopyFlatData[float64](x)
	}
	t.Fatalf("unexpected dtype %s", x.DType())
	return nil
}

// pass is one backend's forward output, training loss, its gradients by
// variable path, and the initial weights.
type pass struct {
	out, loss []float64
	grads     map[string][]float64
	init      map[string][]float64
	compile   time.Duration
}

// evaluate builds m on g (with prep's extra inputs) on backend b, with
// weights initialised from seed, and returns the evaluation output (dropout
// off), the masked NLL on the training nodes, and its gradients.
func evaluate(t *testing.T, b compute.Backend, m nn.Model, g *graph.Graph, prep func(*nn.Inputs) error) pass {
	t.Helper()
	in := nn.NewInputs()
	in.Backend = b.String() // each backend's own layouts (sparse.Set)
	if err := m.Prepare(g, in); err != nil {
		t.Fatal(err)
	}
	if err := nn.SetSplitMasks(in, g, g.Splits()[0]); err != nil {
		t.Fatal(err)
	}
	if prep != nil {
		if err := prep(in); err != nil {
			t.Fatal(err)
		}
	}
	store := model.NewStore()
	nn.SetSeed(store, seed)
	var vars []*model.Variable
	exec, err := model.NewExec(b, store, func(scope *model.Scope, gr *Graph, params []*Node) []*Node {
		nn.UseVariableParameters(scope, gr)
		nodes := in.Nodes(params)
		out := m.Forward(scope, nodes, false)
		loss := train.Total(train.MaskedNLL(LogSoftmax(out, -1), nodes.Get(nn.InputLabels), nodes.Get(nn.InputTrainMask)))
		vars = vars[:0]
		var vs []*Node
		for v := range store.IterVariables() {
			if v.Trainable && v.InUseByGraph(gr) {
				vars = append(vars, v)
				vs = append(vs, v.NodeValue(gr))
			}
		}
		return append([]*Node{out, loss}, Gradient(loss, vs...)...)
	})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := exec.Compile(in.Shapes()...); err != nil {
		t.Fatalf("compiling on %s: %v", b.Name(), err)
	}
	p := pass{compile: time.Since(start), grads: map[string][]float64{}, init: map[string][]float64{}}
	if err := nn.Reinitialize(store, in, seed); err != nil {
		t.Fatal(err)
	}
	// Keyed by the weights' own paths: a stack of layers held as one
	// variable (nn.RunsParamStack, XLA's GCNII loop) as its layers.
	for _, v := range vars {
		maps.Copy(p.init, nn.SplitStack(store, v, toFloat64(t, v.MustValue())))
	}
	outs, err := exec.Call(in.Tensors()...)
	if err != nil {
		t.Fatalf("running on %s: %v", b.Name(), err)
	}
	if len(vars) == 0 {
		t.Fatalf("%s has no trainable variables", m.Name())
	}
	p.out, p.loss = toFloat64(t, outs[0]), toFloat64(t, outs[1])
	for i, v := range vars {
		maps.Copy(p.grads, nn.SplitStack(store, v, toFloat64(t, outs[2+i])))
	}
	for _, o := range outs {
		o.FinalizeAll()
	}
	return p
}

// check compares one named tensor at scale at least floor and reports the
// worst entry.
func check(t *testing.T, what string, got, want []float64, tol Tolerance, floor float64) {
	t.Helper()
	if d := CompareAt(got, want, tol, floor); !d.OK() {
		t.Errorf("%s: XLA differs from pure Go beyond %+v: %v", what, tol, d)
	}
}

// compareModel runs m on both backends and compares everything.
func compareModel(t *testing.T, m nn.Model, g *graph.Graph, prep func(*nn.Inputs) error) {
	goB, xlaB := backends(t)
	want := evaluate(t, goB, m, g, prep)
	got := evaluate(t, xlaB, m, g, prep)
	if len(got.init) != len(want.init) {
		t.Fatalf("%d trainable variables on XLA, %d on Go", len(got.init), len(want.init))
	}
	paths := make([]string, 0, len(want.init))
	for p := range want.init {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		// Same seed, host-side initialisation: identical weights.
		if d := Compare(got.init[p], want.init[p], Tolerance{}); !d.OK() && d.MaxAbs != 0 {
			t.Fatalf("initial %s differs between backends: %v", p, d)
		}
	}
	check(t, "output", got.out, want.out, OutputTolerance, 0)
	check(t, "loss", got.loss, want.loss, OutputTolerance, 0)
	gradScale := 0.0
	for _, p := range paths {
		for _, v := range want.grads[p] {
			gradScale = max(gradScale, math.Abs(v))
		}
	}
	for _, p := range paths {
		check(t, "d loss/d "+p, got.grads[p], want.grads[p], GradientTolerance, gradScale)
	}
	t.Logf("%d variables; compile %v on Go, %v on XLA", len(paths), want.compile.Round(time.Millisecond), got.compile.Round(time.Millisecond))
}

// labelWise adds f_C's label-wise structure from the true labels.
func labelWise(g *graph.Graph) func(*nn.Inputs) error {
	return func(in *nn.Inputs) error {
		lw, err := nn.NewLabelWise(g.NumNodes(), g.Src(), g.Dst(), g.Labels(), g.NumClasses())
		if err != nil {
			return err
		}
		return lw.AddTo(in, labelwise.LabelWiseInput, g.Features())
	}
}

// TestGCN2ConvLoopOnXLA: GCNII's layers as one loop (the form XLA builds)
// against the unrolled layers, both on XLA, one run and two.
func TestGCN2ConvLoopOnXLA(t *testing.T) {
	_, xlaB := backends(t)
	rng := rand.New(rand.NewPCG(3, 8))
	for _, runs := range []int{1, 2} {
		var undropped []float64
		for _, dropout := range []float64{0, 0.5} {
			nntest.CompareGCN2Loop(t, xlaB, runs, dropout, true, &undropped, rng)
		}
	}
}

// TestHashMaskOnXLA: the dropout masks XLA draws (nn.HashMask) against
// their formula on the host.
func TestHashMaskOnXLA(t *testing.T) {
	_, xlaB := backends(t)
	nntest.CompareHashMask(t, xlaB)
}

// TestModelsForwardAndGradients: every zoo model (the baselines, MLP, GCN,
// GAT, GCNII) with its Texas hyperparameters, f_C in both variants, and
// LW-GCN with selection (GCNII and GCN backbones).
func TestModelsForwardAndGradients(t *testing.T) {
	backends(t)
	g := tinyGraph(t, 40, 12, 3, rand.New(rand.NewPCG(1, 2)))
	for _, name := range zoo.Names() {
		t.Run(name, func(t *testing.T) {
			e, _ := zoo.Lookup(name)
			h := e.Defaults("texas")
			m, _, err := e.Build(h)
			if err != nil {
				t.Fatal(err)
			}
			compareModel(t, m, e.Prepare(g, h), nil)
		})
	}
	for _, v := range []labelwise.Variant{labelwise.Small, labelwise.Dense} {
		t.Run("lwgcn-fc-"+v.String(), func(t *testing.T) {
			compareModel(t, labelwise.LabelWiseGCN{Variant: v, Layers: 2, Hidden: 16, Dropout: 0.5}, g, labelWise(g))
		})
	}
	// GCNII deep enough to run as one loop on XLA (unrolled on Go).
	t.Run("gcnii-loop", func(t *testing.T) {
		_, xlaB := backends(t)
		m := models.GCNII{Layers: nn.GCN2LoopMinLayers, Hidden: 16, Dropout: 0.5, Alpha: labelwise.DefaultAlpha, Lambda: labelwise.DefaultLambda}
		if !nn.UseGCN2Loop(xlaB.String(), m.Layers) {
			t.Fatalf("GCNII of %d layers is not built as a loop on %s", m.Layers, xlaB.String())
		}
		compareModel(t, m, g, nil)
	})
	adj, err := labelwise.OfficialAdjacency(g)
	if err != nil {
		t.Fatal(err)
	}
	for _, fg := range []nn.Model{
		models.GCNII{Layers: 4, Hidden: 16, Dropout: 0.5, Alpha: labelwise.DefaultAlpha, Lambda: labelwise.DefaultLambda},
		models.GCN{Hidden: 16, Dropout: 0.5},
	} {
		t.Run("lwgcn-selection-"+fg.Name(), func(t *testing.T) {
			sel := &labelwise.Selection{FC: labelwise.LabelWiseGCN{Variant: labelwise.Small, Layers: 2, Hidden: 16}, FG: fg, Adj: adj, InnerSteps: 1}
			compareModel(t, sel, g, labelWise(g))
		})
	}
}
