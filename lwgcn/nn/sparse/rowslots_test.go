package sparse_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// slotLayouts runs f on the ELL layout as the product sizes it (one bucket
// per degree here: ELLBucketCost 0), with buckets merged (ELLBucketCost
// 256: one bucket of K = 3, rows of degree 1 and 2 padded), and with host
// chunks of one row and blocks of 8 bytes (each bucket's slot weights
// sliced per chunk, their gradients joined again), and with whole buckets
// as host chunks but blocks of 8 bytes (products of several weightings
// split the chunks' rows).
func slotLayouts(t *testing.T, f func(t *testing.T)) {
	for _, tc := range []struct {
		name        string
		cost, chunk int
		slots       int
	}{{"ell", 0, 1 << 20, 1024}, {"merged", 256, 1 << 20, 1024}, {"chunked", 256, 8, 1}, {"split", 256, 8, 1024}} {
		t.Run(tc.name, func(t *testing.T) {
			defer nntest.NoHubs()()
			useELL(t, tc.cost, tc.chunk, tc.slots)
			f(t)
		})
	}
}

// useELL makes the test's matrices use the ELL layout (DenseMaxElements 0)
// with the given ELLBucketCost, ChunkBytes and ELLChunkSlots, until the
// test ends.
func useELL(t *testing.T, bucketCost, chunkBytes, chunkSlots int) {
	oldDense, oldCost := sparse.DenseMaxElements, sparse.ELLBucketCost
	oldChunk, oldSlots := sparse.ChunkBytes, sparse.ELLChunkSlots
	t.Cleanup(func() {
		sparse.DenseMaxElements, sparse.ELLBucketCost = oldDense, oldCost
		sparse.ChunkBytes, sparse.ELLChunkSlots = oldChunk, oldSlots
	})
	sparse.DenseMaxElements, sparse.ELLBucketCost = 0, bucketCost
	sparse.ChunkBytes, sparse.ELLChunkSlots = chunkBytes, chunkSlots
}

// TestRowSlotsScoresAndSoftmax: on the test matrix (rows {1, 4}, {2, 2, 0}
// with a duplicate, {3}, and an empty row), scores built in the slot layout
// from row and column features, s_e = p_row · q_col + w_e, equal the
// hand-computed ones in the entry order; their softmax over each row equals
// the hand-computed one and InEdgeSoftmax's; and the gradients with respect
// to p, q and w match finite differences.
func TestRowSlotsScoresAndSoftmax(t *testing.T) {
	slotLayouts(t, func(t *testing.T) {
		m, in := weightedTestMatrix(t)
		build := func(n *nn.Nodes, p, q, w *Node) (scores, alpha, coo *Node) {
			a := sparse.FromNodes(n, "a")
			s := a.RowSlots()
			if s == nil {
				t.Fatal("no slot layout for an ELL matrix")
			}
			sc := s.Entries(w)
			qc, pr := s.Cols(q), s.Rows(p)
			for b := range sc {
				sc[b] = Add(sc[b], ReduceAndKeep(Mul(qc[b], pr[b]), ReduceSum, -1))
			}
			coo = sparse.InEdgeSoftmax(ExpandAxes(s.ToEntries(sc), -1), a.Rows, a.NumRows, true)
			return s.ToEntries(sc), s.ToEntries(s.Softmax(sc)), Reshape(coo, a.NNZ)
		}
		h := nntest.NewHarness(t, in, 4, func(scope *model.Scope, n *nn.Nodes) *Node {
			g := n.Graph()
			p := nn.Param(scope, g, "p", dtypes.Float64, nn.Uniform(1), nil, 4, 2)
			q := nn.Param(scope, g, "q", dtypes.Float64, nn.Uniform(1), nil, 5, 2)
			w := nn.Param(scope, g, "w", dtypes.Float64, nn.Uniform(1), nil, 6)
			scores, alpha, coo := build(n, p, q, w)
			return Concatenate([]*Node{scores, alpha, coo}, 0)
		})
		got, _ := h.Forward()
		p, q, w := nntest.Matrix(h.VarValues("/p"), 4, 2), nntest.Matrix(h.VarValues("/q"), 5, 2), h.VarValues("/w")
		scores := make([]float64, len(m.Rows))
		for e := range m.Rows {
			r, c := m.Rows[e], m.Cols[e]
			scores[e] = p[r][0]*q[c][0] + p[r][1]*q[c][1] + w[e]
		}
		alpha := make([]float64, len(m.Rows))
		for e := range m.Rows {
			z := 0.0
			for f := range m.Rows {
				if m.Rows[f] == m.Rows[e] {
					z += math.Exp(scores[f])
				}
			}
			alpha[e] = math.Exp(scores[e]) / z
		}
		nn6 := len(m.Rows)
		nntest.AssertClose(t, "slot scores", got[:nn6], scores, 1e-12)
		nntest.AssertClose(t, "slot softmax", got[nn6:2*nn6], alpha, 1e-12)
		nntest.AssertClose(t, "InEdgeSoftmax", got[2*nn6:], alpha, 1e-12)
		h.CheckGradients(rand.New(rand.NewPCG(3, 7)), 1e-6)
	})
}

