package experiments

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/internal/dstest"
	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/results"
	"github.com/lwgcn/toolkit/lwgcn/synth"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

// A quick sweep (Algorithm 2 on Chameleon, average degree 20, three h values,
// two splits, few epochs): GCN's accuracy dips in the heterophilic middle of
// the h range (h = 0.2 = 1/C), below its value at h = 0 and far below h = 0.9,
// as Theorem 1 predicts. The label-wise model (LW-GCN\G) is clearly above GCN
// at h = 0, where every neighbour is of another class and label-wise
// aggregation keeps that signal apart (Theorem 2); at h = 1/C neighbours'
// labels are independent of the node's own, so neither aggregation carries
// label information and the label-wise model need only not fall below GCN.
// Loose margins: the point is the shape, which the full sweep (lwgcn sweep)
// measures over 10 splits.
func TestQuickSweepShowsGCNDip(t *testing.T) {
	if testing.Short() {
		t.Skip("trains models")
	}
	b, info, err := backend.Shared()
	if err != nil {
		t.Fatal(err)
	}
	spec := SweepSpec{Base: "chameleon", Hs: []float64{0, 0.2, 0.9}, Degrees: []float64{20},
		Methods: []string{"gcn", "lwgcn-g"}, MaxRuns: 2, Override: Overrides{Epochs: 80}, Seed: 7,
		DatasetOptions: dstest.Options(t), ResultsPath: filepath.Join(t.TempDir(), "sweep.json"),
		Log: func(s string) { t.Log(s) }}
	file, err := SweepHomophily(context.Background(), b, info, spec)
	if err != nil {
		t.Fatal(err)
	}
	acc := map[string][]float64{}
	for _, c := range SweepCurves(file.Runs(), "chameleon") {
		for i := range c.H {
			acc[c.Method] = append(acc[c.Method], c.Acc[i].Mean)
		}
		t.Logf("d=%g %s: h %v -> %v", c.Degree, c.Method, c.H, acc[c.Method])
	}
	gcn, lw := acc["gcn"], acc["lwgcn-g"]
	if len(gcn) != 3 || len(lw) != 3 {
		t.Fatalf("curves %v", acc)
	}
	if !(gcn[1] < gcn[0]-3 && gcn[1] < gcn[2]-20) {
		t.Errorf("GCN does not dip at h = 0.2: %v", gcn)
	}
	if !(lw[0] > gcn[0]+5) {
		t.Errorf("label-wise %v not clearly above GCN %v at h = 0", lw, gcn)
	}
	if !(lw[1] > gcn[1]-3) {
		t.Errorf("label-wise %v below GCN %v at h = 1/C", lw, gcn)
	}
	for _, r := range file.Runs() {
		if d := r.Params["realised_degree"] - 20; d > 0.01 || d < -0.01 {
			t.Errorf("realised degree %v, want 20", r.Params["realised_degree"])
		}
	}
	// LW-GCN\G's f_P (an MLP, blind to the edges) is trained at the first
	// point only; the others reuse its pseudo-labels, split by split.
	fpAcc := map[int]float64{}
	for _, r := range file.Runs() {
		if r.Model == "lwgcn-g" && r.Params["h"] == 0 {
			fpAcc[r.Split] = r.Metrics["fp_test_acc"]
			if r.Metrics["fp_shared"] != 0 {
				t.Errorf("split %d at h = 0: f_P marked shared", r.Split)
			}
		}
	}
	shared := 0
	for _, r := range file.Runs() {
		if r.Model == "lwgcn-g" && r.Params["h"] != 0 {
			if r.Metrics["fp_shared"] != 1 || r.Metrics["fp_test_acc"] != fpAcc[r.Split] {
				t.Errorf("split %d at h = %v: f_P shared %v, test %v (at h = 0: %v)", r.Split, r.Params["h"],
					r.Metrics["fp_shared"], r.Metrics["fp_test_acc"], fpAcc[r.Split])
			}
			shared++
		}
	}
	if len(fpAcc) != 2 || shared != 4 {
		t.Errorf("%d runs at h = 0 and %d after, want 2 and 4", len(fpAcc), shared)
	}
}

