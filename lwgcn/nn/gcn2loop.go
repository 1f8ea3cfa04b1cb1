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
// with the variables of the unrolled stack ("conv<l>/weight", same
// initialisation) and its dropout masks (drawn before the loop, one [N, H]
// draw per layer in the layers' order: one draw of [layers, N, H] would be
// another stream, and the loop would no longer be just another form of the
// same layers). Shapes: h0, alphaH0 = alpha·h0 [N, H], adj Â N x N, result
// h_layers [N, H]; with R runs (nn.Runs) [N, R·H], the weights [R, H, H]
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
	ws := make([]*Node, layers)
	theta := make([]float64, layers)
	oneMinus := make([]float64, layers)
	for l := 1; l <= layers; l++ {
		ws[l-1] = RunsParam(scope.In("conv%d", l), g, "weight", dt, Uniform(1/math.Sqrt(float64(hdim))), nil, RunsTransposed, hdim, hdim)
		theta[l-1] = math.Log(lambda/float64(l) + 1)
		oneMinus[l-1] = 1 - theta[l-1]
	}
	lp := &gcn2Loop{layers: layers, n: n, width: width, hdim: hdim, runs: r, dt: dt, adj: gcn2Adjacency(adj, alpha, dt), productGrad: train}
	eye := identity(g, dt, hdim)
	if r > 1 {
		eye = ExpandAxes(eye, 0)
	}
	lp.fixed = []*Node{ConstAsDType(g, dt, theta), ConstAsDType(g, dt, oneMinus), eye}
	if train && dropout > 0 {
		lp.masked = true
		masks := make([]*Node, layers)
		for l := range masks {
			masks[l] = RunsDropoutMask(scope, g, h0.Shape(), dropout)
		}
		lp.fixed = append(lp.fixed, Stack(masks, 0))
	}
	lp.fixed = append(lp.fixed, lp.adj.LoopOperands(dt)...)
	w := Stack(ws, 0) // [layers, H, H] or [layers, R, H, H]
	// Evaluation passes too keep the outputs, so that they have the unrolled
	// layers' gradient (without the products') when one is asked for (the
	// parity suite's).
	var kept []*Node
	sizes := []int{n * width, n * width, w.Shape().Size()}
	packed := Concatenate([]*Node{Reshape(h0, -1), Reshape(alphaH0, -1), Reshape(w, -1)}, 0)
	outs, _ := InternalFusedOpCallerMulti(
		func() []*Node {
			kept = lp.forward(h0, alphaH0, w)
			return kept[:1]
		},
		func() []*Node {
			return []*Node{IdentityWithCustomGradient(packed, func(_, v *Node) *Node {
				gh0, gah0, gw := lp.backward(v, kept[1], alphaH0, w)
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
// runs·hdim), the adjacency and the loops' constant operands (fixed: theta
// [layers], 1 - theta [layers], the identity [H, H] ([1, H, H] for several
// runs), the masks [layers, N, width] when masked, the adjacency's loop
// operands).
type gcn2Loop struct {
	layers, n, width, hdim, runs int
	dt                           dtypes.DType
	adj                          *sparse.SpMat
	masked                       bool
	// productGrad: the gradient goes through the adjacency products, as in
	// training passes (evaluation passes' products have none: SpMat.NoGrad).
	productGrad bool
	fixed       []*Node
}

// loopBody is a loop's view of its fixed operands inside a closure.
type loopBody struct {
	theta, oneMinus, eye, masks *Node
	adj                         *sparse.LoopMat
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
	k := 3
	if lp.masked {
		b.masks = f[k]
		k++
	}
	b.adj, _ = sparse.NewLoopMat(lp.adj, f[k:])
	return p, b
}

// at returns x[i] for x [L, ...] and i a scalar int32 (a gather: the
// pure-Go backend has no DynamicSlice).
func at(x, i *Node) *Node { return Gather(x, Reshape(i, 1), true) }

// layerS returns S = Â·Dropout(h) + alpha·h0 of layer i (0-based) and M =
// theta W_i + (1 - theta) I, with out = S·M.
func (b *loopBody) layerS(h, alphaH0, w, i *Node) (s, m *Node) {
	if b.masks != nil {
		h = Mul(h, at(b.masks, i))
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

// forward runs the layers and returns the last output and every layer's
// output [layers+1, N, H] (h0 first) for the backward loop.
func (lp *gcn2Loop) forward(h0, alphaH0, w *Node) []*Node {
	g := h0.Graph()
	rest := BroadcastToShape(ConstAsDType(g, lp.dt, 0), shapes.Make(lp.dt, lp.layers, lp.n, lp.width))
	hs := Concatenate([]*Node{Reshape(h0, 1, lp.n, lp.width), rest}, 0)
	carried := []*Node{Const(g, int32(0)), h0, alphaH0, w, hs}
	nc := len(carried)
	cond := NewClosure(g, func(g *Graph) []*Node {
		p, _ := lp.params(g, carried)
		return []*Node{LessThan(p[0], Const(g, int32(lp.layers)))}
	})
	body := NewClosure(g, func(g *Graph) []*Node {
		p, b := lp.params(g, carried)
		i, h, alphaH0, w, hs := p[0], p[1], p[2], p[3], p[4]
		s, m := b.layerS(h, alphaH0, w, i)
		h = Max(lp.project(s, m), ConstAsDType(g, lp.dt, 0))
		next := Add(i, Const(g, int32(1)))
		zero := Const(g, int32(0))
		hs = DynamicUpdateSlice(hs, Reshape(h, 1, lp.n, lp.width), []*Node{next, zero, zero})
		return append([]*Node{next, h, alphaH0, w, hs}, p[nc:]...)
	})
	res := While(cond, body, append(append([]*Node{}, carried...), lp.fixed...)...)
	return []*Node{res[1], res[4]}
}

// backward runs the layers from the last to the first with the gradient v
// of the last output and the kept outputs hs [layers+1, N, H]: it returns
// the gradients of h0, alphaH0 and the stacked weights.
func (lp *gcn2Loop) backward(v, hs, alphaH0, w *Node) (gh0, gAlphaH0, gw *Node) {
	g := v.Graph()
	zerosLike := func(x *Node) *Node { return BroadcastToShape(ConstAsDType(g, lp.dt, 0), x.Shape()) }
	carried := []*Node{Const(g, int32(lp.layers-1)), v, zerosLike(alphaH0), zerosLike(w), hs, alphaH0, w}
	nc := len(carried)
	cond := NewClosure(g, func(g *Graph) []*Node {
		p, _ := lp.params(g, carried)
		return []*Node{GreaterOrEqual(p[0], Const(g, int32(0)))}
	})
	body := NewClosure(g, func(g *Graph) []*Node {
		p, b := lp.params(g, carried)
		i, grad, gAlphaH0, gw, hs, alphaH0, w := p[0], p[1], p[2], p[3], p[4], p[5], p[6]
		s, m := b.layerS(at(hs, i), alphaH0, w, i)
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
			if b.masks != nil {
				grad = Mul(grad, at(b.masks, i))
			}
		} else {
			grad = BroadcastToShape(ConstAsDType(g, lp.dt, 0), grad.Shape())
		}
		out := []*Node{Sub(i, Const(g, int32(1))), grad, gAlphaH0, gw, hs, alphaH0, w}
		return append(out, p[nc:]...)
	})
	res := While(cond, body, append(append([]*Node{}, carried...), lp.fixed...)...)
	return res[1], res[2], res[3]
}
