package sparse_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

func TestNewSparseMatrixSortsAndFactors(t *testing.T) {
	// Row 1 has equal values (factored into RowScale), row 0 too.
	m, err := sparse.NewSparseMatrix(3, 4, []int32{1, 0, 1, 0}, []int32{3, 2, 0, 1}, []float32{0.5, 2, 0.5, 2})
	if err != nil {
		t.Fatal(err)
	}
	wantRows, wantCols := []int32{0, 0, 1, 1}, []int32{1, 2, 0, 3}
	for i := range wantRows {
		if m.Rows[i] != wantRows[i] || m.Cols[i] != wantCols[i] {
			t.Fatalf("entry %d at (%d,%d), want (%d,%d)", i, m.Rows[i], m.Cols[i], wantRows[i], wantCols[i])
		}
	}
	if m.Vals != nil || m.RowScale == nil || m.RowScale[0] != 2 || m.RowScale[1] != 0.5 || m.RowScale[2] != 1 {
		t.Fatalf("row-constant values not factored: vals %v rowscale %v", m.Vals, m.RowScale)
	}
	want := []float64{0, 2, 2, 0, 0.5, 0, 0, 0.5, 0, 0, 0, 0}
	nntest.AssertClose(t, "dense", m.Dense(), want, 0)

	// Mixed values stay per entry.
	m, err = sparse.NewSparseMatrix(2, 2, []int32{0, 0}, []int32{0, 1}, []float32{1, 3})
	if err != nil {
		t.Fatal(err)
	}
	if m.Vals == nil || m.RowScale != nil {
		t.Fatalf("mixed values factored: %+v", m)
	}

	if _, err := sparse.NewSparseMatrix(2, 2, []int32{0, 2}, []int32{0, 1}, nil); err == nil ||
		!strings.Contains(err.Error(), "entry 1 at (2, 1) outside 2 x 2") {
		t.Fatalf("out-of-range entry: err = %v", err)
	}
}

// TestNewSparseMatrixKeepsEqualEntriesInOrder: entries come out sorted by
// (row, col), and duplicates (which add up) in the order they were given,
// as a stable sort leaves them: their values tell them apart.
func TestNewSparseMatrixKeepsEqualEntriesInOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	const numRows, numCols, n = 7, 5, 400 // 35 cells: many duplicates
	rows, cols, vals := make([]int32, n), make([]int32, n), make([]float32, n)
	for i := range n {
		rows[i], cols[i], vals[i] = int32(rng.IntN(numRows)), int32(rng.IntN(numCols)), float32(i)
	}
	m, err := sparse.NewSparseMatrix(numRows, numCols, rows, cols, vals)
	if err != nil {
		t.Fatal(err)
	}
	// The reference: for each cell in (row, col) order, its entries by position.
	i := 0
	for r := range int32(numRows) {
		for c := range int32(numCols) {
			for p := range n {
				if rows[p] != r || cols[p] != c {
					continue
				}
				if m.Rows[i] != r || m.Cols[i] != c || m.Vals[i] != vals[p] {
					t.Fatalf("entry %d: (%d, %d) value %v, want (%d, %d) value %v (entry %d as given)",
						i, m.Rows[i], m.Cols[i], m.Vals[i], r, c, vals[p], p)
				}
				i++
			}
		}
	}
	if i != n || m.NNZ() != n {
		t.Fatalf("%d entries, want %d", m.NNZ(), n)
	}
}

// TestSpMatMul checks A·x and its gradient Aᵀ·r against dense products, with
// chunks forced small, for square (custom gradient and autodiff) and
// rectangular matrices.
func TestSpMatMul(t *testing.T) {
	for _, hubs := range []bool{false, true} {
		t.Run(map[bool]string{false: "ell", true: "hubs"}[hubs], func(t *testing.T) {
			if hubs {
				defer nntest.ForceHubs()()
			} else {
				defer nntest.NoHubs()()
			}
			testSpMatMul(t)
		})
	}
}

