package gokernels

import (
	"sync"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	gb "github.com/gomlx/compute/gobackend"
)

func init() {
	gb.SetNodeExecutor(compute.OpTypeDotGeneral, gb.PriorityUser, execSmallDot)
}

// compute's AVX-512 float32 product kernel, whose small variant (products of
// fewer than largeProductFlops multiply-adds) the smalldot kernel repeats.
const avx512Implementation = "simd:avx512"

// smallDotMaxTreeK: dot products of this many values or more (with 4 x 4
// tiles) are left to compute's own kernel unless its scalar loop has a
// third of the rows (smallDotPays).
const smallDotMaxTreeK = 64

// smallDotPays reports whether the kernel beats compute's own small kernel
// on the product (BenchmarkSmallDot, one thread, Intel Xeon family 6 model
// 207, ms per product, compute / kernel, the graph call included):
//   - rhs [k, n] with n >= 16 (4 x 16 tiles): always (m=183, n=128, k=128
//     0.141 / 0.081; m=128, n=128, k=183 0.068 / 0.070; n=25: 3x);
//   - dot products shorter than 16 values: always (no lanes to reduce:
//     compute computes them with scalar fused multiply-adds in 4 x 4 tiles;
//     m=2277, n=64, k=5 0.75 / 0.29);
//   - longer ones into fewer than 16 columns: never (the kernel's vectors,
//     16 columns each, would be filled only in part; n=5, k=64 0.17 /
//     0.28);
//   - 16 to 63 values: yes (m=183, n=128: k=32 0.098 / 0.075, k=48 0.11 /
//     0.10);
//   - 64 values or more: compute's tiles, reading rhs once per 4 rows, win
//     (k=96 0.15 / 0.16; k=128 0.17 / 0.28) unless its scalar loop has a
//     third of the rows or more (m % 4 of m; m=7, n=64, k=2,708 0.44 /
//     0.19; m=5, n=64, k=5,201 0.31 / 0.38).
func smallDotPays(p gb.DotParams) bool {
	m, n, k := p.LHSCross, p.RHSCross, p.Contracting
	switch {
	case smallDotMode(p) == smallDotTiles4x16 || k < 16:
		return true
	case n < 16:
		return false
	case k < smallDotMaxTreeK:
		return true
	}
	return 3*(m%4) >= m
}

// smallDotData is a DotGeneral rewritten by fuseSmallDots.
type smallDotData struct{ gb.DotParams }

// fuseSmallDots rewrites the float32 products that compute runs with its
// small AVX-512 kernel (4x4 tiles of dot products along the contracting
// axis, 4x16 tiles along the columns, scalar loops for the rows and columns
// left over) into the smalldot kernel, which computes each value with the
// same operations in the same order, vectorised along the output's columns.
// Inputs stay as they are: only the node's Data changes.
func fuseSmallDots(b *gb.Builder) { rewrite(b, &fusedSmallDots, matchSmallDot) }

func matchSmallDot(n *gb.Node, _ map[*gb.Node]int) (*smallDotData, []*gb.Node, bool) {
	if !haveSmallDot || n.OpType != compute.OpTypeDotGeneral || n.Shape.DType != dtypes.Float32 || len(n.Inputs) != 2 {
		return nil, nil, false
	}
	p, ok := gb.DotParamsOf(n)
	if !ok || p.Implementation != avx512Implementation || computeTunedByEnv() ||
		n.Inputs[0].Shape.DType != dtypes.Float32 || n.Inputs[1].Shape.DType != dtypes.Float32 {
		return nil, nil, false
	}
	if p.Batch <= 0 || p.LHSCross <= 0 || p.RHSCross <= 0 || p.Contracting <= 0 ||
		p.Batch*p.LHSCross*p.RHSCross*p.Contracting >= largeProductFlops {
		return nil, nil, false
	}
	if !smallDotPays(p) {
		return nil, nil, false
	}
	return &smallDotData{p}, n.Inputs, true
}

// smallDotOrder is how compute's small kernel orders a product's sums.
type smallDotOrder int

