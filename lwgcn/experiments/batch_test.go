package experiments

import (
	"context"
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/internal/dstest"
	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/zoo"
)

// The same cells (GCN, GPRGNN, FAGCN, LW-GCN\G and LW-GCN on Texas, 3 splits, 30 epochs)
// reproduced batched and alone give the same records: same keys, accuracies
// within float32 rounding (Texas's 37 test nodes: equal counts), same best
// epochs, LW-GCN's selection weight within 1e-4.
// Then a resumed batched invocation with a 4th split trains that split only.
// This checks the wiring (split, seed and configuration per run, records
// keyed to the right run, resume); the runs' equality is tested in train,
// zoo and labelwise.
func TestReproduceBatchedEqualsAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("trains models")
	}
	b, info, err := backend.Shared()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	spec := Spec{Experiment: "table2", Datasets: []string{"texas"}, Methods: []string{"gcn", "gprgnn", "fagcn", "lwgcn-g", "lwgcn"}, MaxRuns: 3,
		Override: Overrides{Epochs: 30}, DatasetOptions: dstest.Options(t)}
	alone, batch := spec, spec
	alone.ResultsPath, alone.Batch = filepath.Join(dir, "alone.json"), BatchAlone
	batch.ResultsPath, batch.Batch = filepath.Join(dir, "batched.json"), 3
	fa, err := Run(context.Background(), b, info, alone)
	if err != nil {
		t.Fatal(err)
	}
	fb, err := Run(context.Background(), b, info, batch)
	if err != nil {
		t.Fatal(err)
	}
	ra := fa.Runs()
	if len(ra) != 15 || len(fb.Runs()) != 15 {
		t.Fatalf("%d runs alone, %d batched, want 15 and 15", len(ra), len(fb.Runs()))
	}
	for _, a := range ra {
		r, ok := fb.Get(a.Key)
		if !ok {
			t.Errorf("batched file lacks %s", a.Key)
			continue
		}
		if a.BatchRuns != 0 || r.BatchRuns != 3 {
			t.Errorf("%s: batch runs %d alone, %d batched, want 0 and 3", a.Key, a.BatchRuns, r.BatchRuns)
		}
		if r.Split != a.Split || r.Seed != a.Seed || math.Abs(r.TestAcc-a.TestAcc) > 1e-9 ||
			math.Abs(r.ValAcc-a.ValAcc) > 1e-9 || r.BestEpoch != a.BestEpoch {
			t.Errorf("%s: batched test %.4f val %.4f epoch %d, alone test %.4f val %.4f epoch %d", a.Key,
				r.TestAcc, r.ValAcc, r.BestEpoch, a.TestAcc, a.ValAcc, a.BestEpoch)
		}
		if (a.SelectionWeight == nil) != (r.SelectionWeight == nil) ||
			(a.SelectionWeight != nil && math.Abs(*a.SelectionWeight-*r.SelectionWeight) > 1e-4) {
			t.Errorf("%s: selection weight batched %v, alone %v", a.Key, r.SelectionWeight, a.SelectionWeight)
		}
	}
	// The runs differ from split to split (a wiring fault giving every run
	// the same split would pass the comparison above if both paths shared it).
	vals := map[float64]bool{}
	for _, r := range ra {
		if r.Model == "gcn" {
			vals[r.ValAcc] = true
		}
	}
	if len(vals) < 2 {
		t.Errorf("GCN's 3 runs alone have the same validation accuracy: %v", vals)
	}
	// Resume: a 4th split is the only run trained.
	batch.MaxRuns = 4
	fb, err = Run(context.Background(), b, info, batch)
	if err != nil {
		t.Fatal(err)
	}
	ss := fb.Sessions()
	if len(ss) != 2 || ss[1].RunsAdded != 5 || ss[1].Batch != "3" {
		t.Fatalf("sessions %+v: want the resumed one to add 5 runs (split 3 of each method)", ss)
	}
	for _, r := range fb.Runs() {
		if r.Session == ss[1].ID && (r.Split != 3 || r.BatchRuns != 1) {
			t.Errorf("resumed session recorded split %d (batch %d), want only split 3 in a batch of 1", r.Split, r.BatchRuns)
		}
	}
	var n int
	for _, r := range fb.Runs() {
		if r.Split == 3 {
			n++
		}
	}
	if n != 5 {
		t.Errorf("%d records of split 3, want 5", n)
	}
}

