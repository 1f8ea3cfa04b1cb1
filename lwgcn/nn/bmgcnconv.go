package nn

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// Input names of BM-GCN's adjacency: the sparsity pattern (a sparse.SpMat without
// values) and the entry weights ([NNZ], the pattern's row-sorted order).
const (
	InputBMGCNAdj     = "adj/bmgcn"
	InputBMGCNWeights = "adj/bmgcn_weights"
)

// BMGCNAdjacency returns the adjacency BM-GCN (He et al., AAAI 2022) works
// on, as the official hedongxiao-tju/BM-GCN load_data builds it: the given
// edges as a 0/1 matrix (duplicates counted once), symmetrised with
// max(A, Aᵀ), plus selfLoop·I; entries that end up 0 (the diagonal of a node
// without a self loop when selfLoop is 0) are not stored. It returns the
// pattern (rows = destinations, columns = sources, no values) and the entry
// weights in the pattern's row-sorted order.
func BMGCNAdjacency(numNodes int, src, dst []int32, selfLoop float64) (*sparse.SparseMatrix, []float32, error) {
	if len(src) != len(dst) {
		return nil, nil, fmt.Errorf("nn: %d sources for %d destinations", len(src), len(dst))
	}
	if selfLoop < 0 {
		return nil, nil, fmt.Errorf("nn: BM-GCN self-loop weight must be >= 0, got %v", selfLoop)
	}
	type entry struct {
		r, c int32
		w    float32
	}
	seen := map[[2]int32]bool{}
	for e := range src {
		if src[e] < 0 || int(src[e]) >= numNodes || dst[e] < 0 || int(dst[e]) >= numNodes {
			return nil, nil, fmt.Errorf("nn: edge %d (%d -> %d) outside %d nodes", e, src[e], dst[e], numNodes)
		}
		seen[[2]int32{dst[e], src[e]}], seen[[2]int32{src[e], dst[e]}] = true, true
	}
	diag := make([]float64, numNodes)
	var es []entry
	for p := range seen {
		if p[0] == p[1] {
			diag[p[0]] = 1
			continue
		}
		es = append(es, entry{p[0], p[1], 1})
	}
	for v, d := range diag {
		if d+selfLoop > 0 {
			es = append(es, entry{int32(v), int32(v), float32(d + selfLoop)})
		}
	}
	slices.SortFunc(es, func(a, b entry) int {
		if c := cmp.Compare(a.r, b.r); c != 0 {
			return c
		}
		return cmp.Compare(a.c, b.c)
	})
	rows, cols, w := make([]int32, len(es)), make([]int32, len(es)), make([]float32, len(es))
	for i, e := range es {
		rows[i], cols[i], w[i] = e.r, e.c, e.w
	}
	m, err := sparse.NewSparseMatrix(numNodes, numNodes, rows, cols, nil)
	if err != nil {
		return nil, nil, err
	}
	return m, w, nil
}

// AddBMGCNAdjacency adds BMGCNAdjacency of g as "adj/bmgcn" (pattern) and
// "adj/bmgcn_weights".
func AddBMGCNAdjacency(in *Inputs, g *graph.Graph, selfLoop float64) error {
	m, w, err := BMGCNAdjacency(g.NumNodes(), g.Src(), g.Dst(), selfLoop)
	if err != nil {
		return fmt.Errorf("nn: graph %q: %w", g.Name(), err)
	}
	if m.NNZ() == 0 {
		return fmt.Errorf("nn: graph %q: BM-GCN adjacency is empty (no edges, self-loop weight 0)", g.Name())
	}
	sparse.SetWeighted(in, InputBMGCNAdj, m)
	in.SetFloat(InputBMGCNWeights, w, len(w))
	return nil
}

// BlockMatrix is BM-GCN's block (class-compatibility) matrix estimated from
// the graph and (soft) labels, official get_block_matrix:
//
//	H = (Ŷᵀ A Ŷ) ⊘ (Ŷᵀ A 1 1ᵀ),   i.e. row c of Ŷᵀ A Ŷ divided by its sum
//
// H[c, c'] is the share of class-c nodes' (weighted) edges that reach class
// c'. Shapes: yHat [N, C] (rows sum to 1: one-hot labels on training nodes,
// the MLP's soft labels elsewhere), adj (A's pattern) with entry weights a
// [NNZ];
// result [C, C]. Gradients flow to yHat.
func BlockMatrix(yHat *Node, adj *sparse.SpMat, a *Node) *Node {
	ay := adj.MulWeighted(yHat, a)                  // (A Ŷ) [N, C]
	num := Dot(Transpose(yHat, 0, 1), ay).Product() // Ŷᵀ A Ŷ [C, C]
	return Div(num, ReduceAndKeep(num, ReduceSum, 1))
}

