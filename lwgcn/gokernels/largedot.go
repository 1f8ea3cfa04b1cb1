package gokernels

import (
	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	gb "github.com/gomlx/compute/gobackend"
)

func init() {
	gb.SetNodeExecutor(compute.OpTypeDotGeneral, gb.PriorityUser, execLargeDot)
}

// largeDotMinParts is the number of parts (at most the backend's
// parallelism: 1 at GOMAXPROCS=1) a product must split into for the
// largedot kernel to run it. Compute runs
// one product on one core; at one thread its packed kernel is as fast or
// faster than the kernel's unpacked tiles (BenchmarkWeightGradient's x·W,
// Intel Xeon family 6 model 207: Cora's [2708, 64]·[64, 64] 0.34-0.42 /
// 0.47-0.52 ms, Squirrel's [5201, 256]·[256, 256] 7.9-8.2 / 8.6-9.4 ms),
// while with two threads the kernel's split rows win (0.57 / 0.46 ms and
// 9.0 / 5.9 ms; full LW-GCN epochs at two threads: Cora 169, 170 / 138,
// 145 ms, Squirrel 125, 132 / 120, 114 ms).
var largeDotMinParts = 2

// execLargeDot runs, with the largedot kernel, the float32 products that
// compute would run with its large AVX-512 kernel (operands packed into
// panels of productPanel contracting values) when the product can be split
// over at least largeDotMinParts workers: weightgrad's 8 x 32 tiles read
// straight from lhs [m, k] and rhs [k, n] (a transposed rhs [n, k] is
// transposed into a buffer first), each value a fused multiply-add chain
// from zero per panel, the panels added in order: compute's operations in
// its order. The others go to the next executor. The node is not
// rewritten: whether the kernel runs is decided at each call (the kernel's
// switch and the backend's parallelism then). A part whose worker is busy
// runs on the calling goroutine.
func execLargeDot(backend *gb.Backend, node *gb.Node, inputs []*gb.Buffer, _ []bool) (*gb.Buffer, error) {
	if !largeDotK.On() || !haveWeightGrad || node.Shape.DType != dtypes.Float32 || len(inputs) != 2 {
		return nil, gb.ErrFallback
	}
	p, ok := gb.DotParamsOf(node)
	if !ok || !largeDotFits(p) || computeTunedByEnv() ||
		node.Inputs[0].Shape.DType != dtypes.Float32 || node.Inputs[1].Shape.DType != dtypes.Float32 {
		return nil, gb.ErrFallback
	}
	m, n, k := p.LHSCross, p.RHSCross, p.Contracting
	tiles := m / weightGradRows
	parts := 1
	if backend.Workers != nil && backend.Workers.IsEnabled() {
		parts = max(1, min(backend.Workers.AdjustedMaxParallelism(), tiles))
	}
	if parts < largeDotMinParts {
		return nil, gb.ErrFallback
	}
	out, err := backend.GetBuffer(node.Shape)
	if err != nil {
		return nil, err
	}
	lhs, rhs, o := inputs[0].Flat.([]float32), inputs[1].Flat.([]float32), out.Flat.([]float32)
	if p.Transposed {
		// rhs [B, n, k] -> [B, k, n]: a weight, small beside the product.
		buf := dotScratch.Get().(*[]float32)
		defer dotScratch.Put(buf)
		t := grown(buf, p.Batch*n*k)
		for bi := range p.Batch {
			transpose2D32(t[bi*n*k:(bi+1)*n*k], rhs[bi*n*k:(bi+1)*n*k], n, k)
		}
		rhs = t
	}
	largeDotsRun.Add(1)
	for bi := range p.Batch {
		l, r, ob := lhs[bi*m*k:(bi+1)*m*k], rhs[bi*k*n:(bi+1)*k*n], o[bi*m*n:(bi+1)*m*n]
		// Whole tiles per part; the rows the tiles leave go with the last.
		inParallel(backend, parts, true, func(part int) {
			r0, r1 := part*tiles/parts*weightGradRows, (part+1)*tiles/parts*weightGradRows
			if part == parts-1 {
				r1 = m
			}
			largeDotRows(ob, l, r, m, k, n, r0, r1)
		})
	}
	return out, nil
}

// largeDotFits says compute runs the product with its large AVX-512 kernel
// (the one whose order the kernel repeats) and its columns come in whole
// 32-value tiles.
func largeDotFits(p gb.DotParams) bool {
	return p.Implementation == avx512Implementation && p.Batch > 0 && p.LHSCross >= weightGradRows &&
		p.Contracting > 0 && p.RHSCross%weightGradCols == 0 &&
		p.Batch*p.LHSCross*p.RHSCross*p.Contracting >= largeProductFlops
}
