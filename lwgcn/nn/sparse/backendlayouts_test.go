package sparse_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/support/exceptions"

	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// randomMatrix is an n x n matrix with about deg entries per row, larger
// than DenseMaxElements (2^18) for n > 512, with a few hub columns.
func randomMatrix(t *testing.T, n, deg int) *sparse.SparseMatrix {
	t.Helper()
	rng := rand.New(rand.NewPCG(7, 8))
	var rows, cols []int32
	seen := map[[2]int32]bool{}
	for r := range n {
		for range deg {
			c := int32(rng.IntN(n))
			if rng.IntN(4) == 0 {
				c = int32(rng.IntN(3)) // hubs
			}
			if k := [2]int32{int32(r), c}; !seen[k] {
				seen[k] = true
				rows, cols = append(rows, int32(r)), append(cols, c)
			}
		}
	}
	m, err := sparse.NewSparseMatrix(n, n, rows, cols, nil)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// layoutNames counts the inputs of ELL, hub and sorted layouts.
func layoutNames(in *nn.Inputs) (ell, sorted int) {
	for _, name := range in.Names() {
		switch {
		case strings.Contains(name, "/sorted/"):
			sorted++
		case strings.Contains(name, "/ell/") || strings.Contains(name, "/hub/"):
			ell++
		}
	}
	return ell, sorted
}

// TestSetLayoutsPerBackend: Set adds the ELL (and SetSorted the sorted)
// layouts only for backends whose products read them; SetWeighted adds
// them everywhere.
func TestSetLayoutsPerBackend(t *testing.T) {
	m := randomMatrix(t, 600, 6)
	for _, tc := range []struct {
		backend     string
		weighted    bool
		ell, sorted bool
	}{
		{"", false, true, true},
		{"go", false, true, true},
		{"xla", false, false, false},
		{"xla", true, true, false},
	} {
		in := nn.NewInputs()
		in.Backend = tc.backend
		if tc.weighted {
			sparse.SetWeighted(in, "a", m)
		} else {
			sparse.Set(in, "a", m)
		}
		if err := sparse.SetSorted(in, "a"); err != nil {
			t.Fatal(err)
		}
		ell, sorted := layoutNames(in)
		if (ell > 0) != tc.ell || (sorted > 0) != tc.sorted {
			t.Errorf("backend %q weighted %v: %d ELL/hub inputs, %d sorted ones; want ELL %v, sorted %v",
				tc.backend, tc.weighted, ell, sorted, tc.ell, tc.sorted)
		}
		if in.Tensor("a/rows") == nil || in.Tensor("a/cols") == nil {
			t.Errorf("backend %q: the coordinates are missing", tc.backend)
		}
	}
}

// TestELLProductWithoutLayouts: an ELL product of a matrix added without
// its layouts is a graph-building error that says what to do.
func TestELLProductWithoutLayouts(t *testing.T) {
	in := nn.NewInputs()
	in.Backend = "xla" // the layouts are left out, the Go backend builds ELL products
	sparse.Set(in, "a", randomMatrix(t, 600, 6))
	store := model.NewStore()
	exec, err := model.NewExec(nntest.Backend(t), store, func(scope *model.Scope, g *Graph, params []*Node) []*Node {
		a := sparse.FromNodes(in.Nodes(params), "a")
		return []*Node{a.Mul(Ones(g, shapes.Make(dtypes.Float32, 600, 4)))}
	})
	if err != nil {
		t.Fatal(err)
	}
	if panicErr := exceptions.TryCatch[error](func() { _, err = exec.Compile(in.Shapes()...) }); panicErr != nil {
		err = panicErr
	}
	if err == nil || !strings.Contains(err.Error(), "Mul needs its ELL layouts") || !strings.Contains(err.Error(), "sparse.SetWeighted") {
		t.Fatalf("err = %v, want the missing ELL layouts named", err)
	}
}