const (
	// smallDotTiles4x16: rhs [k, n] with n >= 16, 4 rows x 16 columns per
	// tile, each value a fused multiply-add chain from zero in k order.
	smallDotTiles4x16 smallDotOrder = iota
	// smallDotTiles4x4: rhs [n, k] (or [k, n] with n < 16, transposed
	// first), 4 x 4 tiles of dot products: each value's first k - k%16
	// products in 16 lanes (a fused chain per lane), the lanes added in a
	// tree, then the rest as a fused chain.
	smallDotTiles4x4
)

func smallDotMode(p gb.DotParams) smallDotOrder {
	if p.Transposed || p.RHSCross < 16 {
		return smallDotTiles4x4
	}
	return smallDotTiles4x16
}

// smallDotParallelFlops: products of fewer multiply-adds run on the calling
// goroutine only.
const smallDotParallelFlops = 1 << 17

// smallDotBlockRows is the rows of one task (a multiple of the tiles' 4).
const smallDotBlockRows = 32

// execSmallDot runs a product rewritten by fuseSmallDots; the others go to
// the next executor. Like weightgrad's, a rewritten node runs here even if
// the kernel was switched off since.
func execSmallDot(backend *gb.Backend, node *gb.Node, inputs []*gb.Buffer, _ []bool) (*gb.Buffer, error) {
	d, ok := node.Data.(*smallDotData)
	if !ok {
		return nil, gb.ErrFallback
	}
	out, err := backend.GetBuffer(node.Shape)
	if err != nil {
		return nil, err
	}
	p := d.DotParams
	lhs, rhs, o := inputs[0].Flat.([]float32), inputs[1].Flat.([]float32), out.Flat.([]float32)
	m, n, k := p.LHSCross, p.RHSCross, p.Contracting
	mode := smallDotMode(p)
	// cols [k, np] per batch item: rhs [k, n], or rhs [n, k] transposed,
	// with its rows padded to whole vectors (np), so that every load is a
	// whole vector; rhs itself when it is already that.
	vl := smallDotWidth()
	np := (n + vl - 1) / vl * vl
	per := k * np
	cols := rhs
	if p.Transposed || np != n {
		buf := dotScratch.Get().(*[]float32)
		defer dotScratch.Put(buf)
		cols = grown(buf, p.Batch*per+n*k)
		tmp := cols[p.Batch*per:]
		cols = cols[:p.Batch*per]
		for b := range p.Batch {
			cb, rb := cols[b*per:(b+1)*per], rhs[b*n*k:(b+1)*n*k]
			if p.Transposed && np == n {
				transpose2D32(cb, rb, n, k)
				continue
			}
			if p.Transposed {
				transpose2D32(tmp, rb, n, k)
				rb = tmp
			}
			for kk := range k {
				copy(cb[kk*np:kk*np+n], rb[kk*n:(kk+1)*n])
				clear(cb[kk*np+n : (kk+1)*np])
			}
		}
	}
	blocks := (m + smallDotBlockRows - 1) / smallDotBlockRows
	smallDotsRun.Add(1)
	inParallel(backend, p.Batch*blocks, p.Batch*m*n*k >= smallDotParallelFlops, func(t int) {
		b, r0 := t/blocks, (t%blocks)*smallDotBlockRows
		r1 := min(r0+smallDotBlockRows, m)
		smallDotRows(mode, o[b*m*n:(b+1)*m*n], lhs[b*m*k:(b+1)*m*k], cols[b*per:(b+1)*per], m, n, np, k, r0, r1)
	})
	return out, nil
}

// dotScratch holds the smalldot and largedot kernels' buffers of right
// operands (padded or transposed) between products (a fresh one per
// product was garbage of up to n·k values per call).
var dotScratch = sync.Pool{New: func() any { return new([]float32) }}

// grown returns (*buf)[:n], growing *buf when it is shorter (the values
// are left as they were).
func grown(buf *[]float32, n int) []float32 {
	if cap(*buf) < n {
		*buf = make([]float32, n)
	}
	*buf = (*buf)[:n]
	return *buf
}
