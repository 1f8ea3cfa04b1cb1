package gokernels

import (
	"os"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	gb "github.com/gomlx/compute/gobackend"
)

func init() {
	gb.SetNodeExecutor(compute.OpTypeDotGeneral, gb.PriorityUser, execWeightGrad)
}

// Compute's float32 matrix product on AVX-512 hosts, whose order of
// operations the weightgrad kernel repeats (internal/gobackend/dot/matmul):
// products of fewer multiply-adds than largeProductFlops take its small
// kernel (another order, so no rewrite), the others its large one, which
// sums the contracting axis in panels of productPanel values.
const (
	largeProductFlops = 4 * 1024 * 1024 // matmul.SmallMatMulSizeThreshold
	productPanel      = 192             // avx512.AVX512ParamsFloat32.PanelContractingSize
)

// The output tile of tile8x32: 8 rows x 32 columns, 16 vectors in
// registers, compute's large kernel's tile. The loop over a panel's rows is
// assembly (weightgrad_amd64.s): in Go, the compiler kept the accumulators
// on the stack, and the kernel ran at half the backend's rate.
const (
	weightGradRows = 8
	weightGradCols = 32
)

// computeTunedByEnv reports whether an environment variable of compute's
// changes its product's kernel or panels (GOMLX_GO_AVX512_*): then its order
// is not the one weightgrad repeats.
func computeTunedByEnv() bool {
	for _, v := range []string{"GOMLX_GO_AVX512_ASM", "GOMLX_GO_AVX512_KC", "GOMLX_GO_AVX512_MC", "GOMLX_GO_AVX512_NC"} {
		if os.Getenv(v) != "" {
			return true
		}
	}
	return false
}

// weightGradData is a DotGeneral rewritten by fuseWeightGrads: out [m, k]
// = aᵀ·b for its inputs a [n, m] and b [n, k].
type weightGradData struct{ n, m, k int }

// fuseWeightGrads rewrites the products aᵀ·b of 2-D float32 operands
// contracted on their first axes — a weight gradient xᵀ·dy as GoMLX writes
// it — which compute runs as DotGeneral(Transpose(a), Transpose(b)) or
// DotGeneral(Transpose(a), b), into one product read straight from a and b:
// no transposes and no packing.
func fuseWeightGrads(b *gb.Builder) { rewrite(b, &fusedWeightGrads, matchWeightGrad) }

func matchWeightGrad(d *gb.Node, _ map[*gb.Node]int) (*weightGradData, []*gb.Node, bool) {
	if d.OpType != compute.OpTypeDotGeneral || d.Shape.DType != dtypes.Float32 || d.Shape.Rank() != 2 || len(d.Inputs) != 2 {
		return nil, nil, false
	}
	lt, rt := d.Inputs[0], d.Inputs[1]
	if !isTranspose2D(lt) || rt.Shape.Rank() != 2 {
		return nil, nil, false
	}
	a := lt.Inputs[0]
	m, n := lt.Shape.Dimensions[0], lt.Shape.Dimensions[1]
	k := d.Shape.Dimensions[1]
	if d.Shape.Dimensions[0] != m || k == n {
		return nil, nil, false
	}
	// lt [m, n] = aᵀ; the right operand is either rt = bᵀ [k, n] (compute's
	// transposed layout: it transposed both) or b [n, k] itself (its
	// non-transposed layout: b's contracting axis already leads). k == n
	// would fit both layouts, which only the node's parameters (compute's,
	// unexported) tell apart: those stay with the backend.
	var b *gb.Node
	switch {
	case rt.Shape.Dimensions[0] == k && rt.Shape.Dimensions[1] == n && isTranspose2D(rt):
		b = rt.Inputs[0]
	case rt.Shape.Dimensions[0] == n && rt.Shape.Dimensions[1] == k:
		b = rt
	default:
		return nil, nil, false
	}
	if a.Shape.DType != dtypes.Float32 || b.Shape.DType != dtypes.Float32 || !weightGradFits(n, m, k) {
		return nil, nil, false
	}
	return &weightGradData{n: n, m: m, k: k}, []*gb.Node{a, b}, true
}

// weightGradFits says the kernel runs this product here in compute's order:
// AVX-512 (compute's large AVX-512 kernel), compute's own settings, a product
// large enough for that kernel, and b's rows whole 32-value blocks.
func weightGradFits(n, m, k int) bool {
	return haveWeightGrad && !computeTunedByEnv() && n*m*k >= largeProductFlops && k%32 == 0
}

// isTranspose2D reports whether t is Transpose(x, [1, 0]) of a 2-D x.
func isTranspose2D(t *gb.Node) bool {
	if t.OpType != compute.OpTypeTranspose || len(t.Inputs) != 1 || t.Shape.Rank() != 2 {
		return false
	}
	p, ok := t.Data.([]int)
	return ok && len(p) == 2 && p[0] == 1 && p[1] == 0
}

// execWeightGrad runs a rewritten DotGeneral; the others go to the backend.
// A rewritten node has no backend form left (its inputs are no longer the
// backend's operands), so it runs here even if the kernel was switched off
// since.
func execWeightGrad(backend *gb.Backend, node *gb.Node, inputs []*gb.Buffer, _ []bool) (*gb.Buffer, error) {
	d, ok := node.Data.(*weightGradData)
	if !ok {
		return nil, gb.ErrFallback
	}
	out, err := backend.GetBuffer(node.Shape)
	if err != nil {
		return nil, err
	}
	a, b, o := inputs[0].Flat.([]float32), inputs[1].Flat.([]float32), out.Flat.([]float32)
	// One part per worker, each a block of whole tiles that it runs panel
	// by panel (weightGradBlock), so that a panel of a and b stays in cache
	// for all its tiles: split by columns when there are enough column
	// tiles, else by rows (the rows the tiles leave go with the last part).
	tilesM, tilesK := d.m/weightGradRows, d.k/weightGradCols
	workers := 1
	if backend.Workers != nil && backend.Workers.IsEnabled() {
		workers = backend.Workers.AdjustedMaxParallelism()
	}
	byCols := tilesK >= workers || tilesK >= tilesM
	parts := max(1, min(workers, max(tilesK, tilesM)))
	weightGradsRun.Add(1)
	inParallel(backend, parts, parts > 1, func(p int) {
		if byCols {
			weightGradBlock(o, a, b, d.n, d.m, d.k, 0, d.m, p*tilesK/parts*weightGradCols, (p+1)*tilesK/parts*weightGradCols)
			return
		}
		r0, r1 := p*tilesM/parts*weightGradRows, (p+1)*tilesM/parts*weightGradRows
		if p == parts-1 {
			r1 = d.m
		}
		weightGradBlock(o, a, b, d.n, d.m, d.k, r0, r1, 0, d.k)
	})
	return out, nil
}
