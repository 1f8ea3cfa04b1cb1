package zoo

import (
	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/support/exceptions"

	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

// gatedAdam is torch.optim.Adam (train.Adam's update, coupled L2 weight
// decay) over parameter groups, with a boolean gate: where the gate is
// false, weights, moments and step counts keep their values, as if the step
// had not been taken. It lets one compiled epoch graph hold two training
// phases (BM-GCN: pre-training the MLP, then the joint model), each with its
// own fresh optimizer state as in the official code.
//
// Its state lives in the store under train.StateScope/<name>/..., which the
// trainer's Optimizer.Reset zeroes before every run.
type gatedAdam struct {
	name   string
	groups []gatedAdamGroup
}

type gatedAdamGroup struct {
	name  string
	adam  train.Adam
	match func(v *model.Variable) bool
}

// stateScope is the scope of the optimizer's state.
func (o gatedAdam) stateScope(store *model.Store, parts ...string) *model.Scope {
	return store.Scope(model.JoinPath(append([]string{train.StateScope, o.name}, parts...)...))
}

// step builds one gated Adam step on loss (scalar) for the model weights
// (nn.Param variables) that g uses and a group matches (first match wins).
func (o gatedAdam) step(scope *model.Scope, g *Graph, loss, gate *Node) {
	store := scope.Store()
	type item struct {
		v     *model.Variable
		group int
	}
	var items []item
	for v := range store.IterVariables() {
		if !v.Trainable || !nn.IsParam(store, v) || !v.InUseByGraph(g) {
			continue
		}
		for i, gr := range o.groups {
			if gr.match(v) {
				items = append(items, item{v, i})
				break
			}
		}
	}
	if len(items) == 0 {
		exceptions.Panicf("zoo: gated Adam %q has no variables in this graph", o.name)
	}
	nodes := make([]*Node, len(items))
	for i, it := range items {
		nodes[i] = it.v.NodeValue(g)
	}
	grads := Gradient(loss, nodes...)
	type groupNodes struct{ stepSize, sqrtBC2 *Node }
	gn := make([]groupNodes, len(o.groups))
	for i, gr := range o.groups {
		stepVar := o.stateScope(store, gr.name).VariableWithValue("step", float64(0)).SetTrainable(false)
		t := stepVar.NodeValue(g)
		t = Where(gate, AddScalar(t, 1), t)
		stepVar.SetNodeValue(t)
		tc := Max(t, OnesLike(t)) // the bias corrections are only used where the gate is true (t >= 1)
		bc1 := OneMinus(Pow(Scalar(g, dtypes.Float64, gr.adam.Beta1), tc))
		bc2 := OneMinus(Pow(Scalar(g, dtypes.Float64, gr.adam.Beta2), tc))
		gn[i] = groupNodes{stepSize: Div(Scalar(g, dtypes.Float64, gr.adam.LR), bc1), sqrtBC2: Sqrt(bc2)}
	}
	for k, it := range items {
		a := o.groups[it.group].adam
		p := nodes[k]
		dt := p.DType()
		grad := grads[k]
		if a.WeightDecay != 0 {
			grad = Add(grad, MulScalar(p, a.WeightDecay))
		}
		ms := o.stateScope(store, o.groups[it.group].name, it.v.Scope())
		mVar := ms.VariableWithValue(it.v.Name()+"_m", tensors.FromShape(p.Shape())).SetTrainable(false)
		vVar := ms.VariableWithValue(it.v.Name()+"_v", tensors.FromShape(p.Shape())).SetTrainable(false)
		m0, v0 := mVar.NodeValue(g), vVar.NodeValue(g)
		m := Add(m0, MulScalar(Sub(grad, m0), 1-a.Beta1))
		v := Add(MulScalar(v0, a.Beta2), MulScalar(Mul(grad, grad), 1-a.Beta2))
		denom := AddScalar(Div(Sqrt(v), ConvertDType(gn[it.group].sqrtBC2, dt)), a.Eps)
		pNew := Sub(p, Mul(ConvertDType(gn[it.group].stepSize, dt), Div(m, denom)))
		mVar.SetNodeValue(Where(gate, m, m0))
		vVar.SetNodeValue(Where(gate, v, v0))
		it.v.SetNodeValue(Where(gate, pNew, p))
	}
}
