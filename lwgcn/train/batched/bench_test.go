package batched

import (
	"fmt"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/lwgcn/toolkit/internal/dstest"
	"github.com/lwgcn/toolkit/lwgcn/backend"
	"github.com/lwgcn/toolkit/lwgcn/datasets"
	"github.com/lwgcn/toolkit/lwgcn/models"
	"github.com/lwgcn/toolkit/lwgcn/train"
)

// BenchmarkSplitEpoch measures one epoch of the reference GCN (64 hidden,
// dropout 0.5) on the real datasets: "batched" trains 10 splits per call
// and reports the time per split-epoch (ns/op divided by 10 as
// ns/split-epoch), "alone" one split per call. `lwgcn bench -batched`
// records the same in results/bench-batched.json.
func BenchmarkSplitEpoch(b *testing.B) {
	for _, name := range []string{"texas", "chameleon", "squirrel", "cora"} {
		g := datasets.Standard(dstest.Load(b, name))
		m := models.GCN{Hidden: 64, Dropout: 0.5}
		bk, _ := backend.MustShared()
		for _, r := range []int{1, 3, 10} {
			b.Run(fmt.Sprintf("%s/batched%d", name, r), func(b *testing.B) {
				var runs []train.Run
				for s := range r {
					runs = append(runs, train.Run{Split: s % len(g.Splits()), Seed: int64(15 + s)})
				}
				t, err := New(bk, m, g, Config{Epochs: 1, LR: 0.01, WeightDecay: 5e-4, BatchSize: len(runs)})
				if err != nil {
					b.Fatal(err)
				}
				er, err := t.PrepareBatch(runs)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := er.Epoch(); err != nil {
					b.Fatal(err)
				}
				b.ResetTimer()
				for range b.N {
					if _, err := er.Epoch(); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(runs)), "ns/split-epoch")
			})
		}
		b.Run(name+"/alone", func(b *testing.B) {
			t, err := train.New(bk, m, g, train.Config{Epochs: 1, LR: 0.01, WeightDecay: 5e-4})
			if err != nil {
				b.Fatal(err)
			}
			er, err := t.PrepareRun(train.Run{Split: 0, Seed: 15})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := er.Epoch(); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				if _, err := er.Epoch(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/split-epoch")
		})
	}
}

// BenchmarkPerRun measures PerRun forward and backward (the gradients for
// h and the weights) for 10 runs on Chameleon's size (N = 2277, in = 64)
// at several output widths, with the weight gradient's rows padded to
// PerRunGradientRows ("padded") and not ("exact").
func BenchmarkPerRun(b *testing.B) {
	bk, _, err := backend.Shared()
	if err != nil {
		b.Fatal(err)
	}
	const n, r, in = 2277, 10, 64
	for _, out := range []int{1, 5, 7, 8, 64} {
		for _, pad := range []bool{true, false} {
			name := map[bool]string{true: "padded", false: "exact"}[pad]
			b.Run(fmt.Sprintf("out=%d/%s", out, name), func(b *testing.B) {
				defer func(old bool) { perRunPadRows = old }(perRunPadRows)
				perRunPadRows = pad
				exec, err := NewExec(bk, func(h, wT, c *Node) []*Node {
					bb := &Builder{Runs: r, g: h.Graph()}
					grads := Gradient(ReduceAllSum(Mul(bb.PerRun(h, wT), c)), h, wT)
					return []*Node{ReduceAllSum(grads[0]), ReduceAllSum(grads[1])}
				})
				if err != nil {
					b.Fatal(err)
				}
				fill := func(dims ...int) *tensors.Tensor {
					t := tensors.FromShape(shapes.Make(dtypes.Float32, dims...))
					tensors.MustMutableFlatData(t, func(v []float32) {
						for i := range v {
							v[i] = float32(i%97)/97 - 0.5
						}
					})
					return t
				}
				h, wT, c := fill(n, r*in), fill(r, out, in), fill(n, r*out)
				for range 2 {
					exec.MustExec(h, wT, c)
				}
				b.ResetTimer()
				for range b.N {
					exec.MustExec(h, wT, c)
				}
			})
		}
	}
}

// BenchmarkStackRuns measures stacking 10 runs' dropout masks of one value
// per entry (Chameleon's 29,157 feature entries) into [NNZ, R]: StackRuns
// ("transposed") against the interleaving Stack(xs, 1) ("interleaved").
func BenchmarkStackRuns(b *testing.B) {
	bk, _, err := backend.Shared()
	if err != nil {
		b.Fatal(err)
	}
	const nnz, r = 29157, 10
	for _, tc := range []struct {
		name  string
		stack func([]*Node) *Node
	}{{"transposed", StackRuns}, {"interleaved", func(xs []*Node) *Node { return Stack(xs, 1) }}} {
		b.Run(tc.name, func(b *testing.B) {
			exec, err := NewExec(bk, func(x *Node) *Node {
				xs := make([]*Node, r)
				for k := range xs {
					xs[k] = AddScalar(x, float64(k))
				}
				return ReduceAllSum(tc.stack(xs))
			})
			if err != nil {
				b.Fatal(err)
			}
			v := make([]float32, nnz)
			xt := tensors.FromFlatDataAndDimensions(v, nnz)
			exec.MustExec(xt)
			b.ResetTimer()
			for range b.N {
				exec.MustExec(xt)
			}
		})
	}
}
