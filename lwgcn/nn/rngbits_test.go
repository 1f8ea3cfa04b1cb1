package nn_test

import (
	"slices"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/gobackend"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/lwgcn/toolkit/lwgcn/internal/nntest"
	"github.com/lwgcn/toolkit/lwgcn/nn"
)

// TestClosureUniform: drawn twice in a While body, closureUniform gives
// what two graph.RandomUniform calls give in the main function from the
// same state (values and the state after), in float32 and float64.
func TestClosureUniform(t *testing.T) {
	be := nntest.Backend(t)
	for _, dt := range []dtypes.DType{dtypes.Float32, dtypes.Float64} {
		shape := shapes.Make(dt, 4, 5)
		seed, err := RNGStateFromSeed(42)
		if err != nil {
			t.Fatal(err)
		}
		exec, err := NewExec(be, func(state *Node) []*Node {
			g := state.Graph()
			s1, u1 := RandomUniform(state, shape)
			s2, u2 := RandomUniform(s1, shape)
			carried := []*Node{Const(g, int32(0)), state, ZerosLike(u1), ZerosLike(u1)}
			cond := NewClosure(g, func(g *Graph) []*Node {
				i := Parameter(g, "i", carried[0].Shape())
				for k, c := range carried[1:] {
					Parameter(g, []string{"s", "a", "b"}[k], c.Shape())
				}
				return []*Node{LessThan(i, Const(g, int32(1)))}
			})
			body := NewClosure(g, func(g *Graph) []*Node {
				i := Parameter(g, "i", carried[0].Shape())
				s := Parameter(g, "s", carried[1].Shape())
				Parameter(g, "a", carried[2].Shape())
				Parameter(g, "b", carried[3].Shape())
				s, a := nn.ClosureUniform(g, s, shape)
				s, b := nn.ClosureUniform(g, s, shape)
				return []*Node{Add(i, Const(g, int32(1))), s, a, b}
			})
			res := While(cond, body, carried...)
			return []*Node{u1, u2, s2, res[2], res[3], res[1]}
		})
		if err != nil {
			t.Fatal(err)
		}
		out, err := exec.Exec(seed)
		if err != nil {
			t.Fatal(err)
		}
		flat := func(x *tensors.Tensor) []float64 {
			var v []float64
			switch f := x.Value().(type) {
			case [][]float32:
				for _, r := range f {
					for _, e := range r {
						v = append(v, float64(e))
					}
				}
			case [][]float64:
				for _, r := range f {
					v = append(v, r...)
				}
			case []uint64:
				for _, e := range f {
					v = append(v, float64(e))
				}
			}
			return v
		}
		for k, what := range []string{"first draw", "second draw", "state after"} {
			want, got := flat(out[k]), flat(out[k+3])
			if k == 2 && be.String() == gobackend.BackendName {
				// Pure Go's PCG is the first two words; with its rng kernel
				// off the backend leaves the third as a pooled buffer held it.
				want, got = want[:2], got[:2]
			}
			if len(want) == 0 || !slices.Equal(got, want) {
				t.Errorf("%s %s: loop %v, want %v", dt, what, got, want)
			}
		}
		if slices.Equal(flat(out[0]), flat(out[1])) {
			t.Errorf("%s: both draws equal: the state is not carried", dt)
		}
	}
}
