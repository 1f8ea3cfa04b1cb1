package bench

import (
	"fmt"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/lwgcn/toolkit/lwgcn/backend"
)

// BenchmarkPrimitives measures what the backend's primitive operations cost
// per element, the rates a training epoch is made of: the gather-and-sum of
// the sparse products (ELL chunks, as lwgcn/nn/sparse lays them out, and
// one block too large for the cache), elementwise binary ops (Adam's passes,
// activations), dense products and the random numbers of dropout. An
// epoch's essential work (gathered entries x columns, multiply-adds,
// parameters x Adam's passes) times these rates bounds its time from below
// on the backend ($GOMLX_BACKEND, GOMAXPROCS threads; on the pure-Go backend
// LWGCN_KERNELS=off measures compute's own ops, unset lwgcn's kernels).
// Every result is consumed in full (summed), so that no backend can drop
// work as unused.
func BenchmarkPrimitives(b *testing.B) {
	be, _, err := backend.Shared()
	if err != nil {
		b.Fatal(err)
	}
	run := func(b *testing.B, per float64, unit string, fn func(ps []*Node) *Node, args ...any) {
		exec, err := NewExec(be, fn)
		if err != nil {
			b.Fatal(err)
		}
		for range 2 {
			exec.MustExec(args...)
		}
		b.ResetTimer()
		for range b.N {
			exec.MustExec(args...)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/per, unit)
	}
	filled := func(n int, f func(i int) float32) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = f(i)
		}
		return v
	}

	// Gather and sum: rows of x [n, c] gathered into [k, r, c] blocks (one
	// index tensor each, as the ELL chunks) and summed over k.
	const n, c = 5202, 256
	x := tensors.FromFlatDataAndDimensions(filled(n*c, func(i int) float32 { return float32(i%17) / 17 }), n, c)
	// The rows are spread over all of x (5.3 MB), or over its first 256
	// rows only ("hot": 256 KB, cache-resident, the best case, as a
	// graph's hub rows are).
	for _, s := range []struct {
		name       string
		k, r, p    int
		sourceRows int
	}{{"ell-chunks-8x128", 8, 128, 16, n}, {"ell-chunks-64x16", 64, 16, 16, n}, {"ell-chunks-8x128-hot", 8, 128, 16, 256},
		{"one-block-8x5000", 8, 5000, 1, n}} {
		args := []any{x}
		for q := range s.p {
			idx := make([]int32, s.k*s.r)
			for i := range idx {
				idx[i] = int32((i*7919 + q*104729) % s.sourceRows)
			}
			args = append(args, tensors.FromFlatDataAndDimensions(idx, s.k, s.r, 1))
		}
		b.Run("gather-sum/"+s.name, func(b *testing.B) {
			run(b, float64(s.k*s.r*s.p*c), "ns/gathered", func(ps []*Node) *Node {
				var parts []*Node
				for _, idx := range ps[1:] {
					// Summed as [k, r·c], the layout the Go backend reduces with SIMD.
					blk := Reshape(Gather(ps[0], idx, false), s.k, s.r*c)
					parts = append(parts, Reshape(ReduceSum(blk, 0), s.r, c))
				}
				return ReduceAllSum(Concatenate(parts, 0))
			}, args...)
		})
	}

	// Elementwise: a chain of Mul and Add on [size] (744,000: Chameleon's
	// label-wise weight [2325, 5, 64]; 23,424: a Texas [183, 128] matrix).
	const chain = 100
	for _, size := range []int{744000, 23424} {
		v := tensors.FromFlatDataAndDimensions(filled(size, func(i int) float32 { return 1 + float32(i%7)/1e3 }), size)
		b.Run(fmt.Sprintf("elementwise/%d", size), func(b *testing.B) {
			run(b, float64(chain*size), "ns/elem-op", func(ps []*Node) *Node {
				y := ps[0]
				for i := range chain {
					if i%2 == 0 {
						y = Mul(y, ps[0])
					} else {
						y = Add(y, ps[0])
					}
				}
				return ReduceAllSum(y)
			}, v)
		})
	}

	// Dense products: GCNII's layers on Squirrel ([5201, 256] x [256, 256])
	// and on Cora ([2708, 64] x [64, 64]).
	for _, s := range [][3]int{{5201, 256, 256}, {2708, 64, 64}} {
		m, k, o := s[0], s[1], s[2]
		lhs := tensors.FromFlatDataAndDimensions(filled(m*k, func(i int) float32 { return float32(i%13) / 13 }), m, k)
		rhs := tensors.FromFlatDataAndDimensions(filled(k*o, func(i int) float32 { return float32(i%7) / 7 }), k, o)
		b.Run(fmt.Sprintf("dot/%dx%dx%d", m, k, o), func(b *testing.B) {
			run(b, float64(m*k*o), "ns/multiply-add", func(ps []*Node) *Node {
				return ReduceAllSum(Dot(ps[0], ps[1]).Product())
			}, lhs, rhs)
		})
	}

	// Random numbers: GoMLX's RandomUniform (the only random op dropout
	// has in a graph) for a Cora [2708, 64] mask.
	state, err := RNGStateFromSeed(1)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("random-uniform/2708x64", func(b *testing.B) {
		run(b, 2708*64, "ns/value", func(ps []*Node) *Node {
			_, u := RandomUniform(ps[0], shapes.Make(dtypes.Float32, 2708, 64))
			return ReduceAllSum(u)
		}, state)
	})
	// A dropout mask (nn.DropoutMask: the draws compared with the rate,
	// turned into 0 or 1/(1-rate)): what dropout costs per value.
	b.Run("dropout-mask/2708x64", func(b *testing.B) {
		run(b, 2708*64, "ns/value", func(ps []*Node) *Node {
			g := ps[0].Graph()
			_, u := RandomUniform(ps[0], shapes.Make(dtypes.Float32, 2708, 64))
			keep := GreaterOrEqual(u, Scalar(g, dtypes.Float32, 0.6))
			return ReduceAllSum(Where(keep, Scalar(g, dtypes.Float32, 2.5), Scalar(g, dtypes.Float32, 0)))
		}, state)
	})
}