func testSpMatMul(t *testing.T) {
	oldChunk, oldSlots, oldCost, oldDense := sparse.ChunkBytes, sparse.ELLChunkSlots, sparse.ELLBucketCost, sparse.DenseMaxElements
	defer func() {
		sparse.ChunkBytes, sparse.ELLChunkSlots, sparse.ELLBucketCost, sparse.DenseMaxElements = oldChunk, oldSlots, oldCost, oldDense
	}()

	rng := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct {
		name       string
		rows, cols int
		chunk      int // ChunkBytes: 1 = no whole buckets
		slots      int // ELLChunkSlots: 1 = host chunks of one row
		override   bool
		bucketCost int
		dense      bool
		// sym mirrors every entry (B = Bᵀ); rowScale adds a row scale.
		sym, rowScale bool
	}{{"square", 6, 6, 1 << 20, 1024, false, 256, false, false, false}, {"square-chunked", 6, 6, 1, 1, false, 256, false, false, false},
		{"square-whole-buckets", 6, 6, 1 << 20, 1, false, 256, false, false, false},
		{"square-some-whole", 6, 6, 100, 1, false, 0, false, false, false},
		{"wide-buckets", 5, 7, 1 << 20, 1024, false, 0, false, false, false}, {"tall-chunked-buckets", 9, 4, 1, 1, false, 0, false, false, false},
		{"tall-override", 9, 4, 1, 1, true, 0, false, false, false}, {"tall-override-some-whole", 9, 4, 100, 1, true, 0, false, false, false},
		{"dense", 6, 6, 0, 1024, false, 0, true, false, false}, {"dense-override", 9, 4, 0, 1024, true, 0, true, false, false},
		{"dense-tall-row-scale", 9, 4, 0, 1024, false, 0, true, false, true},
		{"dense-wide", 4, 9, 0, 1024, false, 0, true, false, false},
		{"dense-symmetric", 6, 6, 0, 1024, false, 0, true, true, true},
		{"dense-no-scales", 6, 6, 0, 1024, false, 0, true, false, false}} {
		t.Run(tc.name, func(t *testing.T) {
			sparse.ChunkBytes, sparse.ELLChunkSlots = tc.chunk, tc.slots
			sparse.ELLBucketCost = tc.bucketCost // 0: one bucket per distinct row length
			sparse.DenseMaxElements = 0
			if tc.dense {
				sparse.DenseMaxElements = 1 << 20
			}
			var r, c []int32
			var v []float32
			for range 17 { // duplicates likely
				r = append(r, int32(rng.IntN(tc.rows)))
				c = append(c, int32(rng.IntN(tc.cols)))
				v = append(v, float32(rng.IntN(5)+1)/4)
				if tc.sym {
					r, c, v = append(r, c[len(c)-1]), append(c, r[len(r)-1]), append(v, v[len(v)-1])
				}
			}
			m, err := sparse.NewSparseMatrix(tc.rows, tc.cols, r, c, v)
			if err != nil {
				t.Fatal(err)
			}
			if tc.name != "dense-no-scales" {
				m.ColScale = make([]float32, tc.cols)
				for i := range m.ColScale {
					m.ColScale[i] = float32(i+1) / 2
				}
			} else if m.RowScale != nil {
				t.Fatal("dense-no-scales: the values were factored into a row scale")
			}
			if tc.rowScale {
				if m.RowScale == nil {
					m.RowScale = make([]float32, tc.rows)
					for i := range m.RowScale {
						m.RowScale[i] = 1
					}
				}
				for i := range m.RowScale {
					m.RowScale[i] /= float32(i + 2)
				}
			}
			in := nn.NewInputs()
			in.DType = dtypes.Float64
			sparse.Set(in, "a", m)
			// The dense form's gradient uses B itself (symmetric) or the
			// stored Bᵀ.
			if sym, _ := in.Meta("a/dense/symmetric"); tc.dense && (sym == 1) != tc.sym {
				t.Fatalf("a/dense/symmetric = %d for sym %v", sym, tc.sym)
			}
			if tc.dense && !tc.sym && !in.Has("a/denset") {
				t.Fatal("no a/denset for an asymmetric dense matrix")
			}
			// A matrix kept dense is multiplied densely when x is narrow (3
			// columns here) or the matrix dense enough (these are: 17 entries
			// in 24 to 36), and in its ELL layout otherwise (40 columns with
			// DenseMinDensity above 1).
			widths := []int{3}
			if tc.dense {
				widths = append(widths, 40)
			}
			for _, h := range widths {
				if h > sparse.DenseMaxWidth {
					defer func(old float64) { sparse.DenseMinDensity = old }(sparse.DenseMinDensity)
					sparse.DenseMinDensity = 2
				}
				wantDense := tc.dense && h <= sparse.DenseMaxWidth
				x0 := make([]float64, tc.cols*h)
				for i := range x0 {
					x0[i] = rng.NormFloat64()
				}
				// override: entry values replaced in the graph (as dropout does).
				over := make([]float64, m.NNZ())
				for i := range over {
					over[i] = float64(i%3) - 0.5
				}
				hs := nntest.NewHarness(t, in, 1, func(scope *model.Scope, n *nn.Nodes) *Node {
					x := scope.VariableWithValue("x", nntest.Float64Tensor(x0, tc.cols, h)).NodeValue(n.Graph())
					a := sparse.FromNodes(n, "a")
					if tc.override {
						a = a.WithVals(Const(n.Graph(), over))
					}
					if got := sparse.MulIsDense(a, h); got != wantDense {
						t.Errorf("h=%d: dense product %v, want %v", h, got, wantDense)
					}
					start := len(n.Graph().Nodes())
					y := a.Mul(x)
					// A matrix kept dense: a Dot in the dense form, gathers in ELL.
					if dots := hasNodeType(n.Graph().Nodes()[start:], NodeTypeDotGeneral); tc.dense && dots != wantDense {
						t.Errorf("h=%d: the product has a DotGeneral: %v, want %v", h, dots, wantDense)
					}
					return y
				})
				got, _ := hs.Forward()
				if tc.override {
					m.Vals = make([]float32, len(over))
					for i, v := range over {
						m.Vals[i] = float32(v)
					}
				}
				dense := m.Dense()
				want := make([]float64, tc.rows*h)
				for i := range tc.rows {
					for j := range h {
						for k := range tc.cols {
							want[i*h+j] += dense[i*tc.cols+k] * x0[k*h+j]
						}
					}
				}
				nntest.AssertClose(t, "A·x", got, want, 1e-12)
				// Gradient of Σ (A·x) ⊙ r is Aᵀ·r.
				rr := make([]float64, tc.rows*h)
				for i := range rr {
					rr[i] = rng.NormFloat64()
				}
				grads := hs.Gradients(rr, []int{tc.rows, h})
				wantG := make([]float64, tc.cols*h)
				for k := range tc.cols {
					for j := range h {
						for i := range tc.rows {
							wantG[k*h+j] += dense[i*tc.cols+k] * rr[i*h+j]
						}
					}
				}
				nntest.AssertClose(t, "Aᵀ·r", grads["/x"], wantG, 1e-12)
			}
		})
	}
}

