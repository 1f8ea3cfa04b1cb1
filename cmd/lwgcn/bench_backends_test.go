package main

import (
	"slices"
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
