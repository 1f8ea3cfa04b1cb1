package nn

import (
	"fmt"

	"github.com/gomlx/compute/dtypes"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// GloGNNConfig are the coefficients of a GloGNN++ layer: Alpha weighs
// ‖Z‖_F², Beta ‖Z - Σ_k θ_k Â^k‖_F², Gamma keeps the initial
// representation H⁰, Orders is the number K of adjacency powers.
type GloGNNConfig struct {
	Alpha, Beta, Gamma float64
	Orders             int
}

// Validate checks what the closed form needs: Alpha + Beta > 0 and
// 0 <= Gamma < 1 (the form divides by both), at least one power.
func (c GloGNNConfig) Validate() error {
	switch {
	case !(c.Alpha+c.Beta > 0):
		return fmt.Errorf("glognn: alpha + beta must be positive, got %v + %v", c.Alpha, c.Beta)
	case !(c.Gamma >= 0 && c.Gamma < 1):
		return fmt.Errorf("glognn: gamma must be in [0, 1), got %v", c.Gamma)
	case c.Orders < 1:
		return fmt.Errorf("glognn: orders must be >= 1, got %d", c.Orders)
	}
	return nil
}

// GloGNNConv is one GloGNN++ layer (Li et al., "Finding Global Homophily in
// Graph Neural Networks When Meeting Heterophily", ICML 2022) as the official
// code computes it (MLP_NORM.norm_func2, orders_func_id 2):
//
//	H' = (1 - γ) Z* H Dw + γ H⁰,
//	Z* = [(1-γ) H Dw Hᵀ + β Σ_k θ_k Â^k - γ(1-γ) H⁰ Dw Hᵀ] [(1-γ)² H Hᵀ + (α+β) I]⁻¹
//
// with Dw = diag(w) the feature-dimension coefficients of GloGNN++ (Dw = I
// is GloGNN's Z*). Z* is N x N; the Woodbury identity turns its product with
// H into d x d algebra (d = columns of H), so nothing N x N is formed
// (TestGloGNNConv checks the two forms agree). With c = 1/(α+β), c1 = 1-γ:
//
//	G = Hᵀ H,  M = c1⁻² I + c G                   [d, d]
//	R = (c1 c H - c1 c² H M⁻¹G) Dw = (c/c1) H M⁻¹ Dw   [N, d]  (M⁻¹ by SolveSPD)
//	T = Dw Hᵀ R = (1/c1) Dw (I - c1⁻² M⁻¹) Dw       [d, d]
//	H' = c1 (H - γ H⁰) T + β Σ_k θ_k Â^k R + γ H⁰
//
// (the official code evaluates R and T in the first, algebraically equal
// forms). G, M⁻¹, R and T are computed in float64 whatever the model's
// dtype, as the official code (float64 throughout) does: G is
// ill-conditioned once the logits drift (see the body).
//
// Shapes: h, h0 [N, d]; adj Â N x N (GloGNN uses the row-normalised A + I,
// "glognn/adj"); result [N, d]. Variables "diag_weight" w [d] (starts at
// 1/d) and "orders_weight" θ [K] (starts at 1/K), both OffsetParams;
// the official model shares them between its layers — pass the same scope
// to every layer. Cost per layer: 3 products N x d x d (G, R, H T), K
// sparse products with d columns and a d x d solve.
func GloGNNConv(scope *model.Scope, h, h0 *Node, adj *sparse.SpMat, cfg GloGNNConfig) *Node {
	g := h.Graph()
	dt := h.DType()
	d := h.Shape().Dimensions[1]
	w := OffsetParam(scope, g, "diag_weight", dt, 1/float64(d), d)
	theta := OffsetParam(scope, g, "orders_weight", dt, 1/float64(cfg.Orders), cfg.Orders)
	c := 1 / (cfg.Alpha + cfg.Beta)
	c1 := 1 - cfg.Gamma
	// Logits drift along a direction log_softmax ignores (a shift common to
	// a node's logits; nothing decays it without weight decay), so G = HᵀH
	// grows ill-conditioned: cond(M) ~ ‖G‖ ~ 1e4-1e5 on Squirrel after 30
	// epochs. Hence (1) the d x d algebra runs in float64, as the official
	// code does, and (2) T comes from M⁻¹ alone: T = Dw Hᵀ R would multiply
	// the solve's error (~ cond(M)·eps) by ‖G‖ again, which in float32 made
	// the layers' output wrong by orders of magnitude and then NaN. Only R
	// and T return to the model's dtype.
	h64 := ConvertDType(h, dtypes.Float64)
	w64 := ConvertDType(w, dtypes.Float64)
	gram := Dot(Transpose(h64, 0, 1), h64).Product() // [d, d]
	eye := identity(g, dtypes.Float64, d)
	m := Add(MulScalar(eye, 1/(c1*c1)), MulScalar(gram, c))
	minv := SolveSPD(m, eye)
	// R = (c1 c H - c1 c² H M⁻¹G) Dw = (c/c1) H M⁻¹ Dw, since c G = M - c1⁻² I
	// (the official form subtracts two nearly equal terms once G is large),
	// and T = Dw Hᵀ R = (1/c1) Dw (c G M⁻¹) Dw = (1/c1) Dw (I - c1⁻² M⁻¹) Dw.
	r := Mul(MulScalar(Dot(h64, minv).Product(), c/c1), ExpandAxes(w64, 0))
	t := Sub(eye, MulScalar(minv, 1/(c1*c1)))
	t = MulScalar(Mul(Mul(ExpandAxes(w64, 1), t), ExpandAxes(w64, 0)), 1/c1) // [d, d]
	r, t = ConvertDType(r, dt), ConvertDType(t, dt)
	var sum *Node
	p := r
	for k := range cfg.Orders {
		p = adj.Mul(p)
		term := Mul(p, Reshape(Slice(theta, AxisRange(k, k+1)))) // θ_k as a scalar
		if sum == nil {
			sum = term
		} else {
			sum = Add(sum, term)
		}
	}
	out := Add(MulScalar(Dot(Sub(h, MulScalar(h0, cfg.Gamma)), t).Product(), c1), MulScalar(sum, cfg.Beta))
	if cfg.Gamma != 0 {
		out = Add(out, MulScalar(h0, cfg.Gamma))
	}
	return out
}
