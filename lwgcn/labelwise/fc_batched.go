package labelwise

import (
	"errors"
	"fmt"

	. "github.com/gomlx/gomlx/core/graph"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
	"github.com/lwgcn/toolkit/lwgcn/train"
	"github.com/lwgcn/toolkit/lwgcn/train/batched"
)

// Inputs of the batched f_C.
const (
	// batchedLWAdj is the label-wise adjacency's pattern (every edge
	// dst <- src once, as nn.NewLabelWise lays it out); each run gives its
	// entries their own values.
	batchedLWAdj = "runs/lw/adj"
	// batchedLWVals [NNZ, R]: run r's entry values 1/n_class_r(src)(dst).
	batchedLWVals = "runs/lw/vals"
	// batchedLWShared, batchedLWPerRun [N·R, 1]: the rows that pick
	// h[u]·W_class_r(u) out of the all-classes products (see lwConvRuns).
	batchedLWShared = "runs/lw/gshared"
	batchedLWPerRun = "runs/lw/gperrun"
	// batchedLWXCls: on sparse features, every run's class-shifted
	// features as one sparse matrix [N·R, F·C·R] (see PrepareRuns).
	batchedLWXCls = "runs/lw/xcls"
	// batchedLWGroup+"/KK" [P_k·R, 1]: the rows (u·R + r, of h as
	// [N·R, in]) of class k's nodes of every run, run-interleaved (row
	// i·R + r is run r's i-th node of class k; P_k is the largest class k
	// of the batch's runs, the others padded with their node 0), and
	// batchedLWGroupPos [N·R, 1] each node's row in the concatenated
	// groups, for the grouped products of lwRuns.conv.
	batchedLWGroup    = "runs/lw/group"
	batchedLWGroupPos = "runs/lw/grouppos"
)

// BatchedFC is f_C (LabelWiseGCN) for batched training (package
// train/batched): R runs with their own pseudo-labels, which Labels gives
// per run, trained in one computation. Each run computes what
// LabelWiseGCN computes alone with the label-wise structure of its labels.
type BatchedFC struct {
	LabelWiseGCN
	Labels func(r train.Run) ([]int32, error)
}

// Batched implements batched.Batchable.
func (m BatchedFC) Batched() (batched.Model, error) {
	if m.Labels == nil {
		return nil, errors.New("lwgcn: BatchedFC needs Labels")
	}
	return fcRuns(m), nil
}

// fcRuns is the batched.Model of BatchedFC.
type fcRuns BatchedFC

func (m fcRuns) Name() string { return m.LabelWiseGCN.Name() }

// Prepare adds the features, labels and the label-wise pattern.
func (m fcRuns) Prepare(g *graph.Graph, in *nn.Inputs) error {
	if err := nn.AddGraphBasics(in, g); err != nil {
		return err
	}
	p, err := sparse.NewSparseMatrix(g.NumNodes(), g.NumNodes(), g.Dst(), g.Src(), nil)
	if err != nil {
		return fmt.Errorf("lwgcn: label-wise pattern of %q: %w", g.Name(), err)
	}
	sparse.Set(in, batchedLWAdj, p)
	return nil
}

// PrepareRuns implements batched.RunInputs: per run, the entry values of
// its label-wise adjacency, the rows picking W_class(u), and the number of
// classes present (the "fanin" metadata of nn.LabelWiseConv).
func (m fcRuns) PrepareRuns(g *graph.Graph, in *nn.Inputs, runs []train.Run) ([]map[string]int, error) {
	n, c, r := g.NumNodes(), g.NumClasses(), len(runs)
	p, err := sparse.NewSparseMatrix(n, n, g.Dst(), g.Src(), nil)
	if err != nil {
		return nil, err
	}
	vals := make([]float32, p.NNZ()*r)
	shared, perRun := make([]int32, n*r), make([]int32, n*r)
	meta := make([]map[string]int, r)
	labels := make([][]int32, r)
	for k, run := range runs {
		cls, err := m.Labels(run)
		if err != nil {
			return nil, fmt.Errorf("pseudo-labels of split %d, seed %d: %w", run.Split, run.Seed, err)
		}
		// nn.NewLabelWise validates the labels and counts the classes present.
		lw, err := nn.NewLabelWise(n, g.Src(), g.Dst(), cls, c)
		if err != nil {
			return nil, fmt.Errorf("split %d, seed %d: %w", run.Split, run.Seed, err)
		}
		count := make(map[int64]int32, p.NNZ())
		key := func(i int) int64 { return int64(p.Rows[i])*int64(c) + int64(cls[p.Cols[i]]) }
		for i := range p.Rows {
			count[key(i)]++
		}
		for i := range p.Rows {
			vals[i*r+k] = 1 / float32(count[key(i)])
		}
		for u := range n {
			shared[u*r+k] = int32((u*c+int(cls[u]))*r + k)
			perRun[u*r+k] = int32((u*r+k)*c + int(cls[u]))
		}
		meta[k] = map[string]int{LabelWiseInput + "/present": lw.NumPresent}
		labels[k] = cls
	}
	if x := g.Features(); x != nil && x.Density() < nn.SparseDensityThreshold {
		if err := setClassShiftedRuns(in, x, labels, c); err != nil {
			return nil, fmt.Errorf("lwgcn: class-shifted features of %q: %w", g.Name(), err)
		}
	}
	setGroupsRuns(in, labels, c)
	in.SetFloat(batchedLWVals, vals, p.NNZ(), r)
	in.SetInt32(batchedLWShared, shared, n*r, 1)
	in.SetInt32(batchedLWPerRun, perRun, n*r, 1)
	return meta, nil
}

