package gokernels

import (
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

// Where compute's own small kernel is faster (BenchmarkSmallDot, one
// thread, Intel Xeon family 6 model 207), the product stays with it:
//   - rhs [n, k] with fewer than smallDotMinRows rows: the kernel would
//     transpose rhs (n·k values) for few rows of products (m=5, n=64,
//     k=2,277: 0.47 ms against the backend's 0.15);
//   - dot products of 16 values or more (compute's 4 x 4 tiles reduce
//     them in full vectors along k) with fewer than 16 columns, whose
//     vectors the kernel fills only in part (n=5, k=64: 0.28 against 0.17
//     ms; n=5, k=2,277: 0.37 against 0.16), or of smallDotMaxTreeK values
//     or more, where compute's tiles, reading each of rhs's values once per
//     4 rows, win over the kernel's 16 lanes per row (m=183, n=128: k=32
//     0.075 against 0.098 ms, k=48 0.10 against 0.11, k=96 0.16 against
//     0.15).
const (
	smallDotMinRows  = 16
	smallDotMaxTreeK = 64
)

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
	if p.Transposed && p.LHSCross < smallDotMinRows {
		return nil, nil, false
	}
	if smallDotMode(p) == smallDotTiles4x4 && p.Contracting >= 16 && (p.RHSCross < 16 || p.Contracting >= smallDotMaxTreeK) {
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
		cols = make([]float32, p.Batch*per)
		var tmp []float32
		if p.Transposed {
			tmp = make([]float32, n*k)
		}
		for b := range p.Batch {
			cb, rb := cols[b*per:], rhs[b*n*k:(b+1)*n*k]
			if p.Transposed {
				transpose2D32(tmp, rb, n, k)
				rb = tmp
			}
			for kk := range k {
				copy(cb[kk*np:kk*np+n], rb[kk*n:(kk+1)*n])
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