// TestRowSlotsSoftmaxHeads: with two score columns (heads), each column's
// softmax in the slot layout equals InEdgeSoftmax's, padding slots are 0,
// and gradients match finite differences.
func TestRowSlotsSoftmaxHeads(t *testing.T) {
	slotLayouts(t, func(t *testing.T) {
		_, in := weightedTestMatrix(t)
		h := nntest.NewHarness(t, in, 4, func(scope *model.Scope, n *nn.Nodes) *Node {
			a := sparse.FromNodes(n, "a")
			s := a.RowSlots()
			sc := nn.Param(scope, n.Graph(), "s", dtypes.Float64, nn.Uniform(2), nil, 6, 2)
			slot := s.Softmax(s.Entries(sc))
			want := s.Entries(sparse.InEdgeSoftmax(sc, a.Rows, a.NumRows, true))
			var parts []*Node
			for b := range slot {
				parts = append(parts, Reshape(slot[b], -1), Reshape(want[b], -1))
			}
			return Concatenate(parts, 0)
		})
		got, _ := h.Forward()
		// Pairs of equal-length blocks: slot softmax, then the reference.
		var slot, want []float64
		n := 0
		for _, size := range slotBlockSizes(t, in) {
			slot = append(slot, got[n:n+2*size]...)
			want = append(want, got[n+2*size:n+4*size]...)
			n += 4 * size
		}
		if n != len(got) {
			t.Fatalf("%d values, blocks account for %d", len(got), n)
		}
		nntest.AssertClose(t, "slot softmax per head", slot, want, 1e-12)
		h.CheckGradients(rand.New(rand.NewPCG(5, 7)), 1e-6)
	})
}

// slotBlockSizes returns K·R per bucket of the test matrix's slot layout.
func slotBlockSizes(t *testing.T, in *nn.Inputs) []int {
	var sizes []int
	h := nntest.NewHarness(t, in, 4, func(scope *model.Scope, n *nn.Nodes) *Node {
		s := sparse.FromNodes(n, "a").RowSlots()
		ones := s.Entries(Ones(n.Graph(), shapes.Make(dtypes.Float64, 6)))
		for _, v := range ones {
			sizes = append(sizes, v.Shape().Size())
		}
		return ones[0]
	})
	h.Forward()
	return sizes
}

