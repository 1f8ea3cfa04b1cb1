package nn

import (
	"math"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// SimPConfig configures SimPConv.
type SimPConfig struct {
	// Out is the number of output features.
	Out int
	// Gamma weighs the learnable self-loop term.
	Gamma float64
	// ScoreBias is the initial bias of the mixing score (bias_init: 0 on
	// the heterophilous graphs, 2 on Cora/Citeseer so that s starts near 1).
	ScoreBias float64
	// Activation σ (nil: identity, the output layer).
	Activation func(*Node) *Node
}

// SimPConv is one layer of SimP-GCN (Jin et al., "Node Similarity Preserving
// Graph Convolutional Networks", WSDM 2021) as the official code computes it
// (SimPGCN.myforward, one shared GraphConvolutionBS per layer without batch
// norm or loop weight):
//
//	s   = sigmoid(H p + b_s)                    [N, 1]  per-node mixing score
//	k   = H q + b_k                             [N, 1]  learnable self-loop weight (D_K)
//	Z   = H W
//	H'  = s ⊙ σ(Â Z + b) + (1 - s) ⊙ σ(Â_f Z + b) + γ k ⊙ σ(Z + b)
//
// Â is the normalised adjacency, Â_f the normalised feature kNN graph
// (FeatureSimilarity.KNN); the activation is applied to each of the three
// propagations, as the official layer calls its activation inside. Shapes: H
// N x F (Features, sparse or dense), W [F, Out] ("weight") and b [Out]
// ("bias"), both U(±1/sqrt(Out)) as GraphConvolutionBS; p, q [F, 1] ("score",
// "dk", U(-1, 1): the official 1/sqrt(size(1)) bound); b_s ("score_bias",
// starts at ScoreBias), b_k ("dk_bias", zeros) scalars. Result [N, Out].
// H·[p q] is one product with two columns, and Z is computed once.
func SimPConv(scope *model.Scope, h Features, adj, knn *sparse.SpMat, cfg SimPConfig) *Node {
	g := h.Graph()
	dt := h.DType()
	f := h.NumCols()
	bound := 1 / math.Sqrt(float64(cfg.Out))
	w := Param(scope, g, "weight", dt, Uniform(bound), nil, f, cfg.Out)
	b := ExpandAxes(Param(scope, g, "bias", dt, Uniform(bound), nil, cfg.Out), 0)
	p := Param(scope, g, "score", dt, Uniform(1), nil, f, 1)
	q := Param(scope, g, "dk", dt, Uniform(1), nil, f, 1)
	bs := OffsetParam(scope, g, "score_bias", dt, cfg.ScoreBias, 1)
	bk := Param(scope, g, "dk_bias", dt, ZeroInit, nil, 1)
	act := cfg.Activation
	if act == nil {
		act = func(x *Node) *Node { return x }
	}
	pq := h.MatMul(Concatenate([]*Node{p, q}, 1)) // [N, 2]
	s := Sigmoid(Add(Slice(pq, AxisRange(), AxisRange(0, 1)), ExpandAxes(bs, 0)))
	k := Add(Slice(pq, AxisRange(), AxisRange(1, 2)), ExpandAxes(bk, 0))
	z := h.MatMul(w)
	out := Add(Mul(s, act(Add(adj.Mul(z), b))), Mul(OneMinus(s), act(Add(knn.Mul(z), b))))
	if cfg.Gamma != 0 {
		out = Add(out, Mul(MulScalar(k, cfg.Gamma), act(Add(z, b))))
	}
	return out
}
