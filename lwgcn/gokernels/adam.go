package gokernels

import (
	"math"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	gb "github.com/gomlx/compute/gobackend"
)

func init() {
	gb.SetNodeExecutor(compute.OpTypeAdd, gb.PriorityUser, execAdam)
	gb.SetNodeExecutor(compute.OpTypeSub, gb.PriorityUser, execAdam)
}

// adamKind is which of train.Optimizer's three updates a node computes.
type adamKind int

const (
	adamMoment1 adamKind = iota // m' = m·β1 + g'·c1
	adamMoment2                 // v' = v·β2 + (g'·c1)²·c2
	adamParam                   // p' = p − m'/(√v' + ε)·s
)

// adamData is the Data of an Add or Sub node rewritten by fuseAdam: one of
// train.Optimizer's updates of a float32 parameter in one pass (the
// backend runs each of its 4 to 6 operations as a pass of its own). g' is
// the gradient, plus p·wd with weight decay. Inputs: the state (m or v, or
// p, m', v'), then for the moments the gradient, [p, wd], and the scalars
// in the order of the formula. Each value takes the unfused graph's
// operations in its order.
type adamData struct {
	kind  adamKind
	decay bool
}

// fuseAdam rewrites the updates of train.Optimizer.Step (see adamData):
// its gradient terms g'·c1 (used by both moments) are recomputed in each,
// so that they are never written.
func fuseAdam(b *gb.Builder) { rewrite(b, &fusedAdam, matchAdam) }

// sameF32 reports whether n is a float32 value of ref's shape.
func sameF32(n *gb.Node, ref *gb.Node) bool {
	return n.Shape.DType == dtypes.Float32 && n.Shape.Equal(ref.Shape)
}

// scalarNode reports whether n is a float32 scalar (any node: a constant or
// a value computed at run time).
func scalarNode(n *gb.Node) bool { return n.Shape.DType == dtypes.Float32 && n.Shape.Size() == 1 }

// mulOf splits Mul(a, b) into its full-size operand and its scalar one.
func mulOf(n *gb.Node) (x, c *gb.Node, ok bool) {
	if n.OpType != compute.OpTypeMul || len(n.Inputs) != 2 {
		return nil, nil, false
	}
	a, b := n.Inputs[0], n.Inputs[1]
	switch {
	case sameF32(a, n) && scalarNode(b):
		return a, b, true
	case sameF32(b, n) && scalarNode(a):
		return b, a, true
	}
	return nil, nil, false
}

// gradTerm matches g'·c1 with g' = grad or Add(grad, Mul(p, wd)) and
// returns grad, p, wd (nil without decay) and c1.
func gradTerm(n *gb.Node) (grad, p, wd, c1 *gb.Node, ok bool) {
	g, c1, ok := mulOf(n)
	if !ok {
		return
	}
	grad = g
	if g.OpType == compute.OpTypeAdd && len(g.Inputs) == 2 {
		for i := range 2 {
			if x, w, ok := mulOf(g.Inputs[1-i]); ok && sameF32(g.Inputs[i], g) {
				return g.Inputs[i], x, w, c1, true
			}
		}
	}
	return grad, nil, nil, c1, true
}

