package nn

import (
	"math"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// GPRProp is the generalized PageRank propagation of GPR-GNN (Chien et al.,
// ICLR 2021, "Adaptive Universal Generalized PageRank Graph Neural
// Network"), GPR_prop in the official code (jianhao2016/GPRGNN):
//
//	out = Σ_{k=0..K} γ_k Â^k z,   γ = γ0 + δ
//
// with Â the GCN normalisation with self loops (GCNNormalized) and
// K = len(gamma0) - 1. The learnable weights γ start at gamma0 (e.g.
// GPRPPRInit): they are stored as the offset δ [K+1] ("gamma_offset",
// zeros), so that every run starts from gamma0 with lwgcn's seeded
// initialisation; gradients and Adam steps on δ are those on γ (the
// official code applies no weight decay to γ, and neither must the zoo
// entry). z is propagated K times (K products of width H).
//
// Shapes: z [N, H], result [N, H]. With R runs z is [N, R·H]: each step
// propagates every run's columns at once and run r weights step k by its
// own γ_{r,k}. Why runs pay here: z is C columns wide, so a step of one run
// gathers one short row per stored entry of Â and the Go backend's per-row
// cost dominates; R runs share every gathered row's index work.
func GPRProp(scope *model.Scope, z *Node, adj sparse.Propagator, gamma0 []float64) *Node {
	if len(gamma0) == 0 {
		panicf("nn.GPRProp: no initial weights")
	}
	g := z.Graph()
	r := Runs(scope)
	k := len(gamma0) - 1
	gamma := Add(Reshape(ConstAsDType(g, z.DType(), gamma0), 1, k+1),
		Reshape(Param(scope, g, "gamma_offset", z.DType(), ZeroInit, nil, k+1), r, k+1)) // [R, K+1]
	var out *Node
	x := z
	for i := 0; i <= k; i++ {
		if i > 0 {
			x = runsPropagate(adj, x, r)
		}
		term := RunsScale(x, Slice(gamma, AxisRange(), AxisElem(i)), r)
		if out == nil {
			out = term
		} else {
			out = Add(out, term)
		}
	}
	return out
}

// GPRPPRInit is GPR-GNN's default ("PPR") initialisation:
// γ_k = α(1-α)^k for k < K and γ_K = (1-α)^K (the weights sum to 1).
func GPRPPRInit(k int, alpha float64) []float64 {
	g := make([]float64, k+1)
	for i := range k {
		g[i] = alpha * math.Pow(1-alpha, float64(i))
	}
	g[k] = math.Pow(1-alpha, float64(k))
	return g
}
