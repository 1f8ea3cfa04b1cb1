package nn

import (
	"fmt"
	"maps"
	"slices"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/support/exceptions"
)

// Inputs is an ordered set of named host tensors that a model's compiled
// graph takes as inputs: features, graph structure, labels, masks. The
// tensors are created once and passed to every call. Besides tensors it
// holds integer metadata (sizes of sparse matrices, number of classes
// present) used while building the graph.
//
// The float dtype of the tensors it creates (features, weights, masks) is
// DType (Float32 by default; Float64 for gradient checks).
type Inputs struct {
	DType   dtypes.DType
	tensors map[string]*tensors.Tensor
	meta    map[string]int
	// host keeps host-side objects by name (the sparse matrices added with
	// sparse.Set, for the layouts sparse.SetSorted derives from them).
	host map[string]any
	// runMeta[r] is run r's own metadata (over meta); perRun names the
	// [N, R] tensors holding one column per run (SetRunFloat).
	runMeta []map[string]int
	perRun  map[string]bool
	// Backend names the backend the graph will be compiled for
	// (compute.Backend.String; train.New sets it before the model's
	// Prepare): sparse.Set then adds only the layouts that backend's
	// products read. Empty: not known, every layout.
	Backend string
}

// NewInputs returns an empty set of float32 inputs.
func NewInputs() *Inputs {
	return &Inputs{DType: dtypes.Float32, tensors: map[string]*tensors.Tensor{}, meta: map[string]int{}}
}

// Clone returns a shallow copy: the same tensors, so that some can be
// replaced (e.g. the split masks) without touching the original.
func (in *Inputs) Clone() *Inputs {
	c := &Inputs{DType: in.DType, Backend: in.Backend, tensors: maps.Clone(in.tensors), meta: maps.Clone(in.meta), host: maps.Clone(in.host),
		perRun: maps.Clone(in.perRun)}
	for _, m := range in.runMeta {
		c.runMeta = append(c.runMeta, maps.Clone(m))
	}
	return c
}

// SetHost keeps a host-side object under name (not a graph input).
func (in *Inputs) SetHost(name string, v any) {
	if in.host == nil {
		in.host = map[string]any{}
	}
	in.host[name] = v
}

// Host returns the object kept under name with SetHost, or nil.
func (in *Inputs) Host(name string) any { return in.host[name] }

// BackendName returns Backend (sparse.HostInputs).
func (in *Inputs) BackendName() string { return in.Backend }

// Set adds or replaces a tensor.
func (in *Inputs) Set(name string, t *tensors.Tensor) { in.tensors[name] = t }

// SetInt32 adds an int32 tensor with the given dimensions.
func (in *Inputs) SetInt32(name string, data []int32, dims ...int) {
	in.tensors[name] = tensors.FromFlatDataAndDimensions(slices.Clone(data), dims...)
}

// SetFloat adds a float tensor (converted to DType) with the given dimensions.
func (in *Inputs) SetFloat(name string, data []float32, dims ...int) {
	in.tensors[name] = floatTensor(in.DType, data, dims...)
}

// SetRunFloat adds a per-run float tensor [n, runs] (run r's values in
// column r; data holds n·runs values, row-major): EachRun gives each run
// its own column as an [n] tensor.
func (in *Inputs) SetRunFloat(name string, data []float32, n, runs int) {
	in.SetFloat(name, data, n, runs)
	if in.perRun == nil {
		in.perRun = map[string]bool{}
	}
	in.perRun[name] = true
}

// SetMeta records an integer used at graph-building time.
func (in *Inputs) SetMeta(name string, v int) { in.meta[name] = v }

// SetRunMeta records run's own value of an integer used at graph-building
// time (e.g. the classes present in its pseudo-labels), over SetMeta's.
func (in *Inputs) SetRunMeta(run int, name string, v int) {
	for len(in.runMeta) <= run {
		in.runMeta = append(in.runMeta, map[string]int{})
	}
	in.runMeta[run][name] = v
}

// Meta returns the integer recorded under name.
func (in *Inputs) Meta(name string) (int, bool) { v, ok := in.meta[name]; return v, ok }

// metaOf returns run's value of the integer recorded under name.
func (in *Inputs) metaOf(run int, name string) (int, bool) {
	return metaOf(in.meta, in.runMeta, run, name)
}

func metaOf(meta map[string]int, runMeta []map[string]int, run int, name string) (int, bool) {
	if run < len(runMeta) {
		if v, ok := runMeta[run][name]; ok {
			return v, true
		}
	}
	v, ok := meta[name]
	return v, ok
}