// A degree of 0 gives a graph without edges, whose realised homophily is NaN
// (the results file then failed with "json: unsupported value: NaN"): the
// sweep refuses it, and h outside [0, 1], before loading anything.
func TestSweepRejectsPointsWithoutHomophily(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sweep.json")
	for _, c := range []struct {
		hs, degrees []float64
		want        string
	}{
		{[]float64{0.5}, []float64{10, 0}, "experiments: sweep average degree 0 must be a finite number > 0"},
		{[]float64{0.5}, []float64{-1}, "experiments: sweep average degree -1 must be a finite number > 0"},
		{[]float64{1.5}, []float64{10}, "experiments: sweep homophily 1.5 outside [0, 1]"},
	} {
		spec := SweepSpec{Base: BaseCSBM, Hs: c.hs, Degrees: c.degrees, ResultsPath: path}
		_, err := SweepHomophily(context.Background(), nil, backend.Info{}, spec)
		if err == nil || err.Error() != c.want {
			t.Errorf("h %v, degrees %v: error %v, want %q", c.hs, c.degrees, err, c.want)
		}
	}
}

// Unknown datasets and methods stop a run before anything trains or is
// written.
func TestUnknownNamesFailFirst(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.json")
	for _, c := range []struct {
		ds, methods []string
		want        string
	}{
		{[]string{"texas", "texsa"}, []string{"gcn"}, `experiments: unknown dataset "texsa" (known: `},
		{[]string{"texas"}, []string{"gcn", ""}, `experiments: unknown method "" (have `},
		{[]string{"texas"}, []string{"gcn", "gnc"}, `experiments: unknown method "gnc" (have `},
	} {
		_, err := Run(context.Background(), nil, backend.Info{}, Spec{Experiment: "x", ResultsPath: path, Datasets: c.ds, Methods: c.methods})
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%v %v: error %v, want %q...", c.ds, c.methods, err, c.want)
		}
	}
	_, err := SweepHomophily(context.Background(), nil, backend.Info{}, SweepSpec{Base: "chamelon", ResultsPath: path})
	if err == nil || !strings.HasPrefix(err.Error(), `experiments: unknown dataset "chamelon"`) {
		t.Errorf("sweep base: %v", err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("results file written: %v", err)
	}
}

// epochCounter counts the epochs a sweep reports.
type epochCounter struct {
	train.Silent
	epochs int
}

func (c *epochCounter) EndEpoch(train.EpochStats) { c.epochs++ }