func TestGCNNormalizedByHand(t *testing.T) {
	// Path 0 - 1 - 2 (both directions) plus a self loop on 2 (replaced) and a
	// duplicated edge 0 -> 1.
	src := []int32{0, 1, 1, 2, 2, 0}
	dst := []int32{1, 0, 2, 1, 2, 1}
	m, err := nn.GCNNormalized(3, src, dst)
	if err != nil {
		t.Fatal(err)
	}
	// In-degrees with self loop: deg0 = 1+1 = 2, deg1 = 3 (0,0,2) + 1 = 4, deg2 = 1+1 = 2.
	s := func(a, b float64) float64 { return 1 / math.Sqrt(a*b) }
	want := []float64{
		s(2, 2), s(2, 4), 0,
		2 * s(4, 2), s(4, 4), s(4, 2),
		0, s(2, 4), s(2, 2),
	}
	nntest.AssertClose(t, "Â", m.Dense(), want, 1e-7)
}

// TestSpMatBinaryValues: a matrix whose values are all 1 (binary bag of
// words) is stored without values, and its product equals the product with
// the ones given explicitly per entry (the weighted path dropout uses) and
// the dense product.
func TestSpMatBinaryValues(t *testing.T) {
	oldDense := sparse.DenseMaxElements
	defer func() { sparse.DenseMaxElements = oldDense }()
	sparse.DenseMaxElements = 0
	rng := rand.New(rand.NewPCG(5, 6))
	const rows, cols, h = 7, 11, 4
	var r, c []int32
	var ones []float32
	for range 30 {
		r, c, ones = append(r, int32(rng.IntN(rows))), append(c, int32(rng.IntN(cols))), append(ones, 1)
	}
	m, err := sparse.NewSparseMatrix(rows, cols, r, c, ones)
	if err != nil {
		t.Fatal(err)
	}
	if m.Vals != nil || m.RowScale != nil {
		t.Fatalf("all-ones values kept: vals %v rowscale %v", m.Vals, m.RowScale)
	}
	in := nn.NewInputs()
	in.DType = dtypes.Float64
	sparse.Set(in, "a", m)
	x0 := make([]float64, cols*h)
	for i := range x0 {
		x0[i] = rng.NormFloat64()
	}
	dense := m.Dense()
	want := make([]float64, rows*h)
	for i := range rows {
		for k := range cols {
			for j := range h {
				want[i*h+j] += dense[i*cols+k] * x0[k*h+j]
			}
		}
	}
	for _, explicit := range []bool{false, true} {
		hs := nntest.NewHarness(t, in, 1, func(scope *model.Scope, n *nn.Nodes) *Node {
			x := scope.VariableWithValue("x", nntest.Float64Tensor(x0, cols, h)).NodeValue(n.Graph())
			a := sparse.FromNodes(n, "a")
			if explicit {
				a = a.WithVals(OnesLike(a.EntryValues(dtypes.Float64)))
			}
			return a.Mul(x)
		})
		got, _ := hs.Forward()
		nntest.AssertClose(t, fmt.Sprintf("A·x (explicit ones %v)", explicit), got, want, 1e-12)
		rr := make([]float64, rows*h)
		for i := range rr {
			rr[i] = float64(i%5) - 2
		}
		wantG := make([]float64, cols*h)
		for k := range cols {
			for i := range rows {
				for j := range h {
					wantG[k*h+j] += dense[i*cols+k] * rr[i*h+j]
				}
			}
		}
		nntest.AssertClose(t, fmt.Sprintf("Aᵀ·r (explicit ones %v)", explicit), hs.Gradients(rr, []int{rows, h})["/x"], wantG, 1e-12)
	}
}
