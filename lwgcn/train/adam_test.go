package train

import (
	"math"
	"strings"
	"testing"

	"github.com/gomlx/compute"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/nn"
)

func testBackend(t testing.TB) compute.Backend {
	t.Helper()
	b, _, err := backend.Shared()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// pytorchAdam is an independent transcription of torch.optim.Adam's
// single-tensor step (amsgrad=False) for scalars.
type pytorchAdam struct {
	lr, wd, b1, b2, eps float64
	m, v                []float64
	t                   int
}

func (a *pytorchAdam) step(p, grad []float64) {
	if a.m == nil {
		a.m, a.v = make([]float64, len(p)), make([]float64, len(p))
	}
	a.t++
	bc1 := 1 - math.Pow(a.b1, float64(a.t))
	bc2 := 1 - math.Pow(a.b2, float64(a.t))
	for i := range p {
		g := grad[i] + a.wd*p[i]
		a.m[i] += (g - a.m[i]) * (1 - a.b1)
		a.v[i] = a.v[i]*a.b2 + (1-a.b2)*g*g
		denom := math.Sqrt(a.v[i])/math.Sqrt(bc2) + a.eps
		p[i] -= a.lr / bc1 * a.m[i] / denom
	}
}

// TestAdamTwoStepsByHand: loss = Σ c_i p_i² + p_i, gradient 2 c_i p_i + 1.
func TestAdamTwoStepsByHand(t *testing.T) {
	for _, wd := range []float64{0, 0.1} {
		store := model.NewStore()
		opt := NewOptimizer(Group{Name: "g", Adam: NewAdam(0.1, wd), Match: ScopePrefix("/p")})
		c := []float64{1, 3, 0.5}
		p0 := []float64{1.0, -2.0, 0.25}
		exec := model.MustNewExec(testBackend(t), store, func(scope *model.Scope, g *Graph) *Node {
			nn.UseVariableParameters(scope, g)
			pv := scope.In("p").VariableWithValue("w", tensors.FromFlatDataAndDimensions(append([]float64(nil), p0...), 3))
			p := pv.NodeValue(g)
			loss := ReduceAllSum(Add(Mul(Const(g, c), Mul(p, p)), p))
			opt.Step(scope, g, loss)
			return loss
		})
		ref := &pytorchAdam{lr: 0.1, wd: wd, b1: 0.9, b2: 0.999, eps: 1e-8}
		want := append([]float64(nil), p0...)
		for step := range 2 {
			if _, err := exec.Call(); err != nil {
				t.Fatal(err)
			}
			grad := make([]float64, 3)
			for i := range grad {
				grad[i] = 2*c[i]*want[i] + 1
			}
			ref.step(want, grad)
			got := tensors.MustCopyFlatData[float64](store.GetVariable("/p/w").MustValue())
			for i := range got {
				if math.Abs(got[i]-want[i]) > 1e-12 {
					t.Fatalf("wd=%v step %d: p[%d] = %.15g, want %.15g", wd, step+1, i, got[i], want[i])
				}
			}
			// The state holds PyTorch's exp_avg and exp_avg_sq (checkpoints
			// keep their meaning).
			gotM := tensors.MustCopyFlatData[float64](store.GetVariable("/adam/g/p/w_m").MustValue())
			gotV := tensors.MustCopyFlatData[float64](store.GetVariable("/adam/g/p/w_v").MustValue())
			for i := range gotM {
				if math.Abs(gotM[i]-ref.m[i]) > 1e-12*(1+math.Abs(ref.m[i])) || math.Abs(gotV[i]-ref.v[i]) > 1e-12*(1+ref.v[i]) {
					t.Fatalf("wd=%v step %d: m, v[%d] = %.15g, %.15g, want %.15g, %.15g", wd, step+1, i,
						gotM[i], gotV[i], ref.m[i], ref.v[i])
				}
			}
		}
		// First step of Adam moves each weight by about lr (|m/sqrt(v)| = 1).
		if math.Abs(want[0]-p0[0]) < 0.1 || math.Abs(want[0]-p0[0]) > 0.3 {
			t.Fatalf("unexpected total move %v", want[0]-p0[0])
		}
		// Reset restarts the step count and moments.
		if err := opt.Reset(store); err != nil {
			t.Fatal(err)
		}
		if s := tensors.ToScalar[float64](store.GetVariable("/adam/g/step").MustValue()); s != 0 {
			t.Fatalf("step after reset = %v", s)
		}
	}
}

// TestAdamStepWhen: a step gated off leaves the weight, both moments and
// the step count as they were, bit for bit; gated on it is Step's (the two
// steps taken match the PyTorch transcription, as in the test above).
func TestAdamStepWhen(t *testing.T) {
	store := model.NewStore()
	opt := NewOptimizer(Group{Name: "g", Adam: NewAdam(0.1, 0.1), Match: ScopePrefix("/p")})
	c := []float64{1, 3, 0.5}
	p0 := []float64{1.0, -2.0, 0.25}
	exec := model.MustNewExec(testBackend(t), store, func(scope *model.Scope, when *Node) *Node {
		g := when.Graph()
		nn.UseVariableParameters(scope, g)
		pv := scope.In("p").VariableWithValue("w", tensors.FromFlatDataAndDimensions(append([]float64(nil), p0...), 3))
		p := pv.NodeValue(g)
		loss := ReduceAllSum(Add(Mul(Const(g, c), Mul(p, p)), p))
		opt.StepWhen(scope, g, loss, when)
		return loss
	})
	state := func() [][]float64 {
		var out [][]float64
		for _, path := range []string{"/p/w", "/adam/g/p/w_m", "/adam/g/p/w_v", "/adam/g/step"} {
			out = append(out, tensors.MustCopyFlatData[float64](store.GetVariable(path).MustValue()))
		}
		return out
	}
	ref := &pytorchAdam{lr: 0.1, wd: 0.1, b1: 0.9, b2: 0.999, eps: 1e-8}
	want := append([]float64(nil), p0...)
	for call, on := range []bool{true, false, true, false, false} {
		var before [][]float64
		if call > 0 {
			before = state()
		}
		if _, err := exec.Call(on); err != nil {
			t.Fatal(err)
		}
		after := state()
		if !on {
			for i := range before {
				for j := range before[i] {
					if math.Float64bits(after[i][j]) != math.Float64bits(before[i][j]) {
						t.Fatalf("call %d gated off: state %d changed: %v -> %v", call+1, i, before[i], after[i])
					}
				}
			}
			continue
		}
		grad := make([]float64, 3)
		for i := range grad {
			grad[i] = 2*c[i]*want[i] + 1
		}
		ref.step(want, grad)
		for i, got := range after[0] {
			if math.Abs(got-want[i]) > 1e-12 {
				t.Fatalf("call %d gated on: p[%d] = %.15g, want %.15g", call+1, i, got, want[i])
			}
		}
		if after[3][0] != float64(ref.t) {
			t.Fatalf("call %d: step count %v, want %d", call+1, after[3][0], ref.t)
		}
	}
}

// TestBilevelGroups runs, in one graph, two Adam steps of theta on a
// training loss with phi fixed, then one step of phi (lr 0.1) on a
// validation loss with the model output detached, against a hand
// computation.
func TestBilevelGroups(t *testing.T) {
	store := model.NewStore()
	opt := NewOptimizer(
		Group{Name: "theta", Adam: NewAdam(0.05, 0.01), Match: ScopePrefix("/theta")},
		Group{Name: "phi", Adam: NewAdam(0.1, 0), Match: ScopePrefix("/phi")})
	exec := model.MustNewExec(testBackend(t), store, func(scope *model.Scope, g *Graph) *Node {
		nn.UseVariableParameters(scope, g)
		theta := scope.In("theta").VariableWithValue("w", 0.5)
		phi := scope.In("phi").VariableWithValue("w", 2.0)
		for range 2 {
			// L_train = (theta·phi - 1)²
			out := Mul(theta.NodeValue(g), phi.NodeValue(g))
			opt.Step(scope, g, Square(AddScalar(out, -1)), "theta")
		}
		// L_val = (stop(theta)·phi - 3)²: only phi moves.
		out := StopGradient(theta.NodeValue(g))
		lv := Square(AddScalar(Mul(out, phi.NodeValue(g)), -3))
		opt.Step(scope, g, lv, "phi")
		return lv
	})
	if _, err := exec.Call(); err != nil {
		t.Fatal(err)
	}
	th := []float64{0.5}
	ph := []float64{2.0}
	ta := &pytorchAdam{lr: 0.05, wd: 0.01, b1: 0.9, b2: 0.999, eps: 1e-8}
	for range 2 {
		ta.step(th, []float64{2 * (th[0]*ph[0] - 1) * ph[0]})
	}
	pa := &pytorchAdam{lr: 0.1, b1: 0.9, b2: 0.999, eps: 1e-8}
	pa.step(ph, []float64{2 * (th[0]*ph[0] - 3) * th[0]})
	gotT := tensors.ToScalar[float64](store.GetVariable("/theta/w").MustValue())
	gotP := tensors.ToScalar[float64](store.GetVariable("/phi/w").MustValue())
	if math.Abs(gotT-th[0]) > 1e-12 || math.Abs(gotP-ph[0]) > 1e-12 {
		t.Fatalf("theta %.15g phi %.15g, want %.15g %.15g", gotT, gotP, th[0], ph[0])
	}
	if s := tensors.ToScalar[float64](store.GetVariable("/adam/theta/step").MustValue()); s != 2 {
		t.Fatalf("theta steps = %v, want 2", s)
	}
}

// TestAdamResetRejectsDecayChange: a group compiled without weight decay has
// no decay term, so Reset refuses to give it one.
func TestAdamResetRejectsDecayChange(t *testing.T) {
	store := model.NewStore()
	opt := NewOptimizer(Group{Name: "g", Adam: NewAdam(0.1, 0), Match: ScopePrefix("/p")})
	exec := model.MustNewExec(testBackend(t), store, func(scope *model.Scope, g *Graph) *Node {
		nn.UseVariableParameters(scope, g)
		p := scope.In("p").VariableWithValue("w", 1.0).NodeValue(g)
		loss := Mul(p, p)
		opt.Step(scope, g, loss)
		return loss
	})
	if _, err := exec.Call(); err != nil {
		t.Fatal(err)
	}
	if err := opt.Reset(store); err != nil {
		t.Fatalf("reset with unchanged settings: %v", err)
	}
	opt.Groups[0].Adam.WeightDecay = 0.01
	if err := opt.Reset(store); err == nil || !strings.Contains(err.Error(), `group "g" was compiled without weight decay`) {
		t.Fatalf("reset with new weight decay: err = %v", err)
	}
}
