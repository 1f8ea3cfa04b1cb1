package nn

import (
	"math"
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"
)

// bl3Inverse inverts a square matrix by Gauss-Jordan with partial
// pivoting (an independent float64 reference for the graph solves).
func bl3Inverse(t *testing.T, a [][]float64) [][]float64 {
	t.Helper()
	n := len(a)
	m := make([][]float64, n)
	for i := range m {
		m[i] = make([]float64, 2*n)
		copy(m[i], a[i])
		m[i][n+i] = 1
	}
	for k := range n {
		p := k
		for i := k + 1; i < n; i++ {
			if math.Abs(m[i][k]) > math.Abs(m[p][k]) {
				p = i
			}
		}
		if m[p][k] == 0 {
			t.Fatal("singular matrix")
		}
		m[k], m[p] = m[p], m[k]
		piv := m[k][k]
		for j := range m[k] {
			m[k][j] /= piv
		}
		for i := range n {
			if i == k || m[i][k] == 0 {
				continue
			}
			f := m[i][k]
			for j := range m[i] {
				m[i][j] -= f * m[k][j]
			}
		}
	}
	inv := make([][]float64, n)
	for i := range inv {
		inv[i] = m[i][n:]
	}
	return inv
}

func bl3Transpose(a [][]float64) [][]float64 {
	out := make([][]float64, len(a[0]))
	for j := range out {
		out[j] = make([]float64, len(a))
		for i := range a {
			out[j][i] = a[i][j]
		}
	}
	return out
}

func bl3RandMatrix(rng *rand.Rand, rows, cols int) []float64 {
	v := make([]float64, rows*cols)
	for i := range v {
		v[i] = rng.NormFloat64()
	}
	return v
}

// TestSolveSPD: A = L Lᵀ + I (SPD, pivots far from 1), A⁻¹B against a
// pivoted dense inverse, and gradients with respect to L and B against
// finite differences.
func TestSolveSPD(t *testing.T) {
	const d, m = 4, 3
	rng := rand.New(rand.NewPCG(21, 22))
	lv, bv := bl3RandMatrix(rng, d, d), bl3RandMatrix(rng, d, m)
	in := float64Inputs(t, tinyGraph(t), false)
	h := newHarness(t, in, 1, func(scope *model.Scope, n *Nodes) *Node {
		g := n.Graph()
		l := scope.VariableWithValue("l", x0Tensor(lv, d, d)).NodeValue(g)
		b := scope.VariableWithValue("b", x0Tensor(bv, d, m)).NodeValue(g)
		a := Add(Dot(l, Transpose(l, 0, 1)).Product(), identity(g, l.DType(), d))
		return SolveSPD(a, b)
	})
	got, _ := h.forward()
	l := reshape(lv, d, d)
	a := matMul(l, bl3Transpose(l))
	for i := range a {
		a[i][i]++
	}
	want := matMul(bl3Inverse(t, a), reshape(bv, d, m))
	assertClose(t, "A⁻¹B", got, flat(want), 1e-10)
	h.checkGradients(rng, 1e-6)
}
