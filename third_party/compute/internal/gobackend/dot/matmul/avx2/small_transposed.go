// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package avx2

import (
	"unsafe"
	//alt:bf16 "github.com/gomlx/compute/dtypes/bfloat16"
	//alt:f16 "github.com/gomlx/compute/dtypes/float16"
)

// avx2SmallFloat32TransposedAsm uses handwritten AVX2 assembly Tile4x2 and Tile4x1 microkernels.
func avx2SmallFloat32TransposedAsm( //alt:f32
	//alt:bf16 func avx2SmallBFloat16TransposedAsm(
	//alt:f16 func avx2SmallFloat16TransposedAsm(
	//alt:f64 func avx2SmallFloat64TransposedAsm(
	lhs, rhs []float32, //alt:f32
	//alt:bf16 lhs, rhs []bfloat16.BFloat16,
	//alt:f16 lhs, rhs []float16.Float16,
	//alt:f64 lhs, rhs []float64,
	batchStart, batchCount, lhsCrossSize, rhsCrossSize, contractingSize int,
	output []float32) { //alt:f32|bf16|f16
	//alt:f64 output []float64) {

	if batchCount == 0 || lhsCrossSize == 0 || rhsCrossSize == 0 || contractingSize == 0 {
		return
	}

	lhsStride := lhsCrossSize * contractingSize
	rhsStride := contractingSize * rhsCrossSize
	outputStride := lhsCrossSize * rhsCrossSize

	lhsPtr := uintptr(unsafe.Pointer(unsafe.SliceData(lhs)))
	rhsPtr := uintptr(unsafe.Pointer(unsafe.SliceData(rhs)))
	outputPtr := uintptr(unsafe.Pointer(unsafe.SliceData(output)))

	const elemSize = 4 //alt:f32
	//alt:bf16 const elemSize = 2
	//alt:f16 const elemSize = 2
	//alt:f64 const elemSize = 8

	const outputElemSize = 4 //alt:f32|bf16|f16
	//alt:f64 const outputElemSize = 8

	lhsByteStride := uintptr(lhsStride) * elemSize
	rhsByteStride := uintptr(rhsStride) * elemSize
	outputByteStride := uintptr(outputStride) * outputElemSize

	lhsBase := lhsPtr + uintptr(batchStart)*lhsByteStride
	rhsBase := rhsPtr + uintptr(batchStart)*rhsByteStride
	outputBase := outputPtr + uintptr(batchStart)*outputByteStride

	outStrideBytes := rhsCrossSize * outputElemSize

	for range batchCount {
		row := 0
		for ; row+3 < lhsCrossSize; row += 4 {
			lRow0 := unsafe.Pointer(lhsBase + uintptr((row+0)*contractingSize)*elemSize)
			lRow1 := unsafe.Pointer(lhsBase + uintptr((row+1)*contractingSize)*elemSize)
			lRow2 := unsafe.Pointer(lhsBase + uintptr((row+2)*contractingSize)*elemSize)
			lRow3 := unsafe.Pointer(lhsBase + uintptr((row+3)*contractingSize)*elemSize)

			col := 0
			for ; col+1 < rhsCrossSize; col += 2 {
				rCol0 := unsafe.Pointer(rhsBase + uintptr((col+0)*contractingSize)*elemSize)
				rCol1 := unsafe.Pointer(rhsBase + uintptr((col+1)*contractingSize)*elemSize)
				outPtr := unsafe.Pointer(outputBase + uintptr(row*rhsCrossSize+col)*outputElemSize)

				avx2SmallTransposedTile4x2Float32Asm( //alt:f32
					//alt:bf16 avx2SmallTransposedTile4x2BFloat16Asm(
					//alt:f16 avx2SmallTransposedTile4x2Float16Asm(
					//alt:f64 avx2SmallTransposedTile4x2Float64Asm(
					lRow0, lRow1, lRow2, lRow3,
					rCol0, rCol1,
					contractingSize,
					outPtr,
					outStrideBytes)
			}

			if col < rhsCrossSize {
				rCol0 := unsafe.Pointer(rhsBase + uintptr(col*contractingSize)*elemSize)
				outPtr := unsafe.Pointer(outputBase + uintptr(row*rhsCrossSize+col)*outputElemSize)

				avx2SmallTransposedTile4x1Float32Asm( //alt:f32
					//alt:bf16 avx2SmallTransposedTile4x1BFloat16Asm(
					//alt:f16 avx2SmallTransposedTile4x1Float16Asm(
					//alt:f64 avx2SmallTransposedTile4x1Float64Asm(
					lRow0, lRow1, lRow2, lRow3,
					rCol0,
					contractingSize,
					outPtr,
					outStrideBytes)
				col++
			}
		}

		// Remainder rows
		for ; row < lhsCrossSize; row++ {
			lRow := lhsBase + uintptr(row*contractingSize)*elemSize
			for col := range rhsCrossSize {
				rCol := rhsBase + uintptr(col*contractingSize)*elemSize
				var s float32 //alt:f32|bf16|f16
				//alt:f64 var s float64
				for k := range contractingSize {
					kOffset := uintptr(k) * elemSize
					lVal := *(*float32)(unsafe.Pointer(lRow + kOffset)) //alt:f32
					//alt:bf16 lVal := (*(*bfloat16.BFloat16)(unsafe.Pointer(lRow + kOffset))).Float32()
					//alt:f16 lVal := (*(*float16.Float16)(unsafe.Pointer(lRow + kOffset))).Float32()
					//alt:f64 lVal := *(*float64)(unsafe.Pointer(lRow + kOffset))

					rVal := *(*float32)(unsafe.Pointer(rCol + kOffset)) //alt:f32
					//alt:bf16 rVal := (*(*bfloat16.BFloat16)(unsafe.Pointer(rCol + kOffset))).Float32()
					//alt:f16 rVal := (*(*float16.Float16)(unsafe.Pointer(rCol + kOffset))).Float32()
					//alt:f64 rVal := *(*float64)(unsafe.Pointer(rCol + kOffset))

					s += lVal * rVal
				}
				*(*float32)(unsafe.Pointer(outputBase + uintptr(row*rhsCrossSize+col)*outputElemSize)) = s //alt:f32|bf16|f16
				//alt:f64 *(*float64)(unsafe.Pointer(outputBase + uintptr(row*rhsCrossSize+col)*outputElemSize)) = s
			}
		}

		lhsBase += lhsByteStride
		rhsBase += rhsByteStride
		outputBase += outputByteStride
	}
}