// BlockCompatibility is BM-GCN's Q from the block matrix H:
//
//	Q = rownorm((H Hᵀ) ∘ B),   B = 1 off the diagonal, enhance on it
//
// Shapes: h [C, C], result [C, C].
func BlockCompatibility(h *Node, enhance float64) *Node {
	c := h.Shape().Dimensions[0]
	q := Dot(h, Transpose(h, 0, 1)).Product()
	eye := ConvertDType(Equal(Iota(h.Graph(), shapes.Make(dtypes.Int32, c, c), 0), Iota(h.Graph(), shapes.Make(dtypes.Int32, c, c), 1)), h.DType())
	q = Mul(q, AddScalar(MulScalar(eye, enhance-1), 1))
	return Div(q, ReduceAndKeep(q, ReduceSum, 1))
}

// BlockEdgeWeights are BM-GCN's aggregation weights (official BMGCN.forward):
// per stored entry (v, u) of A, the score s_vu = (b_v Q b_uᵀ) · a_vu,
// normalised by a softmax over v's row:
//
//	alpha_vu = exp(s_vu) / Σ_{u': a_vu' > 0} exp(s_vu')
//
// Shapes: b [N, C] (the MLP's soft labels), q [C, C], adj (pattern) with
// entry weights a [NNZ]; result [NNZ]. The official code computes B Q Bᵀ as a dense
// N x N matrix; here only the stored entries are scored. A node with an
// empty row aggregates nothing (the official dense softmax would average all
// N nodes there).
func BlockEdgeWeights(b, q *Node, adj *sparse.SpMat, a *Node) *Node {
	dst, src := adj.Rows, adj.Cols
	bq := Dot(b, q).Product()                                      // [N, C]
	s := ReduceSum(Mul(Gather(bq, dst, true), Gather(b, src)), -1) // [NNZ]
	return Reshape(sparse.InEdgeSoftmax(ExpandAxes(Mul(s, a), -1), dst, adj.NumRows, true), adj.NNZ)
}

// BlockEdgeWeightsSlots is BlockEdgeWeights in adj's slot layout (see
// sparse.RowSlots): the same alpha, per bucket [K, R, 1], scored and
// normalised per row without gathering or scattering per entry (the soft
// labels of each entry's source are gathered once, into the slots). a: the
// entry weights in the slot layout, or nil when they are all 1.
func BlockEdgeWeightsSlots(b, q *Node, slots *sparse.RowSlots, a sparse.SlotValues) sparse.SlotValues {
	bq := Dot(b, q).Product()                 // [N, C]
	src, dst := slots.Cols(b), slots.Rows(bq) // [K, R, C], [1, R, C]
	s := make(sparse.SlotValues, len(src))
	for i := range src {
		s[i] = ReduceAndKeep(Mul(src[i], dst[i]), ReduceSum, -1) // [K, R, 1]
		if a != nil {
			s[i] = Mul(s[i], a[i])
		}
	}
	return slots.Softmax(s)
}

// BlockWeights are BM-GCN's aggregation weights alpha, in the entry order
// (Entries [NNZ], BlockEdgeWeights) or in Adj's slot layout (Slots with
// Values, BlockEdgeWeightsSlots).
type BlockWeights struct {
	Adj     *sparse.SpMat
	Entries *Node
	Slots   *sparse.RowSlots
	Values  sparse.SlotValues
}

// Aggregate returns Σ_u alpha_vu x_u ([N, H]) for x [N, H]; gradients flow
// to x and alpha.
func (w BlockWeights) Aggregate(x *Node) *Node {
	if w.Slots != nil {
		return w.Slots.MulWeighted(x, w.Values)
	}
	return w.Adj.MulWeighted(x, w.Entries)
}

// BMGCNConv is one layer of BM-GCN's GCN (official GraphConv plus its
// parallel Linear):
//
//	out_v = (Σ_u alpha_vu x_u) W_g + b_g + x_v W_s + b_s
//
// computed as Σ_u alpha_vu (x_u W_g) (projection before aggregation).
// Shapes: x N x F (Features), alpha (BlockWeights over the N x N
// adjacency), W_g and W_s [F, out] ("agg/weight", "self/weight";
// xavier_uniform as the official weights_init), b_g and b_s [out] (zeros);
// result [N, out].
func BMGCNConv(scope *model.Scope, x Features, alpha BlockWeights, out int) *Node {
	f := x.NumCols()
	ag := scope.In("agg")
	xg := SparseLinearWithInit(ag, x, out, false, GlorotInit(f, out), ZeroInit)
	bg := Param(ag, xg.Graph(), "bias", xg.DType(), ZeroInit, nil, out)
	agg := Add(alpha.Aggregate(xg), ExpandAxes(bg, 0))
	self := SparseLinearWithInit(scope.In("self"), x, out, true, GlorotInit(f, out), ZeroInit)
	return Add(agg, self)
}
