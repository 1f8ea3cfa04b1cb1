package nn

import (
	"math"
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"
)

// matPow returns a^p (a square).
func b4MatPow(a [][]float64, p int) [][]float64 {
	n := len(a)
	r := make([][]float64, n)
	for i := range r {
		r[i] = make([]float64, n)
		r[i][i] = 1
	}
	for range p {
		r = matMul(a, r)
	}
	return r
}

func b4Hcat(ms ...[][]float64) [][]float64 {
	out := make([][]float64, len(ms[0]))
	for i := range out {
		for _, m := range ms {
			out[i] = append(out[i], m[i]...)
		}
	}
	return out
}

func b4ScaleRows(m [][]float64, s []float64) [][]float64 {
	out := make([][]float64, len(m))
	for i := range m {
		for _, v := range m[i] {
			out[i] = append(out[i], v*s[i])
		}
	}
	return out
}

func b4Rand(rng *rand.Rand, rows, cols int) []float64 {
	v := make([]float64, rows*cols)
	for i := range v {
		v[i] = rng.NormFloat64()
	}
	return v
}

func TestMixHopDims(t *testing.T) {
	// numpy.round(64/3) = 21 twice, the rest 22; 192/3 = 64 each; round(5/2)=2 (half to even), rest 3.
	for _, tc := range []struct {
		width, n int
		want     []int
	}{{64, 3, []int{21, 21, 22}}, {192, 3, []int{64, 64, 64}}, {5, 2, []int{2, 3}}, {7, 1, []int{7}}} {
		got := MixHopDims(tc.width, tc.n)
		for i := range got {
			if got[i] != tc.want[i] {
				t.Fatalf("MixHopDims(%d, %d) = %v, want %v", tc.width, tc.n, got, tc.want)
			}
		}
	}
}

func TestMixHopConv(t *testing.T) { bothLayouts(t, testMixHopConv) }

func testMixHopConv(t *testing.T) {
	g := tinyGraph(t)
	powers, dims := []int{2, 0, 1}, []int{2, 1, 3} // powers out of order
	rs := []float64{0.5, 2, 1, 0.25, 3}
	for _, sparse := range []bool{true, false} {
		in := float64Inputs(t, g, sparse)
		if err := AddGCNAdjacency(in, g); err != nil {
			t.Fatal(err)
		}
		h := newHarness(t, in, 21, func(scope *model.Scope, n *Nodes) *Node {
			scale := Reshape(Const(n.Graph(), rs), 5, 1)
			return MixHopConv(scope.In("mh"), n.Features(InputFeatures), n.Sparse(InputGCNAdj),
				MixHopSpec{Powers: powers, Dims: dims, Bias: true, RowScale: scale})
		})
		h.forward() // creates the variables
		bias := []float64{0.1, -0.2, 0.3, 0.4, -0.5, 0.6}
		h.store.GetVariable("/mh/bias").MustSetValue(x0Tensor(bias, 6))
		got, dimsOut := h.forward()
		if dimsOut[0] != 5 || dimsOut[1] != 6 {
			t.Fatalf("output shape %v, want [5 6]", dimsOut)
		}
		a := gcnDense(g)
		x := b4ScaleRows(denseX(g), rs)
		var segs [][][]float64
		for i, p := range powers {
			w := reshape(h.varValues("/mh/weight_p"+string(rune('0'+i))), 4, dims[i])
			bound := math.Sqrt(6.0 / float64(4+dims[i]))
			for _, v := range flat(w) {
				if math.Abs(v) > bound {
					t.Fatalf("weight_p%d value %v outside glorot bound %v", i, v, bound)
				}
			}
			segs = append(segs, matMul(b4MatPow(a, p), matMul(x, w)))
		}
		want := addBias(b4Hcat(segs...), bias)
		assertClose(t, "MixHopConv", got, flat(want), 1e-6) // Â stored in float32
		h.checkGradients(rand.New(rand.NewPCG(21, 1)), 1e-6)
	}
}

