package gokernels_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/gobackend"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/lwgcn/toolkit/lwgcn/gokernels"
)

// timeExec compiles exec with kernel k set to on (a kernel takes effect when
// a computation is compiled: its first execution), then times its
// executions on args, reporting wall and CPU nanoseconds per unit (units of
// work per execution).
func timeExec(b *testing.B, k *gokernels.Kernel, on bool, exec *Exec, units float64, unit string, args ...any) {
	b.Helper()
	restore := k.Set(on)
	out, err := exec.Exec(args...)
	restore()
	if err != nil {
		b.Fatal(err)
	}
	for _, o := range out {
		o.FinalizeAll()
	}
	cpu0 := cpuTime()
	for b.Loop() {
		out, err := exec.Exec(args...)
		if err != nil {
			b.Fatal(err)
		}
		for _, o := range out {
			o.FinalizeAll()
		}
	}
	n := float64(b.N) * units
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/"+unit)
	b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/n, "cpu-ns/"+unit)
}

// BenchmarkGatherSum times one ELL chunk product (nn/sparse's form) with the
// gathersum kernel on and off: N rows of H columns, K slots of r rows
// (Squirrel-like: 5,201 x 256, chunks of 8 x 128; Cora-like: 2,708 x 64).
func BenchmarkGatherSum(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, c := range []struct{ n, h, k, r int }{{5201, 256, 8, 128}, {2708, 64, 4, 512}} {
		idx := make([]int32, c.k*c.r)
		for i := range idx {
			idx[i] = int32(rng.IntN(c.n + 1))
		}
		x := tensors.FromFlatDataAndDimensions(randF32(rng, c.n*c.h), c.n, c.h)
		ix := tensors.FromFlatDataAndDimensions(idx, c.k, c.r, 1)
		for _, on := range []bool{false, true} {
			b.Run(fmt.Sprintf("n=%d/h=%d/k=%d/r=%d/kernel=%v", c.n, c.h, c.k, c.r, on), func(b *testing.B) {
				exec, err := NewExec(gobackend.GetBackend(), func(x, idx *Node) *Node {
					return ReduceSum(ellChunk(x, idx, nil, c.k, c.r))
				})
				if err != nil {
					b.Fatal(err)
				}
				timeExec(b, gokernels.GatherSumKernel, on, exec, float64(c.k*c.r*c.h), "gathered-value", x, ix)
			})
		}
	}
}

// cpuTime is the process's user and system CPU time: on a shared machine it
// counts the work done, not the time spent waiting for a core.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkWeightGradient times xᵀ·v (a dense layer's weight gradient) with
// the weightgrad kernel off (graph building transposes x and v for the
// backend's matrix kernel, which packs them) and on (read as they are),
// and the forward product x·W of the same work with the largedot kernel off
// (compute's packed product) and on: GCNII's layers on Cora ([2708, 64])
// and on Squirrel ([5201, 256]).
func BenchmarkWeightGradient(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	xtv := func(x, v, _ *Node) *Node { return DotGeneral(x, []int{0}, nil, v, []int{0}, nil) }
	xw := func(x, _, w *Node) *Node { return Dot(x, w).Product() }
	for _, c := range []struct{ n, a int }{{2708, 64}, {5201, 256}} {
		x := tensors.FromFlatDataAndDimensions(randF32(rng, c.n*c.a), c.n, c.a)
		v := tensors.FromFlatDataAndDimensions(randF32(rng, c.n*c.a), c.n, c.a)
		w := tensors.FromFlatDataAndDimensions(randF32(rng, c.a*c.a), c.a, c.a)
		for _, k := range []struct {
			name   string
			kernel *gokernels.Kernel
			on     bool
			fn     func(x, v, w *Node) *Node
		}{
			{"xᵀv/weightgrad=false", gokernels.WeightGradKernel, false, xtv},
			{"xᵀv/weightgrad=true", gokernels.WeightGradKernel, true, xtv},
			{"xW/largedot=false", gokernels.LargeDotKernel, false, xw},
			{"xW/largedot=true", gokernels.LargeDotKernel, true, xw},
		} {
			b.Run(fmt.Sprintf("%dx%d/%s", c.n, c.a, k.name), func(b *testing.B) {
				// Each case times its own kernel against compute's product.
				other := gokernels.LargeDotKernel
				if k.kernel == other {
					other = gokernels.WeightGradKernel
				}
				defer other.Set(false)()
				exec, err := NewExec(gobackend.GetBackend(), func(x, v, w *Node) *Node { return k.fn(x, v, w) })
				if err != nil {
					b.Fatal(err)
				}
				timeExec(b, k.kernel, k.on, exec, float64(c.n*c.a*c.a), "multiply-add", x, v, w)
			})
		}
	}
}

// BenchmarkTranspose times a 2-D float32 transpose with the transpose
// kernel on and off ([2708, 64]: Cora's layer inputs; [5201, 256]:
// Squirrel's).
func BenchmarkTranspose(b *testing.B) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, c := range [][2]int{{2708, 64}, {5201, 256}} {
		x := tensors.FromFlatDataAndDimensions(randF32(rng, c[0]*c[1]), c[0], c[1])
		for _, on := range []bool{false, true} {
			b.Run(fmt.Sprintf("%dx%d/kernel=%v", c[0], c[1], on), func(b *testing.B) {
				defer gokernels.TransposeKernel.Set(on)()
				exec, err := NewExec(gobackend.GetBackend(), func(x *Node) *Node { return ReduceAllSum(Transpose(x, 0, 1)) })
				if err != nil {
					b.Fatal(err)
				}
				for b.Loop() {
					out, _ := exec.Exec(x)
					out[0].FinalizeAll()
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(c[0]*c[1]), "ns/value")
			})
		}
	}
}