// Forward implements batched.Model: LabelWiseGCN.Forward for R runs.
func (m fcRuns) Forward(b *batched.Builder, in *nn.Nodes, train bool) *Node {
	x := in.Features(nn.InputFeatures).ForPass(train)
	n, c := x.NumRows(), in.Meta(nn.InputNumClasses)
	lw := lwRuns{adj: sparse.FromNodes(in, batchedLWAdj).ForPass(train), vals: in.Get(batchedLWVals),
		shared: in.Get(batchedLWShared), perRun: in.Get(batchedLWPerRun), classes: c}
	if in.Maybe(batchedLWXCls+"/rows") != nil {
		lw.xcls = sparse.FromNodes(in, batchedLWXCls).ForPass(train)
	}
	for k := range c {
		lw.groups = append(lw.groups, in.Maybe(fmt.Sprintf("%s/%02d", batchedLWGroup, k)))
	}
	lw.groupPos = in.Maybe(batchedLWGroupPos)
	if m.Variant == Dense { // Config.Validate: at least 2 layers
		h := nn.ReLU(lw.conv(b, "/lw1", x, nil, m.Hidden))
		for l := 2; l < m.Layers; l++ {
			h = nn.ReLU(lw.conv(b, fmt.Sprintf("/lw%d", l), nn.Features{}, h, m.Hidden))
		}
		return nn.ClassLogSoftmax(Reshape(lw.conv(b, fmt.Sprintf("/lw%d", m.Layers), nn.Features{}, h, c), n, b.Runs, c))
	}
	f := x.NumCols()
	h := b.FirstLayer("/lin", x, 0, train, m.Hidden, true, nn.LinearInit(f), nn.LinearInit(f))
	hs := []*Node{Reshape(h, n, b.Runs, m.Hidden)}
	for l := 1; l <= m.Layers; l++ {
		h = nn.ReLU(lw.conv(b, fmt.Sprintf("/lw%d", l), nn.Features{}, h, m.Hidden))
		hs = append(hs, Reshape(h, n, b.Runs, m.Hidden))
	}
	// Each run's concatenation of its layers.
	cat := Reshape(Concatenate(hs, -1), n, b.Runs*(m.Layers+1)*m.Hidden)
	in1 := (m.Layers + 1) * m.Hidden
	z := nn.ReLU(b.Linear("/cls1", cat, m.Hidden, true, nn.LinearInit(in1), nn.LinearInit(in1)))
	z = b.Dropout(z, m.Dropout, train)
	out := b.Linear("/cls2", z, c, true, nn.LinearInit(m.Hidden), nn.LinearInit(m.Hidden))
	return nn.ClassLogSoftmax(Reshape(out, n, b.Runs, c))
}

// lwRuns is the label-wise structure of R runs inside a graph.
type lwRuns struct {
	adj                  *sparse.SpMat
	xcls                 *sparse.SpMat // nil: features not sparse
	vals, shared, perRun *Node
	classes              int
	// groups[k] (nil: no run has class k) and groupPos: see batchedLWGroup.
	groups   []*Node
	groupPos *Node
}