func TestBatchStatsNorm(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	xv := b4Rand(rng, 5, 3)
	in := float64Inputs(t, tinyGraph(t), false)
	h := newHarness(t, in, 1, func(scope *model.Scope, n *Nodes) *Node {
		x := scope.VariableWithValue("x", x0Tensor(xv, 5, 3)).NodeValue(n.Graph())
		return BatchStatsNorm(scope.In("bn"), x, BatchStatsNormEpsilon)
	})
	h.forward()
	beta := []float64{0.5, -1, 2}
	h.store.GetVariable("/bn/offset").MustSetValue(x0Tensor(beta, 3))
	got, _ := h.forward()
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
	assertClose(t, "BatchStatsNorm", got, want, 1e-12)
	h.checkGradients(rng, 1e-6)
}

func TestPSumOutput(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	ov := b4Rand(rng, 5, 6) // 3 segments of 2 classes
	in := float64Inputs(t, tinyGraph(t), false)
	h := newHarness(t, in, 1, func(scope *model.Scope, n *Nodes) *Node {
		o := scope.VariableWithValue("o", x0Tensor(ov, 5, 6)).NodeValue(n.Graph())
		return PSumOutput(scope.In("psum"), o, 2)
	})
	h.forward()
	q := []float64{0.3, -0.2, 0.1}
	h.store.GetVariable("/psum/q").MustSetValue(x0Tensor(q, 3))
	got, _ := h.forward()
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
	assertClose(t, "psum", got, want, 1e-12)
	h.checkGradients(rng, 1e-6)
}

func TestFeatureRowInvNorms(t *testing.T) {
	for _, rowNorm := range []bool{false, true} {
		g := tinyGraph(t)
		if rowNorm { // row-constant values: factored into RowScale by NewSparseMatrix
			g = g.RowNormalizeFeatures()
		}
		x := denseX(g)
		want := make([]float64, 5)
		for r := range x {
			s := 0.0
			for _, v := range x[r] {
				s += v * v
			}
			want[r] = 1 / math.Sqrt(s)
		}
		for _, sparse := range []bool{true, false} {
			in := float64Inputs(t, g, sparse)
			h := newHarness(t, in, 1, func(scope *model.Scope, n *Nodes) *Node {
				return FeatureRowInvNorms(n.Features(InputFeatures))
			})
			got, _ := h.forward()
			assertClose(t, "1/||x_r||", got, want, 1e-6)
		}
	}
}

func TestMixHopModelForward(t *testing.T) {
	g := tinyGraph(t)
	m := MixHop{Hidden: 5, Layers: 2, Powers: []int{0, 1, 2}, InputDropout: 0.5, Dropout: 0.5}
	in := float64Inputs(t, g, true)
	if err := m.Prepare(g, in); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, in, 4, func(scope *model.Scope, n *Nodes) *Node { return m.Forward(scope, n, false) })
	h.forward()
	h.store.GetVariable("/psum/q").MustSetValue(x0Tensor([]float64{0.2, -0.1, 0.4}, 3))
	h.store.GetVariable("/bn1/offset").MustSetValue(x0Tensor([]float64{0.1, 0.2, 0.3, -0.1, 0.0}, 5))
	got, _ := h.forward()

	a := gcnDense(g)
	x := denseX(g)
	inv := make([]float64, 5)
	for r := range x {
		s := 0.0
		for _, v := range x[r] {
			s += v * v
		}
		inv[r] = 1 / math.Sqrt(s)
	}
	hcur := b4ScaleRows(x, inv)
	layer := func(scope string, in [][]float64, dims []int) [][]float64 {
		var segs [][][]float64
		for i, p := range []int{0, 1, 2} {
			w := reshape(h.varValues(scope+"/weight_p"+string(rune('0'+i))), len(in[0]), dims[i])
			segs = append(segs, matMul(b4MatPow(a, p), matMul(in, w)))
		}
		return b4Hcat(segs...)
	}
	for l := 1; l <= 2; l++ {
		hcur = layer("/mixhop"+string(rune('0'+l)), hcur, []int{2, 2, 1})
		beta := h.varValues("/bn" + string(rune('0'+l)) + "/offset")
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
	q := h.varValues("/psum/q")
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
	assertClose(t, "MixHop forward", got, want, 1e-5)
}
