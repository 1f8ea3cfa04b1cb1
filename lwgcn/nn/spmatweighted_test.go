package nn

import (
	"math/rand/v2"
	"testing"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"
)

func TestSpMatMulWeighted(t *testing.T) { bothLayouts(t, testSpMatMulWeighted) }

// testSpMatMulWeighted: A_w·x equals the dense product with the entries'
// values replaced by w (scales kept), and the gradients with respect to x and
// w match finite differences (w and x are trainable variables here).
func testSpMatMulWeighted(t *testing.T) {
	// 4 x 5 matrix with a duplicate entry (1, 2) twice, an empty row 3, and
	// row/column scales.
	rows, cols := []int32{0, 0, 1, 1, 1, 2}, []int32{1, 4, 2, 2, 0, 3}
	m, err := NewSparseMatrix(4, 5, rows, cols, nil)
	if err != nil {
		t.Fatal(err)
	}
	m.RowScale = []float32{1, 0.5, 2, 1}
	m.ColScale = []float32{1, 2, 1, 0.25, 3}
	in := NewInputs()
	in.DType = dtypes.Float64
	in.SetSparse("a", m)
	h := newHarness(t, in, 4, func(scope *model.Scope, n *Nodes) *Node {
		g := n.Graph()
		x := Param(scope, g, "x", dtypes.Float64, Uniform(1), nil, 5, 3)
		w := Param(scope, g, "w", dtypes.Float64, Uniform(1), nil, 6)
		return n.Sparse("a").MulWeighted(x, w)
	})
	got, _ := h.forward()
	x, w := reshape(h.varValues("/x"), 5, 3), h.varValues("/w")
	want := make([][]float64, 4)
	for i := range want {
		want[i] = make([]float64, 3)
	}
	for e := range m.Rows { // entries are in row-sorted order, as w
		r, c := m.Rows[e], m.Cols[e]
		for j := range 3 {
			want[r][j] += float64(m.RowScale[r]) * w[e] * float64(m.ColScale[c]) * x[c][j]
		}
	}
	assertClose(t, "A_w x", got, flat(want), 1e-12)
	h.checkGradients(rand.New(rand.NewPCG(1, 9)), 1e-6)
}
