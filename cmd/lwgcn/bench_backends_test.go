package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/train/bench"
)

// The backend comparison times, per dataset, the layer cases of that
// dataset's size at lwgcn's fusion setting, each once.
func TestBackendCases(t *testing.T) {
	var got []string
	for _, c := range backendCases([]string{"texas", "cora"}) {
		if c.Fusion != backend.DefaultFusion {
			t.Errorf("%s: fusion %v", c.Key(), c.Fusion)
		}
		got = append(got, c.Name+"/"+c.Size.Name)
	}
	want := []string{"gcn/texas", "labelwise-h64/texas", "gcnii-2/texas", "mlp/texas",
		"gcn/cora", "labelwise-h64/cora", "gcnii-2/cora", "mlp/cora", "gcnii-64/cora"}
	if !slices.Equal(got, want) {
		t.Fatalf("cases %v, want %v", got, want)
	}
	if cs := backendCases([]string{"nosuch"}); len(cs) != 0 {
		t.Fatalf("unknown dataset gave %d cases", len(cs))
	}
	if got := splitList(" go, xla:cpu ,,"); !slices.Equal(got, []string{"go", "xla:cpu"}) {
		t.Fatalf("splitList = %q", got)
	}
}

// A backend's options (after a comma, "key=value") stay with it.
func TestSplitBackends(t *testing.T) {
	got, err := splitBackends("go,xla:/p/xla_cuda_plugin.so,tf32=false, xla:cpu")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"go", "xla:/p/xla_cuda_plugin.so,tf32=false", "xla:cpu"}; !slices.Equal(got, want) {
		t.Fatalf("splitBackends = %q, want %q", got, want)
	}
	if _, err := splitBackends("tf32=false,go"); err == nil || !strings.Contains(err.Error(), `option "tf32=false" comes before any backend`) {
		t.Fatalf("option first: err = %v", err)
	}
}

// What -backends runs: -filter picks layer cases (on the default datasets
// without -lwgcn, and then no full epoch); a selection of nothing is a
// usage error naming why.
func TestBackendSelection(t *testing.T) {
	keys := func(cs []bench.Case) []string {
		var out []string
		for _, c := range cs {
			out = append(out, c.Name+"/"+c.Size.Name)
		}
		return out
	}
	epochs, cases, err := backendSelection(defaultEpochDatasets, false, "gcnii-64/", false)
	if err != nil || len(epochs) != 0 || !slices.Equal(keys(cases), []string{"gcnii-64/cora"}) {
		t.Fatalf("-filter gcnii-64/: epochs %v, cases %v, err %v", epochs, keys(cases), err)
	}
	epochs, cases, err = backendSelection([]string{"texas"}, true, "mlp/", false)
	if err != nil || !slices.Equal(epochs, []string{"texas"}) || !slices.Equal(keys(cases), []string{"mlp/texas"}) {
		t.Fatalf("-lwgcn texas -filter mlp/: epochs %v, cases %v, err %v", epochs, keys(cases), err)
	}
	epochs, cases, err = backendSelection([]string{"cora"}, true, "", true)
	if err != nil || !slices.Equal(epochs, []string{"cora"}) || len(cases) != 0 {
		t.Fatalf("-lwgcn cora -lwgcn-only: epochs %v, cases %v, err %v", epochs, keys(cases), err)
	}
	for _, c := range []struct {
		lwgcn     []string
		set       bool
		filter    string
		epochOnly bool
		want      string
	}{
		{nil, true, "gcnii-64/cora", false, "no dataset to take layer cases from"},
		{nil, false, "nosuch", false, `(-filter without -lwgcn) and no layer case of "texas,chameleon,squirrel,cora" matches -filter "nosuch"`},
		{nil, true, "", true, "with -lwgcn-only"},
		{nil, true, "", false, "no dataset to take layer cases from"},
	} {
		_, _, err := backendSelection(c.lwgcn, c.set, c.filter, c.epochOnly)
		if err == nil || !strings.Contains(err.Error(), "-backends: nothing to run: no full LW-GCN epoch (") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: err %v, want %q", c, err, c.want)
		}
	}
}
