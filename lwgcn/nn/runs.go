package nn

import (
	"fmt"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
)

// The runs axis: R independent runs (splits, seeds) of one model trained
// in one compiled computation. R is a property of the store (SetSeed with R
// seeds); layers read it from the scope (Runs) and build every run's
// computation at once, so that a model is written once for any R. R = 1 is
// the plain model.
//
// Layout of node matrices: a run's [N, H] matrix sits in columns r·H …
// (r+1)·H-1 of an [N, R·H] matrix; a model returns [N, R·C]. Inputs shared
// by every run (the node features, the graph) are given once; per-run
// inputs (the split masks, [N, R]) are marked with Inputs.SetRunFloat.
//
// Weights: each run's weight has the dims the layer asks for and starts
// from the values it would have alone (its seed, the variable's path); the
// runs' weights share one variable laid out as the layer multiplies best
// (Layout). With R = 1 every layout is the plain weight.
//
// Randomness: run 0 draws from the store's random state, run r > 0 from
// its own, each seeded with its run's seed: a run draws what it draws
// alone as long as the layers ask for its masks in the same shapes and
// order.
//
// Layers without a form for R runs at once build their computation once
// per run: EachRun, inside which every Param is that run's weight and
// every draw comes from that run's random state.

// Store parameters of the runs axis.
const (
	// paramRunSeeds (root scope, []int64) are the runs' seeds; R is their
	// number.
	paramRunSeeds = "lwgcn_run_seeds"
	// paramRun (root scope, int) is the run EachRun is building (-1: none).
	paramRun = "lwgcn_run"
	// layoutKeyPrefix + variable name holds its Layout (an int); dimsKeyPrefix
	// + name one run's dims ([]int).
	layoutKeyPrefix = "lwgcn_layout#"
	dimsKeyPrefix   = "lwgcn_dims#"
	// stackKeyPrefix + variable name holds the paths ([]string) of the
	// weights a RunsParamStack variable stands for, in order.
	stackKeyPrefix = "lwgcn_stack#"
	// rngScope holds the random states of runs 1 … R-1.
	rngScope = "/lwgcn_rng"
)

// Layout says how the runs' weights are laid out in their variable when
// R > 1 (with R = 1 the variable is the plain weight).
type Layout int

const (
	// RunsFirst: a weight of dims D of every run as [R, D...].
	RunsFirst Layout = iota
	// FusedCols: a weight [d0, …, dl] of every run as [d0, …, R·dl] (run r in
	// the r-th block of the last axis); a vector [d] as [R·d]. A first layer
	// on features shared by the runs multiplies them once for all runs.
	FusedCols
	// RunsTransposed: a weight [in, d1, …] of every run as [R, d1·…, in],
	// each run's matrix transposed: the layout PerRun multiplies with no
	// general transpose, forward or backward.
	RunsTransposed
	// StackTransposed: a stack of L weights [in, out] ([L, in, out] for one
	// run) of every run as [R, L, out, in], each run's matrices transposed
	// as in RunsTransposed (RunsParamStack).
	StackTransposed
)

// SetSeed sets the seeds of the runs (R = len(seeds), at least one) for
// the weights created from now on and for Reinitialize; the first seed is
// also Seed's.
func SetSeed(store *model.Store, seeds ...int64) {
	if len(seeds) == 0 {
		panicf("nn.SetSeed: no seed")
	}
	store.SetParam(ParamSeed, seeds[0])
	store.SetParam(paramRunSeeds, append([]int64(nil), seeds...))
}

// RunSeeds returns the runs' seeds (one run, Seed's, when SetSeed was not
// given several).
func RunSeeds(store *model.Store) []int64 {
	if v, ok := store.GetParam(paramRunSeeds); ok {
		if s, ok := v.([]int64); ok && len(s) > 0 {
			return s
		}
	}
	return []int64{Seed(store)}
}

// NumRuns is R, the number of runs the store's weights hold.
func NumRuns(store *model.Store) int { return len(RunSeeds(store)) }

// Runs is the number of runs a layer in scope builds at once: R, or 1
// inside EachRun.
func Runs(scope *model.Scope) int {
	if runIndex(scope.Store()) >= 0 {
		return 1
	}
	return NumRuns(scope.Store())
}

// runIndex is the run EachRun is building, -1 outside EachRun.
func runIndex(store *model.Store) int {
	if v, ok := store.GetParam(paramRun); ok {
		if r, ok := v.(int); ok {
			return r
		}
	}
	return -1
}

