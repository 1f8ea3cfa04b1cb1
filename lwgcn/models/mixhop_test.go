package models_test

import (
	"math"
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/nn"
)

func TestPSumOutput(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	ov := nntest.RandValues(rng, 5, 6) // 3 segments of 2 classes
	in := nntest.Float64Inputs(t, nntest.TinyGraph(t), false)
	h := nntest.NewHarness(t, in, 1, func(scope *model.Scope, n *nn.Nodes) *Node {
		o := scope.VariableWithValue("o", nntest.Float64Tensor(ov, 5, 6)).NodeValue(n.Graph())
		return models.PSumOutput(scope.In("psum"), o, 2)
	})
	h.Forward()
	q := []float64{0.3, -0.2, 0.1}
	h.Store.GetVariable("/psum/q").MustSetValue(nntest.Float64Tensor(q, 3))
	got, _ := h.Forward()
	z := math.Exp(0.3) + math.Exp(-0.2) + math.Exp(0.1)
	sm := []float64{math.Exp(0.3) / z, math.Exp(-0.2) / z, math.Exp(0.1) / z}
	want := make([]float64, 10)
	for r := range 5 {
		for c := range 2 {
			for s := range 3 {
				want[r*2+c] += sm[s] * ov[r*6+s*2+c]
			}
		}
	}
	nntest.AssertClose(t, "psum", got, want, 1e-12)
	h.CheckGradients(rng, 1e-6)
}

func TestFeatureRowInvNorms(t *testing.T) {
	for _, rowNorm := range []bool{false, true} {
		g := nntest.TinyGraph(t)
		if rowNorm { // row-constant values: factored into RowScale by NewSparseMatrix
			g = g.RowNormalizeFeatures()
		}
		x := nntest.DenseX(g)
		want := make([]float64, 5)
		for r := range x {
			s := 0.0
			for _, v := range x[r] {
				s += v * v
			}
			want[r] = 1 / math.Sqrt(s)
		}
		for _, sparse := range []bool{true, false} {
			in := nntest.Float64Inputs(t, g, sparse)
			h := nntest.NewHarness(t, in, 1, func(scope *model.Scope, n *nn.Nodes) *Node {
				return models.FeatureRowInvNorms(n.Features(nn.InputFeatures))
			})
			got, _ := h.Forward()
			nntest.AssertClose(t, "1/||x_r||", got, want, 1e-6)
		}
	}
}

func TestMixHopModelForward(t *testing.T) {
	g := nntest.TinyGraph(t)
	m := models.MixHop{Hidden: 5, Layers: 2, Powers: []int{0, 1, 2}, InputDropout: 0.5, Dropout: 0.5}
	in := nntest.Float64Inputs(t, g, true)
	if err := m.Prepare(g, in); err != nil {
		t.Fatal(err)
	}
	h := nntest.NewHarness(t, in, 4, func(scope *model.Scope, n *nn.Nodes) *Node { return m.Forward(scope, n, false) })
	h.Forward()
	h.Store.GetVariable("/psum/q").MustSetValue(nntest.Float64Tensor([]float64{0.2, -0.1, 0.4}, 3))
	h.Store.GetVariable("/bn1/offset").MustSetValue(nntest.Float64Tensor([]float64{0.1, 0.2, 0.3, -0.1, 0.0}, 5))
	got, _ := h.Forward()

	a := nntest.GCNDense(g)
	x := nntest.DenseX(g)
	inv := make([]float64, 5)
	for r := range x {
		s := 0.0
		for _, v := range x[r] {
			s += v * v
		}
		inv[r] = 1 / math.Sqrt(s)
	}
	hcur := nntest.ScaleRows(x, inv)
	layer := func(scope string, in [][]float64, dims []int) [][]float64 {
		var segs [][][]float64
		for i, p := range []int{0, 1, 2} {
			w := nntest.Matrix(h.VarValues(scope+"/weight_p"+string(rune('0'+i))), len(in[0]), dims[i])
			segs = append(segs, nntest.DenseMatMul(nntest.MatPow(a, p), nntest.DenseMatMul(in, w)))
		}
		return nntest.HCat(segs...)
	}
	for l := 1; l <= 2; l++ {
		hcur = layer("/mixhop"+string(rune('0'+l)), hcur, []int{2, 2, 1})
		beta := h.VarValues("/bn" + string(rune('0'+l)) + "/offset")
		for c := range 5 {
			mean, vr := 0.0, 0.0
			for r := range 5 {
				mean += hcur[r][c] / 5
			}
			for r := range 5 {
				vr += (hcur[r][c] - mean) * (hcur[r][c] - mean) / 5
			}
			for r := range 5 {
				hcur[r][c] = max(0, (hcur[r][c]-mean)/math.Sqrt(vr+1e-3)+beta[c])
			}
		}
	}
	o := layer("/out", hcur, []int{3, 3, 3})
	q := h.VarValues("/psum/q")
	z := math.Exp(q[0]) + math.Exp(q[1]) + math.Exp(q[2])
	var want []float64
	for r := range 5 {
		for c := range 3 {
			s := 0.0
			for k := range 3 {
				s += math.Exp(q[k]) / z * o[r][k*3+c]
			}
			want = append(want, s)
		}
	}
	nntest.AssertClose(t, "MixHop forward", got, want, 1e-5)
}
