package nntest

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gomlx/compute/dtypes"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// TinyGraph: 5 nodes, 4 features (some zeros), edges with a duplicate
// (2 -> 1 twice) and a self loop (2 -> 2); node 3 has no in-edge from node 4.
func TinyGraph(t *testing.T) *graph.Graph {
	t.Helper()
	x := []float32{
		1, 0, 2, 0,
		0, 1, 0, 0,
		3, 0, 0, 1,
		0, 0, 1, 1,
		0, 2, 0, 0,
	}
	f, err := graph.NewDenseFeatures(5, 4, x)
	if err != nil {
		t.Fatal(err)
	}
	return graph.MustNew(graph.Spec{Name: "tiny", NumNodes: 5,
		Src:      []int32{0, 1, 2, 3, 4, 1, 0, 2, 2},
		Dst:      []int32{1, 0, 1, 2, 3, 2, 4, 2, 1},
		Features: f, Labels: []int32{0, 1, 2, 0, 1}, NumClasses: 3})
}

// DenseX returns the features of g as dense rows.
func DenseX(g *graph.Graph) [][]float64 {
	f := g.Features()
	x := make([][]float64, f.NumRows())
	for i := range x {
		x[i] = make([]float64, f.NumCols())
		for j := range x[i] {
			x[i][j] = float64(f.At(i, j))
		}
	}
	return x
}

// Float64Inputs builds float64 inputs; sparse selects the sparse feature path.
func Float64Inputs(t *testing.T, g *graph.Graph, sparse bool) *nn.Inputs {
	old := nn.SparseDensityThreshold
	defer func() { nn.SparseDensityThreshold = old }()
	nn.SparseDensityThreshold = 0
	if sparse {
		nn.SparseDensityThreshold = 2
	}
	in := nn.NewInputs()
	in.DType = dtypes.Float64
	if err := nn.AddGraphBasics(in, g); err != nil {
		t.Fatal(err)
	}
	if sparse != in.Has(nn.InputFeatures+"/rows") {
		t.Fatalf("features sparse = %v, want %v", in.Has(nn.InputFeatures+"/rows"), sparse)
	}
	return in
}

// Matrix cuts v (row-major) into rows x cols.
func Matrix(v []float64, rows, cols int) [][]float64 {
	m := make([][]float64, rows)
	for i := range m {
		m[i] = v[i*cols : (i+1)*cols]
	}
	return m
}

// Flat returns the rows of m end to end.
func Flat(m [][]float64) []float64 {
	var f []float64
	for _, r := range m {
		f = append(f, r...)
	}
	return f
}

// AddBias adds b to every row of m.
func AddBias(m [][]float64, b []float64) [][]float64 {
	for _, r := range m {
		for j := range r {
			r[j] += b[j]
		}
	}
	return m
}

// BothLayouts runs f with sparse matrices kept dense (small-graph path), in
// bucketed ELL layout with one bucket per distinct row length, and in that
// layout with hub columns (ForceHubs).
func BothLayouts(t *testing.T, f func(t *testing.T)) {
	for _, name := range []string{"dense", "ell", "ell-hubs"} {
		t.Run(name, func(t *testing.T) {
			oldDense, oldCost, oldDensity := sparse.DenseMaxElements, sparse.ELLBucketCost, sparse.DenseMinDensity
			defer func() {
				sparse.DenseMaxElements, sparse.ELLBucketCost, sparse.DenseMinDensity = oldDense, oldCost, oldDensity
			}()
			sparse.DenseMaxElements, sparse.ELLBucketCost = 0, 0
			switch name {
			case "dense":
				// The dense form for every product, however wide.
				sparse.DenseMaxElements, sparse.DenseMinDensity = 1<<20, 0
			case "ell":
				defer NoHubs()()
			case "ell-hubs":
				defer ForceHubs()()
			}
			f(t)
		})
	}
}

// ForceHubs makes the columns of test-sized sparse matrices with at least
// half as many entries as rows hubs (see sparse.DenseColumnRatio), so that
// products mix the dense block and the ELL layout; it returns the undo.
func ForceHubs() func() {
	oldRatio, oldMin, oldThreads := sparse.DenseColumnRatio, sparse.DenseColumnMinEntries, sparse.DenseColumnMaxThreads
	sparse.DenseColumnRatio, sparse.DenseColumnMinEntries, sparse.DenseColumnMaxThreads = 0.5, 0, 1<<20
	return func() {
		sparse.DenseColumnRatio, sparse.DenseColumnMinEntries, sparse.DenseColumnMaxThreads = oldRatio, oldMin, oldThreads
	}
}

