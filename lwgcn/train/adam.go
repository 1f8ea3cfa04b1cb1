package train

import (
	"fmt"
	"strings"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/support/exceptions"

	"github.com/lwgcn/toolkit/lwgcn/nn"
)

// PyTorch's Adam defaults.
const (
	DefaultBeta1 = 0.9
	DefaultBeta2 = 0.999
	DefaultEps   = 1e-8
)

// Adam holds torch.optim.Adam's hyperparameters (amsgrad, maximize and
// decoupled weight decay off). One step on parameter p with gradient g is
//
//	g  = g + WeightDecay·p                  (coupled L2, added before the moments)
//	m  = m + (1 - Beta1)(g - m)             (m.lerp_(g, 1 - Beta1))
//	v  = Beta2·v + (1 - Beta2)·g²
//	p  = p - (LR / (1 - Beta1^t)) · m / (sqrt(v) / sqrt(1 - Beta2^t) + Eps)
//
// with t the step count (from 1). GoMLX's own optimizer.Adam decays weights
// the decoupled (AdamW) way, hence this implementation.
//
// The graph computes the same step (up to rounding) with fewer passes over
// the weights, each elementwise op being one pass in GoMLX's Go backend:
//
//	a = (1-Beta1)·g
//	m = Beta1·m + a,   v = Beta2·v + k·a²,   k = (1-Beta2)/(1-Beta1)²
//	p = p - s · m / (sqrt(v) + e),   s = LR·sqrt(bc2)/bc1,   e = Eps·sqrt(bc2)
//
// with bc1 = 1 - Beta1^t, bc2 = 1 - Beta2^t: 11 passes per weight, 13 with
// weight decay, where the form above takes 15. The moments m and v (store
// variables "<name>_m", "<name>_v") are PyTorch's exp_avg and exp_avg_sq.
// A group configured without weight decay gets no decay term at all (see
// Optimizer.Reset).
type Adam struct {
	LR, WeightDecay   float64
	Beta1, Beta2, Eps float64
}

// NewAdam returns Adam with PyTorch's default betas and epsilon.
func NewAdam(lr, weightDecay float64) Adam {
	return Adam{LR: lr, WeightDecay: weightDecay, Beta1: DefaultBeta1, Beta2: DefaultBeta2, Eps: DefaultEps}
}

// Group is a set of trainable variables with their own Adam settings
// (PyTorch's parameter groups).
type Group struct {
	// Name identifies the group in Step and in the optimizer state's scope
	// ("/adam/<Name>/...").
	Name string
	Adam Adam
	// Match selects the group's variables; nil matches every model weight
	// (nn.Param variable) not claimed by an earlier group.
	Match func(v *model.Variable) bool
}

// ScopePrefix matches variables whose path starts with one of the prefixes
// (e.g. "/phi", "/model/conv").
func ScopePrefix(prefixes ...string) func(v *model.Variable) bool {
	return func(v *model.Variable) bool {
		for _, p := range prefixes {
			if strings.HasPrefix(v.Path(), p) {
				return true
			}
		}
		return false
	}
}

// StateScope is the root scope of the optimizer state variables.
const StateScope = "/adam"

// Optimizer is PyTorch Adam over parameter groups. Its state (moments,
// step counts, learning rates and weight decays) lives in the model store
// under StateScope, as non-trainable variables, so that changing the
// hyperparameters (Reset) does not recompile graphs.
type Optimizer struct {
	Groups []Group
	// noDecay marks the groups whose steps were built without weight decay
	// (configured as 0), saving two passes over every weight.
	noDecay map[int]bool
}

// NewOptimizer returns an optimizer with the given groups; with none, one
// group "all" with NewAdam(0.01, 0).
func NewOptimizer(groups ...Group) *Optimizer {
	if len(groups) == 0 {
		groups = []Group{{Name: "all", Adam: NewAdam(0.01, 0)}}
	}
	return &Optimizer{Groups: groups}
}

// groupOf returns the index of v's group, or -1.
func (o *Optimizer) groupOf(store *model.Store, v *model.Variable) int {
	if !v.Trainable || strings.HasPrefix(v.Path(), StateScope+"/") {
		return -1
	}
	for i, gr := range o.Groups {
		if gr.Match != nil {
			if gr.Match(v) {
				return i
			}
		} else if nn.IsParam(store, v) {
			return i
		}
	}
	return -1
}

