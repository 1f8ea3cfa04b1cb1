// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package avx2

import (
	"runtime"
	"simd/archsimd"
	"sync"
	"unsafe"

	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/internal/gobackend/dot"
	"github.com/gomlx/compute/internal/gobackend/dot/matmul"
	"github.com/pkg/errors"
	//alt:bf16 "github.com/gomlx/compute/dtypes/bfloat16"
	//alt:f16 "github.com/gomlx/compute/dtypes/float16"
)

// avx2LargeFloat32 implements a "packing" version of the matrix multiplication for larger inputs.
func avx2LargeFloat32( //alt:f32
	//alt:bf16 func avx2LargeBFloat16(
	//alt:f16 func avx2LargeFloat16(
	//alt:f64 func avx2LargeFloat64(
	backend *gobackend.Backend,
	layout dot.Layout,
	lhs, rhs []float32, //alt:f32
	//alt:bf16 lhs, rhs []bfloat16.BFloat16,
	//alt:f16 lhs, rhs []float16.Float16,
	//alt:f64 lhs, rhs []float64,
	batchSize, lhsCrossSize, rhsCrossSize, contractingSize int,
	output []float32, //alt:f32|bf16|f16
	//alt:f64 output []float64,
	nodeData *dot.NodeData,
) {
	params := AVX2ParamsFloat32 //alt:f32
	//alt:bf16 params := AVX2ParamsBFloat16
	//alt:f16 params := AVX2ParamsFloat16
	//alt:f64 params := AVX2ParamsFloat64
	maxWorkers := backend.Workers.AdjustedMaxParallelism()

	// Strides for each matrix in the batch.
	lhsBatchStride := lhsCrossSize * contractingSize
	rhsBatchStride := rhsCrossSize * contractingSize
	outputBatchStride := lhsCrossSize * rhsCrossSize

	numKPanels := (contractingSize + params.PanelContractingSize - 1) / params.PanelContractingSize
	numColPanels := (rhsCrossSize + params.RHSPanelCrossSize - 1) / params.RHSPanelCrossSize
	rhsPanelsPerBatch := numKPanels * numColPanels
	numRowPanels := (lhsCrossSize + params.LHSPanelCrossSize - 1) / params.LHSPanelCrossSize
	lhsPanelsPerBatch := numKPanels * numRowPanels

	var cachedRHSPanels [][]float32 //alt:f32
	//alt:bf16 var cachedRHSPanels [][]bfloat16.BFloat16
	//alt:f16 var cachedRHSPanels [][]float16.Float16
	//alt:f64 var cachedRHSPanels [][]float64
	var cachedLHSPanels [][]float32 //alt:f32
	//alt:bf16 var cachedLHSPanels [][]bfloat16.BFloat16
	//alt:f16 var cachedLHSPanels [][]float16.Float16
	//alt:f64 var cachedLHSPanels [][]float64
	if nodeData != nil {
		if nodeData.PackedRHSCache != nil {
			nodeData.PackedRHSCache.Once.Do(func() {
				ref, panels := avx2PrepackRHSFloat32(backend, layout, rhs, batchSize, rhsCrossSize, contractingSize, params) //alt:f32
				//alt:bf16 ref, panels := avx2PrepackRHSBFloat16(backend, layout, rhs, batchSize, rhsCrossSize, contractingSize, params)
				//alt:f16 ref, panels := avx2PrepackRHSFloat16(backend, layout, rhs, batchSize, rhsCrossSize, contractingSize, params)
				//alt:f64 ref, panels := avx2PrepackRHSFloat64(backend, layout, rhs, batchSize, rhsCrossSize, contractingSize, params)
				nodeData.PackedRHSCache.Buffer = ref
				nodeData.PackedRHSCache.Panels = panels
			})
			if p, ok := nodeData.PackedRHSCache.Panels.([][]float32); ok { //alt:f32
				//alt:bf16 if p, ok := nodeData.PackedRHSCache.Panels.([][]bfloat16.BFloat16); ok {
				//alt:f16 if p, ok := nodeData.PackedRHSCache.Panels.([][]float16.Float16); ok {
				//alt:f64 if p, ok := nodeData.PackedRHSCache.Panels.([][]float64); ok {
				cachedRHSPanels = p
			}
		}

		if nodeData.PackedLHSCache != nil {
			nodeData.PackedLHSCache.Once.Do(func() {
				ref, panels := avx2PrepackLHSFloat32(backend, lhs, batchSize, lhsCrossSize, contractingSize, params) //alt:f32
				//alt:bf16 ref, panels := avx2PrepackLHSBFloat16(backend, lhs, batchSize, lhsCrossSize, contractingSize, params)
				//alt:f16 ref, panels := avx2PrepackLHSFloat16(backend, lhs, batchSize, lhsCrossSize, contractingSize, params)
				//alt:f64 ref, panels := avx2PrepackLHSFloat64(backend, lhs, batchSize, lhsCrossSize, contractingSize, params)
				nodeData.PackedLHSCache.Buffer = ref
				nodeData.PackedLHSCache.Panels = panels
			})
			if p, ok := nodeData.PackedLHSCache.Panels.([][]float32); ok { //alt:f32
				//alt:bf16 if p, ok := nodeData.PackedLHSCache.Panels.([][]bfloat16.BFloat16); ok {
				//alt:f16 if p, ok := nodeData.PackedLHSCache.Panels.([][]float16.Float16); ok {
				//alt:f64 if p, ok := nodeData.PackedLHSCache.Panels.([][]float64); ok {
				cachedLHSPanels = p
			}
		}
	}

	if maxWorkers <= 1 {
		// No parallelism, do each matrix multiplication in the batch sequentially.
		var (
			packedLHSRef *gobackend.Buffer
			packedLHS    []float32 //alt:f32
			//alt:bf16 packedLHS []bfloat16.BFloat16
			//alt:f16 packedLHS []float16.Float16
			//alt:f64 packedLHS []float64
		)
		if len(cachedLHSPanels) == 0 {
			var ok bool
			packedLHSRef, packedLHS, ok = GetBuffer[float32](backend, params.LHSPanelCrossSize*params.PanelContractingSize) //alt:f32
			//alt:bf16 packedLHSRef, packedLHS, ok = GetBuffer[bfloat16.BFloat16](backend, params.LHSPanelCrossSize*params.PanelContractingSize)
			//alt:f16 packedLHSRef, packedLHS, ok = GetBuffer[float16.Float16](backend, params.LHSPanelCrossSize*params.PanelContractingSize)
			//alt:f64 packedLHSRef, packedLHS, ok = GetBuffer[float64](backend, params.LHSPanelCrossSize*params.PanelContractingSize)
			if !ok {
				return
			}
			defer ReleaseBuffer(packedLHSRef)
		}
		var (
			packedRHSRef *gobackend.Buffer
			packedRHS    []float32 //alt:f32
			//alt:bf16 packedRHS []bfloat16.BFloat16
			//alt:f16 packedRHS []float16.Float16
			//alt:f64 packedRHS []float64
		)
		if len(cachedRHSPanels) == 0 {
			var ok bool
			packedRHSRef, packedRHS, ok = GetBuffer[float32](backend, params.PanelContractingSize*params.RHSPanelCrossSize) //alt:f32
			//alt:bf16 packedRHSRef, packedRHS, ok = GetBuffer[bfloat16.BFloat16](backend, params.PanelContractingSize*params.RHSPanelCrossSize)
			//alt:f16 packedRHSRef, packedRHS, ok = GetBuffer[float16.Float16](backend, params.PanelContractingSize*params.RHSPanelCrossSize)
			//alt:f64 packedRHSRef, packedRHS, ok = GetBuffer[float64](backend, params.PanelContractingSize*params.RHSPanelCrossSize)
			if !ok {
				return
			}
			defer ReleaseBuffer(packedRHSRef)
		}
		packedOutputRef, packedOutput, ok := GetBuffer[float32](backend, params.LHSPanelCrossSize*params.RHSPanelCrossSize) //alt:f32|bf16|f16
		//alt:f64 packedOutputRef, packedOutput, ok := GetBuffer[float64](backend, params.LHSPanelCrossSize*params.RHSPanelCrossSize)
		if !ok {
			return
		}
		defer ReleaseBuffer(packedOutputRef)
		const maxAccumPanels = 16
		accumOutputRef, accumOutput, ok := GetBuffer[float32](backend, maxAccumPanels*params.LHSPanelCrossSize*params.RHSPanelCrossSize) //alt:f32|bf16|f16
		//alt:f64 accumOutputRef, accumOutput, ok := GetBuffer[float64](backend, maxAccumPanels*params.LHSPanelCrossSize*params.RHSPanelCrossSize)
		if !ok {
			return
		}
		defer ReleaseBuffer(accumOutputRef)
		lhsFlatIdx := 0
		rhsFlatIdx := 0
		outputFlatIdx := 0
		for b := range batchSize {
			batchLHS := lhs[lhsFlatIdx : lhsFlatIdx+lhsBatchStride]
			batchRHS := rhs[rhsFlatIdx : rhsFlatIdx+rhsBatchStride]
			batchOutput := output[outputFlatIdx : outputFlatIdx+outputBatchStride]
			var (
				batchCachedLHSPanels [][]float32 //alt:f32
				//alt:bf16 batchCachedLHSPanels [][]bfloat16.BFloat16
				//alt:f16 batchCachedLHSPanels [][]float16.Float16
				//alt:f64 batchCachedLHSPanels [][]float64
				batchCachedRHSPanels [][]float32 //alt:f32
				//alt:bf16 batchCachedRHSPanels [][]bfloat16.BFloat16
				//alt:f16 batchCachedRHSPanels [][]float16.Float16
				//alt:f64 batchCachedRHSPanels [][]float64
			)
			if len(cachedLHSPanels) > 0 {
				batchCachedLHSPanels = cachedLHSPanels[b*lhsPanelsPerBatch : (b+1)*lhsPanelsPerBatch]
			}
			if len(cachedRHSPanels) > 0 {
				batchCachedRHSPanels = cachedRHSPanels[b*rhsPanelsPerBatch : (b+1)*rhsPanelsPerBatch]
			}
			avx2LargeMatrixSliceFloat32( //alt:f32
				//alt:bf16 avx2LargeMatrixSliceBFloat16(
				//alt:f16 avx2LargeMatrixSliceFloat16(
				//alt:f64 avx2LargeMatrixSliceFloat64(
				layout,
				batchLHS, batchRHS, batchOutput,
				lhsCrossSize, rhsCrossSize, contractingSize,
				0, lhsCrossSize, 0, rhsCrossSize,
				params,
				packedLHS, packedRHS, packedOutput,
				accumOutput,
				batchCachedLHSPanels, batchCachedRHSPanels,
			)
			lhsFlatIdx += lhsBatchStride
			rhsFlatIdx += rhsBatchStride
			outputFlatIdx += outputBatchStride
		}
		return
	}

	// 1. Split work in workItems.
	workChan := make(chan matmul.WorkItem, 2*maxWorkers)
	var wg sync.WaitGroup
	wg.Go(func() {
		matmul.FeedWorkItems(
			batchSize, lhsCrossSize, rhsCrossSize,
			&params, maxWorkers, workChan)
	})

	// 2. Saturate (fan-out workers) on workItems.
	backend.Workers.Saturate(func() {
		var (
			packedLHSRef *gobackend.Buffer
			packedLHS    []float32 //alt:f32
			//alt:bf16 packedLHS []bfloat16.BFloat16
			//alt:f16 packedLHS []float16.Float16
			//alt:f64 packedLHS []float64
		)
		if len(cachedLHSPanels) == 0 {
			var ok bool
			packedLHSRef, packedLHS, ok = GetBuffer[float32](backend, params.LHSPanelCrossSize*params.PanelContractingSize) //alt:f32
			//alt:bf16 packedLHSRef, packedLHS, ok = GetBuffer[bfloat16.BFloat16](backend, params.LHSPanelCrossSize*params.PanelContractingSize)
			//alt:f16 packedLHSRef, packedLHS, ok = GetBuffer[float16.Float16](backend, params.LHSPanelCrossSize*params.PanelContractingSize)
			//alt:f64 packedLHSRef, packedLHS, ok = GetBuffer[float64](backend, params.LHSPanelCrossSize*params.PanelContractingSize)
			if !ok {
				return
			}
			defer ReleaseBuffer(packedLHSRef)
		}
		var (
			packedRHSRef *gobackend.Buffer
			packedRHS    []float32 //alt:f32
			//alt:bf16 packedRHS []bfloat16.BFloat16
			//alt:f16 packedRHS []float16.Float16
			//alt:f64 packedRHS []float64
		)
		if len(cachedRHSPanels) == 0 {
			var ok bool
			packedRHSRef, packedRHS, ok = GetBuffer[float32](backend, params.PanelContractingSize*params.RHSPanelCrossSize) //alt:f32
			//alt:bf16 packedRHSRef, packedRHS, ok = GetBuffer[bfloat16.BFloat16](backend, params.PanelContractingSize*params.RHSPanelCrossSize)
			//alt:f16 packedRHSRef, packedRHS, ok = GetBuffer[float16.Float16](backend, params.PanelContractingSize*params.RHSPanelCrossSize)
			//alt:f64 packedRHSRef, packedRHS, ok = GetBuffer[float64](backend, params.PanelContractingSize*params.RHSPanelCrossSize)
			if !ok {
				return
			}
			defer ReleaseBuffer(packedRHSRef)
		}
		packedOutputRef, packedOutput, ok := GetBuffer[float32](backend, params.LHSPanelCrossSize*params.RHSPanelCrossSize) //alt:f32|bf16|f16
		//alt:f64 packedOutputRef, packedOutput, ok := GetBuffer[float64](backend, params.LHSPanelCrossSize*params.RHSPanelCrossSize)
		if !ok {
			return
		}
		defer ReleaseBuffer(packedOutputRef)
		const maxAccumPanels = 64
		accumOutputRef, accumOutput, ok := GetBuffer[float32](backend, maxAccumPanels*params.LHSPanelCrossSize*params.RHSPanelCrossSize) //alt:f32|bf16|f16
		//alt:f64 accumOutputRef, accumOutput, ok := GetBuffer[float64](backend, maxAccumPanels*params.LHSPanelCrossSize*params.RHSPanelCrossSize)
		if !ok {
			return
		}
		defer ReleaseBuffer(accumOutputRef)
		for item := range workChan {
			for batchIdx := item.BatchStart; batchIdx < item.BatchEnd; batchIdx++ {
				batchLhs := lhs[batchIdx*lhsBatchStride : (batchIdx+1)*lhsBatchStride]
				batchRhs := rhs[batchIdx*rhsBatchStride : (batchIdx+1)*rhsBatchStride]
				batchOutput := output[batchIdx*outputBatchStride : (batchIdx+1)*outputBatchStride]
				var (
					batchCachedLHSPanels [][]float32 //alt:f32
					//alt:bf16 batchCachedLHSPanels [][]bfloat16.BFloat16
					//alt:f16 batchCachedLHSPanels [][]float16.Float16
					//alt:f64 batchCachedLHSPanels [][]float64
					batchCachedRHSPanels [][]float32 //alt:f32
					//alt:bf16 batchCachedRHSPanels [][]bfloat16.BFloat16
					//alt:f16 batchCachedRHSPanels [][]float16.Float16
					//alt:f64 batchCachedRHSPanels [][]float64
				)
				if len(cachedLHSPanels) > 0 {
					batchCachedLHSPanels = cachedLHSPanels[batchIdx*lhsPanelsPerBatch : (batchIdx+1)*lhsPanelsPerBatch]
				}
				if len(cachedRHSPanels) > 0 {
					batchCachedRHSPanels = cachedRHSPanels[batchIdx*rhsPanelsPerBatch : (batchIdx+1)*rhsPanelsPerBatch]
				}
				avx2LargeMatrixSliceFloat32( //alt:f32
					//alt:bf16 avx2LargeMatrixSliceBFloat16(
					//alt:f16 avx2LargeMatrixSliceFloat16(
					//alt:f64 avx2LargeMatrixSliceFloat64(
					layout,
					batchLhs, batchRhs, batchOutput,
					lhsCrossSize, rhsCrossSize, contractingSize,
					item.LHSRowStart, item.LHSRowEnd, item.RHSColStart, item.RHSColEnd,
					params,
					packedLHS, packedRHS, packedOutput,
					accumOutput,
					batchCachedLHSPanels, batchCachedRHSPanels,
				)
			}
		}
	})
	wg.Wait()
}

