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
// classes present) and prefix/numclasses, and the class groups of
// LabelWiseConv's grouped products. When the features x would be
// multiplied as a sparse matrix (see Inputs.SetFeatures), it also adds the
// class-shifted copy the first layer uses, prefix/xcls: N x F·C with entry
// (u, j) of X at column j·C + class(u) (so that X̃ · reshape(W_cls, F·C, out)
// gives the rows h[u] W_class(u)).
func (lw *LabelWise) AddTo(in *Inputs, prefix string, x *graph.Features) error {
	return AddLabelWiseRuns(in, prefix, []*LabelWise{lw}, x)
}

// AddLabelWiseRuns adds the label-wise structures of R runs (lws[r]: run
// r's labels on the same edges) under prefix, as AddTo adds one run's:
// prefix/adj is then the edges' pattern and prefix/vals [NNZ, R] each run's
// entry values; prefix/class [N·R, 1] holds run r's class of node u at row
// u·R + r; prefix/present is each run's (Inputs.SetRunMeta); the groups
// hold every run's nodes; prefix/xcls is [N·R, F·C·R], entry (u, j) of X
// for run r at row u·R + r and column (j·C + class_r(u))·R + r.
func AddLabelWiseRuns(in *Inputs, prefix string, lws []*LabelWise, x *graph.Features) error {
	r, first := len(lws), lws[0]
	n, c := first.NumNodes, first.NumClasses
	class := make([]int32, n*r)
	for k, lw := range lws {
		if lw.NumNodes != n || lw.NumClasses != c || lw.Adj.NNZ() != first.Adj.NNZ() {
			return fmt.Errorf("nn: label-wise structures of %d runs on different graphs", r)
		}
		for u, cl := range lw.Class {
			class[u*r+k] = cl
		}
		in.SetRunMeta(k, prefix+"/present", lw.NumPresent)
	}
	if r == 1 {
		sparse.Set(in, prefix+"/adj", first.Adj)
	} else {
		sparse.Set(in, prefix+"/adj", &sparse.SparseMatrix{NumRows: n, NumCols: n, Rows: first.Adj.Rows, Cols: first.Adj.Cols})
		in.SetFloat(prefix+"/vals", entryValuesRuns(lws), first.Adj.NNZ(), r)
	}
	in.SetInt32(prefix+"/class", class, n*r, 1)
	in.SetMeta(prefix+"/present", first.NumPresent)
	in.SetMeta(prefix+"/numclasses", c)
	addGroups(in, prefix, class, n, r, c)
	if x == nil || x.Density() >= SparseDensityThreshold {
		return nil
	}
	if x.NumRows() != n {
		return fmt.Errorf("nn: label-wise structure for %d nodes, features with %d rows", n, x.NumRows())
	}
	return addClassShifted(in, prefix+"/xcls", x, class, r, c)
}

// entryValuesRuns are the runs' values of the shared edge pattern, [NNZ, R]
// (entry i of run r at i·R + r).
func entryValuesRuns(lws []*LabelWise) []float32 {
	r := len(lws)
	vals := make([]float32, lws[0].Adj.NNZ()*r)
	for k, lw := range lws {
		a := lw.Adj
		for i, row := range a.Rows {
			v := float32(1)
			if a.Vals != nil {
				v = a.Vals[i]
			}
			if a.RowScale != nil {
				v *= a.RowScale[row]
			}
			vals[i*r+k] = v
		}
	}
	return vals
}

// addClassShifted adds the runs' class-shifted features (see
// AddLabelWiseRuns) under name.
func addClassShifted(in *Inputs, name string, x *graph.Features, class []int32, r, c int) error {
	rows, cols, vals := x.COO()
	nnz := len(rows)
	sr, sc, sv := make([]int32, nnz*r), make([]int32, nnz*r), make([]float32, nnz*r)
	for i := range rows {
		for k := range r {
			e := i*r + k
			sr[e] = rows[i]*int32(r) + int32(k)
			sc[e] = (cols[i]*int32(c)+class[int(rows[i])*r+k])*int32(r) + int32(k)
			if vals != nil {
				sv[e] = vals[i]
			} else {
				sv[e] = 1
			}
		}
	}
	m, err := sparse.NewSparseMatrix(x.NumRows()*r, x.NumCols()*c*r, sr, sc, sv)
	if err != nil {
		return err
	}
	sparse.Set(in, name, m)
	return nil
}