// A sweep on Algorithm 2 over Texas (degree 5, h 0 and 0.5, 2 splits):
// GCN's splits train batched at each point; MLP trains at h = 0 only and
// is recorded at h = 0.5 with a note, each point keeping its own realised
// homophily. The shared MLP records equal MLP trained at h = 0.5 for real
// (a sweep of that point alone), which is what makes sharing valid.
func TestSweepBatchesAndSharesMLP(t *testing.T) {
	if testing.Short() {
		t.Skip("trains models")
	}
	b, info, err := backend.Shared()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	spec := SweepSpec{Base: "texas", Hs: []float64{0, 0.5}, Degrees: []float64{5}, Methods: []string{"mlp", "gcn"},
		MaxRuns: 2, Override: Overrides{Epochs: 20}, Seed: 3, Batch: 2, DatasetOptions: dstest.Options(t),
		ResultsPath: filepath.Join(dir, "sweep.json")}
	file, err := SweepHomophily(context.Background(), b, info, spec)
	if err != nil {
		t.Fatal(err)
	}
	ss := file.Sessions()
	if len(ss) != 1 || ss[0].RunsAdded != 8 || ss[0].Batch != "2" || ss[0].Experiment != "sweep" {
		t.Fatalf("sessions %+v: want one that added 8 runs", ss)
	}
	shared := map[int]float64{}
	realised := map[float64]float64{}
	for _, r := range file.Runs() {
		h := r.Params["h"]
		realised[h] = r.Params["realised_h"]
		switch {
		case r.Model == "mlp" && h == 0.5:
			if r.Note == "" || r.TotalSecs != 0 {
				t.Errorf("MLP at h=0.5 split %d: note %q, %.2f s; want a note and no time of its own", r.Split, r.Note, r.TotalSecs)
			}
			shared[r.Split] = r.TestAcc
		case r.Note != "":
			t.Errorf("%s at h=%g split %d has a note %q", r.Model, h, r.Split, r.Note)
		}
		if r.Note == "" && r.BatchRuns != 2 {
			t.Errorf("%s at h=%g split %d: batch runs %d, want 2", r.Model, h, r.Split, r.BatchRuns)
		}
	}
	if len(shared) != 2 || realised[0] == realised[0.5] {
		t.Errorf("shared MLP runs %v, realised h %v", shared, realised)
	}
	// MLP trained at h = 0.5 (a sweep of that point alone, unbatched).
	own := spec
	own.Hs, own.Methods, own.Batch, own.ResultsPath = []float64{0.5}, []string{"mlp"}, BatchAlone, filepath.Join(dir, "own.json")
	of, err := SweepHomophily(context.Background(), b, info, own)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range of.Runs() {
		if r.Note != "" || math.Abs(r.TestAcc-shared[r.Split]) > 1e-9 {
			t.Errorf("MLP trained at h=0.5 split %d: test %.4f (note %q), shared record %.4f", r.Split, r.TestAcc, r.Note, shared[r.Split])
		}
	}
}

// BatchAuto batches the methods measured faster batched, and GCNII only up
// to GCNIIAutoBatchMaxWork: Texas's reference GCNII (32 layers x 183 nodes
// x 64 hidden = 374,784) is batched, Cora's (64 x 2,708 x 64 = 11,091,968)
// and Citeseer's (32 x 3,327 x 256) stay alone; an override of the layers
// moves Cora's under the bound (the rules are the zoo entries' AutoBatch).
// LW-GCN stays alone; -batch N batches every method.
func TestBatchAutoChoice(t *testing.T) {
	b, info, err := backend.Shared()
	if err != nil {
		t.Fatal(err)
	}
	method := func(name, dataset string, o Overrides) Method {
		t.Helper()
		g, err := LoadGraph(context.Background(), dataset, dstest.Options(t)...)
		if err != nil {
			t.Fatal(err)
		}
		m, err := NewMethod(name, Env{Backend: b, Info: info, Graph: g, Dataset: dataset, Override: o})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	if got := zoo.GCNIIWork(32, 183, 64); got != 374784 {
		t.Fatalf("GCNIIWork(texas) = %d", got)
	}
	for _, c := range []struct {
		name, dataset string
		o             Overrides
		mode          int
		want          bool
	}{
		{"gcnii", "texas", Overrides{}, BatchAuto, true},
		{"gcnii", "cora", Overrides{}, BatchAuto, false},
		{"gcnii", "citeseer", Overrides{}, BatchAuto, false},
		{"gcnii", "cora", Overrides{Layers: 8}, BatchAuto, true}, // 8 x 2708 x 64 = 1.4M
		{"gcnii", "cora", Overrides{}, 4, true},
		{"gat", "cora", Overrides{}, BatchAuto, true},
		{"mlp", "texas", Overrides{}, BatchAuto, true},
		{"gcn", "texas", Overrides{}, BatchAuto, true},
		{"gprgnn", "squirrel", Overrides{}, BatchAuto, true},
		{"gprgnn", "chameleon", Overrides{}, BatchAuto, true}, // 36,101 edges
		{"gprgnn", "cora", Overrides{}, BatchAuto, false},     // 10,556
		{"gprgnn", "cora", Overrides{}, 4, true},
		{"fagcn", "squirrel", Overrides{}, BatchAuto, true},
		{"fagcn", "chameleon", Overrides{}, BatchAuto, true}, // 36,101 edges
		{"fagcn", "cora", Overrides{}, BatchAuto, false},     // 10,556
		{"fagcn", "texas", Overrides{}, 4, true},
		{"h2gcn", "texas", Overrides{}, 4, true}, // every model has the runs axis
		{"h2gcn", "texas", Overrides{}, BatchAuto, false},
		{"lwgcn", "texas", Overrides{}, 4, true},
		{"lwgcn", "texas", Overrides{}, BatchAuto, false},
		{"gcn", "texas", Overrides{}, BatchAlone, false},
	} {
		_, got := batchSize(c.mode, method(c.name, c.dataset, c.o))
		if got != c.want {
			t.Errorf("batchSize(mode %d, %s on %s, %+v) batches = %v, want %v", c.mode, c.name, c.dataset, c.o, got, c.want)
		}
	}
	// On a GPU (as its backend.Info says) BatchAuto batches LW-GCN and its
	// variants; -batch 1 still trains them alone.
	gpu := info
	gpu.Name, gpu.Plugin = "xla:xla_cuda_plugin.so,tf32=false", "/opt/jax_plugins/xla_cuda13/xla_cuda_plugin.so"
	g, err := LoadGraph(context.Background(), "texas", dstest.Options(t)...)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		mode int
		want bool
	}{{"lwgcn", BatchAuto, true}, {"lwgcn-g", BatchAuto, true}, {"lwgcn", BatchAlone, false}} {
		m, err := NewMethod(c.name, Env{Backend: b, Info: gpu, Graph: g, Dataset: "texas"})
		if err != nil {
			t.Fatal(err)
		}
		if _, got := batchSize(c.mode, m); got != c.want {
			t.Errorf("on a GPU, batchSize(mode %d, %s) batches = %v, want %v", c.mode, c.name, got, c.want)
		}
	}
}