// SeedRandom seeds every run's random state with its seed (RunSeeds):
// run 0's is the store's, as a run alone seeds it.
func SeedRandom(store *model.Store) error {
	seeds := RunSeeds(store)
	if err := store.SetRNGStateFromSeed(seeds[0]); err != nil {
		return fmt.Errorf("nn: seeding run 0: %w", err)
	}
	for r := 1; r < len(seeds); r++ {
		state, err := RNGStateFromSeed(seeds[r])
		if err != nil {
			return fmt.Errorf("nn: seeding run %d: %w", r, err)
		}
		if err := rngVar(store, r).SetValue(state); err != nil {
			return fmt.Errorf("nn: seeding run %d: %w", r, err)
		}
	}
	return nil
}

// rngVar is run r's random state (r > 0), created from its seed on first use.
func rngVar(store *model.Store, r int) *model.Variable {
	name := fmt.Sprintf("run%03d", r)
	s := store.Scope(rngScope)
	if v := s.GetVariable(name); v != nil {
		return v
	}
	state, err := RNGStateFromSeed(RunSeeds(store)[r])
	if err != nil {
		panicf("nn: random state of run %d: %v", r, err)
	}
	return s.VariableWithValue(name, state).SetTrainable(false)
}

// randomUniform draws uniform values in [0, 1) of shape from run r's
// random state.
func randomUniform(scope *model.Scope, g *Graph, shape shapes.Shape, r int) *Node {
	v := runStateVar(scope.Store(), r)
	state, u := RandomUniform(v.NodeValue(g), shape)
	v.SetNodeValue(state)
	return u
}

// runStateVar is run r's random-state variable: the store's own for run 0
// (given a value as model.Store.RandomUniform gives it), rngVar's beyond.
func runStateVar(store *model.Store, r int) *model.Variable {
	if r > 0 {
		return rngVar(store, r)
	}
	v := store.GetVariable(model.JoinPath("/", model.RNGStateVariableName))
	if v == nil || !v.HasValue() {
		if err := store.ResetRNGState(); err != nil {
			panicf("nn: random state of run 0: %v", err)
		}
		v = store.GetVariable(model.JoinPath("/", model.RNGStateVariableName))
	}
	return v
}

// MaskStates are the random states the dropout masks of the runs being
// built draw from, in Masks's order, for a computation that draws them
// itself (a loop body, see MaskFromStates): Nodes reads them into g, Set
// writes back the states after the draws.
type MaskStates struct{ vars []*model.Variable }

// RunsMaskStates returns the random states of the runs built in scope.
func RunsMaskStates(scope *model.Scope) MaskStates {
	first, n := max(runIndex(scope.Store()), 0), Runs(scope)
	vs := make([]*model.Variable, n)
	for k := range vs {
		vs[k] = runStateVar(scope.Store(), first+k)
	}
	return MaskStates{vs}
}

// Nodes returns the states' current values in g.
func (m MaskStates) Nodes(g *Graph) []*Node {
	ns := make([]*Node, len(m.vars))
	for k, v := range m.vars {
		ns[k] = v.NodeValue(g)
	}
	return ns
}

// Set makes states the variables' values from here on in their graph.
func (m MaskStates) Set(states []*Node) {
	for k, v := range m.vars {
		v.SetNodeValue(states[k])
	}
}

// MaskFromStates is RunsDropoutMask of shape [N, R·w] drawn in g, or in
// a closure of g (a loop body), from the given states (one per run)
// instead of the runs' variables: it returns the states after the draws and
// the mask, the same values RunsDropoutMask gives from the same states
// (0 < rate < 1).
func MaskFromStates(g *Graph, states []*Node, shape shapes.Shape, rate float64) ([]*Node, *Node) {
	r := len(states)
	n, w := shape.Dimensions[0], shape.Dimensions[1]
	next := make([]*Node, r)
	masks := make([]*Node, r)
	for k, s := range states {
		next[k], masks[k] = maskFromState(g, s, shapes.Make(shape.DType, n, w/r), rate)
	}
	if r == 1 {
		return next, masks[0]
	}
	return next, Reshape(StackRuns(masks), n, w)
}

// drawMask draws one dropout mask of shape from run r's random state
// (runStateVar), which it advances.
func drawMask(store *model.Store, g *Graph, r int, shape shapes.Shape, rate float64) *Node {
	v := runStateVar(store, r)
	state, mask := maskFromState(g, v.NodeValue(g), shape, rate)
	v.SetNodeValue(state)
	return mask
}