// LabelWiseGroupQuantum rounds the per-class group sizes up (to a multiple
// of max(64, N/LabelWiseGroupQuantum) rows), so that splits whose pseudo
// labels give slightly different class sizes share one compiled graph.
var LabelWiseGroupQuantum = 32

// addGroups adds the nodes of each class of every run (prefix/group/kk:
// [cap_k·R, 1], run r's i-th node u at row i·R + r as u·R + r, padded with
// N·R) and each node's position in the concatenated groups (prefix/grouppos:
// [N·R, 1] at row u·R + r), for the grouped products of LabelWiseConv;
// class holds run r's class of u at u·R + r.
func addGroups(in *Inputs, prefix string, class []int32, n, r, c int) {
	q := max(64, (n+LabelWiseGroupQuantum-1)/LabelWiseGroupQuantum)
	members := make([][][]int32, c) // [class][run] nodes
	for k := range members {
		members[k] = make([][]int32, r)
	}
	for u := range n {
		for run := range r {
			k := class[u*r+run]
			members[k][run] = append(members[k][run], int32(u))
		}
	}
	pos := make([]int32, n*r)
	off := 0
	for k, byRun := range members {
		p := 0
		for _, m := range byRun {
			p = max(p, len(m))
		}
		capk := 0
		if p > 0 {
			capk = (p + q - 1) / q * q
		}
		in.SetMeta(fmt.Sprintf("%s/group/%02d/cap", prefix, k), capk)
		if capk == 0 {
			continue
		}
		idx := make([]int32, capk*r)
		for i := range idx {
			idx[i] = int32(n * r)
		}
		for run, m := range byRun {
			for i, u := range m {
				idx[i*r+run] = u*int32(r) + int32(run)
				pos[int(u)*r+run] = int32(off + i*r + run)
			}
		}
		off += capk * r
		in.SetInt32(fmt.Sprintf("%s/group/%02d", prefix, k), idx, capk*r, 1)
	}
	in.SetInt32(prefix+"/grouppos", pos, n*r, 1)
}

// LabelWiseGroupedFLOPs: above this many multiply-adds for the one-product
// form of a dense LabelWiseConv (N·F·out·(C+1)), the layer multiplies each
// class's nodes by their own W_k instead (N·F·out·2 multiply-adds, plus two
// row gathers).
var LabelWiseGroupedFLOPs = float64(1 << 27)

