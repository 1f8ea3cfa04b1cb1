package models

import (
	"fmt"

	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// SimP-GCN input names.
const (
	InputSimPAdj    = "simp/adj"
	InputSimPKNN    = "simp/knn"
	InputSimPPairA  = "simp/pairs/a"
	InputSimPPairB  = "simp/pairs/b"
	InputSimPTarget = "simp/pairs/sim"
)

// SimP-GCN defaults of the official code.
const (
	// SimPPairK: the self-supervised pairs are each node's SimPPairK least
	// and SimPPairK+1 most similar nodes (AttrSim, k = 5).
	SimPPairK = 5
	// SimPPairsPerEpoch: pairs drawn per epoch for the regression loss.
	SimPPairsPerEpoch = 10000
	// SimPPairSeed seeds the choice among tied least-similar nodes.
	SimPPairSeed = 15
)

// SimPGCN is SimP-GCN (Jin et al., WSDM 2021) as the official code runs it
// ("mutigcn" with no middle layer: two SimPConv layers):
//
//	h      = Dropout(SimPConv(X; Hidden, σ = ReLU))     ("conv1")
//	logits = SimPConv(h; C, σ = identity)               ("conv2")
//
// plus the self-supervised loss Lambda · SSLLoss(h), which regresses the
// feature similarity of node pairs from |h_i - h_j| (SSLLoss). Inputs: X
// (the official code row-normalises the features: the zoo entry does),
// Â = D^-1/2 (A + I) D^-1/2 of the directed edge rows as given (the official
// Geom-GCN loader builds an nx.DiGraph; row i sums over i's out-neighbours,
// D the out-degrees + 1), and the kNN graph Â_f (K neighbours by cosine
// similarity of the binarised features, FeatureSimilarity.KNN). Output
// log-probabilities [N, C].
//
// Costs: the kNN graph and the pairs are host precomputations over an
// inverted feature index, O(Σ_i Σ_{f ∈ i} df(f)) time and O(N) scratch per
// worker, never an N x N matrix (Squirrel: see the zoo entry).
type SimPGCN struct {
	Hidden  int
	Dropout float64
	// Gamma weighs the learnable self-loop term, ScoreBias is bias_init.
	Gamma, ScoreBias float64
	// K is the number of feature neighbours per node.
	K int
	// Lambda weighs the self-supervised loss (0: none).
	Lambda float64
}

// Validate checks the configuration.
func (m SimPGCN) Validate() error {
	if m.Hidden < 1 || m.K < 1 || m.Dropout < 0 || m.Dropout >= 1 || m.Lambda < 0 {
		return fmt.Errorf("simpgcn: need hidden >= 1, k >= 1, dropout in [0, 1), lambda >= 0; got %d, %d, %v, %v",
			m.Hidden, m.K, m.Dropout, m.Lambda)
	}
	return nil
}

// Name implements Model.
func (m SimPGCN) Name() string { return "simpgcn" }

// RunBytes implements nn.Model: two layers of Hidden, plus the kNN
// graph's K·N entries and their products.
func (m SimPGCN) RunBytes(g *graph.Graph) int64 {
	return nn.LayersRunBytes(g, m.Hidden, 2, 8*int64(m.K)*int64(g.NumNodes()))
}

// Prepare implements Model: features, labels, Â, the kNN graph and (with
// Lambda > 0) the self-supervised pairs.
func (m SimPGCN) Prepare(g *graph.Graph, in *nn.Inputs) error {
	if err := m.Validate(); err != nil {
		return err
	}
	if err := nn.AddGraphBasics(in, g); err != nil {
		return err
	}
	n := g.NumNodes()
	adj, err := sparse.BinaryAdjacency(n, g.Src(), g.Dst(), true, sparse.NormSym)
	if err != nil {
		return fmt.Errorf("models: graph %q: %w", g.Name(), err)
	}
	sparse.Set(in, InputSimPAdj, adj)
	sim, err := nn.NewFeatureSimilarity(g.Features())
	if err != nil {
		return fmt.Errorf("models: graph %q: %w", g.Name(), err)
	}
	knn, err := sim.KNN(m.K)
	if err != nil {
		return fmt.Errorf("models: graph %q: %w", g.Name(), err)
	}
	sparse.Set(in, InputSimPKNN, knn)
	if m.Lambda > 0 {
		pairs, err := sim.ExtremePairs(SimPPairK, SimPPairSeed)
		if err != nil {
			return fmt.Errorf("models: graph %q: %w", g.Name(), err)
		}
		p := len(pairs.A)
		in.SetInt32(InputSimPPairA, pairs.A, p, 1)
		in.SetInt32(InputSimPPairB, pairs.B, p, 1)
		in.SetFloat(InputSimPTarget, pairs.Sim, p)
	}
	return nil
}

// Forward implements Model; it returns log-probabilities. Each run builds
// its own layers (nn.EachRun).
func (m SimPGCN) Forward(scope *model.Scope, in *nn.Nodes, train bool) *Node {
	return nn.EachRunNode(scope, in, func(scope *model.Scope, in *nn.Nodes) *Node {
		logp, _ := m.ForwardWithEmbedding(scope, in, train)
		return logp
	})
}

// ForwardWithSSL returns the log-probabilities and the self-supervised loss
// (SSLLoss) of the hidden representation of the same pass ([R], one per
// run; nil without pairs).
func (m SimPGCN) ForwardWithSSL(scope *model.Scope, in *nn.Nodes, train bool) (logp, ssl *Node) {
	return nn.EachRunPair(scope, in, func(scope *model.Scope, in *nn.Nodes) (*Node, *Node) {
		logp, hidden := m.ForwardWithEmbedding(scope, in, train)
		return logp, m.SSLLoss(scope, in, hidden)
	})
}

// ForwardWithEmbedding returns one run's log-probabilities and hidden
// representation after dropout (the official code's embedding for the
// self-supervised loss, layer=1.5).
func (m SimPGCN) ForwardWithEmbedding(scope *model.Scope, in *nn.Nodes, train bool) (logp, hidden *Node) {
	adj := sparse.FromNodes(in, InputSimPAdj).ForPass(train)
	knn := sparse.FromNodes(in, InputSimPKNN).ForPass(train)
	x := in.Features(nn.InputFeatures).ForPass(train)
	h := nn.SimPConv(scope.In("conv1"), x, adj, knn, nn.SimPConfig{Out: m.Hidden, Gamma: m.Gamma, ScoreBias: m.ScoreBias,
		Activation: nn.ReLU})
	h = nn.Dropout(scope, h, m.Dropout, train)
	out := nn.SimPConv(scope.In("conv2"), nn.DenseFeatures(h), adj, knn, nn.SimPConfig{Out: numClasses(in), Gamma: m.Gamma,
		ScoreBias: m.ScoreBias})
	return nn.ClassLogSoftmax(out), h
}

// SSLLoss is SimP-GCN's self-supervised regression (PairwiseAttrSim) on the
// hidden representation h [N, H]: for the pairs (a, b) with similarity s,
//
//	loss = mean over drawn pairs of (Linear(|h_a - h_b|) - s)²      ("ssl": H -> 1)
//
// The official code draws SimPPairsPerEpoch pairs without replacement each
// epoch when there are more; here each pair is kept with probability
// SimPPairsPerEpoch/P (a uniformly random subset whose size has mean
// SimPPairsPerEpoch and standard deviation below 100), which avoids a sort
// in the graph. With fewer pairs, all are used. It returns nil when the
// inputs have no pairs (Lambda 0).
func (m SimPGCN) SSLLoss(scope *model.Scope, in *nn.Nodes, h *Node) *Node {
	a := in.Maybe(InputSimPPairA)
	if a == nil {
		return nil
	}
	b, target := in.Get(InputSimPPairB), ConvertDType(in.Get(InputSimPTarget), h.DType())
	p := a.Shape().Dimensions[0]
	diff := Abs(Sub(Gather(h, a), Gather(h, b)))                  // [P, H]
	pred := Reshape(nn.Linear(scope.In("ssl"), diff, 1, true), p) // [P]
	sq := Square(Sub(pred, target))                               // [P]
	if p <= SimPPairsPerEpoch {
		return ReduceAllMean(sq)
	}
	u := nn.RunUniform(scope, h.Graph(), shapes.Make(h.DType(), p))
	keep := ConvertDType(LessThan(u, Scalar(h.Graph(), h.DType(), float64(SimPPairsPerEpoch)/float64(p))), h.DType())
	count := ReduceAllSum(keep)
	return Div(ReduceAllSum(Mul(sq, keep)), Max(count, OnesLike(count)))
}