func matchAdam(n *gb.Node, u map[*gb.Node]int) (*adamData, []*gb.Node, bool) {
	if len(n.Inputs) != 2 || n.Shape.DType != dtypes.Float32 || n.Shape.Size() < 2 || !sameF32(n.Inputs[0], n) || !sameF32(n.Inputs[1], n) {
		return nil, nil, false
	}
	switch n.OpType {
	case compute.OpTypeSub: // p − Mul(Div(m', Add(Sqrt(v'), ε)), s)
		p, t := n.Inputs[0], n.Inputs[1]
		q, s, ok := mulOf(t)
		if !ok || u[t] != 1 || q.OpType != compute.OpTypeDiv || u[q] != 1 || !sameF32(q.Inputs[0], n) {
			return nil, nil, false
		}
		m, den := q.Inputs[0], q.Inputs[1]
		if den.OpType != compute.OpTypeAdd || u[den] != 1 || !sameF32(den, n) {
			return nil, nil, false
		}
		sq, eps := den.Inputs[0], den.Inputs[1]
		if !scalarNode(eps) {
			sq, eps = eps, sq
		}
		if !scalarNode(eps) || sq.OpType != compute.OpTypeSqrt || u[sq] != 1 || !sameF32(sq.Inputs[0], n) {
			return nil, nil, false
		}
		return &adamData{kind: adamParam}, []*gb.Node{p, m, sq.Inputs[0], eps, s}, true
	case compute.OpTypeAdd: // a moment: Mul(state, β) + term
		for i := range 2 {
			state, beta, ok := mulOf(n.Inputs[i])
			if !ok || u[n.Inputs[i]] != 1 {
				continue
			}
			term := n.Inputs[1-i]
			// m': term = g'·c1.
			if grad, p, wd, c1, ok := gradTerm(term); ok {
				return adamInputs(adamMoment1, state, beta, grad, p, wd, c1, nil)
			}
			// v': term = Mul(Mul(a, a), c2) with a = g'·c1.
			sqr, c2, ok := mulOf(term)
			if !ok || u[term] != 1 || sqr.OpType != compute.OpTypeMul || u[sqr] != 1 || sqr.Inputs[0] != sqr.Inputs[1] {
				continue
			}
			if grad, p, wd, c1, ok := gradTerm(sqr.Inputs[0]); ok {
				return adamInputs(adamMoment2, state, beta, grad, p, wd, c1, c2)
			}
		}
	}
	return nil, nil, false
}

// adamInputs lays out a moment's inputs: state, β, grad, c1, [c2], [p, wd].
func adamInputs(kind adamKind, state, beta, grad, p, wd, c1, c2 *gb.Node) (*adamData, []*gb.Node, bool) {
	d := &adamData{kind: kind, decay: p != nil}
	in := []*gb.Node{state, beta, grad, c1}
	if c2 != nil {
		in = append(in, c2)
	}
	if p != nil {
		in = append(in, p, wd)
	}
	return d, in, true
}

// execAdam executes the nodes rewritten by fuseAdam.
func execAdam(backend *gb.Backend, node *gb.Node, inputs []*gb.Buffer, _ []bool) (*gb.Buffer, error) {
	d, ok := node.Data.(*adamData)
	if !ok {
		return nil, gb.ErrFallback
	}
	out, err := backend.GetBuffer(node.Shape)
	if err != nil {
		return nil, err
	}
	o := out.Flat.([]float32)
	f := func(i int) []float32 { return inputs[i].Flat.([]float32) }
	c := func(i int) float32 { return inputs[i].Flat.([]float32)[0] }
	switch d.kind {
	case adamParam:
		adamParamF32(o, f(0), f(1), f(2), c(3), c(4))
	case adamMoment1, adamMoment2:
		state, beta, grad, c1 := f(0), c(1), f(2), c(3)
		var c2 float32
		next := 4
		if d.kind == adamMoment2 {
			c2, next = c(4), 5
		}
		var p []float32
		var wd float32
		if d.decay {
			p, wd = f(next), c(next+1)
		}
		adamMomentF32(o, state, grad, p, beta, c1, c2, wd, d.kind == adamMoment2)
	}
	return out, nil
}

// adamMomentGeneric is a moment's update value by value: g' = grad + p·wd
// (with decay), a = g'·c1; m' = state·β + a, or v' = state·β + (a·a)·c2.
// Each product and sum is rounded to float32, as separate ops round it.
func adamMomentGeneric(o, state, grad, p []float32, beta, c1, c2, wd float32, second bool) {
	for i := range o {
		g := grad[i]
		if p != nil {
			g = g + float32(p[i]*wd)
		}
		a := float32(g * c1)
		if second {
			a = float32(float32(a*a) * c2)
		}
		o[i] = float32(state[i]*beta) + a
	}
}

// adamParamGeneric is p' = p − (m/(√v + ε))·s value by value.
func adamParamGeneric(o, p, m, v []float32, eps, s float32) {
	for i := range o {
		den := float32(math.Sqrt(float64(v[i]))) + eps
		o[i] = p[i] - float32(float32(m[i]/den)*s)
	}
}