// maskFromState draws one dropout mask of shape from state in g (or a
// closure of g): 0 where u < rate, 1/(1-rate) elsewhere, without gradient;
// on backends other than pure Go from HashMask (UseHashMasks).
// Its constants are its own (closureUniform's reason), the same ops and
// values as graph.RandomUniform and cached scalars give.
func maskFromState(g *Graph, state *Node, shape shapes.Shape, rate float64) (*Node, *Node) {
	if UseHashMasks(g.Backend().String()) {
		return HashMask(g, state, shape, rate)
	}
	dt := shape.DType
	next, u := closureUniform(g, state, shape)
	keep := GreaterOrEqual(u, ConstAsDType(g, dt, rate))
	return next, StopGradient(Where(keep, ConstAsDType(g, dt, 1/(1-rate)), ConstAsDType(g, dt, 0)))
}

// RunUniform draws uniform values in [0, 1) of shape from the random
// state of the run being built (run 0's outside EachRun).
func RunUniform(scope *model.Scope, g *Graph, shape shapes.Shape) *Node {
	return randomUniform(scope, g, shape, max(runIndex(scope.Store()), 0))
}

// RunIntN draws integers in [0, n) of shape (int32) from the random state
// of the run being built, as model.Scope.RandomIntN does from the store's.
func RunIntN(scope *model.Scope, g *Graph, n int32, shape shapes.Shape) *Node {
	v := runStateVar(scope.Store(), max(runIndex(scope.Store()), 0))
	state, x := RandomIntN(v.NodeValue(g), n, shape)
	v.SetNodeValue(state)
	return x
}

// Masks returns one dropout mask of dims per run built in scope (as
// DropoutMask: 0 where u < rate, 1/(1-rate) elsewhere), each from its run's
// random state, in run order; nil when rate <= 0.
func Masks(scope *model.Scope, g *Graph, dtype dtypes.DType, rate float64, dims ...int) []*Node {
	if rate <= 0 {
		return nil
	}
	shape := shapes.Make(dtype, dims...)
	first, n := 0, Runs(scope)
	if r := runIndex(scope.Store()); r >= 0 {
		first = r
	}
	masks := make([]*Node, n)
	for k := range masks {
		if rate >= 1 {
			masks[k] = Zeros(g, shape)
			continue
		}
		masks[k] = drawMask(scope.Store(), g, first+k, shape, rate)
	}
	return masks
}

// StackRuns stacks one tensor per run, each [d0, ...], into [d0, R, ...]
// (Stack(xs, 1); one tensor is returned as [d0, 1, ...] without a copy).
// When each holds one value per d0 it stacks them as [R, d0] and
// transposes that in 2-D, which the Go backend does fast: for 10 dropout
// masks of 29,157 entries 0.7 ms, against 2.3 ms for the interleaving
// Stack (wider rows interleave fast, and are stacked as is).
func StackRuns(xs []*Node) *Node {
	dims := xs[0].Shape().Dimensions
	out := append([]int{dims[0], len(xs)}, dims[1:]...)
	if len(xs) == 1 {
		return Reshape(xs[0], out...)
	}
	if xs[0].Shape().Size() != dims[0] {
		return Stack(xs, 1)
	}
	flat := make([]*Node, len(xs))
	for r, x := range xs {
		flat[r] = Reshape(x, dims[0])
	}
	return Reshape(Transpose(Stack(flat, 0), 0, 1), out...)
}

// EachRun builds fn once per run, run r seeing its own weights (Param
// returns run r's), its own random state and its own per-run inputs (in's
// [N, R] inputs as run r's [N]), and joins the runs' outputs: a scalar
// output becomes [R], any other is concatenated along its last axis (node
// matrices [N, C] become [N, R·C]); a nil output stays nil. It is the
// runs axis of layers and models that have no form for R runs at once;
// with R = 1 it is fn.
func EachRun(scope *model.Scope, in *Nodes, fn func(scope *model.Scope, in *Nodes) []*Node) []*Node {
	store := scope.Store()
	if runIndex(store) >= 0 {
		return fn(scope, in)
	}
	r := NumRuns(store)
	outs := make([][]*Node, r)
	func() {
		defer store.SetParam(paramRun, -1)
		for k := range r {
			store.SetParam(paramRun, k)
			outs[k] = fn(scope.ResetVisited(), in.run(k)) // each run visits the scopes again
		}
	}()
	joined := make([]*Node, len(outs[0]))
	for j := range joined {
		parts := make([]*Node, r)
		for k := range r {
			parts[k] = outs[k][j]
		}
		switch {
		case parts[0] == nil:
		case parts[0].Shape().IsScalar():
			joined[j] = Stack(parts, 0)
		case r == 1:
			joined[j] = parts[0]
		default:
			joined[j] = Concatenate(parts, -1)
		}
	}
	return joined
}