// avx2LargeMatrixSliceFloat32 performs a slice of the matrix multiplication on one example: lhs, rhs and output
// must already have sliced one example of the batch dimension.
//
// Here there are no batch dimensions anymore, it only applies to a slice of one matrix (2D).
//
// packedLHS and packedRHS must be pre-allocated buffers of appropriate size.
func avx2LargeMatrixSliceFloat32( //alt:f32
	//alt:bf16 func avx2LargeMatrixSliceBFloat16(
	//alt:f16 func avx2LargeMatrixSliceFloat16(
	//alt:f64 func avx2LargeMatrixSliceFloat64(
	layout dot.Layout,
	lhsMatrix, rhsMatrix []float32, outputMatrix []float32, //alt:f32
	//alt:bf16 lhsMatrix, rhsMatrix []bfloat16.BFloat16, outputMatrix []float32,
	//alt:f16 lhsMatrix, rhsMatrix []float16.Float16, outputMatrix []float32,
	//alt:f64 lhsMatrix, rhsMatrix []float64, outputMatrix []float64,
	lhsCrossSize, rhsCrossSize, contractingSize int,
	rowStart, rowEnd, colStart, colEnd int,
	params matmul.CacheParams,
	packedLHS, packedRHS []float32, packedOutput []float32, //alt:f32
	//alt:bf16 packedLHS, packedRHS []bfloat16.BFloat16, packedOutput []float32,
	//alt:f16 packedLHS, packedRHS []float16.Float16, packedOutput []float32,
	//alt:f64 packedLHS, packedRHS []float64, packedOutput []float64,
	accumBuffer []float32, //alt:f32|bf16|f16
	//alt:f64 accumBuffer []float64,
	cachedLHSPanels, cachedRHSPanels [][]float32, //alt:f32
	//alt:bf16 cachedLHSPanels, cachedRHSPanels [][]bfloat16.BFloat16,
	//alt:f16 cachedLHSPanels, cachedRHSPanels [][]float16.Float16,
	//alt:f64 cachedLHSPanels, cachedRHSPanels [][]float64,
) {
	if params.LHSL1KernelRows != 4 || params.RHSL1KernelCols != 16 { //alt:f32|bf16|f16
		//alt:f64 if params.LHSL1KernelRows != 4 || params.RHSL1KernelCols != 8 {
		panic(errors.Errorf("unsupported kernel L1 block sizes for avx2 kernel: lhsL1BlockRows=%d, rhsL1BlockCols=%d, wanted 4 and 16 respectively (params=%+v)", //alt:f32|bf16|f16
			//alt:f64 panic(errors.Errorf("unsupported kernel L1 block sizes for avx2 kernel: lhsL1BlockRows=%d, rhsL1BlockCols=%d, wanted 4 and 8 respectively (params=%+v)",
			params.LHSL1KernelRows, params.RHSL1KernelCols, params))
	}

	// Loop 5 (jc): Tiling RHS cross axis (N), the output columns.
	for rhsPanelColIdx := colStart; rhsPanelColIdx < colEnd; {
		colPanelIdx := rhsPanelColIdx / params.RHSPanelCrossSize
		panelEnd := (colPanelIdx + 1) * params.RHSPanelCrossSize
		rhsPanelWidth := min(colEnd, panelEnd) - rhsPanelColIdx

		numMPanels := 0
		if rowEnd > rowStart {
			numMPanels = ((rowEnd - 1) / params.LHSPanelCrossSize) - (rowStart / params.LHSPanelCrossSize) + 1
		}
		accumPanelStride := params.RHSPanelCrossSize
		panelSize := params.LHSPanelCrossSize * accumPanelStride
		useAccum := len(accumBuffer) >= numMPanels*panelSize

		// Loop 4 (p): Tiling the contracting axis (K)
		for contractingPanelIdx := 0; contractingPanelIdx < contractingSize; contractingPanelIdx += params.PanelContractingSize {
			contractingPanelWidth := min(params.PanelContractingSize, contractingSize-contractingPanelIdx)
			if len(cachedRHSPanels) > 0 {
				numColPanels := (rhsCrossSize + params.RHSPanelCrossSize - 1) / params.RHSPanelCrossSize
				kPanelIdx := contractingPanelIdx / params.PanelContractingSize
				panel := cachedRHSPanels[kPanelIdx*numColPanels+colPanelIdx]
				stripOffset := (rhsPanelColIdx % params.RHSPanelCrossSize) / params.RHSL1KernelCols
				stripSize := contractingPanelWidth * params.RHSL1KernelCols
				packedRHS = panel[stripOffset*stripSize:]
			} else if layout == dot.LayoutNonTransposed {
				avx2PackRHSNonTransposed(rhsMatrix, packedRHS, contractingPanelIdx, rhsPanelColIdx, rhsCrossSize, contractingPanelWidth, rhsPanelWidth, params.RHSL1KernelCols)
			} else {
				// For LayoutTransposed, the rhs has the same layout as the lhs, so we use packLHS instead.
				unsafePackLHS(rhsMatrix, packedRHS, rhsPanelColIdx, contractingPanelIdx, contractingSize,
					rhsPanelWidth, contractingPanelWidth, params.RHSL1KernelCols)
			}

			// Loop 3 (ic): Tiling LHS cross axis (M), i.e. the output rows.
			for mIdx, lhsPanelRowIdx := 0, rowStart; lhsPanelRowIdx < rowEnd; mIdx++ {
				rowPanelIdx := lhsPanelRowIdx / params.LHSPanelCrossSize
				lhsPanelEnd := (rowPanelIdx + 1) * params.LHSPanelCrossSize
				lhsPanelHeight := min(rowEnd, lhsPanelEnd) - lhsPanelRowIdx

				if len(cachedLHSPanels) > 0 {
					numRowPanels := (lhsCrossSize + params.LHSPanelCrossSize - 1) / params.LHSPanelCrossSize
					kPanelIdx := contractingPanelIdx / params.PanelContractingSize
					panel := cachedLHSPanels[kPanelIdx*numRowPanels+rowPanelIdx]
					stripOffset := (lhsPanelRowIdx % params.LHSPanelCrossSize) / params.LHSL1KernelRows
					stripSize := contractingPanelWidth * params.LHSL1KernelRows
					packedLHS = panel[stripOffset*stripSize:]
				} else {
					avx2PackLHSKernelRows4(lhsMatrix, packedLHS, lhsPanelRowIdx, contractingPanelIdx, contractingSize, lhsPanelHeight, contractingPanelWidth, params.LHSL1KernelRows) //alt:f32|bf16|f16|f64
				}

				isFirstContractingPanel := contractingPanelIdx == 0
				accumulate := !isFirstContractingPanel
				canDirectOutput := (lhsPanelHeight%params.LHSL1KernelRows == 0) && (rhsPanelWidth%params.RHSL1KernelCols == 0)

				if canDirectOutput {
					outOffset := lhsPanelRowIdx*rhsCrossSize + rhsPanelColIdx
					outSlice := outputMatrix[outOffset : outOffset+(lhsPanelHeight-1)*rhsCrossSize+rhsPanelWidth]
					if AVX2UseAsm { //alt:f32|bf16|f16|f64
						avx2LargeKernelFloat32Asm( //alt:f32
							//alt:bf16 avx2LargeKernelBFloat16Asm(
							//alt:f16 avx2LargeKernelFloat16Asm(
							//alt:f64 avx2LargeKernelFloat64Asm(
							packedLHS, packedRHS, outSlice,
							params.LHSPanelCrossSize, rhsCrossSize,
							contractingPanelWidth,
							lhsPanelHeight, rhsPanelWidth,
							accumulate,
						)
					} else { //alt:f32|bf16|f16|f64
						avx2LargeKernelFloat32( //alt:f32
							//alt:bf16 avx2LargeKernelBFloat16(
							//alt:f16 avx2LargeKernelFloat16(
							//alt:f64 avx2LargeKernelFloat64(
							packedLHS, packedRHS, outSlice,
							params.LHSPanelCrossSize, rhsCrossSize,
							contractingPanelWidth,
							lhsPanelHeight, rhsPanelWidth,
							accumulate,
						) //alt:bf16|f16|f64
					} //alt:f32|bf16|f16|f64
				} else if useAccum {
					accumOffset := mIdx * panelSize
					accumSlice := accumBuffer[accumOffset : accumOffset+panelSize]
					if AVX2UseAsm { //alt:f32|bf16|f16|f64
						avx2LargeKernelFloat32Asm( //alt:f32
							//alt:bf16 avx2LargeKernelBFloat16Asm(
							//alt:f16 avx2LargeKernelFloat16Asm(
							//alt:f64 avx2LargeKernelFloat64Asm(
							packedLHS, packedRHS, accumSlice,
							params.LHSPanelCrossSize, accumPanelStride,
							contractingPanelWidth,
							lhsPanelHeight, rhsPanelWidth,
							accumulate,
						)
					} else { //alt:f32|bf16|f16|f64
						avx2LargeKernelFloat32( //alt:f32
							//alt:bf16 avx2LargeKernelBFloat16(
							//alt:f16 avx2LargeKernelFloat16(
							//alt:f64 avx2LargeKernelFloat64(
							packedLHS, packedRHS, accumSlice,
							params.LHSPanelCrossSize, accumPanelStride,
							contractingPanelWidth,
							lhsPanelHeight, rhsPanelWidth,
							accumulate,
						) //alt:bf16|f16|f64
					} //alt:f32|bf16|f16|f64
				} else {
					if AVX2UseAsm { //alt:f32|bf16|f16|f64
						avx2LargeKernelFloat32Asm( //alt:f32
							//alt:bf16 avx2LargeKernelBFloat16Asm(
							//alt:f16 avx2LargeKernelFloat16Asm(
							//alt:f64 avx2LargeKernelFloat64Asm(
							packedLHS, packedRHS, packedOutput,
							params.LHSPanelCrossSize, params.RHSPanelCrossSize,
							contractingPanelWidth,
							lhsPanelHeight, rhsPanelWidth,
							false,
						)
					} else { //alt:f32|bf16|f16|f64
						avx2LargeKernelFloat32( //alt:f32
							//alt:bf16 avx2LargeKernelBFloat16(
							//alt:f16 avx2LargeKernelFloat16(
							//alt:f64 avx2LargeKernelFloat64(
							packedLHS, packedRHS, packedOutput,
							params.LHSPanelCrossSize, params.RHSPanelCrossSize,
							contractingPanelWidth,
							lhsPanelHeight, rhsPanelWidth,
							false,
						) //alt:bf16|f16|f64
					} //alt:f32|bf16|f16|f64

					// Accumulate (or write) packedOutput to outputMatrix.
					avx2ApplyPackedOutputFloat32( //alt:f32|bf16|f16
						//alt:f64 avx2ApplyPackedOutputFloat64(
						packedOutput, outputMatrix,
						isFirstContractingPanel,
						params.RHSPanelCrossSize,
						lhsPanelRowIdx, rhsPanelColIdx,
						rhsCrossSize,
						lhsPanelHeight, rhsPanelWidth)
				}
				lhsPanelRowIdx += lhsPanelHeight
			}
		}

		if useAccum {
			// Copy accumulated results from L2 cache to outputMatrix in a single pass.
			for mIdx, lhsPanelRowIdx := 0, rowStart; lhsPanelRowIdx < rowEnd; mIdx++ {
				rowPanelIdx := lhsPanelRowIdx / params.LHSPanelCrossSize
				lhsPanelEnd := (rowPanelIdx + 1) * params.LHSPanelCrossSize
				lhsPanelHeight := min(rowEnd, lhsPanelEnd) - lhsPanelRowIdx

				canDirectOutput := (lhsPanelHeight%params.LHSL1KernelRows == 0) && (rhsPanelWidth%params.RHSL1KernelCols == 0)
				if !canDirectOutput {
					accumOffset := mIdx * panelSize
					accumSlice := accumBuffer[accumOffset : accumOffset+lhsPanelHeight*accumPanelStride]
					avx2ApplyPackedOutputFloat32( //alt:f32|bf16|f16
						//alt:f64 avx2ApplyPackedOutputFloat64(
						accumSlice, outputMatrix,
						true,
						accumPanelStride,
						lhsPanelRowIdx, rhsPanelColIdx,
						rhsCrossSize,
						lhsPanelHeight, rhsPanelWidth)
				}
				lhsPanelRowIdx += lhsPanelHeight
			}
		}
		rhsPanelColIdx += rhsPanelWidth
	}
}

