package sparse_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

func TestSpMatMulWeighted(t *testing.T) { nntest.BothLayouts(t, testSpMatMulWeighted) }

// testSpMatMulWeighted: A_w·x equals the dense product with the entries'
// values replaced by w (scales kept), and the gradients with respect to x and
// w match finite differences (w and x are trainable variables here).
func testSpMatMulWeighted(t *testing.T) { testSpMatMulWeightedWidth(t, 3, true) }

// A small matrix kept dense multiplies a wide x (40 columns) in its ELL
// layouts when it is sparse enough (DenseMinDensity above 1 here).
func TestSpMatMulWeightedWide(t *testing.T) {
	defer func(old int, density float64) { sparse.DenseMaxElements, sparse.DenseMinDensity = old, density }(
		sparse.DenseMaxElements, sparse.DenseMinDensity)
	sparse.DenseMaxElements, sparse.DenseMinDensity = 1<<20, 2
	testSpMatMulWeightedWidth(t, 40, false)
}

// testSpMatMulWeightedWidth checks MulWeighted with x of cols columns, and
// whether a product of that width takes the dense form.
func testSpMatMulWeightedWidth(t *testing.T, cols int, dense bool) {
	m, in := weightedTestMatrix(t)
	h := nntest.NewHarness(t, in, 4, func(scope *model.Scope, n *nn.Nodes) *Node {
		g := n.Graph()
		x := nn.Param(scope, g, "x", dtypes.Float64, nn.Uniform(1), nil, 5, cols)
		w := nn.Param(scope, g, "w", dtypes.Float64, nn.Uniform(1), nil, 6)
		a := sparse.FromNodes(n, "a")
		if got := sparse.MulIsDense(a, cols); cols > 3 && got != dense {
			t.Errorf("%d columns: dense form %v, want %v", cols, got, dense)
		}
		start := len(g.Nodes())
		y := a.MulWeighted(x, w)
		// The dense form scatters w into the matrix; ELL gathers only.
		if scatters := hasNodeType(g.Nodes()[start:], NodeTypeScatterSum); cols > 3 && scatters != dense {
			t.Errorf("%d columns: the product scatters %v, want %v", cols, scatters, dense)
		}
		return y
	})
	got, _ := h.Forward()
	x, w := nntest.Matrix(h.VarValues("/x"), 5, cols), h.VarValues("/w")
	want := make([][]float64, 4)
	for i := range want {
		want[i] = make([]float64, cols)
	}
	for e := range m.Rows { // entries are in row-sorted order, as w
		r, c := m.Rows[e], m.Cols[e]
		for j := range cols {
			want[r][j] += float64(m.RowScale[r]) * w[e] * float64(m.ColScale[c]) * x[c][j]
		}
	}
	nntest.AssertClose(t, "A_w x", got, nntest.Flat(want), 1e-12)
	h.CheckGradients(rand.New(rand.NewPCG(1, 9)), 1e-6)
}

func TestSpMatMulWeightedRuns(t *testing.T) { nntest.BothLayouts(t, testSpMatMulWeightedRuns) }

// TestSpMatMulWeightedChunked: the ELL products split into host chunks of
// one row and blocks of at most 8 bytes (MulWeightedRuns then splits the
// chunks' rows too): the entry-weight gradient, which reuses the forward
// pass's blocks chunk by chunk, still matches finite differences.
func TestSpMatMulWeightedChunked(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    func(*testing.T)
	}{{"single", testSpMatMulWeighted}, {"runs", testSpMatMulWeightedRuns}} {
		t.Run(tc.name, func(t *testing.T) {
			useELL(t, 256, 8, 1)
			tc.f(t)
		})
	}
}

// testSpMatMulWeightedRuns: for 2 runs, each run's columns equal that run's
// A_{w_r}·x_r computed by hand (as testSpMatMulWeighted), and the gradients
// with respect to x and to every run's weights match finite differences.
func testSpMatMulWeightedRuns(t *testing.T) { testSpMatMulWeightedRunsForm(t, nil) }

