package nn

import (
	"math"
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"
)

func TestGPRPPRInit(t *testing.T) {
	// α(1-α)^k for k < K, (1-α)^K last: α = 0.1, K = 3.
	assertClose(t, "PPR 0.1", GPRPPRInit(3, 0.1), []float64{0.1, 0.09, 0.081, 0.729}, 1e-15)
	// α = 1: identity (the official Texas/Chameleon setting starts as an MLP).
	assertClose(t, "PPR 1", GPRPPRInit(3, 1), []float64{1, 0, 0, 0}, 0)
	// α = 0: only Â^K (Squirrel).
	assertClose(t, "PPR 0", GPRPPRInit(2, 0), []float64{0, 0, 1}, 0)
	s := 0.0
	for _, v := range GPRPPRInit(10, 0.37) {
		s += v
	}
	if math.Abs(s-1) > 1e-12 {
		t.Fatalf("PPR weights sum to %v, want 1", s)
	}
}

func TestGPRProp(t *testing.T) { bothLayouts(t, testGPRProp) }

func testGPRProp(t *testing.T) {
	g := tinyGraph(t)
	in := float64Inputs(t, g, false)
	if err := AddGCNAdjacency(in, g); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(11, 2))
	zv := b4Rand(rng, 5, 2)
	gamma0 := []float64{0.5, -0.3, 0.2, 0.1}
	h := newHarness(t, in, 1, func(scope *model.Scope, n *Nodes) *Node {
		z := scope.VariableWithValue("z", x0Tensor(zv, 5, 2)).NodeValue(n.Graph())
		return GPRProp(scope.In("prop"), z, n.Sparse(InputGCNAdj), gamma0)
	})
	h.forward()
	delta := []float64{0.05, 0.1, -0.2, 0.3}
	h.store.GetVariable("/prop/gamma_offset").MustSetValue(x0Tensor(delta, 4))
	got, _ := h.forward()
	a := gcnDense(g)
	z := reshape(zv, 5, 2)
	want := make([]float64, 10)
	for k := range 4 {
		ak := flat(matMul(b4MatPow(a, k), z))
		for i := range want {
			want[i] += (gamma0[k] + delta[k]) * ak[i]
		}
	}
	assertClose(t, "Σ γ_k Â^k z", got, want, 1e-6)
	h.checkGradients(rng, 1e-6)
}

func TestGPRGNNModelForward(t *testing.T) {
	g := tinyGraph(t)
	m := GPRGNN{Hidden: 4, K: 3, Alpha: 0.2, Dropout: 0.5, DropProp: 0.5}
	in := float64Inputs(t, g, true)
	if err := m.Prepare(g, in); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, in, 8, func(scope *model.Scope, n *Nodes) *Node { return m.Forward(scope, n, false) })
	got, _ := h.forward()
	hid := addBias(matMul(denseX(g), reshape(h.varValues("/lin1/weight"), 4, 4)), h.varValues("/lin1/bias"))
	for _, r := range hid {
		for j := range r {
			r[j] = max(r[j], 0)
		}
	}
	z := addBias(matMul(hid, reshape(h.varValues("/lin2/weight"), 4, 3)), h.varValues("/lin2/bias"))
	a := gcnDense(g)
	gamma := GPRPPRInit(3, 0.2) // offsets start at zero
	want := make([]float64, 15)
	for k := range 4 {
		ak := flat(matMul(b4MatPow(a, k), z))
		for i := range want {
			want[i] += gamma[k] * ak[i]
		}
	}
	assertClose(t, "GPRGNN forward", got, want, 1e-6)
	if err := (GPRGNN{Hidden: 4, K: -1}).Prepare(g, NewInputs()); err == nil ||
		err.Error() != "nn: GPRGNN needs K >= 0 and hidden >= 1, got K -1, hidden 4" {
		t.Fatalf("got error %v", err)
	}
}
