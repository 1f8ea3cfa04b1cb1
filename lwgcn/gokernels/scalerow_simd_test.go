//go:build goexperiment.simd

package gokernels

import (
	"fmt"
	"math/rand/v2"
	"simd"
	"testing"
)

// scaleRowFloatArg is scaleRowF32 as it was, the scale passed as a float32
// argument (kept to measure the difference: BenchmarkScaleRow).
func scaleRowFloatArg(dst, src []float32, c float32) {
	vc := simd.BroadcastFloat32s(c)
	vl := vc.Len()
	src = src[:len(dst)]
	i := 0
	for ; i+vl <= len(dst); i += vl {
		simd.LoadFloat32s(src[i:]).Mul(vc).Store(dst[i:])
	}
	for ; i < len(dst); i++ {
		dst[i] = src[i] * c
	}
}

// BenchmarkScaleRow scales Cora's 2708 rows of 64 (the ELL product's row
// scale) with the scale read from its slice in the kernel (scaleRowF32)
// and passed as a float32 argument, and 2708 rows of 5 (a GCN's second
// layer on five classes) with the kernel and with scaleRowFloatArg, whose
// short rows are a scalar loop after a vector broadcast; ns/op is for all
// rows.
func BenchmarkScaleRow(b *testing.B) {
	const n = 2708
	rng := rand.New(rand.NewPCG(1, 2))
	rs := make([]float32, n)
	for i := range rs {
		rs[i] = rng.Float32()
	}
	for _, h := range []int{64, 5} {
		src, dst := make([]float32, n*h), make([]float32, n*h)
		for i := range src {
			src[i] = rng.Float32()
		}
		b.Run(fmt.Sprintf("h=%d/from-slice", h), func(b *testing.B) {
			for b.Loop() {
				for i := range n {
					scaleRowF32(dst[i*h:(i+1)*h], src[i*h:(i+1)*h], rs, i)
				}
			}
		})
		b.Run(fmt.Sprintf("h=%d/float-argument", h), func(b *testing.B) {
			for b.Loop() {
				for i := range n {
					scaleRowFloatArg(dst[i*h:(i+1)*h], src[i*h:(i+1)*h], rs[i])
				}
			}
		})
	}
}

// TestScaleRowByValue: the kernel's rows are the scalar products, bit for
// bit, for widths with and without a vector tail.
func TestScaleRowByValue(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, h := range []int{1, 7, 16, 64, 70} {
		src, dst, cs := make([]float32, h), make([]float32, h), []float32{rng.Float32(), rng.Float32() * 3}
		for i := range src {
			src[i] = rng.Float32()*2 - 1
		}
		scaleRowF32(dst, src, cs, 1)
		for i := range src {
			if dst[i] != src[i]*cs[1] {
				t.Fatalf("h=%d: dst[%d] = %v, want %v", h, i, dst[i], src[i]*cs[1])
			}
		}
	}
}
