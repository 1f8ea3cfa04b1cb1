package nn

import (
	"math"
	"strconv"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

// MixHopSpec configures a MixHopConv layer.
type MixHopSpec struct {
	// Powers are the adjacency powers j (e.g. {0, 1, 2}); Dims[i] is the
	// width of the segment of power Powers[i].
	Powers, Dims []int
	// Bias adds one bias over the concatenation (PyG's MixHopConv has one;
	// the official TensorFlow layer has none).
	Bias bool
	// RowScale, if set ([N, 1]), scales the rows of X before the layer
	// (diag(s)·X): MixHop's L2 row normalisation of the input features,
	// applied to X·W instead of to the (sparse) features.
	RowScale *Node
}

// MixHopConv is the MixHop graph convolution of Abu-El-Haija et al. (ICML
// 2019, "MixHop: Higher-Order Graph Convolutional Architectures via
// Sparsified Neighborhood Mixing"):
//
//	out = ‖_{i} Â^{Powers[i]} (diag(RowScale)·X) W_i   (+ b)
//
// with ‖ the concatenation along features in the order of Powers and Â the
// normalised adjacency (GCNNormalized in the MixHop model). The layer
// projects first: X·[W_0 | W_1 | ...] is one (sparse) product of width
// ΣDims, then the columns of the segments with power ≥ 1 are multiplied by
// Â, those with power ≥ 2 again, and so on, so Â is applied to
// Σ_{j≥1} Σ_{i: Powers[i] ≥ j} Dims[i] columns in all.
//
// Shapes: X N x F (Features, dense or sparse), W_i [F, Dims[i]] (variables
// "weight_p<i>", glorot uniform as TensorFlow's Dense layer of the official
// code), b [ΣDims] ("bias", zeros), result [N, ΣDims].
func MixHopConv(scope *model.Scope, x Features, adj sparse.Propagator, spec MixHopSpec) *Node {
	if len(spec.Powers) == 0 || len(spec.Powers) != len(spec.Dims) {
		panicf("nn.MixHopConv: %d powers for %d segment widths", len(spec.Powers), len(spec.Dims))
	}
	g := x.Graph()
	f := x.NumCols()
	ws := make([]*Node, len(spec.Powers))
	total := 0
	for i, p := range spec.Powers {
		if p < 0 || spec.Dims[i] < 1 {
			panicf("nn.MixHopConv: power %d with width %d (powers must be >= 0, widths >= 1)", p, spec.Dims[i])
		}
		ws[i] = Param(scope, g, "weight_p"+strconv.Itoa(i), x.DType(), GlorotInit(f, spec.Dims[i]), nil, f, spec.Dims[i])
		total += spec.Dims[i]
	}
	w := ws[0]
	if len(ws) > 1 {
		w = Concatenate(ws, 1)
	}
	xw := x.MatMul(w)
	if spec.RowScale != nil {
		xw = Mul(xw, ConvertDType(spec.RowScale, xw.DType()))
	}
	y := MixHopPropagate(xw, adj, spec.Powers, spec.Dims)
	if spec.Bias {
		b := Param(scope, g, "bias", x.DType(), ZeroInit, nil, total)
		y = Add(y, ExpandAxes(b, 0))
	}
	return y
}

// MixHopPropagate multiplies the column segments of h [N, ΣDims] (segment
// i: Dims[i] columns, in order) by Â^{Powers[i]} and returns them
// concatenated in the same order. Â is applied once per power level to
// the segments that still need it.
func MixHopPropagate(h *Node, adj sparse.Propagator, powers, dims []int) *Node {
	n := len(powers)
	offsets := make([]int, n+1)
	for i, d := range dims {
		offsets[i+1] = offsets[i] + d
	}
	if h.Shape().Dimensions[1] != offsets[n] {
		panicf("nn.MixHopPropagate: input has %d columns, segments need %d", h.Shape().Dimensions[1], offsets[n])
	}
	out := make([]*Node, n)
	// cur holds the segments listed in live, side by side, each already
	// multiplied by Â^level.
	live := make([]int, n)
	for i := range live {
		live[i] = i
	}
	cur := h
	for level := 0; len(live) > 0; level++ {
		var next []int
		pos := 0
		var keep []*Node
		for _, i := range live {
			seg := cur
			if len(live) > 1 || dims[i] != cur.Shape().Dimensions[1] {
				seg = SliceAxis(cur, 1, AxisRange(pos, pos+dims[i]))
			}
			pos += dims[i]
			if powers[i] == level {
				out[i] = seg
			} else {
				next, keep = append(next, i), append(keep, seg)
			}
		}
		if len(next) == 0 {
			break
		}
		cur = keep[0]
		if len(keep) > 1 {
			cur = Concatenate(keep, 1)
		}
		cur = adj.Mul(cur)
		live = next
	}
	if n == 1 {
		return out[0]
	}
	return Concatenate(out, 1)
}

// MixHopDims divides a layer width among the powers as the official code's
// divide_capacity does with equal ratios: round(width/len) for all but the
// last power, which gets the rest.
func MixHopDims(width, numPowers int) []int {
	dims := make([]int, numPowers)
	per := float64(width) / float64(numPowers)
	used := 0
	for i := 0; i < numPowers-1; i++ {
		dims[i] = int(math.RoundToEven(per)) // numpy.round
		used += dims[i]
	}
	dims[numPowers-1] = width - used
	return dims
}
