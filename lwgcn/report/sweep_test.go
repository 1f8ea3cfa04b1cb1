package report

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/lwgcn/toolkit/internal/dstest"
	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/experiments"
	"github.com/lwgcn/toolkit/lwgcn/results"
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
	spec := experiments.SweepSpec{Base: "chameleon", Hs: []float64{0, 0.2, 0.9}, Degrees: []float64{20},
		Methods: []string{"gcn", "lwgcn-g"}, MaxRuns: 2, Override: experiments.Overrides{Epochs: 80}, Seed: 7,
		DatasetOptions: dstest.Options(t), ResultsPath: filepath.Join(t.TempDir(), "sweep.json"),
		Log: func(s string) { t.Log(s) }}
	file, err := experiments.SweepHomophily(context.Background(), b, info, spec)
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