func (o *Optimizer) group(name string) int {
	for i, g := range o.Groups {
		if g.Name == name {
			return i
		}
	}
	return -1
}

// Step builds, in g, one Adam step on loss for the named groups (all groups
// when none is named): the gradients of loss with respect to the groups'
// variables that g uses, then the updates of variables and state (via
// Variable.SetNodeValue, so that later uses in g see the new values). It can
// be called several times in one graph. It panics (graph building) on an
// unknown group or a non-scalar loss.
func (o *Optimizer) Step(scope *model.Scope, g *Graph, loss *Node, groups ...string) {
	o.StepWhen(scope, g, loss, nil, groups...)
}

// StepWhen is Step whose updates (variables, moments and step counts) are
// kept only where when, a boolean scalar, is true: elsewhere every
// variable keeps its value, bit for bit (a LaggedEpoch's end at a call
// with no epoch pending). A nil when is Step.
func (o *Optimizer) StepWhen(scope *model.Scope, g *Graph, loss, when *Node, groups ...string) {
	set := func(v *model.Variable, old, updated *Node) {
		if when != nil {
			updated = Where(when, updated, old)
		}
		v.SetNodeValue(updated)
	}
	if !loss.Shape().IsScalar() {
		exceptions.Panicf("train: Adam needs a scalar loss, got %s", loss.Shape())
	}
	store := scope.Store()
	sel := o.selected(groups)
	vars, groupIdx := o.variables(store, g, sel)
	if len(vars) == 0 {
		exceptions.Panicf("train: optimizer groups %v have no variables in this graph", groups)
	}
	nodes := make([]*Node, len(vars))
	for i, v := range vars {
		nodes[i] = v.NodeValue(g)
	}
	grads := Gradient(loss, nodes...)
	gn := o.stepScalars(store, g, sel, set)
	for k, v := range vars {
		i := groupIdx[k]
		a := o.Groups[i].Adam
		p := nodes[k]
		dt := p.DType()
		grad := grads[k]
		if gn[i].decay {
			grad = Add(grad, Mul(p, ConvertDType(gn[i].wd, dt)))
		}
		mVar, vVar := o.momentVars(store, i, v)
		m0, v0 := mVar.NodeValue(g), vVar.NodeValue(g)
		ag := MulScalar(grad, 1-a.Beta1)
		m := Add(MulScalar(m0, a.Beta1), ag)
		vv := Add(MulScalar(v0, a.Beta2), MulScalar(Square(ag), (1-a.Beta2)/((1-a.Beta1)*(1-a.Beta1))))
		set(mVar, m0, m)
		set(vVar, v0, vv)
		upd := Div(m, Add(Sqrt(vv), ConvertDType(gn[i].eps, dt)))
		set(v, p, Sub(p, Mul(upd, ConvertDType(gn[i].stepSize, dt))))
	}
}

// selected marks the named groups (every group when none is named).
func (o *Optimizer) selected(groups []string) []bool {
	sel := make([]bool, len(o.Groups))
	if len(groups) == 0 {
		for i := range sel {
			sel[i] = true
		}
	}
	for _, name := range groups {
		i := o.group(name)
		if i < 0 {
			exceptions.Panicf("train: unknown optimizer group %q", name)
		}
		sel[i] = true
	}
	return sel
}

// variables are the variables of the selected groups that g uses, with
// their groups.
func (o *Optimizer) variables(store *model.Store, g *Graph, sel []bool) (vars []*model.Variable, groupIdx []int) {
	for v := range store.IterVariables() {
		if !v.InUseByGraph(g) {
			continue
		}
		if i := o.groupOf(store, v); i >= 0 && sel[i] {
			vars, groupIdx = append(vars, v), append(groupIdx, i)
		}
	}
	return vars, groupIdx
}

// groupScalars are a group's step counter's folded scalars of the update
// (see Adam), as float64 scalars.
type groupScalars struct {
	stepSize, eps, wd *Node
	decay             bool
}