// conv is nn.LabelWiseConv for R runs, on the node features x shared by
// all runs (when h is nil) or on h [N, R·in]:
//
//	out_r = A_r · M_r + h_r·W0_r + b_r,   M_r[u] = h_r[u]·W_class_r(u)
//
// On shared features the products X·W0 and X·[W_1..W_C] are one product
// each for all runs (fused weights [F, R·out] and [F, C, R·out]); on h
// they are batched over the runs (batched.PerRun, weights held transposed).
// M_r picks each node's class block out of the all-classes product (one
// gather for all runs) — or, when that product is large (R times
// nn.LabelWiseGroupedFLOPs, the rule of the layer alone), each class's
// nodes of every run are multiplied by their own W_k only (one PerRun
// product per class, N·R·F·out multiply-adds in all instead of C times
// that, and two row gathers) — and the aggregation is
// one product over the shared edge pattern with per-run values. The
// official code builds [A_1 h, …, A_C h, h] per class instead; the
// projected form is the same linear map (see nn.LabelWiseConv).
func (lw lwRuns) conv(b *batched.Builder, scope string, x nn.Features, h *Node, out int) *Node {
	c := lw.classes
	var n, f int
	if h == nil {
		n, f = x.NumRows(), x.NumCols()
	} else {
		n, f = h.Shape().Dimensions[0], h.Shape().Dimensions[1]/b.Runs
	}
	init := nn.FanInFromMeta(LabelWiseInput+"/present", f)
	var self, m *Node
	if h == nil {
		mul := func(w *Node) *Node {
			if x.Sparse != nil {
				return x.Sparse.MulRuns(w, 1, nil)
			}
			return nn.Project(x.Dense, w)
		}
		self = mul(b.Param(scope+"/weight_self", init, batched.FusedCols, f, out))
		wCls := b.Param(scope+"/weight_cls", init, batched.FusedCols, f, c, out) // [F, C, R·out]
		if x.Sparse != nil && lw.xcls != nil {
			// Row (j·C + k)·R + r of wCls is W_k of run r at feature j:
			// each run's class-shifted product, gathers only (as alone).
			// S holds the features' own values: f_C's first layer has no
			// dropout.
			m = lw.xcls.Mul(Reshape(wCls, f*c*b.Runs, out)) // rows u·R + r
		} else {
			y := mul(Reshape(wCls, f, c*b.Runs*out)) // [N, C·R·out]
			m = Gather(Reshape(y, n*c*b.Runs, out), lw.shared, true)
		}
	} else {
		self = b.PerRun(h, b.Param(scope+"/weight_self", init, batched.RunsTransposed, f, out))
		wCls := b.Param(scope+"/weight_cls", init, batched.RunsTransposed, f, c, out) // [R, C·out, F]
		if lw.groupPos != nil && float64(b.Runs)*float64(n)*float64(f)*float64(out)*float64(c) > nn.LabelWiseGroupedFLOPs {
			m = lw.grouped(b, h, wCls, f, out) // rows u·R + r
		} else {
			y := b.PerRun(h, wCls)                                   // [N, R·C·out]
			m = Gather(Reshape(y, n*b.Runs*c, out), lw.perRun, true) // rows (u·R + r)·C + class
		}
	}
	m = Reshape(m, n, b.Runs*out)
	agg := lw.adj.MulRuns(m, b.Runs, lw.vals)
	bias := b.Param(scope+"/bias", init, batched.FusedCols, out)
	return Add(Add(agg, self), ExpandAxes(bias, 0))
}

// grouped returns M_r[u] = h_r[u]·W_class_r(u) at rows u·R + r for h
// [N, R·f] and wCls [R, C·out, f], one PerRun product per class present in
// any run: class k's nodes, gathered as [P_k, R·f], times W_k of each run.
func (lw lwRuns) grouped(b *batched.Builder, h, wCls *Node, f, out int) *Node {
	n, r := h.Shape().Dimensions[0], b.Runs
	rows := Reshape(h, n*r, f)
	var parts []*Node
	for k, grp := range lw.groups {
		if grp == nil {
			continue
		}
		p := grp.Shape().Dimensions[0] / r
		hk := Reshape(Gather(rows, grp), p, r*f)                                 // rows of several runs: not sorted
		wk := Slice(wCls, AxisRange(), AxisRange(k*out, (k+1)*out), AxisRange()) // [R, out, f]
		parts = append(parts, Reshape(b.PerRun(hk, wk), p*r, out))
	}
	return Gather(Concatenate(parts, 0), lw.groupPos)
}

// setGroupsRuns adds batchedLWGroup and batchedLWGroupPos for the runs'
// labels.
func setGroupsRuns(in *nn.Inputs, labels [][]int32, c int) {
	r := len(labels)
	if r == 0 {
		return
	}
	n := len(labels[0])
	members := make([][][]int32, c) // [class][run] nodes
	for k := range members {
		members[k] = make([][]int32, r)
	}
	for run, cls := range labels {
		for u, k := range cls {
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
		if p == 0 {
			continue
		}
		idx := make([]int32, p*r)
		for run, m := range byRun {
			for i := range p {
				u := int32(0) // padding: a valid row whose product is never read
				if i < len(m) {
					u = m[i]
					pos[int(u)*r+run] = int32(off + i*r + run)
				}
				idx[i*r+run] = u*int32(r) + int32(run)
			}
		}
		in.SetInt32(fmt.Sprintf("%s/%02d", batchedLWGroup, k), idx, p*r, 1)
		off += p * r
	}
	in.SetInt32(batchedLWGroupPos, pos, n*r, 1)
}
