package nn

import (
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// InputSuperGATKeys holds the sorted keys src·N + dst of the self-looped
// edges ("adj/gat"): the positives that negative sampling must avoid.
// InputSuperGATTable holds the same set as a dense 0/1 table [N·N] (uint8)
// on graphs of at most SuperGATTableMaxPairs node pairs.
const (
	InputSuperGATKeys  = "supergat/keys"
	InputSuperGATTable = "supergat/table"
)

// SuperGATTableMaxPairs bounds the node pairs (N²) of the graphs that get
// the dense edge table (one byte per pair, at most 256 MiB): checking a
// candidate pair is then one lookup instead of a binary search over the keys
// (20 gathers and about 140 element-wise steps per candidate on tolokers, whose
// 138 M pairs made the search a sixth of SuperGAT's epoch). Larger graphs
// search the keys; both give the same pairs.
var SuperGATTableMaxPairs = 1 << 28

// SuperGATEdges is the edge set negative sampling avoids, inside a graph:
// Keys (always) and Table (nil on larger graphs), see InputSuperGATKeys.
type SuperGATEdges struct{ Keys, Table *Node }

// SuperGATEdgesFrom returns the edge set AddSuperGATInputs added.
func SuperGATEdgesFrom(n *Nodes) SuperGATEdges {
	return SuperGATEdges{Keys: n.Get(InputSuperGATKeys), Table: n.Maybe(InputSuperGATTable)}
}

// SuperGATAttention is the attention form of a SuperGAT layer.
type SuperGATAttention int

const (
	// SuperGATMX is the mixed form (official "prob_mask_only"):
	// e_ij = aᵀ[W h_i ‖ W h_j] · σ((W h_i)ᵀ(W h_j)); the edge logit of the
	// self-supervised task is the unscaled dot product (W h_i)ᵀ(W h_j).
	SuperGATMX SuperGATAttention = iota
	// SuperGATSD is the scaled dot product (official "scaled_dot_product"):
	// e_ij = (W h_i)ᵀ(W h_j) / sqrt(Out), which is also the edge logit.
	SuperGATSD
)

// String returns "MX" or "SD".
func (a SuperGATAttention) String() string {
	switch a {
	case SuperGATMX:
		return "MX"
	case SuperGATSD:
		return "SD"
	}
	return fmt.Sprintf("SuperGATAttention(%d)", int(a))
}

// SuperGATNegativeRounds is how many candidate pairs the in-graph negative
// sampler draws per negative: the first candidate that is not an edge is
// used, and a negative whose candidates all are edges is left out of the
// loss (probability density^rounds, below 1e-6 on our graphs).
const SuperGATNegativeRounds = 4

// SuperGATConfig configures SuperGATConv.
type SuperGATConfig struct {
	// Heads K and features per head Out; Concat concatenates the heads
	// (K·Out outputs) instead of averaging them.
	Heads, Out int
	Concat     bool
	Attention  SuperGATAttention
	// NegativeSlope of the LeakyReLU on the attention logits (0.2).
	NegativeSlope float64
	// AttentionDropout is the dropout rate on the attention coefficients.
	AttentionDropout float64
	// EdgeSampleRatio is the fraction of positive edges (self loops
	// included) scored by the link loss at each training step (official
	// edge_sample_ratio); 0 disables the self-supervised loss.
	EdgeSampleRatio float64
	// NegSampleRatio: int(NegSampleRatio·EdgeSampleRatio·E) negative pairs
	// per step (official neg_sample_ratio).
	NegSampleRatio float64
}

// SuperGATEdgeKeys returns the sorted, unique keys src·N + dst of the
// entries of m (rows = destination, columns = source).
func SuperGATEdgeKeys(m *sparse.SparseMatrix) []int64 {
	n := int64(m.NumRows)
	keys := make([]int64, m.NNZ())
	for i := range keys {
		keys[i] = int64(m.Cols[i])*n + int64(m.Rows[i])
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// AddSuperGATInputs adds the self-looped edges ("adj/gat", as GATConv) and
// their keys ("supergat/keys", [P] int64, and on small enough graphs the
// table "supergat/table") for the negative sampler.
func AddSuperGATInputs(in *Inputs, g *graph.Graph) error {
	if err := AddGATEdges(in, g); err != nil {
		return err
	}
	m, err := SelfLoopEdges(g.NumNodes(), g.Src(), g.Dst())
	if err != nil {
		return fmt.Errorf("nn: graph %q: %w", g.Name(), err)
	}
	keys := SuperGATEdgeKeys(m)
	in.Set(InputSuperGATKeys, tensors.FromFlatDataAndDimensions(keys, len(keys)))
	if n := int64(g.NumNodes()); n*n <= int64(SuperGATTableMaxPairs) {
		table := make([]uint8, n*n)
		for _, k := range keys {
			table[k] = 1
		}
		in.Set(InputSuperGATTable, tensors.FromFlatDataAndDimensions(table, len(table)))
	}
	return nil
}

// SuperGATConv is the self-supervised graph attention layer of Kim & Oh
// ("How to Find Your Friendly Neighborhood: Graph Attention Design with
// Self-Supervision", ICLR 2021), as the official dongkwan-kim/SuperGAT layer
// (and PyG's SuperGATConv) computes it, source -> target with one self loop
// per node:
//
//	x'_u       = W x_u                                    (per head k: x'_u,k ∈ R^Out)
//	MX: e_uv,k = (a_dst,k·x'_v,k + a_src,k·x'_u,k) · σ(x'_v,k·x'_u,k)
//	SD: e_uv,k = x'_v,k·x'_u,k / sqrt(Out)
//	alpha_uv,k = softmax over v's in-edges of LeakyReLU(e_uv,k)   (then dropout)
//	out_v      = concat_k (or mean_k) Σ_u alpha_uv,k x'_u,k  + b
//
// In training passes with EdgeSampleRatio > 0 it also returns the layer's
// self-supervised link loss: the edge logit φ_uv = mean_k (x'_v,k·x'_u,k)
// (divided by sqrt(Out) for SD) of the positive edges (self loops included),
// each kept with probability EdgeSampleRatio (the official code takes a
// random subset of exactly int(EdgeSampleRatio·E) edges: same expected
// number), and int(NegSampleRatio·EdgeSampleRatio·E) negative pairs drawn
// uniformly among the node pairs that are not edges (PyG negative_sampling),
// scored with binary cross-entropy on logits, averaged over the pairs:
//
//	L_E = mean over pairs of BCEWithLogits(φ, 1 for edges / 0 for negatives)
//
// Sampling happens inside the graph with the store's RNG (seeded per run by
// the trainer), so runs repeat exactly from their seed. Negatives are drawn
// with replacement (duplicates among them are possible, as rare as in PyG),
// SuperGATNegativeRounds candidates per negative (rejection sampling).
//
// On edges with the ELL layout the attention is computed in its slot
// layout (sparse.RowSlots; the same values and dropout masks): Chameleon
// 214-224 ms per epoch against 246-256 in the edge order, Squirrel
// filtered 327-349 against 337-370 (two threads, AVX2 host).
//
// Shapes: X N x F; W [F, K·Out] ("weight", glorot), a [K, 2·Out] ("att":
// the first Out columns for the destination, glorot over (K, 2·Out) as PyG),
// b ("bias", zeros) [K·Out] or [Out]; edges "adj/gat", keys
// "supergat/keys". Results: [N, K·Out] or [N, Out], and a scalar loss (nil
// in evaluation passes or when EdgeSampleRatio is 0).
func SuperGATConv(scope *model.Scope, x Features, edges *sparse.SpMat, set SuperGATEdges, cfg SuperGATConfig, train bool) (out, linkLoss *Node) {
	g := x.Graph()
	dt := x.DType()
	k, o := cfg.Heads, cfg.Out
	n := x.NumRows()
	xw := SparseLinearWithInit(scope, x, k*o, false, GlorotInit(x.NumCols(), k*o), ZeroInit) // [N, K·O]
	xw3 := Reshape(xw, n, k, o)
	if slots := edges.RowSlots(); slots != nil {
		out, dot := superGATAttendSlots(scope, xw, slots, edges.NNZ, cfg, train)
		if train && cfg.EdgeSampleRatio > 0 && set.Keys != nil {
			linkLoss = superGATLinkLoss(scope, xw3, dot(), edges, set, cfg)
		}
		return out, linkLoss
	}
	dst, src := edges.Rows, edges.Cols                 // [E, 1]
	xi, xj := Gather(xw3, dst, true), Gather(xw3, src) // [E, K, O]
	dot := ReduceSum(Mul(xi, xj), -1)                  // [E, K]
	var score *Node
	switch cfg.Attention {
	case SuperGATMX:
		att := Param(scope, g, "att", dt, Uniform(math.Sqrt(6/float64(k+2*o))), nil, k, 2*o)
		aDst, aSrc := Slice(att, AxisRange(), AxisRange(0, o)), Slice(att, AxisRange(), AxisRange(o, 2*o))
		sDst := ReduceSum(Mul(xw3, ExpandAxes(aDst, 0)), -1) // [N, K]
		sSrc := ReduceSum(Mul(xw3, ExpandAxes(aSrc, 0)), -1)
		score = Mul(Add(Gather(sDst, dst, true), Gather(sSrc, src)), Sigmoid(dot))
	case SuperGATSD:
		score = DivScalar(dot, math.Sqrt(float64(o)))
	default:
		panicf("nn: unknown SuperGAT attention %v", cfg.Attention)
	}
	alpha := sparse.InEdgeSoftmax(LeakyReLU(score, cfg.NegativeSlope), dst, n, true)
	alpha = Dropout(scope, alpha, cfg.AttentionDropout, train)
	agg := sparse.AggregateEdges(xw3, alpha, src, dst) // [N, K, O]
	out = superGATOutput(scope, agg, cfg)
	if train && cfg.EdgeSampleRatio > 0 && set.Keys != nil {
		linkLoss = superGATLinkLoss(scope, xw3, dot, edges, set, cfg)
	}
	return out, linkLoss
}

// superGATLinkLoss samples positives and negatives and returns the mean
// binary cross-entropy of their edge logits; dot [E, K] are the per-head
// dot products x'_v·x'_u of the edges, already computed for the attention.
func superGATLinkLoss(scope *model.Scope, xw3, dot *Node, edges *sparse.SpMat, set SuperGATEdges, cfg SuperGATConfig) *Node {
	g := xw3.Graph()
	dt := xw3.DType()
	n := xw3.Shape().Dimensions[0]
	e := edges.NNZ
	numNeg := int(cfg.NegSampleRatio * cfg.EdgeSampleRatio * float64(e))
	// Positives: every edge kept with probability EdgeSampleRatio (the
	// official code takes an exact-size random subset; TopK, which would do
	// that in-graph, costs ~45 ms per call on the Go backend even for 500
	// edges). posW [E] is 1 for the kept edges.
	posW := Ones(g, shapes.Make(dt, e))
	if cfg.EdgeSampleRatio < 1 {
		posW = ConvertDType(LessThan(RunUniform(scope, g, shapes.Make(dt, e)), Scalar(g, dt, cfg.EdgeSampleRatio)), dt)
	}
	scale := 1.0
	if cfg.Attention == SuperGATSD {
		scale = 1 / math.Sqrt(float64(cfg.Out))
	}
	var nSrc, nDst, okW *Node
	if numNeg > 0 {
		var ok *Node
		nSrc, nDst, ok = superGATNegatives(scope, set, n, numNeg)
		okW = ConvertDType(ok, dt)
	}
	return superGATBCE(xw3, dot, posW, nSrc, nDst, okW, scale)
}

// superGATBCE is the link loss for given samples: the mean binary
// cross-entropy on logits (BCEWithLogits: softplus(-z) for edges,
// softplus(z) for negatives) over the edges with posW = 1 (logits
// scale·mean_k dot) and the negative pairs (nSrc, nDst) with okW = 1 (logits
// scale·mean_k x'_dst·x'_src). Shapes: xw3 [N, K, O], dot [E, K], posW [E],
// nSrc and nDst [M, 1] int32, okW [M] (nil: no negatives).
func superGATBCE(xw3, dot, posW, nSrc, nDst, okW *Node, scale float64) *Node {
	total := ReduceAllSum(Mul(Softplus(Neg(MulScalar(ReduceMean(dot, -1), scale))), posW))
	count := ReduceAllSum(posW)
	if okW != nil {
		z := MulScalar(ReduceMean(ReduceSum(Mul(Gather(xw3, nDst), Gather(xw3, nSrc)), -1), -1), scale)
		total = Add(total, ReduceAllSum(Mul(Softplus(z), okW)))
		count = Add(count, ReduceAllSum(okW))
	}
	return Div(total, Max(count, OnesLike(count)))
}

// superGATNegatives draws numNeg node pairs (src, dst) ([numNeg, 1] int32
// each) that are not edges (not in set: a table lookup, or a search of the
// sorted keys), with a validity flag ([numNeg] bool) for pairs whose every
// candidate was an edge.
func superGATNegatives(scope *model.Scope, set SuperGATEdges, n, numNeg int) (src, dst, ok *Node) {
	g := set.Keys.Graph()
	r := SuperGATNegativeRounds
	cs := RunIntN(scope, g, int32(n), shapes.Make(dtypes.Int32, r, numNeg))
	cd := RunIntN(scope, g, int32(n), shapes.Make(dtypes.Int32, r, numNeg))
	var valid *Node // [R, numNeg]
	if set.Table != nil {
		cand := Add(MulScalar(cs, float64(n)), cd) // < N² <= SuperGATTableMaxPairs: fits int32
		valid = Equal(Gather(set.Table, ExpandAxes(cand, -1)), Zeros(g, shapes.Make(set.Table.DType(), r, numNeg)))
	} else {
		cand := Add(MulScalar(ConvertDType(cs, dtypes.Int64), float64(n)), ConvertDType(cd, dtypes.Int64))
		valid = LogicalNot(SortedContains(set.Keys, cand))
	}
	pick := func(x *Node, i int) *Node { return Reshape(Slice(x, AxisElem(i)), numNeg) }
	src, dst, ok = pick(cs, r-1), pick(cd, r-1), pick(valid, r-1)
	for i := r - 2; i >= 0; i-- {
		v := pick(valid, i)
		src, dst = Where(v, pick(cs, i), src), Where(v, pick(cd, i), dst)
		ok = LogicalOr(v, ok)
	}
	return ExpandAxes(src, -1), ExpandAxes(dst, -1), ok
}

// SortedContains reports, for every element of q, whether it occurs in the
// ascending 1-D array sorted (same dtype): a branch-free binary search of
// bits.Len(len(sorted)) steps, each a Gather. Result: Bool, q's shape.
func SortedContains(sorted, q *Node) *Node {
	g := q.Graph()
	size := sorted.Shape().Dimensions[0]
	if size == 0 {
		return Equal(q, AddScalar(q, 1)) // all false
	}
	lo := Zeros(g, shapes.Make(dtypes.Int32, q.Shape().Dimensions...))
	hi := Add(lo, Scalar(g, dtypes.Int32, size))
	last := Scalar(g, dtypes.Int32, size-1)
	two := Scalar(g, dtypes.Int32, 2)
	at := func(i *Node) *Node { return Gather(sorted, ExpandAxes(Min(i, last), -1)) }
	for range bits.Len(uint(size)) {
		mid := Div(Add(lo, hi), two)
		less := LessThan(at(mid), q)
		lo = Where(less, AddScalar(mid, 1), lo)
		hi = Where(less, hi, mid)
	}
	return Equal(at(lo), q)
}

// superGATOutput joins the heads of agg [N, K, O] (concatenated or
// averaged) and adds the bias.
func superGATOutput(scope *model.Scope, agg *Node, cfg SuperGATConfig) *Node {
	n := agg.Shape().Dimensions[0]
	var out *Node
	if cfg.Concat {
		out = Reshape(agg, n, cfg.Heads*cfg.Out)
	} else {
		out = ReduceMean(agg, 1)
	}
	b := Param(scope, agg.Graph(), "bias", agg.DType(), ZeroInit, nil, out.Shape().Dimensions[1])
	return Add(out, ExpandAxes(b, 0))
}

// superGATAttendSlots is SuperGATConv's attention and aggregation after
// the projection xw [N, K·O], in the edges' slot layout (sparse.RowSlots):
// the endpoints' features gathered once per slot (the destination's once
// per row), the scores, their softmax over each row and the weighted sum
// per slot, without the edge-order gathers and scatters of [E, K, O]. The
// attention dropout mask is drawn in the edge order, as in the edge-order
// computation, and moved into the slots. It returns the layer's output and
// a function giving the heads' dot products x'_v·x'_u in the edge order
// ([E, K], for the link loss).
func superGATAttendSlots(scope *model.Scope, xw *Node, s *sparse.RowSlots, nnz int, cfg SuperGATConfig, train bool) (out *Node, dot func() *Node) {
	g, dt := xw.Graph(), xw.DType()
	k, o := cfg.Heads, cfg.Out
	n := xw.Shape().Dimensions[0]
	xj, xi := s.Cols(xw), s.Rows(xw) // [K_b, R, K·O], [1, R, K·O]
	var sDst, sSrc sparse.SlotValues
	if cfg.Attention == SuperGATMX {
		att := Param(scope, g, "att", dt, Uniform(math.Sqrt(6/float64(k+2*o))), nil, k, 2*o)
		aDst, aSrc := Slice(att, AxisRange(), AxisRange(0, o)), Slice(att, AxisRange(), AxisRange(o, 2*o))
		xw3 := Reshape(xw, n, k, o)
		sDst = s.Rows(ReduceSum(Mul(xw3, ExpandAxes(aDst, 0)), -1)) // [1, R, K]
		sSrc = s.Cols(ReduceSum(Mul(xw3, ExpandAxes(aSrc, 0)), -1)) // [K_b, R, K]
	} else if cfg.Attention != SuperGATSD {
		panicf("nn: unknown SuperGAT attention %v", cfg.Attention)
	}
	dots, scores := make(sparse.SlotValues, len(xj)), make(sparse.SlotValues, len(xj))
	for b := range xj {
		d := xj[b].Shape().Dimensions
		dots[b] = ReduceSum(Mul(Reshape(xi[b], 1, d[1], k, o), Reshape(xj[b], d[0], d[1], k, o)), -1) // [K_b, R, K]
		if cfg.Attention == SuperGATMX {
			scores[b] = Mul(Add(sDst[b], sSrc[b]), Sigmoid(dots[b]))
		} else {
			scores[b] = DivScalar(dots[b], math.Sqrt(float64(o)))
		}
		scores[b] = LeakyReLU(scores[b], cfg.NegativeSlope)
	}
	alpha := s.Softmax(scores)
	if rate := cfg.AttentionDropout; train && rate > 0 {
		var mask sparse.SlotValues
		if rate < 1 {
			mask = s.Entries(DropoutMask(scope, g, shapes.Make(dt, nnz, k), rate))
		}
		for b := range alpha {
			if mask == nil {
				alpha[b] = ZerosLike(alpha[b])
			} else {
				alpha[b] = Mul(alpha[b], mask[b])
			}
		}
	}
	agg := Reshape(s.MulWeightedRuns(xw, alpha, k), n, k, o)
	return superGATOutput(scope, agg, cfg), func() *Node { return s.ToEntries(dots) }
}