// stepScalars advances the selected groups' step counters (through set)
// and returns their scalars.
func (o *Optimizer) stepScalars(store *model.Store, g *Graph, sel []bool, set func(v *model.Variable, old, updated *Node)) map[int]groupScalars {
	gn := map[int]groupScalars{}
	for i := range o.Groups {
		if !sel[i] {
			continue
		}
		gs := o.stateScope(store, i)
		stepVar := scalarVar(gs, "step", 0)
		step0 := stepVar.NodeValue(g)
		step := AddScalar(step0, 1)
		set(stepVar, step0, step)
		a := o.Groups[i].Adam
		if a.WeightDecay == 0 {
			// Built without the decay term: Reset refuses a non-zero decay.
			if o.noDecay == nil {
				o.noDecay = map[int]bool{}
			}
			o.noDecay[i] = true
		}
		lr := scalarVar(gs, "lr", a.LR).NodeValue(g)
		wd := scalarVar(gs, "weight_decay", a.WeightDecay).NodeValue(g)
		bc1 := OneMinus(Pow(Scalar(g, dtypes.Float64, a.Beta1), step))
		sqrtBC2 := Sqrt(OneMinus(Pow(Scalar(g, dtypes.Float64, a.Beta2), step)))
		// p -= lr/bc1 · m / (sqrt(v)/sqrt(bc2) + eps) is
		// p -= stepSize · m / (sqrt(v) + eps·sqrt(bc2)):
		stepSize := Div(Mul(lr, sqrtBC2), bc1)
		eps := MulScalar(sqrtBC2, a.Eps)
		gn[i] = groupScalars{stepSize: stepSize, eps: eps, wd: wd, decay: a.WeightDecay != 0}
	}
	return gn
}

func (o *Optimizer) stateScope(store *model.Store, group int) *model.Scope {
	return store.Scope(model.JoinPath(StateScope, o.Groups[group].Name))
}

func scalarVar(scope *model.Scope, name string, value float64) *model.Variable {
	return scope.VariableWithValue(name, value).SetTrainable(false)
}

func (o *Optimizer) momentVars(store *model.Store, group int, v *model.Variable) (m, vv *model.Variable) {
	scope := store.Scope(model.JoinPath(StateScope, o.Groups[group].Name, v.Scope()))
	zeros := func() *tensors.Tensor { return tensors.FromShape(v.Shape()) }
	m = scope.VariableWithValue(v.Name()+"_m", zeros()).SetTrainable(false)
	vv = scope.VariableWithValue(v.Name()+"_v", zeros()).SetTrainable(false)
	return
}

// Reset zeroes the optimizer state (moments and step counts) and writes the
// groups' current learning rates and weight decays into the store, for a
// fresh run with the same compiled graphs. It fails for a group that a
// compiled step built without weight decay (configured as 0 then) when the
// group's weight decay is now non-zero.
func (o *Optimizer) Reset(store *model.Store) error {
	for i, gr := range o.Groups {
		if o.noDecay[i] && gr.Adam.WeightDecay != 0 {
			return fmt.Errorf("train: optimizer group %q was compiled without weight decay; "+
				"weight decay %v needs a new trainer", gr.Name, gr.Adam.WeightDecay)
		}
	}
	for v := range store.IterVariables() {
		path := v.Path()
		if !strings.HasPrefix(path, StateScope+"/") {
			continue
		}
		var value *tensors.Tensor
		switch v.Name() {
		case "lr", "weight_decay":
			rest := strings.TrimPrefix(path, StateScope+"/")
			name, _, _ := strings.Cut(rest, "/")
			i := o.group(name)
			if i < 0 || strings.Count(rest, "/") != 1 {
				value = tensors.FromShape(v.Shape())
				break
			}
			x := o.Groups[i].Adam.LR
			if v.Name() == "weight_decay" {
				x = o.Groups[i].Adam.WeightDecay
			}
			value = tensors.FromScalar(x)
		default:
			value = tensors.FromShape(v.Shape())
		}
		if err := v.SetValue(value); err != nil {
			return fmt.Errorf("train: resetting %s: %w", path, err)
		}
	}
	return nil
}