// LabelWiseGraph is the label-wise structure of R runs inside a graph
// (AddLabelWiseRuns; one run: LabelWise.AddTo).
type LabelWiseGraph struct {
	Prefix     string
	NumClasses int
	// Adj is Σ_k A_k: with one run the matrix itself, with several the
	// edges' pattern, each run's entry values in Vals [NNZ, R].
	Adj  *sparse.SpMat
	Vals *Node
	// Class [N·R, 1] int32: run r's class of node u at row u·R + r.
	Class *Node
	// XCls: the class-shifted sparse features (nil when absent).
	XCls *sparse.SpMat
	// Groups[k] [cap_k·R, 1] lists class k's nodes of every run (row i·R + r:
	// run r's i-th node u of class k, as the row u·R + r of the runs' [N·R, F]
	// node matrix, N·R for padding; nil for a class no run has); GroupPos
	// [N·R, 1] is each of those rows' position in the concatenated groups.
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

// LabelWise returns the structure added with LabelWise.AddTo or
// AddLabelWiseRuns.
func (n *Nodes) LabelWise(prefix string) *LabelWiseGraph {
	lw := &LabelWiseGraph{Prefix: prefix, NumClasses: n.Meta(prefix + "/numclasses"), Adj: sparse.FromNodes(n, prefix+"/adj"),
		Vals: n.Maybe(prefix + "/vals"), Class: n.Get(prefix + "/class"), nodes: n}
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
	r := Runs(scope)
	f, c, n := h.colsPerRun(r), lw.NumClasses, h.NumRows()
	init := FanInFromMeta(lw.Prefix+"/present", f)
	layout := RunsTransposed // on the runs' own h: batched products
	if h.shared() {
		layout = FusedCols // on shared features: one product for all runs
	}
	wSelf := RunsParam(scope, g, "weight_self", dt, init, lw.nodes, layout, f, out)
	wCls := RunsParam(scope, g, "weight_cls", dt, init, lw.nodes, layout, f, c, out)
	b := RunsParam(scope, g, "bias", dt, init, lw.nodes, FusedCols, out)
	var self, m *Node
	switch {
	case h.Sparse != nil:
		if lw.XCls == nil || lw.XCls.NumCols != f*c*r {
			panicf("nn: LabelWiseConv on sparse features needs %s/xcls for %d features (LabelWise.AddTo with the features)",
				lw.Prefix, f)
		}
		xc := lw.XCls
		if h.Sparse.Vals != nil { // dropout or explicit values: same entry order
			xc = xc.WithVals(h.Sparse.Vals)
		}
		self, m = h.mulShared(wSelf, r), xc.Mul(Reshape(wCls, f*c*r, out)) // rows u·R + r
	case float64(r)*float64(n)*float64(f)*float64(out)*float64(c) > LabelWiseGroupedFLOPs && (r == 1 || !h.shared()):
		// Grouped: W_k for class k's nodes only.
		self = runsProject(h.Dense, wSelf, r)
		m = lw.grouped(h.Dense, wCls, r, f, out)
	case h.shared() && r > 1:
		self = Project(h.Dense, wSelf)
		y := Project(h.Dense, Reshape(wCls, f, c*r*out)) // [N, C·R·out]
		m = Gather(Reshape(y, n*c*r, out), lw.sharedRows(n, r))
	default:
		wc := wCls
		if r == 1 {
			wc = Reshape(wCls, f, c*out)
		}
		self = runsProject(h.Dense, wSelf, r)
		y := runsProject(h.Dense, wc, r) // [N, R·C·out]
		idx := Add(MulScalar(Iota(g, shapes.Make(lw.Class.DType(), n*r, 1), 0), c), lw.Class)
		m = Gather(Reshape(y, n*r*c, out), idx, true) // rows (u·R + r)·C + class
	}
	agg := runsMul(lw.Adj, Reshape(m, n, r*out), r, lw.Vals)
	return Add(Add(agg, self), ExpandAxes(b, 0))
}

// sharedRows are the rows (u·C + class_r(u))·R + r of the all-classes
// product of shared features (y [N, C·R·out] as [N·C·R, out]), at u·R + r.
func (lw *LabelWiseGraph) sharedRows(n, r int) *Node {
	g, dt := lw.Class.Graph(), lw.Class.DType()
	c := lw.NumClasses
	cls := Reshape(lw.Class, n, r)
	u := Iota(g, shapes.Make(dt, n, r), 0)
	run := Iota(g, shapes.Make(dt, n, r), 1)
	return Reshape(Add(MulScalar(Add(MulScalar(u, c), cls), r), run), n*r, 1)
}

// grouped returns M_r[u] = h_r[u]·W_class_r(u) at rows u·R + r for h
// [N, R·f] and wCls ([f, C, out] for one run, [R, C·out, f] for several):
// one product per class present in any run, class k's nodes gathered as
// [cap_k, R·f] (padding rows zero), times W_k of each run.
func (lw *LabelWiseGraph) grouped(h, wCls *Node, r, f, out int) *Node {
	g, dt := h.Graph(), h.DType()
	n := h.Shape().Dimensions[0]
	hp := Concatenate([]*Node{Reshape(h, n*r, f), Zeros(g, shapes.Make(dt, 1, f))}, 0)
	var parts []*Node
	for k, grp := range lw.Groups {
		if grp == nil {
			continue
		}
		p := grp.Shape().Dimensions[0] / r
		var wk *Node
		if r == 1 {
			wk = Reshape(Slice(wCls, AxisRange(), AxisElem(k)), f, out)
		} else {
			wk = Slice(wCls, AxisRange(), AxisRange(k*out, (k+1)*out), AxisRange()) // [R, out, f]
		}
		hk := Reshape(Gather(hp, grp, r == 1), p, r*f) // several runs' rows: not sorted
		parts = append(parts, Reshape(runsProject(hk, wk, r), p*r, out))
	}
	return Gather(Concatenate(parts, 0), lw.GroupPos)
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
