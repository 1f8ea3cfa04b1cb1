package batched

import (
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/support/exceptions"

	"github.com/lwgcn/toolkit/lwgcn/nn"
)

// Layout says how a weight's runs are laid out in its variable.
type Layout int

const (
	// FusedCols: a weight [d0, …, dl] of every run as [d0, …, R·dl] (run r
	// in the r-th block of the last axis); a vector [d] as [R·d].
	FusedCols Layout = iota
	// RunsFirst: a weight of dims D of every run as [R, D...].
	RunsFirst
	// RunsTransposed: a weight [in, d1, …] of every run as [R, d1·…, in],
	// each run's matrix transposed (the layout PerRun multiplies with no
	// general transpose, forward or backward; see perrun.go).
	RunsTransposed
)

// paramSpec is a batched weight: its unbatched path, initialisation, the
// dims of one run's weight and the runs' layout.
type paramSpec struct {
	path   string
	init   nn.Init
	dims   []int
	layout Layout
}

// stacked returns the variable's value for the runs' seeds: each run's
// nn.InitialValues, laid out.
func (p paramSpec) stacked(seeds []int64, meta []map[string]int) (*tensors.Tensor, error) {
	r := len(seeds)
	n := 1
	for _, d := range p.dims {
		n *= d
	}
	out := make([]float32, r*n)
	for k, seed := range seeds {
		var lookup func(string) (int, bool)
		if k < len(meta) {
			lookup = func(name string) (int, bool) { v, ok := meta[k][name]; return v, ok }
		}
		vals, err := nn.InitialValues(seed, p.path, p.init, lookup, p.dims...)
		if err != nil {
			return nil, err
		}
		for i, v := range vals {
			out[p.index(r, k, i)] = float32(v)
		}
	}
	return tensors.FromFlatDataAndDimensions(out, p.varDims(r)...), nil
}

// index is the flat position in the variable of run k's i-th value (flat,
// row-major in the run's own dims).
func (p paramSpec) index(runs, k, i int) int {
	n := 1
	for _, d := range p.dims {
		n *= d
	}
	if p.layout == RunsTransposed && len(p.dims) > 1 {
		in := p.dims[0]
		cols := n / in
		row, col := i/cols, i%cols
		return k*n + col*in + row
	}
	if p.layout != FusedCols || len(p.dims) == 1 {
		return k*n + i
	}
	d1 := p.dims[len(p.dims)-1]
	row, col := i/d1, i%d1
	return row*runs*d1 + k*d1 + col
}

// varDims are the variable's dims for runs runs.
func (p paramSpec) varDims(runs int) []int {
	if p.layout == RunsTransposed && len(p.dims) > 1 {
		in := p.dims[0]
		n := 1
		for _, d := range p.dims {
			n *= d
		}
		return []int{runs, n / in, in}
	}
	if p.layout != FusedCols {
		return append([]int{runs}, p.dims...)
	}
	d := append([]int(nil), p.dims...)
	d[len(d)-1] *= runs
	return d
}

// Builder is what a batched model builds its graph with: the number of
// runs, their weights (Param) and their dropout masks (Mask).
type Builder struct {
	// Runs is R, the number of runs in the batch.
	Runs int
	// DType is the float dtype of weights and masks.
	DType  dtypes.DType
	g      *Graph
	t      *Trainer
	prefix string // prepended to Param paths (see In)
}

// In returns a builder whose Param paths are under scope (e.g. "/fc"), as
// an unbatched model built in scope.In(...) names its variables.
func (b *Builder) In(scope string) *Builder {
	c := *b
	c.prefix = b.prefix + scope
	return &c
}

// Graph returns the graph being built.
func (b *Builder) Graph() *Graph { return b.g }

// Param returns the batched weight at path (the unbatched model's variable
// path, e.g. "/conv1/weight") holding every run's weight of dims in layout
// l, creating it on first use with each run's initial values ("fanin"
// specs resolved with each run's metadata, see RunInputs).
func (b *Builder) Param(path string, init nn.Init, l Layout, dims ...int) *Node {
	path = b.prefix + path
	spec := paramSpec{path: path, init: init, dims: dims, layout: l}
	if v := b.t.store.GetVariable(path); v != nil {
		return v.NodeValue(b.g)
	}
	val, err := spec.stacked(b.t.seeds, b.t.runMeta)
	if err != nil {
		exceptions.Panicf("batched: %v", err)
	}
	dir, name := splitPath(path)
	v := b.t.store.Scope(dir).VariableWithValue(name, val)
	b.t.params = append(b.t.params, spec)
	return v.NodeValue(b.g)
}

// splitPath splits "/a/b/name" into "/a/b" and "name".
func splitPath(path string) (dir, name string) {
	for i := len(path) - 1; i >= 0; i-- {
		if path[i] == '/' {
			if i == 0 {
				return "/", path[1:]
			}
			return path[:i], path[i+1:]
		}
	}
	return "/", path
}

