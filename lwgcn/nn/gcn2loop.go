package nn

import (
	"fmt"
	"math"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/gobackend"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/buildinfo"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// GCN2LoopMinLayers: on backends other than pure Go, GCNII stacks of at
// least this many layers run as one While loop (GCN2ConvLoop) instead of
// one copy of the layer per layer: XLA compiles one layer forward and one
// backward. Cora's full LW-GCN epoch graph (64 layers) went from 1,616 to
// 611 ops and its XLA CPU compile from about 29 to 23 s, its epoch 6 %
// faster; GCNII alone compiles 15-20 % faster and runs about 7 % slower
// (within the host's spread; xla/README.md). 8 is not measured against
// other values: the 2-layer stacks of LW-GCN on WebKB and Wikipedia graphs
// stay unrolled.
var GCN2LoopMinLayers = 8

// UseGCN2Loop reports whether a GCNII stack of the given number of layers
// is built as GCN2ConvLoop on the backend named backendName
// (compute.Backend.String): not on pure Go (whose sorted-padded layers
// are its fastest form), from GCN2LoopMinLayers layers, unless
// buildinfo.EnvGCN2Loop turns it off for A/B runs (xla/gpu-check.sh's step
// 2b; an invalid value panics with the variable's name).
func UseGCN2Loop(backendName string, layers int) bool {
	on, err := buildinfo.GCN2LoopOn()
	if err != nil {
		panicf("nn: %v", err)
	}
	return on && backendName != gobackend.BackendName && layers >= GCN2LoopMinLayers
}

// GCN2ConvLoop is the layers of GCNII after its input layer, as one While
// loop:
//
//	h_l = ReLU(GCN2Conv(Dropout(h_{l-1}), h0; l))      l = 1..layers, h_0 = h0
//
// with the unrolled stack's weights ("conv<l>/weight", same initial values)
// held as one variable, "convs/weight" (RunsParamStack: one Adam update
// instead of one per layer, which were 131 of GCNII-64's 192 XLA kernels),
// and its dropout masks: each layer's is drawn in the loop body from the
// runs' random states, carried through the loop (one [N, H] draw per layer
// in the layers' order, the unrolled stack's stream: one draw of [layers, N,
// H] would be another), and kept for the backward loop.
// Drawn before the loop instead, XLA compiled one random-number expansion
// per layer. Shapes: h0, alphaH0 = alpha·h0 [N, H], adj Â N x N, result
// h_layers [N, H]; with R runs (nn.Runs) [N, R·H], each layer's weights [R, H, H]
// (held transposed, as GCN2Conv's) and each run's products batched.
//
// XLA has no gradient of a While loop, so the training pass writes its own:
// the forward loop keeps every layer's output ([layers+1, N, H] with h0),
// and a second loop runs the layers backwards, recomputing each layer's S
// from its kept input (one more sparse product per layer instead of keeping
// S too). Its gradients are those of the unrolled layers (tested equal,
// values and gradients: nntest.CompareGCN2Loop), attached through GoMLX's
// alternate gradient of fused ops as in the sparse products.
func GCN2ConvLoop(scope *model.Scope, h0, alphaH0 *Node, adj *sparse.SpMat, alpha, lambda float64, layers int, dropout float64, train bool) *Node {
	g, dt := h0.Graph(), h0.DType()
	r := Runs(scope)
	if layers < 1 || dropout < 0 || dropout >= 1 {
		panicf("nn: GCN2ConvLoop with %d layers and dropout %g: want at least 1 layer and 0 <= dropout < 1", layers, dropout)
	}
	n, width := h0.Shape().Dimensions[0], h0.Shape().Dimensions[1]
	hdim := width / r
	theta := make([]float64, layers)
	oneMinus := make([]float64, layers)
	for l := 1; l <= layers; l++ {
		theta[l-1] = math.Log(lambda/float64(l) + 1)
		oneMinus[l-1] = 1 - theta[l-1]
	}
	// [layers, H, H] or [layers, R, H, H]
	w := RunsParamStack(scope.In("convs"), g, "weight", dt, Uniform(1/math.Sqrt(float64(hdim))), layers,
		func(l int) *model.Scope { return scope.In("conv%d", l) }, hdim, hdim)
	lp := &gcn2Loop{layers: layers, n: n, width: width, hdim: hdim, runs: r, dt: dt, adj: gcn2Adjacency(adj, alpha, dt), productGrad: train}
	eye := identity(g, dt, hdim)
	if r > 1 {
		eye = ExpandAxes(eye, 0)
	}
	lp.fixed = []*Node{ConstAsDType(g, dt, theta), ConstAsDType(g, dt, oneMinus), eye}
	lp.fixed = append(lp.fixed, lp.adj.LoopOperands(dt)...)
	var states MaskStates
	if train && dropout > 0 {
		lp.dropout = dropout
		states = RunsMaskStates(scope)
		lp.states = states.Nodes(g)
	}
	// Evaluation passes too keep the outputs, so that they have the unrolled
	// layers' gradient (without the products') when one is asked for (the
	// parity suite's).
	var kept []*Node
	sizes := []int{n * width, n * width, w.Shape().Size()}
	packed := Concatenate([]*Node{Reshape(h0, -1), Reshape(alphaH0, -1), Reshape(w, -1)}, 0)
	outs, _ := InternalFusedOpCallerMulti(
		func() []*Node {
			var next []*Node
			kept, next = lp.forward(h0, alphaH0, w)
			if next != nil {
				states.Set(next)
			}
			return kept[:1]
		},
		func() []*Node {
			return []*Node{IdentityWithCustomGradient(packed, func(_, v *Node) *Node {
				gh0, gah0, gw := lp.backward(v, kept[1], kept[2], alphaH0, w)
				parts := []*Node{Reshape(gh0, sizes[0]), Reshape(gah0, sizes[1]), Reshape(gw, sizes[2])}
				return Concatenate(parts, 0)
			})}
		},
		true)
	return outs[0]
}

// gcn2Adjacency is GCN2Conv's Â with (1 - alpha) folded into its row
// scale.
func gcn2Adjacency(adj *sparse.SpMat, alpha float64, dt dtypes.DType) *sparse.SpMat {
	a := *adj
	if a.RowScale != nil {
		a.RowScale = MulScalar(ConvertDType(a.RowScale, dt), 1-alpha)
	} else {
		a.RowScale = Scalar(adj.Rows.Graph(), dt, 1-alpha)
	}
	return &a
}

// gcn2Loop holds what GCN2ConvLoop's loops share: the sizes (width =
// runs·hdim), the adjacency, the loops' constant operands (fixed: theta
// [layers], 1 - theta [layers], the identity [H, H] ([1, H, H] for several
// runs), the adjacency's loop operands) and, in a training pass with
// dropout, its rate and the runs' random states before the loop.
type gcn2Loop struct {
	layers, n, width, hdim, runs int
	dt                           dtypes.DType
	adj                          *sparse.SpMat
	dropout                      float64
	states                       []*Node
	// productGrad: the gradient goes through the adjacency products, as in
	// training passes (evaluation passes' products have none: SpMat.NoGrad).
	productGrad bool
	fixed       []*Node
}

// loopBody is a loop's view of its fixed operands inside a closure.
type loopBody struct {
	theta, oneMinus, eye *Node
	adj                  *sparse.LoopMat
}

// params declares a closure's parameters for the state (carried nodes
// first, then the fixed ones) and returns them with the fixed ones read.
func (lp *gcn2Loop) params(g *Graph, carried []*Node) ([]*Node, *loopBody) {
	state := append(append([]*Node{}, carried...), lp.fixed...)
	p := make([]*Node, len(state))
	for i, s := range state {
		p[i] = Parameter(g, fmt.Sprintf("s%d", i), s.Shape())
	}
	f := p[len(carried):]
	b := &loopBody{theta: f[0], oneMinus: f[1], eye: f[2]}
	b.adj, _ = sparse.NewLoopMat(lp.adj, f[3:])
	return p, b
}

// at returns x[i] for x [L, ...] and i a scalar int32 (a gather: the
// pure-Go backend has no DynamicSlice).
func at(x, i *Node) *Node { return Gather(x, Reshape(i, 1), true) }

// layerS returns S = Â·(mask ⊙ h) + alpha·h0 of layer i (0-based; mask
// nil: no dropout) and M = theta W_i + (1 - theta) I, with out = S·M.
func (b *loopBody) layerS(h, mask, alphaH0, w, i *Node) (s, m *Node) {
	if mask != nil {
		h = Mul(h, mask)
	}
	s = Add(b.adj.Mul(h), alphaH0)
	m = Add(Mul(at(w, i), at(b.theta, i)), Mul(b.eye, at(b.oneMinus, i)))
	return s, m
}

// project returns a layer's out = S·M: for one run M [H, H] (as Project);
// for R runs S [N, R·H] and M [R, H, H] held transposed (as PerRun).
func (lp *gcn2Loop) project(s, m *Node) *Node {
	if lp.runs == 1 {
		return Dot(s, m).Product()
	}
	y := DotGeneral(Reshape(s, lp.n, lp.runs, lp.hdim), []int{2}, []int{1}, m, []int{2}, []int{0}) // [R, N, H]
	return Reshape(TransposeAllDims(y, 1, 0, 2), lp.n, lp.width)
}

// projectGrads returns the gradients of project(s, m) for the gradient gOut
// of its result: dM = Sᵀ·gOut (per run, in M's layout) and dS = gOut·Mᵀ.
func (lp *gcn2Loop) projectGrads(s, m, gOut *Node) (dM, dS *Node) {
	if lp.runs == 1 {
		return Dot(Transpose(s, 0, 1), gOut).Product(), Dot(gOut, Transpose(m, 0, 1)).Product()
	}
	r, n, h := lp.runs, lp.n, lp.hdim
	g3, s3 := Reshape(gOut, n, r, h), Reshape(s, n, r, h)
	dM = DotGeneral(g3, []int{0}, []int{1}, s3, []int{0}, []int{1}) // [R, out, in]
	dS = DotGeneral(g3, []int{2}, []int{1}, m, []int{1}, []int{0})  // [R, N, in]
	return dM, Reshape(TransposeAllDims(dS, 1, 0, 2), n, lp.width)
}

// forward runs the layers and returns the last output, every layer's
// output [layers+1, N, H] (h0 first) and, when masked, every layer's mask
// [layers, N, H] for the backward loop, with the random states after the
// draws (nil when not masked).
func (lp *gcn2Loop) forward(h0, alphaH0, w *Node) (kept, states []*Node) {
	g := h0.Graph()
	zeros := func(dims ...int) *Node {
		return BroadcastToShape(ConstAsDType(g, lp.dt, 0), shapes.Make(lp.dt, dims...))
	}
	hs := Concatenate([]*Node{Reshape(h0, 1, lp.n, lp.width), zeros(lp.layers, lp.n, lp.width)}, 0)
	carried := []*Node{Const(g, int32(0)), h0, alphaH0, w, hs}
	masked := lp.states != nil
	if masked {
		carried = append(carried, zeros(lp.layers, lp.n, lp.width))
		carried = append(carried, lp.states...)
	}
	nc := len(carried)
	cond := NewClosure(g, func(g *Graph) []*Node {
		p, _ := lp.params(g, carried)
		return []*Node{LessThan(p[0], Const(g, int32(lp.layers)))}
	})
	body := NewClosure(g, func(g *Graph) []*Node {
		p, b := lp.params(g, carried)
		i, h, alphaH0, w, hs := p[0], p[1], p[2], p[3], p[4]
		zero := Const(g, int32(0))
		var mask, ms *Node
		var states []*Node
		if masked {
			states, mask = MaskFromStates(g, p[6:nc], h.Shape(), lp.dropout)
			ms = DynamicUpdateSlice(p[5], Reshape(mask, 1, lp.n, lp.width), []*Node{i, zero, zero})
		}
		s, m := b.layerS(h, mask, alphaH0, w, i)
		h = Max(lp.project(s, m), ConstAsDType(g, lp.dt, 0))
		next := Add(i, Const(g, int32(1)))
		hs = DynamicUpdateSlice(hs, Reshape(h, 1, lp.n, lp.width), []*Node{next, zero, zero})
		out := []*Node{next, h, alphaH0, w, hs}
		if masked {
			out = append(append(out, ms), states...)
		}
		return append(out, p[nc:]...)
	})
	res := While(cond, body, append(append([]*Node{}, carried...), lp.fixed...)...)
	if !masked {
		return []*Node{res[1], res[4], nil}, nil
	}
	return []*Node{res[1], res[4], res[5]}, res[6:nc]
}

// backward runs the layers from the last to the first with the gradient v
// of the last output, the kept outputs hs [layers+1, N, H] and masks ms
// [layers, N, H] (nil: no dropout): it returns the gradients of h0,
// alphaH0 and the stacked weights.
func (lp *gcn2Loop) backward(v, hs, ms, alphaH0, w *Node) (gh0, gAlphaH0, gw *Node) {
	g := v.Graph()
	zerosLike := func(x *Node) *Node { return BroadcastToShape(ConstAsDType(g, lp.dt, 0), x.Shape()) }
	carried := []*Node{Const(g, int32(lp.layers-1)), v, zerosLike(alphaH0), zerosLike(w), hs, alphaH0, w}
	if ms != nil {
		carried = append(carried, ms)
	}
	nc := len(carried)
	cond := NewClosure(g, func(g *Graph) []*Node {
		p, _ := lp.params(g, carried)
		return []*Node{GreaterOrEqual(p[0], Const(g, int32(0)))}
	})
	body := NewClosure(g, func(g *Graph) []*Node {
		p, b := lp.params(g, carried)
		i, grad, gAlphaH0, gw, hs, alphaH0, w := p[0], p[1], p[2], p[3], p[4], p[5], p[6]
		var mask *Node
		if ms != nil {
			mask = at(p[7], i)
		}
		s, m := b.layerS(at(hs, i), mask, alphaH0, w, i)
		next := Add(i, Const(g, int32(1)))
		gOut := Mul(grad, Sign(at(hs, next))) // ReLU's gradient
		dM, dS := lp.projectGrads(s, m, gOut)
		dW := Mul(dM, at(b.theta, i)) // M = theta W_i + (1 - theta) I
		starts := []*Node{i}
		for range dW.Rank() {
			starts = append(starts, Const(g, int32(0)))
		}
		gw = DynamicUpdateSlice(gw, InsertAxes(dW, 0), starts)
		gAlphaH0 = Add(gAlphaH0, dS)
		if lp.productGrad {
			grad = b.adj.MulT(dS)
			if mask != nil {
				grad = Mul(grad, mask)
			}
		} else {
			grad = BroadcastToShape(ConstAsDType(g, lp.dt, 0), grad.Shape())
		}
		out := append([]*Node{Sub(i, Const(g, int32(1))), grad, gAlphaH0, gw}, p[4:nc]...)
		return append(out, p[nc:]...)
	})
	res := While(cond, body, append(append([]*Node{}, carried...), lp.fixed...)...)
	return res[1], res[2], res[3]
}
