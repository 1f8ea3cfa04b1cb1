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
	"github.com/lwgcn/toolkit/lwgcn/synth"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

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