// avx2PrepackRHSFloat32 pre-packs the RHS matrix into a single flat buffer and returns panel slices.
func avx2PrepackRHSFloat32( //alt:f32
	//alt:bf16 func avx2PrepackRHSBFloat16(
	//alt:f16 func avx2PrepackRHSFloat16(
	//alt:f64 func avx2PrepackRHSFloat64(
	backend *gobackend.Backend,
	layout dot.Layout,
	rhs []float32, //alt:f32
	//alt:bf16 rhs []bfloat16.BFloat16,
	//alt:f16 rhs []float16.Float16,
	//alt:f64 rhs []float64,
	batchSize, rhsCrossSize, contractingSize int,
	params matmul.CacheParams,
) (*gobackend.Buffer, [][]float32) { //alt:f32
	//alt:bf16 ) (*gobackend.Buffer, [][]bfloat16.BFloat16) {
	//alt:f16 ) (*gobackend.Buffer, [][]float16.Float16) {
	//alt:f64 ) (*gobackend.Buffer, [][]float64) {
	numKPanels := (contractingSize + params.PanelContractingSize - 1) / params.PanelContractingSize
	numColPanels := (rhsCrossSize + params.RHSPanelCrossSize - 1) / params.RHSPanelCrossSize
	rhsPanelsPerBatch := numKPanels * numColPanels
	rhsBatchStride := rhsCrossSize * contractingSize

	totalElements := 0
	for colPanelIdx := range numColPanels {
		rhsPanelColIdx := colPanelIdx * params.RHSPanelCrossSize
		rhsPanelWidth := min(params.RHSPanelCrossSize, rhsCrossSize-rhsPanelColIdx)
		numStrips := (rhsPanelWidth + params.RHSL1KernelCols - 1) / params.RHSL1KernelCols
		for kPanelIdx := range numKPanels {
			contractingPanelIdx := kPanelIdx * params.PanelContractingSize
			contractingPanelWidth := min(params.PanelContractingSize, contractingSize-contractingPanelIdx)
			totalElements += contractingPanelWidth * numStrips * params.RHSL1KernelCols
		}
	}
	totalElements *= batchSize

	ref, flatBuf, ok := GetBuffer[float32](backend, totalElements) //alt:f32
	//alt:bf16 ref, flatBuf, ok := GetBuffer[bfloat16.BFloat16](backend, totalElements)
	//alt:f16 ref, flatBuf, ok := GetBuffer[float16.Float16](backend, totalElements)
	//alt:f64 ref, flatBuf, ok := GetBuffer[float64](backend, totalElements)
	if !ok {
		return nil, nil
	}

	panels := make([][]float32, batchSize*rhsPanelsPerBatch) //alt:f32
	//alt:bf16 panels := make([][]bfloat16.BFloat16, batchSize*rhsPanelsPerBatch)
	//alt:f16 panels := make([][]float16.Float16, batchSize*rhsPanelsPerBatch)
	//alt:f64 panels := make([][]float64, batchSize*rhsPanelsPerBatch)

	offset := 0
	rhsFlatIdx := 0
	for b := range batchSize {
		batchRHS := rhs[rhsFlatIdx : rhsFlatIdx+rhsBatchStride]
		for colPanelIdx := range numColPanels {
			rhsPanelColIdx := colPanelIdx * params.RHSPanelCrossSize
			rhsPanelWidth := min(params.RHSPanelCrossSize, rhsCrossSize-rhsPanelColIdx)
			numStrips := (rhsPanelWidth + params.RHSL1KernelCols - 1) / params.RHSL1KernelCols
			for kPanelIdx := range numKPanels {
				contractingPanelIdx := kPanelIdx * params.PanelContractingSize
				contractingPanelWidth := min(params.PanelContractingSize, contractingSize-contractingPanelIdx)
				panelLen := contractingPanelWidth * numStrips * params.RHSL1KernelCols
				panelBuf := flatBuf[offset : offset+panelLen]
				offset += panelLen

				if layout == dot.LayoutNonTransposed {
					avx2PackRHSNonTransposed(batchRHS, panelBuf, contractingPanelIdx, rhsPanelColIdx, rhsCrossSize, contractingPanelWidth, rhsPanelWidth, params.RHSL1KernelCols)
				} else {
					unsafePackLHS(batchRHS, panelBuf, rhsPanelColIdx, contractingPanelIdx, contractingSize, rhsPanelWidth, contractingPanelWidth, params.RHSL1KernelCols)
				}
				panels[b*rhsPanelsPerBatch+kPanelIdx*numColPanels+colPanelIdx] = panelBuf
			}
		}
		rhsFlatIdx += rhsBatchStride
	}
	return ref, panels
}