// RunsParam is Param for a weight whose runs are laid out as layout when
// R > 1 (Param's layout is RunsFirst). Inside EachRun every weight is
// RunsFirst and RunsParam returns the run's own.
func RunsParam(scope *model.Scope, g *Graph, name string, dtype dtypes.DType, init Init, meta *Nodes, layout Layout,
	dims ...int) *Node {
	return runsParam(scope, g, name, dtype, init, meta, layout, nil, dims)
}

// RunsParamStack is RunsParam for a stack of count weights [in, out], the
// l-th (1-based) standing for the weight name of layerScope(l) (drawn from
// that weight's path: the same initial values) but held as one variable,
// name in scope: an optimizer updates it in one go, not count times (XLA:
// a few kernels instead of a few per weight). It returns [count, in, out]
// for one run and, for R runs, [count, R, out, in] (each run's matrices
// transposed, as RunsTransposed); the variable is StackTransposed, and
// SplitStack gives back the weights it stands for.
func RunsParamStack(scope *model.Scope, g *Graph, name string, dtype dtypes.DType, init Init, count int,
	layerScope func(l int) *model.Scope, in, out int) *Node {
	paths := make([]string, count)
	for l := range paths {
		paths[l] = model.JoinPath(layerScope(l+1).Scope(), name)
	}
	x := runsParam(scope, g, name, dtype, init, nil, StackTransposed, paths, []int{count, in, out})
	if r := Runs(scope); r > 1 && runIndex(scope.Store()) < 0 {
		x = TransposeAllDims(x, 1, 0, 2, 3)
	}
	return x
}

// runsParam is RunsParam and RunsParamStack: paths, when given, are the
// weights whose draws make up the variable's (see paramValue).
func runsParam(scope *model.Scope, g *Graph, name string, dtype dtypes.DType, init Init, meta *Nodes, layout Layout,
	paths []string, dims []int) *Node {
	store := scope.Store()
	run := runIndex(store)
	if run >= 0 {
		layout = RunsFirst
	}
	v := scope.GetVariable(name)
	if v == nil {
		if paths == nil {
			paths = []string{model.JoinPath(scope.Scope(), name)}
		} else {
			scope.SetParam(stackKeyPrefix+name, paths)
		}
		var lookup func(run int, key string) (int, bool)
		if meta != nil {
			lookup = meta.metaOf
		}
		val, err := paramValue(RunSeeds(store), paths, dtype, init, lookup, layout, dims)
		if err != nil {
			panicf("%v", err)
		}
		v = scope.VariableWithValue(name, val)
		scope.SetParam(layoutKeyPrefix+name, int(layout))
		scope.SetParam(dimsKeyPrefix+name, append([]int(nil), dims...))
	}
	scope.SetParam(initKeyPrefix+name, string(init))
	x := v.NodeValue(g)
	if run >= 0 && NumRuns(store) > 1 {
		return Reshape(Slice(x, AxisElem(run)), dims...)
	}
	return x
}

// StackPaths returns the paths of the weights a RunsParamStack variable
// stands for, in order (nil for other variables).
func StackPaths(store *model.Store, v *model.Variable) []string {
	if x, ok := store.GetParam(model.JoinPath(v.Scope(), stackKeyPrefix+v.Name())); ok {
		if p, ok := x.([]string); ok {
			return p
		}
	}
	return nil
}

// SplitStack returns, for value the flat values of a RunsParamStack
// variable v holding runs runs, the values of each weight it stands for
// under its own path, in that weight's own layout (RunsTransposed): what
// the weights created one by one would hold. For other variables it
// returns value under v's path.
func SplitStack[T any](store *model.Store, v *model.Variable, value []T) map[string][]T {
	paths := StackPaths(store, v)
	if paths == nil {
		return map[string][]T{v.Path(): value}
	}
	r, count := NumRuns(store), len(paths)
	m := len(value) / (r * count) // one run's weight
	out := make(map[string][]T, count)
	for l, p := range paths {
		w := make([]T, 0, r*m)
		for k := range r {
			at := (k*count + l) * m
			w = append(w, value[at:at+m]...)
		}
		out[p] = w
	}
	return out
}

