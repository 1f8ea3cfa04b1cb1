package gokernels_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/gobackend"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/lwgcn/toolkit/lwgcn/gokernels"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

// adamSteps runs steps of train.Optimizer on a small least-squares model
// (a [37, 5] weight and a [5] bias; 37·5 values are not a multiple of any
// vector length) and returns the bits of every variable of the store:
// weights, moments and step counters.
func adamSteps(t *testing.T, on bool, wd float64, steps int) map[string][]uint64 {
	t.Helper()
	defer gokernels.AdamKernel.Set(on)()
	rng := rand.New(rand.NewPCG(12, 13))
	x := tensors.FromFlatDataAndDimensions(randF32(rng, 11*37), 11, 37)
	y := tensors.FromFlatDataAndDimensions(randF32(rng, 11*5), 11, 5)
	store := model.NewStore()
	opt := train.NewOptimizer(train.Group{Name: "all", Adam: train.NewAdam(0.01, wd), Match: func(*model.Variable) bool { return true }})
	exec, err := model.NewExec(gobackend.GetBackend(), store, func(scope *model.Scope, x, y *Node) *Node {
		g := x.Graph()
		w := scope.VariableWithValue("w", tensors.FromFlatDataAndDimensions(randF32(rand.New(rand.NewPCG(1, 1)), 37*5), 37, 5))
		b := scope.VariableWithShape("b", shapes.Make(dtypes.Float32, 5))
		d := Sub(Add(Dot(x, w.NodeValue(g)).Product(), ExpandAxes(b.NodeValue(g), 0)), y)
		loss := ReduceAllMean(Mul(d, d))
		opt.Step(scope, g, loss)
		return loss
	})
	if err != nil {
		t.Fatal(err)
	}
	for range steps {
		out, err := exec.Exec(x, y)
		if err != nil {
			t.Fatal(err)
		}
		out[0].FinalizeAll()
	}
	vars := map[string][]uint64{}
	for v := range store.IterVariables() {
		val, err := v.Value()
		if err != nil {
			t.Fatal(err)
		}
		vars[v.Path()] = flatBits(t, val)
	}
	return vars
}

func TestAdamSameAsBackend(t *testing.T) {
	for _, wd := range []float64{0, 5e-4} {
		t.Run(fmt.Sprint("wd=", wd), func(t *testing.T) {
			before := gokernels.FusedAdam.Load()
			on := adamSteps(t, true, wd, 5)
			// Two variables, three updates each.
			if n := gokernels.FusedAdam.Load() - before; n != 6 {
				t.Errorf("%d Adam updates fused, want 6", n)
			}
			off := adamSteps(t, false, wd, 5)
			if len(on) != len(off) || len(on) < 6 {
				t.Fatalf("%d variables with the kernel, %d without", len(on), len(off))
			}
			for name, a := range on {
				b := off[name]
				for i := range a {
					if a[i] != b[i] {
						t.Fatalf("%s value %d: bits %#x with the kernel, %#x without", name, i, a[i], b[i])
					}
				}
			}
		})
	}
}