// avx2PrepackLHSFloat32 pre-packs the LHS matrix into a single flat buffer and returns panel slices.
func avx2PrepackLHSFloat32( //alt:f32
	//alt:bf16 func avx2PrepackLHSBFloat16(
	//alt:f16 func avx2PrepackLHSFloat16(
	//alt:f64 func avx2PrepackLHSFloat64(
	backend *gobackend.Backend,
	lhs []float32, //alt:f32
	//alt:bf16 lhs []bfloat16.BFloat16,
	//alt:f16 lhs []float16.Float16,
	//alt:f64 lhs []float64,
	batchSize, lhsCrossSize, contractingSize int,
	params matmul.CacheParams,
) (*gobackend.Buffer, [][]float32) { //alt:f32
	//alt:bf16 ) (*gobackend.Buffer, [][]bfloat16.BFloat16) {
	//alt:f16 ) (*gobackend.Buffer, [][]float16.Float16) {
	//alt:f64 ) (*gobackend.Buffer, [][]float64) {
	numKPanels := (contractingSize + params.PanelContractingSize - 1) / params.PanelContractingSize
	numRowPanels := (lhsCrossSize + params.LHSPanelCrossSize - 1) / params.LHSPanelCrossSize
	lhsPanelsPerBatch := numKPanels * numRowPanels
	lhsBatchStride := lhsCrossSize * contractingSize

	totalElements := 0
	for rowPanelIdx := range numRowPanels {
		lhsPanelRowIdx := rowPanelIdx * params.LHSPanelCrossSize
		lhsPanelHeight := min(params.LHSPanelCrossSize, lhsCrossSize-lhsPanelRowIdx)
		numStrips := (lhsPanelHeight + params.LHSL1KernelRows - 1) / params.LHSL1KernelRows
		for kPanelIdx := range numKPanels {
			contractingPanelIdx := kPanelIdx * params.PanelContractingSize
			contractingPanelWidth := min(params.PanelContractingSize, contractingSize-contractingPanelIdx)
			totalElements += contractingPanelWidth * numStrips * params.LHSL1KernelRows
		}
	}
	totalElements *= batchSize

	ref, flatBuf, ok := GetBuffer[float32](backend, totalElements) //alt:f32
	//alt:bf16 ref, flatBuf, ok := GetBuffer[bfloat16.BFloat16](backend, totalElements)
	//alt:f16 ref, flatBuf, ok := GetBuffer[float16.Float16](backend, totalElements)
	//alt:f64 ref, flatBuf, ok := GetBuffer[float64](backend, totalElements)
	if !ok {
		return nil, nil
	}

	panels := make([][]float32, batchSize*lhsPanelsPerBatch) //alt:f32
	//alt:bf16 panels := make([][]bfloat16.BFloat16, batchSize*lhsPanelsPerBatch)
	//alt:f16 panels := make([][]float16.Float16, batchSize*lhsPanelsPerBatch)
	//alt:f64 panels := make([][]float64, batchSize*lhsPanelsPerBatch)

	offset := 0
	lhsFlatIdx := 0
	for b := range batchSize {
		batchLHS := lhs[lhsFlatIdx : lhsFlatIdx+lhsBatchStride]
		for rowPanelIdx := range numRowPanels {
			lhsPanelRowIdx := rowPanelIdx * params.LHSPanelCrossSize
			lhsPanelHeight := min(params.LHSPanelCrossSize, lhsCrossSize-lhsPanelRowIdx)
			numStrips := (lhsPanelHeight + params.LHSL1KernelRows - 1) / params.LHSL1KernelRows
			for kPanelIdx := range numKPanels {
				contractingPanelIdx := kPanelIdx * params.PanelContractingSize
				contractingPanelWidth := min(params.PanelContractingSize, contractingSize-contractingPanelIdx)
				panelLen := contractingPanelWidth * numStrips * params.LHSL1KernelRows
				panelBuf := flatBuf[offset : offset+panelLen]
				offset += panelLen

				avx2PackLHSKernelRows4(batchLHS, panelBuf, lhsPanelRowIdx, contractingPanelIdx, contractingSize, lhsPanelHeight, contractingPanelWidth, params.LHSL1KernelRows)
				panels[b*lhsPanelsPerBatch+kPanelIdx*numRowPanels+rowPanelIdx] = panelBuf
			}
		}
		lhsFlatIdx += lhsBatchStride
	}
	return ref, panels
}

