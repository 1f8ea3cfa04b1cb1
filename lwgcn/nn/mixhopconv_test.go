package nn_test

import (
	"math"
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/nn"
	"github.com/lwgcn/toolkit/lwgcn/nn/sparse"
)

func TestMixHopDims(t *testing.T) {
	// numpy.round(64/3) = 21 twice, the rest 22; 192/3 = 64 each; round(5/2)=2 (half to even), rest 3.
	for _, tc := range []struct {
		width, n int
		want     []int
	}{{64, 3, []int{21, 21, 22}}, {192, 3, []int{64, 64, 64}}, {5, 2, []int{2, 3}}, {7, 1, []int{7}}} {
		got := nn.MixHopDims(tc.width, tc.n)
		for i := range got {
			if got[i] != tc.want[i] {
				t.Fatalf("MixHopDims(%d, %d) = %v, want %v", tc.width, tc.n, got, tc.want)
			}
		}
	}
}

func TestMixHopConv(t *testing.T) { nntest.BothLayouts(t, testMixHopConv) }

func testMixHopConv(t *testing.T) {
	g := nntest.TinyGraph(t)
	powers, dims := []int{2, 0, 1}, []int{2, 1, 3} // powers out of order
	rs := []float64{0.5, 2, 1, 0.25, 3}
	for _, sparseFeats := range []bool{true, false} {
		in := nntest.Float64Inputs(t, g, sparseFeats)
		if err := nn.AddGCNAdjacency(in, g); err != nil {
			t.Fatal(err)
		}
		h := nntest.NewHarness(t, in, 21, func(scope *model.Scope, n *nn.Nodes) *Node {
			scale := Reshape(Const(n.Graph(), rs), 5, 1)
			return nn.MixHopConv(scope.In("mh"), n.Features(nn.InputFeatures), sparse.FromNodes(n, nn.InputGCNAdj),
				nn.MixHopSpec{Powers: powers, Dims: dims, Bias: true, RowScale: scale})
		})
		h.Forward() // creates the variables
		bias := []float64{0.1, -0.2, 0.3, 0.4, -0.5, 0.6}
		h.Store.GetVariable("/mh/bias").MustSetValue(nntest.Float64Tensor(bias, 6))
		got, dimsOut := h.Forward()
		if dimsOut[0] != 5 || dimsOut[1] != 6 {
			t.Fatalf("output shape %v, want [5 6]", dimsOut)
		}
		a := nntest.GCNDense(g)
		x := nntest.ScaleRows(nntest.DenseX(g), rs)
		var segs [][][]float64
		for i, p := range powers {
			w := nntest.Matrix(h.VarValues("/mh/weight_p"+string(rune('0'+i))), 4, dims[i])
			bound := math.Sqrt(6.0 / float64(4+dims[i]))
			for _, v := range nntest.Flat(w) {
				if math.Abs(v) > bound {
					t.Fatalf("weight_p%d value %v outside glorot bound %v", i, v, bound)
				}
			}
			segs = append(segs, nntest.DenseMatMul(nntest.MatPow(a, p), nntest.DenseMatMul(x, w)))
		}
		want := nntest.AddBias(nntest.HCat(segs...), bias)
		nntest.AssertClose(t, "MixHopConv", got, nntest.Flat(want), 1e-6) // Â stored in float32
		h.CheckGradients(rand.New(rand.NewPCG(21, 1)), 1e-6)
	}
}

func TestBatchStatsNorm(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	xv := nntest.RandValues(rng, 5, 3)
	in := nntest.Float64Inputs(t, nntest.TinyGraph(t), false)
	h := nntest.NewHarness(t, in, 1, func(scope *model.Scope, n *nn.Nodes) *Node {
		x := scope.VariableWithValue("x", nntest.Float64Tensor(xv, 5, 3)).NodeValue(n.Graph())
		return nn.BatchStatsNorm(scope.In("bn"), x, nn.BatchStatsNormEpsilon)
	})
	h.Forward()
	beta := []float64{0.5, -1, 2}
	h.Store.GetVariable("/bn/offset").MustSetValue(nntest.Float64Tensor(beta, 3))
	got, _ := h.Forward()
	want := make([]float64, 15)
	for c := range 3 {
		mean, sq := 0.0, 0.0
		for r := range 5 {
			mean += xv[r*3+c] / 5
		}
		for r := range 5 {
			sq += (xv[r*3+c] - mean) * (xv[r*3+c] - mean) / 5
		}
		for r := range 5 {
			want[r*3+c] = (xv[r*3+c]-mean)/math.Sqrt(sq+1e-3) + beta[c]
		}
	}
	nntest.AssertClose(t, "BatchStatsNorm", got, want, 1e-12)
	h.CheckGradients(rng, 1e-6)
}