// BenchmarkRowScatter times GAT's scatters with the rowscatter kernel on and
// off: the segment softmax's ScatterMax and ScatterSum of [E, 8] scores and
// the messages' ScatterSum of [E, 8, 8] into ascending destinations
// (Chameleon-like: 2,277 nodes, 36,101 edges with self loops; Squirrel-like:
// 5,201 nodes, 217,073 edges), and the same scatters into unsorted rows
// (Gather's gradient: the sources).
func BenchmarkRowScatter(b *testing.B) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, c := range []struct{ n, e int }{{2277, 36101}, {5201, 217073}} {
		for _, sorted := range []bool{true, false} {
			idx := make([]int32, c.e)
			for i := range idx {
				idx[i] = int32(rng.IntN(c.n))
			}
			if sorted {
				slices.Sort(idx)
			}
			ix := tensors.FromFlatDataAndDimensions(idx, c.e, 1)
			s := tensors.FromFlatDataAndDimensions(randF32(rng, c.e*8), c.e, 8)
			m := tensors.FromFlatDataAndDimensions(randF32(rng, c.e*64), c.e, 8, 8)
			for _, on := range []bool{false, true} {
				b.Run(fmt.Sprintf("n=%d/e=%d/sorted=%v/kernel=%v", c.n, c.e, sorted, on), func(b *testing.B) {
					restore := gokernels.RowScatterKernel.Set(on)
					exec, err := NewExec(gobackend.GetBackend(), func(idx, s, m *Node) (*Node, *Node, *Node) {
						g := s.Graph()
						low := BroadcastToShape(Infinity(g, s.DType(), -1), shapes.Make(s.DType(), c.n, 8))
						return ScatterMax(low, idx, s, sorted, false),
							ScatterSum(Zeros(g, shapes.Make(s.DType(), c.n, 8)), idx, s, sorted, false),
							ScatterSum(Zeros(g, shapes.Make(s.DType(), c.n, 8, 8)), idx, m, sorted, false)
					})
					if err != nil {
						b.Fatal(err)
					}
					outs, err := exec.Exec(ix, s, m) // compiles with the kernel as set
					restore()
					if err != nil {
						b.Fatal(err)
					}
					for _, o := range outs {
						o.FinalizeAll()
					}
					cpu0 := cpuTime()
					for b.Loop() {
						outs, err := exec.Exec(ix, s, m)
						if err != nil {
							b.Fatal(err)
						}
						for _, o := range outs {
							o.FinalizeAll()
						}
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(c.e*80), "ns/value")
					b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N)/float64(c.e*80), "cpu-ns/value")
				})
			}
		}
	}
}

// BenchmarkRandomBits times RandomUniform's random bits for a dropout mask of
// Cora's GCNII layers ([2709, 64] float32, 693 KB of bits) and of a
// Squirrel-sized layer ([5201, 256]) with the rng kernel on.
func BenchmarkRandomBits(b *testing.B) {
	for _, dims := range [][]int{{2709, 64}, {5201, 256}} {
		b.Run(fmt.Sprint(dims), func(b *testing.B) {
			state, err := RNGStateFromSeed(3)
			if err != nil {
				b.Fatal(err)
			}
			exec, err := NewExec(gobackend.GetBackend(), func(s *Node) (*Node, *Node) {
				return RandomUniform(s, shapes.Make(dtypes.Float32, dims...))
			})
			if err != nil {
				b.Fatal(err)
			}
			cpu0 := cpuTime()
			for b.Loop() {
				out, err := exec.Exec(state)
				if err != nil {
					b.Fatal(err)
				}
				state = out[0]
				out[1].FinalizeAll()
			}
			bytes := float64(b.N) * float64(4*dims[0]*dims[1])
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/bytes, "ns/byte")
			b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/bytes, "cpu-ns/byte")
		})
	}
}

// BenchmarkSmallDot times the products of LW-GCN\G on the sweep's Chameleon
// graphs (2,277 nodes, hidden 64 and 25, 5 classes) that compute runs with
// its small kernel, with the smalldot kernel on and off (ns per
// multiply-add).
func BenchmarkSmallDot(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, c := range []struct {
		m, n, k    int
		transposed bool
	}{{2277, 64, 5, true}, {2277, 64, 25, true}, {5, 64, 2277, true}, {2277, 25, 64, false}, {64, 25, 2277, false}, {2277, 5, 64, false}, {64, 5, 2277, false}} {
		rdims, rc := []int{c.k, c.n}, 0
		if c.transposed {
			rdims, rc = []int{c.n, c.k}, 1
		}
		lhs := tensors.FromFlatDataAndDimensions(randF32(rng, c.m*c.k), c.m, c.k)
		rhs := tensors.FromFlatDataAndDimensions(randF32(rng, c.n*c.k), rdims...)
		for _, on := range []bool{false, true} {
			name := fmt.Sprintf("m=%d,n=%d,k=%d,transposed=%v/smalldot=%v", c.m, c.n, c.k, c.transposed, on)
			b.Run(name, func(b *testing.B) {
				exec := MustNewExec(gobackend.GetBackend(), func(l, r *Node) *Node {
					return DotGeneral(l, []int{1}, nil, r, []int{rc}, nil)
				})
				timeExec(b, gokernels.SmallDotKernel, on, exec, float64(c.m*c.n*c.k), "madd", lhs, rhs)
			})
		}
	}
}