// Has reports whether a tensor or metadata with that name exists.
func (in *Inputs) Has(name string) bool {
	_, ok := in.tensors[name]
	if !ok {
		_, ok = in.meta[name]
	}
	return ok
}

// Tensor returns the tensor named name, or nil.
func (in *Inputs) Tensor(name string) *tensors.Tensor { return in.tensors[name] }

// Names returns the tensor names, sorted: the order of the graph inputs.
func (in *Inputs) Names() []string { return slices.Sorted(maps.Keys(in.tensors)) }

// Tensors returns the tensors in Names order, as arguments for an Exec call.
func (in *Inputs) Tensors() []any {
	names := in.Names()
	out := make([]any, len(names))
	for i, n := range names {
		out[i] = in.tensors[n]
	}
	return out
}

// Shapes returns the tensor shapes in Names order.
func (in *Inputs) Shapes() []shapes.Shape {
	names := in.Names()
	out := make([]shapes.Shape, len(names))
	for i, n := range names {
		out[i] = in.tensors[n].Shape()
	}
	return out
}

// Bytes is the total size of the tensors.
func (in *Inputs) Bytes() int64 {
	var n int64
	for _, t := range in.tensors {
		n += int64(t.Shape().Memory())
	}
	return n
}

// Nodes wraps the graph parameters (in Names order) for graph building.
func (in *Inputs) Nodes(params []*Node) *Nodes {
	names := in.Names()
	if len(params) != len(names) {
		exceptions.Panicf("nn.Inputs.Nodes: %d graph inputs for %d named tensors", len(params), len(names))
	}
	n := &Nodes{DType: in.DType, byName: make(map[string]*Node, len(names)), meta: maps.Clone(in.meta),
		runMeta: in.runMeta, perRun: in.perRun}
	for i, name := range names {
		n.byName[name] = params[i]
	}
	return n
}

// Nodes are the named inputs inside a graph-building function.
type Nodes struct {
	DType   dtypes.DType
	byName  map[string]*Node
	meta    map[string]int
	runMeta []map[string]int
	perRun  map[string]bool
}

// metaOf returns run's value of the integer metadata name.
func (n *Nodes) metaOf(run int, name string) (int, bool) { return metaOf(n.meta, n.runMeta, run, name) }

// run returns run k's view of the inputs (EachRun): each per-run input
// [N, R] as its column k, [N], and run k's metadata.
func (n *Nodes) run(k int) *Nodes {
	c := *n
	c.byName = maps.Clone(n.byName)
	for name := range n.perRun {
		x := n.byName[name]
		c.byName[name] = Reshape(Slice(x, AxisRange(), AxisElem(k)), x.Shape().Dimensions[0])
	}
	c.meta = maps.Clone(n.meta)
	if k < len(n.runMeta) {
		maps.Copy(c.meta, n.runMeta[k])
	}
	return &c
}

// Get returns the input named name; it panics (graph building) when absent.
func (n *Nodes) Get(name string) *Node {
	x, ok := n.byName[name]
	if !ok {
		exceptions.Panicf("nn: graph input %q missing (have %v); did the model's Prepare add it?", name,
			slices.Sorted(maps.Keys(n.byName)))
	}
	return x
}

// Maybe returns the input named name, or nil.
func (n *Nodes) Maybe(name string) *Node { return n.byName[name] }

// Meta returns integer metadata; it panics (graph building) when absent.
func (n *Nodes) Meta(name string) int {
	v, ok := n.meta[name]
	if !ok {
		exceptions.Panicf("nn: graph metadata %q missing", name)
	}
	return v
}

// MetaOr returns integer metadata, or def when absent.
func (n *Nodes) MetaOr(name string, def int) int {
	if v, ok := n.meta[name]; ok {
		return v
	}
	return def
}

// Graph returns the graph the inputs belong to.
func (n *Nodes) Graph() *Graph {
	for _, x := range n.byName {
		return x.Graph()
	}
	exceptions.Panicf("nn: no graph inputs")
	return nil
}

func floatTensor(dtype dtypes.DType, data []float32, dims ...int) *tensors.Tensor {
	switch dtype {
	case dtypes.Float32:
		return tensors.FromFlatDataAndDimensions(slices.Clone(data), dims...)
	case dtypes.Float64:
		d := make([]float64, len(data))
		for i, v := range data {
			d[i] = float64(v)
		}
		return tensors.FromFlatDataAndDimensions(d, dims...)
	}
	panic(fmt.Sprintf("nn: unsupported float dtype %s", dtype))
}