// Overrides.Settings set a method's settings by name, zero values included
// (the flags of `lwgcn train`); a name the method does not have, or a value
// it refuses, is an ErrSetting naming it.
func TestOverrideSettings(t *testing.T) {
	b, info, err := backend.Shared()
	if err != nil {
		t.Fatal(err)
	}
	g, err := LoadGraph(context.Background(), "texas", dstest.Options(t)...)
	if err != nil {
		t.Fatal(err)
	}
	method := func(name string, set map[string]float64) (Method, error) {
		return NewMethod(name, Env{Backend: b, Info: info, Graph: g, Dataset: "texas", Override: Overrides{Settings: set}})
	}
	for _, c := range []struct {
		name string
		set  map[string]float64
		want map[string]float64 // Params
	}{
		{"gcn", map[string]float64{"dropout": 0, "wd": 0, "hidden": 12}, map[string]float64{"dropout": 0, "weight_decay": 0, "hidden": 12}},
		{"lwgcn", map[string]float64{"dropout": 0, "gcnii-layers": 3, "epochs": 7}, map[string]float64{"dropout": 0, "gcnii_layers": 3, "epochs": 7}},
		{"bmgcn", map[string]float64{"epochs": 40}, map[string]float64{"epochs": 40, "mlp_epochs": 8}},
		// A model's own setting (lwgcn train -extra), zero included.
		{"h2gcn", map[string]float64{"extra:relu": 0, "hidden": 8}, map[string]float64{"relu": 0, "hidden": 8}},
	} {
		m, err := method(c.name, c.set)
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range c.want {
			if got, ok := m.Params()[k]; !ok || got != v {
				t.Errorf("%s with %v: param %s = %v, want %v", c.name, c.set, k, got, v)
			}
		}
	}
	for _, c := range []struct {
		name string
		set  map[string]float64
		want string
	}{
		{"gcn", map[string]float64{"variant": 1}, "no setting variant (it has epochs, hidden"},
		{"lwgcn", map[string]float64{"heads": 2}, "no setting heads (it has variant, layers"},
		{"gcn", map[string]float64{"dropout": 1.5}, "zoo: gcn: dropout must be in [0, 1), got 1.5"},
		{"lwgcn", map[string]float64{"dropout": 1}, "lwgcn: dropout must be in [0, 1)"},
		{"h2gcn", map[string]float64{"extra:foo": 1}, "zoo: h2gcn has no setting extra:foo (its own: extra:relu)"},
		{"gcn", map[string]float64{"extra:relu": 0}, "zoo: gcn has no setting extra:relu (its own: none)"},
		{"h2gcn", map[string]float64{"extra:relu": 2}, "extra relu must be 0 or 1, got 2"},
		{"lwgcn", map[string]float64{"extra:relu": 0}, "no setting extra:relu (it has"},
	} {
		_, err := method(c.name, c.set)
		if !errors.Is(err, ErrSetting) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s with %v: err = %v, want an ErrSetting with %q", c.name, c.set, err, c.want)
		}
	}
}
