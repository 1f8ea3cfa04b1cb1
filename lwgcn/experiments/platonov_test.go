package experiments

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/lwgcn/toolkit/internal/dstest"
	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/results"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

// Runs recorded by another table with the same configuration (Reuse) are
// not trained again; the others are.
func TestRunReusesAnotherTablesRuns(t *testing.T) {
	var calls []int
	RegisterMethod("fake-reuse", func(env Env) (Method, error) { return &fakeMethod{calls: &calls}, nil })
	b, info, err := backend.Shared()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	other := filepath.Join(dir, "table2.json")
	f, err := results.Open(other)
	if err != nil {
		t.Fatal(err)
	}
	for _, split := range []int{0, 2, 5} {
		r := train.Run{Split: split, Seed: 15}
		if err := f.Put(results.Run{Key: RunKey("table2", "texas", "fake-reuse", r, "fake-v1"), Experiment: "table2",
			Dataset: "texas", Model: "fake-reuse", Split: split, Seed: 15}); err != nil {
			t.Fatal(err)
		}
	}
	// A run of another configuration does not count.
	if err := f.Put(results.Run{Key: RunKey("table2", "texas", "fake-reuse", train.Run{Split: 7, Seed: 15}, "fake-v0"),
		Experiment: "table2", Dataset: "texas", Model: "fake-reuse", Split: 7, Seed: 15}); err != nil {
		t.Fatal(err)
	}
	spec := Spec{Experiment: "platonov", ResultsPath: filepath.Join(dir, "platonov.json"), Datasets: []string{"texas"},
		Methods: []string{"fake-reuse"}, DatasetOptions: dstest.Options(t), Reuse: []Reuse{{Path: other, Experiment: "table2"}}}
	if _, err := Run(context.Background(), b, info, spec); err != nil {
		t.Fatal(err)
	}
	if want := []int{1, 3, 4, 6, 7, 8, 9}; !slices.Equal(calls, want) {
		t.Errorf("trained splits %v, want %v (0, 2 and 5 are in table2.json)", calls, want)
	}
}
