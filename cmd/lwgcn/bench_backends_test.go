package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/lwgcn/toolkit/lwgcn/backend"
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