// PlanSweep predicts what SweepHomophily trains: on Texas with two h values,
// MLP, GCN (batched) and LW-GCN\G, 2 splits of 4 epochs, it plans by hand
// 2 x (2 + 2) + 2 = 10 runs (MLP trains at the first h only; its 2 runs at
// the second are copies), 40 epochs, and the sweep reports exactly 40.
// Afterwards nothing is left to plan. One more split per point then plans
// 2 x (1 + 1) + 1 = 5 runs and 20 epochs (1 copy), and the sweep reports 20.
// The plan writes nothing: the results file does not exist until the sweep.
func TestPlanSweepCountsWhatTheSweepTrains(t *testing.T) {
	if testing.Short() {
		t.Skip("trains models")
	}
	b, info, err := backend.Shared()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "sweep.json")
	spec := SweepSpec{Base: "texas", Hs: []float64{0.2, 0.8}, Degrees: []float64{3},
		Methods: []string{"mlp", "gcn", "lwgcn-g"}, MaxRuns: 2, Override: Overrides{Epochs: 4}, Seed: 3,
		DatasetOptions: dstest.Options(t), ResultsPath: path}
	ctx := context.Background()
	check := func(maxRuns int, want SweepPlan) {
		t.Helper()
		spec.MaxRuns = maxRuns
		plan, err := PlanSweep(ctx, b, info, spec)
		if err != nil {
			t.Fatal(err)
		}
		if plan != want {
			t.Fatalf("%d splits: plan %+v, want %+v", maxRuns, plan, want)
		}
		if _, err := os.Stat(path); want.Runs == 10 && !os.IsNotExist(err) {
			t.Fatalf("PlanSweep wrote %s (stat: %v)", path, err)
		}
		count := &epochCounter{}
		spec.Progress = count
		if _, err := SweepHomophily(ctx, b, info, spec); err != nil {
			t.Fatal(err)
		}
		spec.Progress = nil
		if count.epochs != want.Epochs {
			t.Errorf("%d splits: the sweep reported %d epochs, the plan said %d", maxRuns, count.epochs, want.Epochs)
		}
		if after, err := PlanSweep(ctx, b, info, spec); err != nil || after != (SweepPlan{}) {
			t.Errorf("%d splits: after the sweep the plan is %+v (%v), want nothing", maxRuns, after, err)
		}
	}
	check(2, SweepPlan{Runs: 10, Epochs: 40, Copies: 2})
	check(3, SweepPlan{Runs: 5, Epochs: 20, Copies: 1})
	// A refinement round retrains f_C: one run of LW-GCN with one round at
	// one h trains 2 x 4 epochs.
	spec.Methods, spec.Hs, spec.ResultsPath = []string{"lwgcn+refine1"}, []float64{0.5}, filepath.Join(t.TempDir(), "r.json")
	check(1, SweepPlan{Runs: 1, Epochs: 8})
}

// A CSBM sweep generates its points from spec.CSBM (the -csbm-separation
// setting), the point's homophily and degree replacing the config's.
func TestSweepGraphUsesTheCSBMConfig(t *testing.T) {
	cfg := synth.DefaultCSBMConfig()
	cfg.NumNodes, cfg.FeatureSeparation = 300, 1.15
	spec := SweepSpec{Base: BaseCSBM, CSBM: cfg, Seed: 1}
	g, real, err := sweepGraph(context.Background(), spec, nil, SweepPoint{H: 0.3, Degree: 6}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if g.NumNodes() != 300 || math.Abs(real.H-0.3) > 0.01 || math.Abs(real.AverageDegree-6) > 0.05 {
		t.Fatalf("point graph: %v, realised h %.3f, degree %.2f; want 300 nodes, h 0.3, degree 6", g, real.H, real.AverageDegree)
	}
	if !strings.Contains(csbmKey(spec), "FeatureSeparation:1.15") {
		t.Fatalf("results key %q does not record the separation", csbmKey(spec))
	}
}

// SweepLead compares LW-GCN\G with GCN and MLP at one homophily, per degree,
// from the point means.
func TestSweepLead(t *testing.T) {
	var runs []results.Run
	add := func(model string, d, acc float64) {
		runs = append(runs, results.Run{Model: model, Dataset: "csbm", TestAcc: acc,
			Params: map[string]float64{"h": 0.2, "degree": d}})
	}
	add("lwgcn-g", 5, 0.70)
	add("lwgcn-g", 5, 0.72)
	add("gcn", 5, 0.60)
	add("mlp", 5, 0.66)
	add("lwgcn-g", 10, 0.75)
	add("gcn", 10, 0.78)
	add("gat", 20, 0.5) // no LW-GCN\G at d = 20: no entry
	want := "LW-GCN\\G at h = 0.2 (CSBM): d = 5: +11.0 over GCN, +5.0 over MLP; d = 10: -3.0 over GCN.\n\n"
	if got := SweepLead(runs, "csbm", 0.2); got != want {
		t.Errorf("lead %q, want %q", got, want)
	}
	if got := SweepLead(runs, "csbm", 0.5); got != "" {
		t.Errorf("no curves at h = 0.5: %q", got)
	}
}