// avx2LargeKernelFloat32 implements a kernel of the matrix multiplication for
// a lhs and rhs packed panels into an intermediate output panel.
//
// Memory safety note: We use raw unsafe pointers to avoid bounds-checking (BCE) overhead
// in the inner loops. Because the caller (parent function on the stack) owns and holds references
// to packedLHS, packedRHS, and packedOutput throughout execution, they remain reachable and
// do not need runtime.KeepAlive() calls at the end.
func avx2LargeKernelFloat32( //alt:f32
	//alt:bf16 func avx2LargeKernelBFloat16(
	//alt:f16 func avx2LargeKernelFloat16(
	//alt:f64 func avx2LargeKernelFloat64(
	packedLHS, packedRHS []float32, //alt:f32
	//alt:bf16 packedLHS, packedRHS []bfloat16.BFloat16,
	//alt:f16 packedLHS, packedRHS []float16.Float16,
	//alt:f64 packedLHS, packedRHS []float64,
	packedOutput []float32, //alt:f32|bf16|f16
	//alt:f64 packedOutput []float64,
	lhsPanelRows, rhsPanelCols int,
	contractingLen int,
	lhsActiveRows, rhsActiveCols int,
	accumulate bool,
) {
	defer func() {
		runtime.KeepAlive(packedLHS)
		runtime.KeepAlive(packedRHS)
		runtime.KeepAlive(packedOutput)
	}()
	_ = lhsPanelRows // Not needed.

	// BCE hints
	_ = packedLHS[contractingLen*lhsActiveRows-1]
	_ = packedRHS[contractingLen*rhsActiveCols-1]
	_ = packedOutput[lhsActiveRows*rhsPanelCols-1]

	const (
		// These must match params.LHSL1KernelRows and params.RHSL1KernelCols.
		kernelRows = 4  //alt:f32|bf16|f16|f64
		kernelCols = 16 //alt:f32|bf16|f16
		//alt:f64 kernelCols = 8
		outputNumLanes = 8 //alt:f32|bf16|f16
		//alt:f64 outputNumLanes = 4
		bytesPerInputElement = 4 //alt:f32
		//alt:bf16 bytesPerInputElement = 2
		//alt:f16 bytesPerInputElement = 2
		//alt:f64 bytesPerInputElement = 8
		bytesPerOutputElement = 4 //alt:f32|bf16|f16
		//alt:f64 bytesPerOutputElement = 8
	)

	outputBasePtr := uintptr(unsafe.Pointer(unsafe.SliceData(packedOutput)))
	rhsBasePtr := uintptr(unsafe.Pointer(unsafe.SliceData(packedRHS)))
	lhsBasePtr := uintptr(unsafe.Pointer(unsafe.SliceData(packedLHS)))

	// Loop 1 (ir): Micro-Kernel Rows (Mr == lhsL1BlockRows)
	for lhsRowIdx := 0; lhsRowIdx < lhsActiveRows; lhsRowIdx += kernelRows {
		// Loop 2 (jr): Micro-Kernel Columns (Nr == rhsL1BlockCols)
		for rhsColIdx := 0; rhsColIdx < rhsActiveCols; rhsColIdx += kernelCols {
			// Output index calculation (relative to panel)
			outputRowStart := lhsRowIdx
			outputColStart := rhsColIdx
			outputStride := rhsPanelCols

			// ---------------------------------------------------------
			// MICRO KERNEL BODY
			// ---------------------------------------------------------

			// ---------------------------------------------------------
			// 2. Initialize Accumulators (Registers) to 0.0
			// ---------------------------------------------------------
			// We use 4 rows (Mr) worth of registers at a time.
			accum_lhs0_rhs0 := archsimd.BroadcastFloat32x8(0.0) //alt:f32|bf16|f16
			//alt:f64 accum_lhs0_rhs0 := archsimd.BroadcastFloat64x4(0.0)
			accum_lhs0_rhs1 := archsimd.BroadcastFloat32x8(0.0) //alt:f32|bf16|f16
			//alt:f64 accum_lhs0_rhs1 := archsimd.BroadcastFloat64x4(0.0)
			accum_lhs1_rhs0 := archsimd.BroadcastFloat32x8(0.0) //alt:f32|bf16|f16
			//alt:f64 accum_lhs1_rhs0 := archsimd.BroadcastFloat64x4(0.0)
			accum_lhs1_rhs1 := archsimd.BroadcastFloat32x8(0.0) //alt:f32|bf16|f16
			//alt:f64 accum_lhs1_rhs1 := archsimd.BroadcastFloat64x4(0.0)
			accum_lhs2_rhs0 := archsimd.BroadcastFloat32x8(0.0) //alt:f32|bf16|f16
			//alt:f64 accum_lhs2_rhs0 := archsimd.BroadcastFloat64x4(0.0)
			accum_lhs2_rhs1 := archsimd.BroadcastFloat32x8(0.0) //alt:f32|bf16|f16
			//alt:f64 accum_lhs2_rhs1 := archsimd.BroadcastFloat64x4(0.0)
			accum_lhs3_rhs0 := archsimd.BroadcastFloat32x8(0.0) //alt:f32|bf16|f16
			//alt:f64 accum_lhs3_rhs0 := archsimd.BroadcastFloat64x4(0.0)
			accum_lhs3_rhs1 := archsimd.BroadcastFloat32x8(0.0) //alt:f32|bf16|f16
			//alt:f64 accum_lhs3_rhs1 := archsimd.BroadcastFloat64x4(0.0)

			// ------------------------------------------------------------
			// Eliminate bound checks (BCE is not working well enough)
			// ------------------------------------------------------------

			// 1. Calculate the total range the loop will touch
			idxLHS := lhsRowIdx * contractingLen
			idxRHS := rhsColIdx * contractingLen

			// Get the base pointers once
			rhsRowPtr := rhsBasePtr + uintptr(idxRHS*bytesPerInputElement)
			lhsRowPtr := lhsBasePtr + uintptr(idxLHS*bytesPerInputElement)

			rOffset := uintptr(0)
			lOffset := uintptr(0)

			// Pre-calculate strides **in bytes**
			rhsStride := uintptr(kernelCols * bytesPerInputElement)
			lhsStride := uintptr(kernelRows * bytesPerInputElement)
			rhsRegisterStride := uintptr(outputNumLanes * bytesPerInputElement)
			//alt:bf16|f16 _ = rhsRegisterStride  // Not used by bf16/f16 path.

			// ---------------------------------------------------------
			// 3. The K-Loop (Dot Product)
			// ---------------------------------------------------------
			for range contractingLen {
				// Load RHS (Broadcasting/Streaming)
				rhsPtr0 := unsafe.Pointer(rhsRowPtr + rOffset)
				rhsPtr1 := unsafe.Pointer(rhsRowPtr + rOffset + rhsRegisterStride) //alt:f32|f64
				rhsVec0 := archsimd.LoadFloat32x8Array((*[8]float32)(rhsPtr0))        //alt:f32
				//alt:f64 rhsVec0 := archsimd.LoadFloat64x4Array((*[4]float64)(rhsPtr0))
				rhsVec1 := archsimd.LoadFloat32x8Array((*[8]float32)(rhsPtr1)) //alt:f32
				//alt:f64 rhsVec1 := archsimd.LoadFloat64x4Array((*[4]float64)(rhsPtr1))
				//alt:bf16 rhsBF16 := bfloat16.LoadBFloat16x16((*[16]bfloat16.BFloat16)(rhsPtr0))
				//alt:bf16 rhsVec0, rhsVec1 := rhsBF16.ToFloat32()
				//alt:f16 rhsF16 := float16.LoadFloat16x16((*[16]float16.Float16)(rhsPtr0))
				//alt:f16 rhsVec0, rhsVec1 := rhsF16.ToFloat32()
				rOffset += rhsStride

				// Row 0
				lhsVal0 := *((*float32)(unsafe.Pointer(lhsRowPtr + lOffset + 0))) //alt:f32
				//alt:bf16 lhsVal0 := ((*bfloat16.BFloat16)(unsafe.Pointer(lhsRowPtr + lOffset + 0))).Float32()
				//alt:f16 lhsVal0 := ((*float16.Float16)(unsafe.Pointer(lhsRowPtr + lOffset + 0))).Float32()
				//alt:f64 lhsVal0 := *((*float64)(unsafe.Pointer(lhsRowPtr + lOffset + 0)))
				lhsVec0 := archsimd.BroadcastFloat32x8(lhsVal0) //alt:f32|bf16|f16
				//alt:f64 lhsVec0 := archsimd.BroadcastFloat64x4(lhsVal0)
				accum_lhs0_rhs0 = rhsVec0.MulAdd(lhsVec0, accum_lhs0_rhs0) //alt:f32|bf16|f16|f64
				accum_lhs0_rhs1 = rhsVec1.MulAdd(lhsVec0, accum_lhs0_rhs1) //alt:f32|bf16|f16|f64

				// Row 1
				lhsVal1 := *((*float32)(unsafe.Pointer(lhsRowPtr + lOffset + bytesPerInputElement))) //alt:f32
				//alt:bf16 lhsVal1 := ((*bfloat16.BFloat16)(unsafe.Pointer(lhsRowPtr + lOffset + bytesPerInputElement))).Float32()
				//alt:f16 lhsVal1 := ((*float16.Float16)(unsafe.Pointer(lhsRowPtr + lOffset + bytesPerInputElement))).Float32()
				//alt:f64 lhsVal1 := *((*float64)(unsafe.Pointer(lhsRowPtr + lOffset + bytesPerInputElement)))
				lhsVec1 := archsimd.BroadcastFloat32x8(lhsVal1) //alt:f32|bf16|f16
				//alt:f64 lhsVec1 := archsimd.BroadcastFloat64x4(lhsVal1)
				accum_lhs1_rhs0 = rhsVec0.MulAdd(lhsVec1, accum_lhs1_rhs0) //alt:f32|bf16|f16|f64
				accum_lhs1_rhs1 = rhsVec1.MulAdd(lhsVec1, accum_lhs1_rhs1) //alt:f32|bf16|f16|f64

				// Row 2
				lhsVal2 := *((*float32)(unsafe.Pointer(lhsRowPtr + lOffset + 2*bytesPerInputElement))) //alt:f32
				//alt:bf16 lhsVal2 := ((*bfloat16.BFloat16)(unsafe.Pointer(lhsRowPtr + lOffset + 2*bytesPerInputElement))).Float32()
				//alt:f16 lhsVal2 := ((*float16.Float16)(unsafe.Pointer(lhsRowPtr + lOffset + 2*bytesPerInputElement))).Float32()
				//alt:f64 lhsVal2 := *((*float64)(unsafe.Pointer(lhsRowPtr + lOffset + 2*bytesPerInputElement)))
				lhsVec2 := archsimd.BroadcastFloat32x8(lhsVal2) //alt:f32|bf16|f16
				//alt:f64 lhsVec2 := archsimd.BroadcastFloat64x4(lhsVal2)
				accum_lhs2_rhs0 = rhsVec0.MulAdd(lhsVec2, accum_lhs2_rhs0) //alt:f32|bf16|f16|f64
				accum_lhs2_rhs1 = rhsVec1.MulAdd(lhsVec2, accum_lhs2_rhs1) //alt:f32|bf16|f16|f64

				// Row 3
				lhsVal3 := *((*float32)(unsafe.Pointer(lhsRowPtr + lOffset + 3*bytesPerInputElement))) //alt:f32
				//alt:bf16 lhsVal3 := ((*bfloat16.BFloat16)(unsafe.Pointer(lhsRowPtr + lOffset + 3*bytesPerInputElement))).Float32()
				//alt:f16 lhsVal3 := ((*float16.Float16)(unsafe.Pointer(lhsRowPtr + lOffset + 3*bytesPerInputElement))).Float32()
				//alt:f64 lhsVal3 := *((*float64)(unsafe.Pointer(lhsRowPtr + lOffset + 3*bytesPerInputElement)))
				lhsVec3 := archsimd.BroadcastFloat32x8(lhsVal3) //alt:f32|bf16|f16
				//alt:f64 lhsVec3 := archsimd.BroadcastFloat64x4(lhsVal3)
				accum_lhs3_rhs0 = rhsVec0.MulAdd(lhsVec3, accum_lhs3_rhs0) //alt:f32|bf16|f16|f64
				accum_lhs3_rhs1 = rhsVec1.MulAdd(lhsVec3, accum_lhs3_rhs1) //alt:f32|bf16|f16|f64

				lOffset += lhsStride
			}

			// ---------------------------------------------------------
			// 4. Write Back to Output
			// ---------------------------------------------------------
			outputIdx0 := uintptr((outputRowStart*outputStride + outputColStart) * bytesPerOutputElement)
			outputIdx1 := outputIdx0 + uintptr(outputStride*bytesPerOutputElement)
			outputIdx2 := outputIdx0 + uintptr(2*outputStride*bytesPerOutputElement)
			outputIdx3 := outputIdx0 + uintptr(3*outputStride*bytesPerOutputElement)
			registerStride := uintptr(outputNumLanes * bytesPerOutputElement)

			if !accumulate {
				accum_lhs0_rhs0.StoreArray((*[8]float32)(unsafe.Pointer(outputBasePtr + outputIdx0))) //alt:f32|bf16|f16
				//alt:f64 accum_lhs0_rhs0.StoreArray((*[4]float64)(unsafe.Pointer(outputBasePtr + outputIdx0)))
				accum_lhs0_rhs1.StoreArray((*[8]float32)(unsafe.Pointer(outputBasePtr + outputIdx0 + registerStride))) //alt:f32|bf16|f16
				//alt:f64 accum_lhs0_rhs1.StoreArray((*[4]float64)(unsafe.Pointer(outputBasePtr + outputIdx0 + registerStride)))
				accum_lhs1_rhs0.StoreArray((*[8]float32)(unsafe.Pointer(outputBasePtr + outputIdx1))) //alt:f32|bf16|f16
				//alt:f64 accum_lhs1_rhs0.StoreArray((*[4]float64)(unsafe.Pointer(outputBasePtr + outputIdx1)))
				accum_lhs1_rhs1.StoreArray((*[8]float32)(unsafe.Pointer(outputBasePtr + outputIdx1 + registerStride))) //alt:f32|bf16|f16
				//alt:f64 accum_lhs1_rhs1.StoreArray((*[4]float64)(unsafe.Pointer(outputBasePtr + outputIdx1 + registerStride)))
				accum_lhs2_rhs0.StoreArray((*[8]float32)(unsafe.Pointer(outputBasePtr + outputIdx2))) //alt:f32|bf16|f16
				//alt:f64 accum_lhs2_rhs0.StoreArray((*[4]float64)(unsafe.Pointer(outputBasePtr + outputIdx2)))
				accum_lhs2_rhs1.StoreArray((*[8]float32)(unsafe.Pointer(outputBasePtr + outputIdx2 + registerStride))) //alt:f32|bf16|f16
				//alt:f64 accum_lhs2_rhs1.StoreArray((*[4]float64)(unsafe.Pointer(outputBasePtr + outputIdx2 + registerStride)))
				accum_lhs3_rhs0.StoreArray((*[8]float32)(unsafe.Pointer(outputBasePtr + outputIdx3))) //alt:f32|bf16|f16
				//alt:f64 accum_lhs3_rhs0.StoreArray((*[4]float64)(unsafe.Pointer(outputBasePtr + outputIdx3)))
				accum_lhs3_rhs1.StoreArray((*[8]float32)(unsafe.Pointer(outputBasePtr + outputIdx3 + registerStride))) //alt:f32|bf16|f16
				//alt:f64 accum_lhs3_rhs1.StoreArray((*[4]float64)(unsafe.Pointer(outputBasePtr + outputIdx3 + registerStride)))
			} else {
				accum_lhs0_rhs0.Add(archsimd.LoadFloat32x8Array((*[8]float32)(unsafe.Pointer(outputBasePtr + outputIdx0)))).StoreArray((*[8]float32)(unsafe.Pointer(outputBasePtr + outputIdx0))) //alt:f32|bf16|f16
				//alt:f64 accum_lhs0_rhs0.Add(archsimd.LoadFloat64x4Array((*[4]float64)(unsafe.Pointer(outputBasePtr + outputIdx0)))).StoreArray((*[4]float64)(unsafe.Pointer(outputBasePtr + outputIdx0)))
				accum_lhs0_rhs1.Add(archsimd.LoadFloat32x8Array((*[8]float32)(unsafe.Pointer(outputBasePtr + outputIdx0 + registerStride)))).StoreArray((*[8]float32)(unsafe.Pointer(outputBasePtr + outputIdx0 + registerStride))) //alt:f32|bf16|f16
				//alt:f64 accum_lhs0_rhs1.Add(archsimd.LoadFloat64x4Array((*[4]float64)(unsafe.Pointer(outputBasePtr + outputIdx0 + registerStride)))).StoreArray((*[4]float64)(unsafe.Pointer(outputBasePtr + outputIdx0 + registerStride)))
				accum_lhs1_rhs0.Add(archsimd.LoadFloat32x8Array((*[8]float32)(unsafe.Pointer(outputBasePtr + outputIdx1)))).StoreArray((*[8]float32)(unsafe.Pointer(outputBasePtr + outputIdx1))) //alt:f32|bf16|f16
				//alt:f64 accum_lhs1_rhs0.Add(archsimd.LoadFloat64x4Array((*[4]float64)(unsafe.Pointer(outputBasePtr + outputIdx1)))).StoreArray((*[4]float64)(unsafe.Pointer(outputBasePtr + outputIdx1)))
				accum_lhs1_rhs1.Add(archsimd.LoadFloat32x8Array((*[8]float32)(unsafe.Pointer(outputBasePtr + outputIdx1 + registerStride)))).StoreArray((*[8]float32)(unsafe.Pointer(outputBasePtr + outputIdx1 + registerStride))) //alt:f32|bf16|f16
				//alt:f64 accum_lhs1_rhs1.Add(archsimd.LoadFloat64x4Array((*[4]float64)(unsafe.Pointer(outputBasePtr + outputIdx1 + registerStride)))).StoreArray((*[4]float64)(unsafe.Pointer(outputBasePtr + outputIdx1 + registerStride)))
				accum_lhs2_rhs0.Add(archsimd.LoadFloat32x8Array((*[8]float32)(unsafe.Pointer(outputBasePtr + outputIdx2)))).StoreArray((*[8]float32)(unsafe.Pointer(outputBasePtr + outputIdx2))) //alt:f32|bf16|f16
				//alt:f64 accum_lhs2_rhs0.Add(archsimd.LoadFloat64x4Array((*[4]float64)(unsafe.Pointer(outputBasePtr + outputIdx2)))).StoreArray((*[4]float64)(unsafe.Pointer(outputBasePtr + outputIdx2)))
				accum_lhs2_rhs1.Add(archsimd.LoadFloat32x8Array((*[8]float32)(unsafe.Pointer(outputBasePtr + outputIdx2 + registerStride)))).StoreArray((*[8]float32)(unsafe.Pointer(outputBasePtr + outputIdx2 + registerStride))) //alt:f32|bf16|f16
				//alt:f64 accum_lhs2_rhs1.Add(archsimd.LoadFloat64x4Array((*[4]float64)(unsafe.Pointer(outputBasePtr + outputIdx2 + registerStride)))).StoreArray((*[4]float64)(unsafe.Pointer(outputBasePtr + outputIdx2 + registerStride)))
				accum_lhs3_rhs0.Add(archsimd.LoadFloat32x8Array((*[8]float32)(unsafe.Pointer(outputBasePtr + outputIdx3)))).StoreArray((*[8]float32)(unsafe.Pointer(outputBasePtr + outputIdx3))) //alt:f32|bf16|f16
				//alt:f64 accum_lhs3_rhs0.Add(archsimd.LoadFloat64x4Array((*[4]float64)(unsafe.Pointer(outputBasePtr + outputIdx3)))).StoreArray((*[4]float64)(unsafe.Pointer(outputBasePtr + outputIdx3)))
				accum_lhs3_rhs1.Add(archsimd.LoadFloat32x8Array((*[8]float32)(unsafe.Pointer(outputBasePtr + outputIdx3 + registerStride)))).StoreArray((*[8]float32)(unsafe.Pointer(outputBasePtr + outputIdx3 + registerStride))) //alt:f32|bf16|f16
				//alt:f64 accum_lhs3_rhs1.Add(archsimd.LoadFloat64x4Array((*[4]float64)(unsafe.Pointer(outputBasePtr + outputIdx3 + registerStride)))).StoreArray((*[4]float64)(unsafe.Pointer(outputBasePtr + outputIdx3 + registerStride)))
			}
		}
	}
}
