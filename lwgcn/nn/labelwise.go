package nn

import (
	"fmt"

	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// LabelWise is the host-side structure of label-wise graph convolution for
// one assignment of (pseudo) labels to nodes.
//
// A_k is the adjacency restricted to edges whose source (the neighbour that
// sends the message) has class k, row-normalised: A_k[v, u] = 1 / n_k(v) for
// each edge u -> v with class(u) = k, where n_k(v) counts v's class-k
// in-edges (duplicates counted). Edges are used as given (no self loops
// added, no symmetrisation).
type LabelWise struct {
	NumNodes, NumClasses int
	// Class holds each node's class in [0, NumClasses).
	Class []int32
	// Adj is Σ_k A_k as one N x N matrix: entry (v, u) = 1 / n_class(u)(v).
	// Because every source u belongs to exactly one block, Σ_k A_k (H W_k)
	// equals Adj · M with M[u] = H[u] W_class(u).
	Adj *sparse.SparseMatrix
	// Present[k] says whether some edge has a class-k source. The official
	// code drops classes without such edges from the concatenation.
	Present    []bool
	NumPresent int
}

// NewLabelWise builds the label-wise structure for the edges src[e] -> dst[e]
// and the node classes class (each in [0, numClasses)).
func NewLabelWise(numNodes int, src, dst []int32, class []int32, numClasses int) (*LabelWise, error) {
	if len(class) != numNodes {
		return nil, fmt.Errorf("nn: label-wise structure: %d classes for %d nodes", len(class), numNodes)
	}
	if len(src) != len(dst) {
		return nil, fmt.Errorf("nn: label-wise structure: %d sources for %d destinations", len(src), len(dst))
	}
	for v, c := range class {
		if c < 0 || int(c) >= numClasses {
			return nil, fmt.Errorf("nn: label-wise structure: node %d has class %d outside [0, %d)", v, c, numClasses)
		}
	}
	count := make(map[int64]int32, len(src))
	key := func(e int) int64 { return int64(dst[e])*int64(numClasses) + int64(class[src[e]]) }
	lw := &LabelWise{NumNodes: numNodes, NumClasses: numClasses, Class: class, Present: make([]bool, numClasses)}
	for e := range src {
		if src[e] < 0 || int(src[e]) >= numNodes || dst[e] < 0 || int(dst[e]) >= numNodes {
			return nil, fmt.Errorf("nn: label-wise structure: edge %d (%d -> %d) outside %d nodes", e, src[e], dst[e], numNodes)
		}
		count[key(e)]++
		lw.Present[class[src[e]]] = true
	}
	vals := make([]float32, len(src))
	for e := range src {
		vals[e] = 1 / float32(count[key(e)])
	}
	m, err := sparse.NewSparseMatrix(numNodes, numNodes, dst, src, vals)
	if err != nil {
		return nil, err
	}
	lw.Adj = m
	for _, p := range lw.Present {
		if p {
			lw.NumPresent++
		}
	}
	return lw, nil
}

// AddTo adds the structure to in under prefix: prefix/adj (sparse),
// prefix/class ([N, 1] int32), metadata prefix/present (the number of
// classes present) and prefix/numclasses. When the features x would be
// multiplied as a sparse matrix (see Inputs.SetFeatures), it also adds the
// class-shifted copy the first layer uses, prefix/xcls: N x F·C with entry
// (u, j) of X at column j·C + class(u) (so that X̃ · reshape(W_cls, F·C, out)
// gives the rows h[u] W_class(u)).
func (lw *LabelWise) AddTo(in *Inputs, prefix string, x *graph.Features) error {
	sparse.Set(in, prefix+"/adj", lw.Adj)
	in.SetInt32(prefix+"/class", lw.Class, lw.NumNodes, 1)
	in.SetMeta(prefix+"/present", lw.NumPresent)
	in.SetMeta(prefix+"/numclasses", lw.NumClasses)
	lw.addGroups(in, prefix)
	if x == nil || x.Density() >= SparseDensityThreshold {
		return nil
	}
	if x.NumRows() != lw.NumNodes {
		return fmt.Errorf("nn: label-wise structure for %d nodes, features with %d rows", lw.NumNodes, x.NumRows())
	}
	rows, cols, vals := x.COO()
	c := int32(lw.NumClasses)
	shifted := make([]int32, len(cols))
	for i, j := range cols {
		shifted[i] = j*c + lw.Class[rows[i]]
	}
	mc, err := sparse.NewSparseMatrix(lw.NumNodes, x.NumCols()*int(c), rows, shifted, vals)
	if err != nil {
		return err
	}
	sparse.Set(in, prefix+"/xcls", mc)
	return nil
}

// LabelWiseGroupQuantum rounds the per-class group sizes up (to a multiple
// of max(64, N/LabelWiseGroupQuantum) rows), so that splits whose pseudo
// labels give slightly different class sizes share one compiled graph.
var LabelWiseGroupQuantum = 32

// addGroups adds the nodes of each class (prefix/group/kk: [cap_k, 1],
// padded with N) and each node's position in the concatenated groups
// (prefix/grouppos: [N, 1]), for the grouped products of LabelWiseConv.
func (lw *LabelWise) addGroups(in *Inputs, prefix string) {
	q := max(64, (lw.NumNodes+LabelWiseGroupQuantum-1)/LabelWiseGroupQuantum)
	groups := make([][]int32, lw.NumClasses)
	for v, c := range lw.Class {
		groups[c] = append(groups[c], int32(v))
	}
	pos := make([]int32, lw.NumNodes)
	off := 0
	for k, grp := range groups {
		capk := 0
		if len(grp) > 0 {
			capk = (len(grp) + q - 1) / q * q
		}
		in.SetMeta(fmt.Sprintf("%s/group/%02d/cap", prefix, k), capk)
		if capk == 0 {
			continue
		}
		idx := make([]int32, capk)
		for i := range idx {
			idx[i] = int32(lw.NumNodes)
		}
		for i, v := range grp {
			idx[i] = v
			pos[v] = int32(off + i)
		}
		off += capk
		in.SetInt32(fmt.Sprintf("%s/group/%02d", prefix, k), idx, capk, 1)
	}
	in.SetInt32(prefix+"/grouppos", pos, lw.NumNodes, 1)
}

// LabelWiseGroupedFLOPs: above this many multiply-adds for the one-product
// form of a dense LabelWiseConv (N·F·out·(C+1)), the layer multiplies each
// class's nodes by their own W_k instead (N·F·out·2 multiply-adds, plus two
// row gathers).
var LabelWiseGroupedFLOPs = float64(1 << 27)

// LabelWiseGraph is the label-wise structure inside a graph.
type LabelWiseGraph struct {
	Prefix     string
	NumClasses int
	Adj        *sparse.SpMat
	// Class [N, 1] int32.
	Class *Node
	// XCls: the class-shifted sparse features (nil when absent).
	XCls *sparse.SpMat
	// Groups[k] [cap_k, 1] lists class k's nodes (nil for an empty class);
	// GroupPos [N, 1] is each node's row in the concatenated groups.
	Groups   []*Node
	GroupPos *Node
	nodes    *Nodes
}

// ForPass returns lw, or a copy whose sparse products carry no gradient for
// an evaluation pass (train false).
func (lw *LabelWiseGraph) ForPass(train bool) *LabelWiseGraph {
	if train {
		return lw
	}
	c := *lw
	c.Adj = lw.Adj.NoGrad()
	if lw.XCls != nil {
		c.XCls = lw.XCls.NoGrad()
	}
	return &c
}

// LabelWise returns the structure added with LabelWise.AddTo.
func (n *Nodes) LabelWise(prefix string) *LabelWiseGraph {
	lw := &LabelWiseGraph{Prefix: prefix, NumClasses: n.Meta(prefix + "/numclasses"), Adj: sparse.FromNodes(n, prefix+"/adj"),
		Class: n.Get(prefix + "/class"), nodes: n}
	if n.Maybe(prefix+"/xcls/rows") != nil {
		lw.XCls = sparse.FromNodes(n, prefix+"/xcls")
	}
	for k := range lw.NumClasses {
		if n.Meta(fmt.Sprintf("%s/group/%02d/cap", prefix, k)) > 0 {
			lw.Groups = append(lw.Groups, n.Get(fmt.Sprintf("%s/group/%02d", prefix, k)))
		} else {
			lw.Groups = append(lw.Groups, nil)
		}
	}
	lw.GroupPos = n.Get(prefix + "/grouppos")
	return lw
}

// LabelWiseConv is the paper's label-wise graph convolution as the official
// code computes it, Linear(concat(A_1 h, ..., A_C h, h)), in projected form:
//
//	out[v] = Σ_k A_k (h W_k) [v] + h[v] W_0 + b
//	       = Σ_{e: u -> v} w_e M[u] + h[v] W_0 + b,   M[u] = h[u] W_class(u),
//	w_e = 1 / |{u' -> v : class(u') = class(u)}|
//
// (A_k, w_e: see LabelWise). A node enters only through W_class(u), as a
// neighbour, and W_0, as itself, so only those two products are computed
// per node: for sparse features by gathering the rows of W_0 and W_class(u)
// at u's non-zeros (W_class(u) through the class-shifted features of
// LabelWise.AddTo); for a dense h by one product h [W_1 .. W_C] and a
// per-node gather of the block class(u) — or, when that product is large
// (LabelWiseGroupedFLOPs), one product per class on that class's nodes —
// plus h W_0. The aggregation is one sparse product Adj · M.
//
// Shapes: h N x F (Features), W_0 [F, out] ("weight_self"), W_1..W_C
// [F, C, out] ("weight_cls", class k at [:, k-1, :]), b [out] ("bias"),
// result [N, out].
//
// Initialisation: U(-1/sqrt(fan_in), 1/sqrt(fan_in)) for W and b, with
// fan_in = (K_present + 1)·F, where K_present counts the classes with at
// least one edge: the official code drops the other classes from the
// concatenation, so its Linear has that fan-in. (The blocks of absent classes
// exist here but never receive a gradient other than weight decay and never
// affect the output.)
func LabelWiseConv(scope *model.Scope, h Features, lw *LabelWiseGraph, out int) *Node {
	g := h.Graph()
	dt := h.DType()
	f, c, n := h.NumCols(), lw.NumClasses, h.NumRows()
	init := FanInFromMeta(lw.Prefix+"/present", f)
	wSelf := Param(scope, g, "weight_self", dt, init, lw.nodes, f, out)
	wCls := Param(scope, g, "weight_cls", dt, init, lw.nodes, f, c, out)
	b := Param(scope, g, "bias", dt, init, lw.nodes, out)
	var self, m *Node
	switch {
	case h.Sparse != nil:
		if lw.XCls == nil || lw.XCls.NumCols != f*c {
			panicf("nn: LabelWiseConv on sparse features needs %s/xcls for %d features (LabelWise.AddTo with the features)",
				lw.Prefix, f)
		}
		xc := lw.XCls
		if h.Sparse.Vals != nil { // dropout or explicit values: same entry order
			xc = xc.WithVals(h.Sparse.Vals)
		}
		self, m = h.Sparse.Mul(wSelf), xc.Mul(Reshape(wCls, f*c, out))
	case float64(n)*float64(f)*float64(out)*float64(c) > LabelWiseGroupedFLOPs:
		// Grouped: W_k for class k's nodes only.
		self = Project(h.Dense, wSelf)
		hp := Concatenate([]*Node{h.Dense, Zeros(g, shapes.Make(dt, 1, f))}, 0)
		var parts []*Node
		for k, grp := range lw.Groups {
			if grp == nil {
				continue
			}
			wk := Reshape(Slice(wCls, AxisRange(), AxisElem(k)), f, out)
			parts = append(parts, Project(Gather(hp, grp, true), wk))
		}
		m = Gather(Concatenate(parts, 0), lw.GroupPos)
	default:
		self = Project(h.Dense, wSelf)
		y := Project(h.Dense, Reshape(wCls, f, c*out)) // [N, C·out]
		y = Reshape(y, n*c, out)
		idx := Add(MulScalar(Iota(g, shapes.Make(lw.Class.DType(), n, 1), 0), c), lw.Class)
		m = Gather(y, idx, true)
	}
	agg := lw.Adj.Mul(m)
	return Add(Add(agg, self), ExpandAxes(b, 0))
}

// LabelWiseAggregates returns the per-class aggregates a_{v,k} = (A_k h)[v]
// as [N, C, F] (zeros where v has no class-k in-neighbour), computed with
// one scatter keyed by dst·C + class(src). For representation analysis.
func LabelWiseAggregates(h *Node, lw *LabelWiseGraph) *Node {
	g := h.Graph()
	n, f := h.Shape().Dimensions[0], h.Shape().Dimensions[1]
	c := lw.NumClasses
	dst, src := lw.Adj.Rows, lw.Adj.Cols
	key := Add(MulScalar(dst, c), Gather(lw.Class, src))
	vals := ExpandAxes(lw.Adj.EntryValues(h.DType()), -1) // [E, 1]
	if lw.Adj.RowScale != nil {
		vals = Mul(vals, Gather(ConvertDType(lw.Adj.RowScale, h.DType()), dst, true))
	}
	msg := Mul(Gather(h, src), vals)
	out := ScatterSum(Zeros(g, shapes.Make(h.DType(), n*c, f)), key, msg, true, false)
	return Reshape(out, n, c, f)
}