// NoHubs turns hub columns off (plain ELL layouts); it returns the undo.
func NoHubs() func() {
	oldRatio := sparse.DenseColumnRatio
	sparse.DenseColumnRatio = 2 // more entries than rows: never
	return func() { sparse.DenseColumnRatio = oldRatio }
}

// GCNDense is Â built independently: self loops replaced, in-degrees.
func GCNDense(g *graph.Graph) [][]float64 {
	n := g.NumNodes()
	a := make([][]float64, n)
	for v := range a {
		a[v] = make([]float64, n)
		a[v][v] = 1
	}
	for e, u := range g.Src() {
		v := g.Dst()[e]
		if u != v {
			a[v][u]++
		}
	}
	deg := make([]float64, n)
	for v := range a {
		for _, x := range a[v] {
			deg[v] += x
		}
	}
	for v := range a {
		for u := range a[v] {
			a[v][u] /= math.Sqrt(deg[u] * deg[v])
		}
	}
	return a
}

// MatPow returns a^p (a square).
func MatPow(a [][]float64, p int) [][]float64 {
	n := len(a)
	r := make([][]float64, n)
	for i := range r {
		r[i] = make([]float64, n)
		r[i][i] = 1
	}
	for range p {
		r = DenseMatMul(a, r)
	}
	return r
}

// HCat concatenates matrices side by side.
func HCat(ms ...[][]float64) [][]float64 {
	out := make([][]float64, len(ms[0]))
	for i := range out {
		for _, m := range ms {
			out[i] = append(out[i], m[i]...)
		}
	}
	return out
}

// RandValues returns rows*cols N(0, 1) values.
func RandValues(rng *rand.Rand, rows, cols int) []float64 {
	v := make([]float64, rows*cols)
	for i := range v {
		v[i] = rng.NormFloat64()
	}
	return v
}

// InvertDense inverts a square matrix by Gauss-Jordan with partial
// pivoting (an independent float64 reference for the graph solves).
func InvertDense(t *testing.T, a [][]float64) [][]float64 {
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

// TransposeDense returns aᵀ.
func TransposeDense(a [][]float64) [][]float64 {
	out := make([][]float64, len(a[0]))
	for j := range out {
		out[j] = make([]float64, len(a))
		for i := range a {
			out[j][i] = a[i][j]
		}
	}
	return out
}

// RandMatrix returns rows*cols N(0, 1) values (row-major).
func RandMatrix(rng *rand.Rand, rows, cols int) []float64 {
	v := make([]float64, rows*cols)
	for i := range v {
		v[i] = rng.NormFloat64()
	}
	return v
}

// NaiveMatMul multiplies dense row-major matrices (independent of DenseMatMul
// and of the library's helpers).
func NaiveMatMul(a, b [][]float64) [][]float64 {
	out := make([][]float64, len(a))
	for i := range a {
		out[i] = make([]float64, len(b[0]))
		for k := range b {
			for j := range b[0] {
				out[i][j] += a[i][k] * b[k][j]
			}
		}
	}
	return out
}

// RandRounded returns an r x c matrix of N(0, 1) values rounded to float32 (the
// inputs pass through float32 on their way in).
func RandRounded(rng *rand.Rand, r, c int) [][]float64 {
	m := make([][]float64, r)
	for i := range m {
		m[i] = make([]float64, c)
		for j := range m[i] {
			m[i][j] = float64(float32(rng.NormFloat64()))
		}
	}
	return m
}

// Flat32 returns the rows of m end to end, as float32.
func Flat32(m [][]float64) []float32 {
	var f []float32
	for _, r := range m {
		for _, v := range r {
			f = append(f, float32(v))
		}
	}
	return f
}

// EdgeGraph builds a small undirected test graph with dense features.
func EdgeGraph(t *testing.T, n int, src, dst []int32, x []float32, f int, labels []int32) *graph.Graph {
	t.Helper()
	feats, err := graph.NewDenseFeatures(n, f, x)
	if err != nil {
		t.Fatal(err)
	}
	return graph.MustNew(graph.Spec{Name: "b4", NumNodes: n, Src: src, Dst: dst, Features: feats, Labels: labels})
}

// DenseMatMul multiplies dense row-major matrices.
func DenseMatMul(a, b [][]float64) [][]float64 {
	out := make([][]float64, len(a))
	for i := range a {
		out[i] = make([]float64, len(b[0]))
		for k, x := range a[i] {
			if x == 0 {
				continue
			}
			for j, y := range b[k] {
				out[i][j] += x * y
			}
		}
	}
	return out
}