// The same with the small matrix kept dense but the product (2 runs of 3
// columns) wider than DenseMaxWidth: its ELL layouts, no scatter.
func TestSpMatMulWeightedRunsWide(t *testing.T) {
	defer func(old, width int, density float64) {
		sparse.DenseMaxElements, sparse.DenseMaxWidth, sparse.DenseMinDensity = old, width, density
	}(sparse.DenseMaxElements, sparse.DenseMaxWidth, sparse.DenseMinDensity)
	sparse.DenseMaxElements, sparse.DenseMaxWidth, sparse.DenseMinDensity = 1<<20, 4, 2
	scatter := false
	testSpMatMulWeightedRunsForm(t, &scatter)
}

// testSpMatMulWeightedRunsForm checks MulWeightedRuns; a non-nil
// wantScatter says whether the product scatters the weights (dense form).
func testSpMatMulWeightedRunsForm(t *testing.T, wantScatter *bool) {
	m, in := weightedTestMatrix(t)
	const runs, hid = 2, 3
	h := nntest.NewHarness(t, in, 4, func(scope *model.Scope, n *nn.Nodes) *Node {
		g := n.Graph()
		x := nn.Param(scope, g, "x", dtypes.Float64, nn.Uniform(1), nil, 5, runs*hid)
		w := nn.Param(scope, g, "w", dtypes.Float64, nn.Uniform(1), nil, 6, runs)
		start := len(g.Nodes())
		y := sparse.FromNodes(n, "a").MulWeightedRuns(x, w, runs)
		if scatters := hasNodeType(g.Nodes()[start:], NodeTypeScatterSum); wantScatter != nil && scatters != *wantScatter {
			t.Errorf("the product scatters %v, want %v", scatters, *wantScatter)
		}
		return y
	})
	got, _ := h.Forward()
	x, w := nntest.Matrix(h.VarValues("/x"), 5, runs*hid), nntest.Matrix(h.VarValues("/w"), 6, runs)
	nntest.AssertClose(t, "A_{w_r} x_r", got, nntest.Flat(weightedRunsByHand(m, x, w, hid)), 1e-12)
	h.CheckGradients(rand.New(rand.NewPCG(2, 9)), 1e-6)
}

// weightedRunsByHand is A_{w_r}·x_r for every weighting r of m's pattern
// (w [NNZ][R], x [NumCols][R·hid]), scales included, entry by entry.
func weightedRunsByHand(m *sparse.SparseMatrix, x, w [][]float64, hid int) [][]float64 {
	runs := len(w[0])
	want := make([][]float64, m.NumRows)
	for i := range want {
		want[i] = make([]float64, runs*hid)
	}
	for e := range m.Rows {
		r, c := m.Rows[e], m.Cols[e]
		for run := range runs {
			for j := range hid {
				col := run*hid + j
				want[r][col] += float64(m.RowScale[r]) * w[e][run] * float64(m.ColScale[c]) * x[c][col]
			}
		}
	}
	return want
}

// weightedTestMatrix is a 4 x 5 matrix with a duplicate entry (1, 2) twice,
// an empty row 3, and row/column scales, added to float64 inputs as "a".
func weightedTestMatrix(t *testing.T) (*sparse.SparseMatrix, *nn.Inputs) {
	t.Helper()
	rows, cols := []int32{0, 0, 1, 1, 1, 2}, []int32{1, 4, 2, 2, 0, 3}
	m, err := sparse.NewSparseMatrix(4, 5, rows, cols, nil)
	if err != nil {
		t.Fatal(err)
	}
	m.RowScale = []float32{1, 0.5, 2, 1}
	m.ColScale = []float32{1, 2, 1, 0.25, 3}
	in := nn.NewInputs()
	in.DType = dtypes.Float64
	sparse.Set(in, "a", m)
	return m, in
}

// hasNodeType reports whether nodes holds one of type typ.
func hasNodeType(nodes []*Node, typ NodeType) bool {
	for _, n := range nodes {
		if n.Type() == typ {
			return true
		}
	}
	return false
}