// Masks returns one dropout mask per run of the given dims (as
// nn.DropoutMask draws it: 0 where u < rate, 1/(1-rate) elsewhere), each
// from its run's random state; nil when rate <= 0. Runs draw in the same
// order as alone as long as the model asks for masks in the unbatched
// model's order.
func (b *Builder) Masks(rate float64, dims ...int) []*Node {
	if rate <= 0 {
		return nil
	}
	shape := shapes.Make(b.DType, dims...)
	masks := make([]*Node, b.Runs)
	for r := range masks {
		if rate >= 1 {
			masks[r] = Zeros(b.g, shape)
			continue
		}
		v := b.t.rng[r]
		state, u := RandomUniform(v.NodeValue(b.g), shape)
		v.SetNodeValue(state)
		keep := GreaterOrEqual(u, Scalar(b.g, b.DType, rate))
		masks[r] = StopGradient(Where(keep, Scalar(b.g, b.DType, 1/(1-rate)), Scalar(b.g, b.DType, 0)))
	}
	return masks
}

// Dropout applies per-run dropout to h [N, R·H] (run r in columns
// r·H … (r+1)·H-1); it returns h unchanged when not training.
func (b *Builder) Dropout(h *Node, rate float64, train bool) *Node {
	if !train || rate <= 0 {
		return h
	}
	n, w := h.Shape().Dimensions[0], h.Shape().Dimensions[1]
	masks := b.Masks(rate, n, w/b.Runs)
	return Mul(h, Reshape(StackRuns(masks), n, w))
}

// StackRuns stacks one tensor per run, each [d0, ...], into [d0, R, ...]
// (Stack(xs, 1)). When each holds one value per d0 it stacks them as
// [R, d0] and transposes that in 2-D, which the Go backend does fast:
// for 10 dropout masks of 29,157 entries 0.7 ms, against 2.3 ms for the
// interleaving Stack (wider rows interleave fast, and are stacked as is).
func StackRuns(xs []*Node) *Node {
	dims := xs[0].Shape().Dimensions
	if xs[0].Shape().Size() != dims[0] {
		return Stack(xs, 1)
	}
	flat := make([]*Node, len(xs))
	for r, x := range xs {
		flat[r] = Reshape(x, dims[0])
	}
	out := append([]int{dims[0], len(xs)}, dims[1:]...)
	return Reshape(Transpose(Stack(flat, 0), 0, 1), out...)
}

// FirstLayer is each run's X_r·W_r (+ b_r) on the node features, with X_r
// the features after the run's own dropout (rate; sparse features drop
// stored entries, as nn.DropoutFeatures). W is "<scope>/weight" [F, out]
// per run, fused as [F, R·out]; b is "<scope>/bias" [out] per run. The
// result is [N, R·out].
func (b *Builder) FirstLayer(scope string, x nn.Features, rate float64, train bool, out int, bias bool, wInit, bInit nn.Init) *Node {
	f := x.NumCols()
	w := b.Param(scope+"/weight", wInit, FusedCols, f, out)
	var y *Node
	switch {
	case x.Sparse != nil:
		var vals *Node
		if train && rate > 0 {
			masks := b.Masks(rate, x.Sparse.NNZ)
			if x.Sparse.Vals != nil {
				for r := range masks {
					masks[r] = Mul(ConvertDType(x.Sparse.Vals, b.DType), masks[r])
				}
			}
			vals = StackRuns(masks) // [NNZ, R]
		}
		y = x.Sparse.MulRuns(w, b.Runs, vals)
	case train && rate > 0:
		n := x.NumRows()
		xr := Mul(ExpandAxes(x.Dense, 0), Stack(b.Masks(rate, n, f), 0)) // [R, N, F]
		wr := Reshape(w, f, b.Runs, out)
		y = DotGeneral(xr, []int{2}, []int{0}, wr, []int{0}, []int{1}) // [R, N, out]
		y = Reshape(TransposeAllDims(y, 1, 0, 2), n, b.Runs*out)
	default:
		y = nn.Project(x.Dense, w)
	}
	if bias {
		y = Add(y, ExpandAxes(b.Param(scope+"/bias", bInit, FusedCols, out), 0))
	}
	return y
}

// Linear is each run's h_r·W_r (+ b_r) for h [N, R·in]: W is
// "<scope>/weight" [in, out] per run, held transposed as [R, out, in]
// (RunsTransposed) and applied with PerRun; the result is [N, R·out].
func (b *Builder) Linear(scope string, h *Node, out int, bias bool, wInit, bInit nn.Init) *Node {
	in := h.Shape().Dimensions[1] / b.Runs
	y := b.PerRun(h, b.Param(scope+"/weight", wInit, RunsTransposed, in, out))
	if bias {
		y = Add(y, ExpandAxes(b.Param(scope+"/bias", bInit, FusedCols, out), 0))
	}
	return y
}