// SetRunValue sets the value of the weight at name in scope to x for the
// run being built (inside EachRun; outside it x is every run's value): the
// update of a non-trainable weight such as a running statistic.
func SetRunValue(scope *model.Scope, g *Graph, name string, x *Node) {
	v := scope.GetVariable(name)
	store := scope.Store()
	run, r := runIndex(store), NumRuns(store)
	if run < 0 || r == 1 {
		v.SetNodeValue(x)
		return
	}
	all := v.NodeValue(g)
	parts := make([]*Node, 0, 3)
	if run > 0 {
		parts = append(parts, Slice(all, AxisRange(0, run)))
	}
	parts = append(parts, ExpandAxes(x, 0))
	if run < r-1 {
		parts = append(parts, Slice(all, AxisRange(run+1, r)))
	}
	v.SetNodeValue(Concatenate(parts, 0))
}

// paramValue is a weight's initial value for the runs' seeds: each run's
// draws (as Param draws them for one run), laid out. One path: the
// weight's own; several (a RunsParamStack variable): each run's values are
// the draws of each path in turn, as many values each. lookup resolves
// "fanin" specs per run (nil when none is needed).
func paramValue(seeds []int64, paths []string, dtype dtypes.DType, init Init, lookup func(run int, key string) (int, bool),
	layout Layout, dims []int) (*tensors.Tensor, error) {
	n := 1
	for _, d := range dims {
		n *= d
	}
	r := len(seeds)
	out := make([]float64, r*n)
	for k, seed := range seeds {
		meta := func(key string) (int, bool) {
			if lookup == nil {
				return 0, false
			}
			return lookup(k, key)
		}
		b, err := init.bound(meta)
		if err != nil {
			return nil, fmt.Errorf("nn: initial values of %s: %w", paths[0], err)
		}
		var vals []float64
		for _, p := range paths {
			vals = append(vals, drawUniform(seed, p, b, n/len(paths))...)
		}
		if r == 1 {
			out = vals
			break
		}
		for i, x := range vals {
			out[layoutIndex(layout, dims, r, k, i)] = x
		}
	}
	return floatTensorOf(dtype, out, layoutDims(layout, dims, r))
}

// layoutIndex is the flat position in a variable of layout l for runs runs
// of run k's i-th value (flat, row-major in the run's own dims).
func layoutIndex(l Layout, dims []int, runs, k, i int) int {
	n := 1
	for _, d := range dims {
		n *= d
	}
	switch {
	case l == StackTransposed:
		in, out := dims[1], dims[2]
		m := in * out
		row, col := i%m/out, i%out
		return k*n + i/m*m + col*in + row
	case l == RunsTransposed && len(dims) > 1:
		in := dims[0]
		cols := n / in
		row, col := i/cols, i%cols
		return k*n + col*in + row
	case l != FusedCols || len(dims) == 1:
		return k*n + i
	}
	d1 := dims[len(dims)-1]
	row, col := i/d1, i%d1
	return row*runs*d1 + k*d1 + col
}

// layoutDims are the dims of a variable of layout l holding runs runs of a
// weight of dims (dims itself for one run).
func layoutDims(l Layout, dims []int, runs int) []int {
	if runs == 1 {
		return dims
	}
	switch {
	case l == StackTransposed:
		return []int{runs, dims[0], dims[2], dims[1]}
	case l == RunsTransposed && len(dims) > 1:
		n := 1
		for _, d := range dims {
			n *= d
		}
		return []int{runs, n / dims[0], dims[0]}
	case l == FusedCols:
		d := append([]int(nil), dims...)
		d[len(d)-1] *= runs
		return d
	}
	return append([]int{runs}, dims...)
}

// RunWeight returns run k's value of the weight v (a tensor of the run's
// own dims, as the weight of a run trained alone) from value, a value of
// v, which holds NumRuns runs; with one run it is value itself.
func RunWeight(store *model.Store, v *model.Variable, value *tensors.Tensor, k int) (*tensors.Tensor, error) {
	r := NumRuns(store)
	if r == 1 {
		return value, nil
	}
	flat, err := tensors.CopyFlatData[float32](value)
	if err != nil {
		return nil, fmt.Errorf("nn: run %d of %s: %w", k, v.Path(), err)
	}
	l, dims := variableLayout(store, v)
	n := 1
	for _, d := range dims {
		n *= d
	}
	out := make([]float32, n)
	for i := range out {
		out[i] = flat[layoutIndex(l, dims, r, k, i)]
	}
	return tensors.FromFlatDataAndDimensions(out, dims...), nil
}

