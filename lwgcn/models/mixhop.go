package models

import (
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// MixHop defaults: the official trainer's flags (samihaija/mixhop,
// mixhop_trainer.py) as the H2GCN authors ran it on the Geom-GCN graphs
// (GemsLab/H2GCN, configs/real-geomgcn/mixhop.json: --adj_pows=0,1,2 with
// --hidden_dims_csv 64 or 192).
const (
	MixHopInputDropout = 0.7
	MixHopLayerDropout = 0.9
)

// MixHopPowers are the adjacency powers of the official runs.
var MixHopPowers = []int{0, 1, 2}

// MixHop is the MixHop network as the official code builds it without an
// architecture file (samihaija/mixhop, mixhop_trainer.py and
// mixhop_model.py):
//
//	x0 = l2_normalize_rows(Dropout(X, InputDropout))
//	h  = MixHopConv(x0; Powers, Hidden split equally)        ("mixhop1")
//	h  = ReLU(BatchStatsNorm(h))                             ("bn1")
//	   ... Layers hidden layers in all, each preceded (but the first) by Dropout(·, Dropout)
//	o  = MixHopConv(Dropout(h, Dropout); Powers, C each)     ("out")
//	y  = Σ_i softmax(q)_i · o[:, i·C:(i+1)·C]                ("psum", q [len(Powers)], zeros)
//
// MixHopConv layers have no bias (tf Dense with use_bias=False). The
// psum output mixes the per-power class scores with learned softmax
// weights; the official code adds 1e-3·mean(q²) to the loss, which the zoo
// entry applies as the weight decay of q's parameter group.
//
// Shapes: X N x F, hidden [N, Hidden], output logits [N, C]; Â from
// "adj/gcn" (GCNNormalized: self loops, symmetric normalisation, as the
// official dataset code builds it).
type MixHop struct {
	Hidden, Layers int
	Powers         []int
	// InputDropout on the features (sparse dropout); Dropout before each
	// MixHop layer but the first.
	InputDropout, Dropout float64
}

// Name implements Model.
func (m MixHop) Name() string { return "mixhop" }

// RunBytes implements nn.Model: each layer as wide as its powers' blocks.
func (m MixHop) RunBytes(g *graph.Graph) int64 {
	return nn.LayersRunBytes(g, m.Hidden*len(m.powers()), max(m.Layers, 1)+1, 0)
}

// Prepare implements Model: features, labels and Â.
func (m MixHop) Prepare(g *graph.Graph, in *nn.Inputs) error {
	return nn.AddGraphBasics(in, g, nn.AddGCNAdjacency)
}

func (m MixHop) powers() []int {
	if len(m.Powers) == 0 {
		return MixHopPowers
	}
	return m.Powers
}

// Forward implements Model; it returns logits. Each run builds its own
// layers (nn.EachRun).
func (m MixHop) Forward(scope *model.Scope, in *nn.Nodes, train bool) *Node {
	return nn.EachRunNode(scope, in, func(scope *model.Scope, in *nn.Nodes) *Node { return m.forward(scope, in, train) })
}

// forward is one run's Forward.
func (m MixHop) forward(scope *model.Scope, in *nn.Nodes, train bool) *Node {
	adj := sparse.FromNodes(in, nn.InputGCNAdj).ForPass(train)
	powers := m.powers()
	c := numClasses(in)
	x := nn.DropoutFeatures(scope, in.Features(nn.InputFeatures).ForPass(train), m.InputDropout, train)
	var h *Node
	layers := max(m.Layers, 1)
	for l := 1; l <= layers; l++ {
		spec := nn.MixHopSpec{Powers: powers, Dims: nn.MixHopDims(m.Hidden, len(powers))}
		if l == 1 {
			spec.RowScale = FeatureRowInvNorms(x)
			h = nn.MixHopConv(scope.In("mixhop%d", l), x, adj, spec)
		} else {
			h = nn.MixHopConv(scope.In("mixhop%d", l), nn.DenseFeatures(nn.Dropout(scope, h, m.Dropout, train)), adj, spec)
		}
		h = nn.ReLU(nn.BatchStatsNorm(scope.In("bn%d", l), h, nn.BatchStatsNormEpsilon))
	}
	h = nn.Dropout(scope, h, m.Dropout, train)
	dims := make([]int, len(powers))
	for i := range dims {
		dims[i] = c
	}
	o := nn.MixHopConv(scope.In("out"), nn.DenseFeatures(h), adj, nn.MixHopSpec{Powers: powers, Dims: dims})
	return PSumOutput(scope.In("psum"), o, c)
}

// PSumOutput is the official MixHop output layer (psum_output_layer): o
// [N, S·C] holds S segments of C class scores; the result [N, C] is
// Σ_s softmax(q)_s · o[:, s·C:(s+1)·C] with q [S] ("q", zeros).
func PSumOutput(scope *model.Scope, o *Node, numClasses int) *Node {
	n, width := o.Shape().Dimensions[0], o.Shape().Dimensions[1]
	if width%numClasses != 0 {
		panicf("models.PSumOutput: %d columns are not segments of %d classes", width, numClasses)
	}
	s := width / numClasses
	q := nn.Param(scope, o.Graph(), "q", o.DType(), nn.ZeroInit, nil, s)
	wts := Softmax(q, 0)                                 // [S]
	seg := Reshape(o, n, s, numClasses)                  // [N, S, C]
	return ReduceSum(Mul(seg, Reshape(wts, 1, s, 1)), 1) // [N, C]
}

// FeatureRowInvNorms returns 1/sqrt(max(Σ_j x_ij², 1e-12)) per row of X
// ([N, 1]): tf.nn.l2_normalize's factor. For sparse features the squares
// are those of the effective entries (values times row and column scales),
// summed per row with a sparse product; no gradient flows to X.
func FeatureRowInvNorms(x nn.Features) *Node {
	g := x.Graph()
	var sq *Node
	if x.Sparse == nil {
		sq = ReduceAndKeep(Square(StopGradient(x.Dense)), ReduceSum, 1)
	} else {
		m := *x.Sparse.NoGrad()
		dt := x.DType()
		v := m.EntryValues(dt)
		if m.RowScale != nil {
			v = Mul(v, Gather(Reshape(ConvertDType(m.RowScale, dt), m.NumRows), m.Rows, false))
		}
		if m.ColScale != nil {
			v = Mul(v, Gather(Reshape(ConvertDType(m.ColScale, dt), m.NumCols), m.Cols, false))
		}
		m.Vals, m.RowScale, m.ColScale = Square(StopGradient(v)), nil, nil
		sq = m.Mul(Ones(g, shapes.Make(dt, m.NumCols, 1)))
	}
	return Inverse(Sqrt(Max(sq, Scalar(g, sq.DType(), 1e-12))))
}
