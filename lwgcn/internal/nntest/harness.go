package nntest

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/nn"
)

// Backend returns the shared backend of the tests.
func Backend(t testing.TB) compute.Backend {
	t.Helper()
	b, _, err := backend.Shared()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Harness runs a layer-building function on fixed inputs, returning its
// output and the gradients of Σ out ⊙ r with respect to every variable.
type Harness struct {
	t  *testing.T
	be compute.Backend
	// Store holds the variables (tests set their values directly).
	Store *model.Store
	in    *nn.Inputs
	// Fn is the layer-building function.
	Fn   func(scope *model.Scope, n *nn.Nodes) *Node
	fwd  *model.Exec
	grad *model.Exec
	vars []*model.Variable
}

// NewHarness returns a Harness running fn on in, variables seeded with seed.
func NewHarness(t *testing.T, in *nn.Inputs, seed int64, fn func(scope *model.Scope, n *nn.Nodes) *Node) *Harness {
	return NewHarnessOn(t, Backend(t), in, seed, fn)
}

// NewHarnessOn is NewHarness on backend be.
func NewHarnessOn(t *testing.T, be compute.Backend, in *nn.Inputs, seed int64, fn func(scope *model.Scope, n *nn.Nodes) *Node) *Harness {
	h := &Harness{t: t, be: be, Store: model.NewStore(), in: in, Fn: fn}
	nn.SetSeed(h.Store, seed)
	var err error
	h.fwd, err = model.NewExec(h.be, h.Store, func(scope *model.Scope, g *Graph, params []*Node) []*Node {
		nn.UseVariableParameters(scope, g)
		return []*Node{fn(scope, in.Nodes(params))}
	})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// Forward runs fn and returns its output and dimensions.
func (h *Harness) Forward() ([]float64, []int) {
	out, err := h.fwd.Call(h.in.Tensors()...)
	if err != nil {
		h.t.Fatal(err)
	}
	defer out[0].FinalizeAll()
	return Float64s(out[0]), out[0].Shape().Dimensions
}

// Float64s copies a float32 or float64 tensor into float64s.
func Float64s(t *tensors.Tensor) []float64 {
	switch t.DType() {
	case dtypes.Float64:
		return tensors.MustCopyFlatData[float64](t)
	case dtypes.Float32:
		f := tensors.MustCopyFlatData[float32](t)
		d := make([]float64, len(f))
		for i, v := range f {
			d[i] = float64(v)
		}
		return d
	}
	panic("unsupported dtype " + t.DType().String())
}

// Gradients returns d(Σ out·r)/dv for every trainable variable, keyed by path.
func (h *Harness) Gradients(r []float64, dims []int) map[string][]float64 {
	if h.grad == nil {
		var err error
		h.grad, err = model.NewExec(h.be, h.Store, func(scope *model.Scope, g *Graph, params []*Node) []*Node {
			nn.UseVariableParameters(scope, g)
			nodes := h.in.Nodes(params[:len(params)-1])
			out := h.Fn(scope, nodes)
			loss := ReduceAllSum(Mul(out, ConvertDType(params[len(params)-1], out.DType())))
			h.vars = nil
			var vs []*Node
			for v := range h.Store.IterVariables() {
				if v.Trainable && v.InUseByGraph(g) {
					h.vars = append(h.vars, v)
					vs = append(vs, v.NodeValue(g))
				}
			}
			return Gradient(loss, vs...)
		})
		if err != nil {
			h.t.Fatal(err)
		}
	}
	args := append(h.in.Tensors(), tensors.FromFlatDataAndDimensions(r, dims...))
	outs, err := h.grad.Call(args...)
	if err != nil {
		h.t.Fatal(err)
	}
	res := map[string][]float64{}
	for i, v := range h.vars {
		res[v.Path()] = Float64s(outs[i])
		outs[i].FinalizeAll()
	}
	return res
}

// Unstacked returns m (values keyed by variable path) with each
// nn.RunsParamStack variable's values split into the weights it stands
// for, under their paths (nn.SplitStack).
func (h *Harness) Unstacked(m map[string][]float64) map[string][]float64 {
	out := map[string][]float64{}
	for v := range h.Store.IterVariables() {
		if x, ok := m[v.Path()]; ok {
			for p, w := range nn.SplitStack(h.Store, v, x) {
				out[p] = w
			}
		}
	}
	return out
}

// Weights returns the values of every trainable variable, keyed by path.
func (h *Harness) Weights() map[string][]float64 {
	out := map[string][]float64{}
	for v := range h.Store.IterVariables() {
		if v.Trainable {
			out[v.Path()] = Float64s(v.MustValue())
		}
	}
	return out
}

// CheckGradients compares the analytic gradients with central finite
// differences on every entry of every variable (float64 models).
func (h *Harness) CheckGradients(rng *rand.Rand, tol float64) {
	t := h.t
	out, dims := h.Forward()
	r := make([]float64, len(out))
	for i := range r {
		r[i] = rng.NormFloat64()
	}
	loss := func() float64 {
		o, _ := h.Forward()
		s := 0.0
		for i := range o {
			s += o[i] * r[i]
		}
		return s
	}
	grads := h.Gradients(r, dims)
	if len(grads) == 0 {
		t.Fatal("no trainable variables")
	}
	const eps = 1e-6
	for _, v := range h.vars {
		value := v.MustValue()
		orig := tensors.MustCopyFlatData[float64](value)
		g := grads[v.Path()]
		for i := range orig {
			p := append([]float64(nil), orig...)
			p[i] += eps
			v.MustSetValue(tensors.FromFlatDataAndDimensions(p, v.Shape().Dimensions...))
			lp := loss()
			p[i] -= 2 * eps
			v.MustSetValue(tensors.FromFlatDataAndDimensions(p, v.Shape().Dimensions...))
			lm := loss()
			num := (lp - lm) / (2 * eps)
			if math.Abs(num-g[i]) > tol*(1+math.Abs(num)) {
				t.Errorf("%s[%d]: analytic gradient %.8g, numeric %.8g", v.Path(), i, g[i], num)
			}
		}
		v.MustSetValue(tensors.FromFlatDataAndDimensions(orig, v.Shape().Dimensions...))
	}
}

// VarValues returns a variable's values (float64 models).
func (h *Harness) VarValues(path string) []float64 {
	v := h.Store.GetVariable(path)
	if v == nil {
		h.t.Fatalf("variable %s not found", path)
	}
	return Float64s(v.MustValue())
}

// AssertClose fails t unless got ≈ want (relative tolerance tol).
func AssertClose(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: got %d values, want %d", what, len(got), len(want))
	}
	for i := range got {
		if math.Abs(got[i]-want[i]) > tol*(1+math.Abs(want[i])) {
			t.Fatalf("%s[%d] = %.8g, want %.8g", what, i, got[i], want[i])
		}
	}
}

// Float64Tensor returns a float64 tensor holding a copy of x.
func Float64Tensor(x []float64, dims ...int) *tensors.Tensor {
	return tensors.FromFlatDataAndDimensions(append([]float64(nil), x...), dims...)
}