// variableLayout returns a weight's layout and one run's dims.
func variableLayout(store *model.Store, v *model.Variable) (Layout, []int) {
	l := RunsFirst
	if x, ok := store.GetParam(model.JoinPath(v.Scope(), layoutKeyPrefix+v.Name())); ok {
		if i, ok := x.(int); ok {
			l = Layout(i)
		}
	}
	if x, ok := store.GetParam(model.JoinPath(v.Scope(), dimsKeyPrefix+v.Name())); ok {
		if d, ok := x.([]int); ok {
			return l, d
		}
	}
	return l, v.Shape().Dimensions
}

// floatTensorOf converts float64 values to a tensor of dtype.
func floatTensorOf(dtype dtypes.DType, vals []float64, dims []int) (*tensors.Tensor, error) {
	switch dtype {
	case dtypes.Float64:
		return tensors.FromFlatDataAndDimensions(vals, dims...), nil
	case dtypes.Float32:
		f := make([]float32, len(vals))
		for i, v := range vals {
			f[i] = float32(v)
		}
		return tensors.FromFlatDataAndDimensions(f, dims...), nil
	}
	return nil, fmt.Errorf("nn: unsupported parameter dtype %s", dtype)
}

// EachRunNode is EachRun for a function of one output.
func EachRunNode(scope *model.Scope, in *Nodes, fn func(scope *model.Scope, in *Nodes) *Node) *Node {
	return EachRun(scope, in, func(scope *model.Scope, in *Nodes) []*Node { return []*Node{fn(scope, in)} })[0]
}

// EachRunPair is EachRun for a function of two outputs.
func EachRunPair(scope *model.Scope, in *Nodes, fn func(scope *model.Scope, in *Nodes) (a, b *Node)) (a, b *Node) {
	outs := EachRun(scope, in, func(scope *model.Scope, in *Nodes) []*Node {
		a, b := fn(scope, in)
		return []*Node{a, b}
	})
	return outs[0], outs[1]
}

// ParamValue returns the value of the weight name that Param created in
// scope: every run's, or the run's own inside EachRun. It panics (graph
// building) when there is none.
func ParamValue(scope *model.Scope, g *Graph, name string) *Node {
	v := scope.GetVariable(name)
	if v == nil {
		panicf("nn: no weight %q under %q", name, scope.Scope())
	}
	x := v.NodeValue(g)
	store := scope.Store()
	if run := runIndex(store); run >= 0 && NumRuns(store) > 1 {
		_, dims := variableLayout(store, v)
		return Reshape(Slice(x, AxisElem(run)), dims...)
	}
	return x
}

// RunsBroadcast broadcasts x [R], one value per run, to the shape of the
// weight v as its layout holds the runs (a scalar for one run): for
// per-run choices on whole weights, such as keeping a run's best weights.
func RunsBroadcast(store *model.Store, v *model.Variable, x *Node) *Node {
	r := NumRuns(store)
	if r == 1 {
		return Reshape(x)
	}
	l, dims := variableLayout(store, v)
	shape := v.Shape().Dimensions
	if l == FusedCols {
		last := dims[len(dims)-1]
		lead := make([]int, len(shape)-1)
		for i := range lead {
			lead[i] = 1
		}
		b := Reshape(x, append(lead, r, 1)...)
		return Reshape(BroadcastToDims(b, append(shape[:len(shape)-1:len(shape)-1], r, last)...), shape...)
	}
	ones := make([]int, len(shape))
	for i := range ones {
		ones[i] = 1
	}
	ones[0] = r
	return BroadcastToDims(Reshape(x, ones...), shape...)
}

// ConcatRuns concatenates each run's node matrices: xs [N, R·w_i] give
// [N, R·Σw_i], run r's block being the concatenation of its blocks of xs
// (Concatenate(xs, -1) for one run).
func ConcatRuns(scope *model.Scope, xs []*Node) *Node {
	r := Runs(scope)
	if r == 1 {
		return Concatenate(xs, -1)
	}
	n := xs[0].Shape().Dimensions[0]
	parts := make([]*Node, len(xs))
	width := 0
	for i, x := range xs {
		w := x.Shape().Dimensions[1] / r
		parts[i] = Reshape(x, n, r, w)
		width += w
	}
	return Reshape(Concatenate(parts, -1), n, r*width)
}