// TestRowSlotsMulWeighted: A_w·x with w in the slot layout equals the
// product by hand (scales kept, the duplicate entry and the empty row
// included) and SpMat.MulWeighted with the same weights in the entry
// order; gradients for x and w match finite differences.
func TestRowSlotsMulWeighted(t *testing.T) {
	slotLayouts(t, func(t *testing.T) {
		m, in := weightedTestMatrix(t)
		h := nntest.NewHarness(t, in, 4, func(scope *model.Scope, n *nn.Nodes) *Node {
			g := n.Graph()
			x := nn.Param(scope, g, "x", dtypes.Float64, nn.Uniform(1), nil, 5, 3)
			w := nn.Param(scope, g, "w", dtypes.Float64, nn.Uniform(1), nil, 6)
			a := sparse.FromNodes(n, "a")
			s := a.RowSlots()
			ws := s.Entries(w)
			// Two products sharing ws (ToEntries converts it once).
			y := s.MulWeighted(x, ws)
			y2 := s.MulWeighted(Mul(x, x), ws)
			return Concatenate([]*Node{y, y2, a.MulWeighted(x, w)}, 1)
		})
		got, _ := h.Forward()
		x, w := nntest.Matrix(h.VarValues("/x"), 5, 3), h.VarValues("/w")
		want := make([][]float64, 4)
		for i := range want {
			want[i] = make([]float64, 9)
		}
		for e := range m.Rows {
			r, c := m.Rows[e], m.Cols[e]
			f := float64(m.RowScale[r]) * w[e] * float64(m.ColScale[c])
			for j := range 3 {
				want[r][j] += f * x[c][j]
				want[r][3+j] += f * x[c][j] * x[c][j]
				want[r][6+j] += f * x[c][j]
			}
		}
		nntest.AssertClose(t, "slot A_w x", got, nntest.Flat(want), 1e-12)
		h.CheckGradients(rand.New(rand.NewPCG(1, 9)), 1e-6)
	})
}

// TestRowSlotsOnlyForELL: matrices multiplied densely have no slot layout.
func TestRowSlotsOnlyForELL(t *testing.T) {
	_, in := weightedTestMatrix(t)
	h := nntest.NewHarness(t, in, 4, func(scope *model.Scope, n *nn.Nodes) *Node {
		if s := sparse.FromNodes(n, "a").RowSlots(); s != nil {
			t.Errorf("a 4 x 5 matrix (dense layout) has a slot layout")
		}
		return Ones(n.Graph(), shapes.Make(dtypes.Float64, 1))
	})
	h.Forward()
}

// TestRowSlotsMulWeightedRuns: two weightings of the pattern, each
// multiplying its own column group of x, equal SpMat.MulWeightedRuns with
// the same weights in the entry order, and the product by hand; the slot
// weights converted back (ToEntries) equal the entry weights; gradients
// for x and w match finite differences.
func TestRowSlotsMulWeightedRuns(t *testing.T) {
	slotLayouts(t, func(t *testing.T) {
		m, in := weightedTestMatrix(t)
		const runs, hid = 2, 3
		h := nntest.NewHarness(t, in, 4, func(scope *model.Scope, n *nn.Nodes) *Node {
			g := n.Graph()
			x := nn.Param(scope, g, "x", dtypes.Float64, nn.Uniform(1), nil, 5, runs*hid)
			w := nn.Param(scope, g, "w", dtypes.Float64, nn.Uniform(1), nil, 6, runs)
			a := sparse.FromNodes(n, "a")
			s := a.RowSlots()
			ws := s.Entries(w)
			return Concatenate([]*Node{
				Reshape(s.MulWeightedRuns(x, ws, runs), -1),
				Reshape(a.MulWeightedRuns(x, w, runs), -1),
				Reshape(s.ToEntries(ws), -1),
			}, 0)
		})
		got, _ := h.Forward()
		x, w := nntest.Matrix(h.VarValues("/x"), 5, runs*hid), nntest.Matrix(h.VarValues("/w"), 6, runs)
		want := weightedRunsByHand(m, x, w, hid)
		nw := 4 * runs * hid
		nntest.AssertClose(t, "slot A_w x per weighting", got[:nw], nntest.Flat(want), 1e-12)
		nntest.AssertClose(t, "MulWeightedRuns", got[nw:2*nw], nntest.Flat(want), 1e-12)
		nntest.AssertClose(t, "ToEntries", got[2*nw:], nntest.Flat(w), 0)
		h.CheckGradients(rand.New(rand.NewPCG(2, 9)), 1e-6)
	})
}
