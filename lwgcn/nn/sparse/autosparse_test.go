package sparse_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

func TestAutoSparse(t *testing.T) {
	g := nntest.TinyGraph(t)
	m, err := nn.GCNNormalized(5, g.Src(), g.Dst())
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(8, 8))
	xv := nntest.RandValues(rng, 5, 3)
	want := nntest.Flat(nntest.DenseMatMul(nntest.GCNDense(g), nntest.Matrix(xv, 5, 3)))
	for _, density := range []float64{0.01, 2} { // dense (14/25 > 1%) and sparse
		old := sparse.AutoSparseDensity
		sparse.AutoSparseDensity = density
		in := nntest.Float64Inputs(t, g, false)
		sparse.SetAuto(in, "a", m)
		sparse.AutoSparseDensity = old
		if dense := in.Has("a/full"); dense != (density < 1) {
			t.Fatalf("density threshold %v: dense = %v", density, dense)
		}
		h := nntest.NewHarness(t, in, 1, func(scope *model.Scope, n *nn.Nodes) *Node {
			x := scope.VariableWithValue("x", nntest.Float64Tensor(xv, 5, 3)).NodeValue(n.Graph())
			return sparse.AutoFromNodes(n, "a", true).Mul(x)
		})
		got, _ := h.Forward()
		nntest.AssertClose(t, "A·x", got, want, 1e-6)
		h.CheckGradients(rng, 1e-6)
	}
}

// A dense matrix equal to its transpose is marked symmetric and its
// product's gradient (A·v for Aᵀ·v) matches finite differences; a
// non-symmetric one is not marked, and its gradient is the general one.
func TestAutoSparseSymmetric(t *testing.T) {
	// Symmetric pattern with the scales d^-1/2 on both sides: s_i·s_j = s_j·s_i.
	symRows, symCols := []int32{0, 1, 1, 2, 2, 3, 0, 3}, []int32{1, 0, 2, 1, 3, 2, 3, 0}
	scale := []float32{0.5, 0.25, 2, 1}
	for _, c := range []struct {
		name       string
		rows, cols []int32
		symmetric  bool
	}{
		{"symmetric", symRows, symCols, true},
		{"directed", symRows[:5], symCols[:5], false},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := sparse.NewSparseMatrix(4, 4, c.rows, c.cols, nil)
			if err != nil {
				t.Fatal(err)
			}
			m.RowScale, m.ColScale = scale, scale
			old := sparse.AutoSparseDensity
			t.Cleanup(func() { sparse.AutoSparseDensity = old })
			sparse.AutoSparseDensity = 0.01
			in := nn.NewInputs()
			in.DType = dtypes.Float64
			sparse.SetAuto(in, "a", m)
			if v, _ := in.Meta("a/symmetric"); (v == 1) != c.symmetric {
				t.Fatalf("a/symmetric = %d, want symmetric %v", v, c.symmetric)
			}
			rng := rand.New(rand.NewPCG(3, 4))
			xv := nntest.RandValues(rng, 4, 2)
			h := nntest.NewHarness(t, in, 1, func(scope *model.Scope, n *nn.Nodes) *Node {
				x := scope.VariableWithValue("x", nntest.Float64Tensor(xv, 4, 2)).NodeValue(n.Graph())
				a := sparse.AutoFromNodes(n, "a", true)
				if a.Symmetric != c.symmetric {
					t.Fatalf("AutoSpMat.Symmetric = %v", a.Symmetric)
				}
				return a.Mul(x)
			})
			got, _ := h.Forward()
			d := m.Dense()
			want := make([]float64, 8)
			for i := range 4 {
				for j := range 4 {
					for k := range 2 {
						want[i*2+k] += d[i*4+j] * xv[j*2+k]
					}
				}
			}
			nntest.AssertClose(t, "A·x", got, want, 1e-6)
			h.CheckGradients(rng, 1e-6)
		})
	}
}

// TestDenseFloat32: SetAuto's dense form is float32 of Dense, bit for bit,
// with per-entry values, both scales and duplicate entries (summed in
// float64 before rounding, as Dense does).
func TestDenseFloat32(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	const rows, cols, n = 6, 7, 90 // 42 cells: duplicates
	r, c, v := make([]int32, n), make([]int32, n), make([]float32, n)
	for i := range n {
		r[i], c[i], v[i] = int32(rng.IntN(rows)), int32(rng.IntN(cols)), float32(rng.NormFloat64())
	}
	for _, scaled := range []bool{false, true} {
		m, err := sparse.NewSparseMatrix(rows, cols, r, c, v)
		if err != nil {
			t.Fatal(err)
		}
		if scaled {
			m.RowScale, m.ColScale = make([]float32, rows), make([]float32, cols)
			for i := range m.RowScale {
				m.RowScale[i] = float32(rng.Float64() + 0.1)
			}
			for i := range m.ColScale {
				m.ColScale[i] = float32(rng.Float64() + 0.1)
			}
		}
		got, want := sparse.DenseFloat32(m), m.Dense()
		for i := range want {
			if math.Float32bits(got[i]) != math.Float32bits(float32(want[i])) {
				t.Fatalf("scaled %v: cell %d = %v, want float32(%v)", scaled, i, got[i], want[i])
			}
		}
	}
}
