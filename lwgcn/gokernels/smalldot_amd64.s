//go:build goexperiment.simd && amd64 && !amd64.v3 && !amd64.v4

#include "textflag.h"
#include "zero_amd64.h"

// CHAIN4_LOAD loads the next 16 columns of cols (R12) into Z4 and the 4
// rows' next values (R8-R11 at offset SI) broadcast into Z5-Z8;
// CHAIN4_NEXT advances to the next value of k and counts it down (BX).
// CHAIN4_ARGS loads the 4-row loops' arguments: the rows (R8-R11, ls
// bytes apart), cols (R12, cs bytes per value of k: DX) and k (BX).
#define CHAIN4_ARGS \
	MOVQ l+0(FP), R8 \
	MOVQ ls+8(FP), AX \
	LEAQ (R8)(AX*1), R9 \
	LEAQ (R9)(AX*1), R10 \
	LEAQ (R10)(AX*1), R11 \
	MOVQ cols+16(FP), R12 \
	MOVQ cs+24(FP), DX \
	MOVQ k+32(FP), BX

#define CHAIN4_LOAD \
	VMOVUPS (R12), Z4 \
	VBROADCASTSS (R8)(SI*1), Z5 \
	VBROADCASTSS (R9)(SI*1), Z6 \
	VBROADCASTSS (R10)(SI*1), Z7 \
	VBROADCASTSS (R11)(SI*1), Z8

#define CHAIN4_NEXT \
	ADDQ DX, R12 \
	ADDQ $4, SI \
	DECQ BX

// The smalldot kernel's loops (smalldot_simd.go): 16 output columns per
// vector, cols [k, ·] read cs bytes per row of k, the stores masked to the
// columns kept (mask, a bit per column).

// func smallDotChain4(l *float32, ls uintptr, cols *float32, cs uintptr, k int, out *float32, os uintptr, mask uint16, fused bool)
//
// Rows 0..3 (l, l+ls, ...; out, out+os, ...): from zero, for each of k in
// order s += l[k]·cols[k] as one fused multiply-add (VFMADD231PS), or with
// !fused as a multiply rounded and then an add (VMULPS, VADDPS).
TEXT ·smallDotChain4(SB), NOSPLIT, $0-59
	CHAIN4_ARGS
	VXORPS Z0, Z0, Z0
	VXORPS Z1, Z1, Z1
	VXORPS Z2, Z2, Z2
	VXORPS Z3, Z3, Z3
	XORQ SI, SI
	MOVB fused+58(FP), CX
	TESTB CX, CX
	JZ unfused

fused:
	CHAIN4_LOAD
	VFMADD231PS Z4, Z5, Z0
	VFMADD231PS Z4, Z6, Z1
	VFMADD231PS Z4, Z7, Z2
	VFMADD231PS Z4, Z8, Z3
	CHAIN4_NEXT
	JNZ fused
	JMP store

unfused:
	CHAIN4_LOAD
	VMULPS Z4, Z5, Z5
	VMULPS Z4, Z6, Z6
	VMULPS Z4, Z7, Z7
	VMULPS Z4, Z8, Z8
	VADDPS Z5, Z0, Z0
	VADDPS Z6, Z1, Z1
	VADDPS Z7, Z2, Z2
	VADDPS Z8, Z3, Z3
	CHAIN4_NEXT
	JNZ unfused

store:
	MOVQ out+40(FP), DI
	MOVQ os+48(FP), AX
	MOVW mask+56(FP), CX
	KMOVW CX, K1
	VMOVUPS Z0, K1, (DI)
	ADDQ AX, DI
	VMOVUPS Z1, K1, (DI)
	ADDQ AX, DI
	VMOVUPS Z2, K1, (DI)
	ADDQ AX, DI
	VMOVUPS Z3, K1, (DI)
	VZEROUPPER
	RET

// func smallDotFused4x64(l *float32, ls uintptr, cols *float32, cs uintptr, k int, out *float32, os uintptr)
//
// smallDotChain4's fused chains for 64 columns (4 vectors, 16 accumulators),
// all stored.
TEXT ·smallDotFused4x64(SB), NOSPLIT, $0-56
	CHAIN4_ARGS
	ZERO_Z0_Z15
	XORQ SI, SI

loop64:
	VMOVUPS 0(R12), Z16
	VMOVUPS 64(R12), Z17
	VMOVUPS 128(R12), Z18
	VMOVUPS 192(R12), Z19
	VBROADCASTSS (R8)(SI*1), Z20
	VBROADCASTSS (R9)(SI*1), Z21
	VBROADCASTSS (R10)(SI*1), Z22
	VBROADCASTSS (R11)(SI*1), Z23
	VFMADD231PS Z16, Z20, Z0
	VFMADD231PS Z17, Z20, Z1
	VFMADD231PS Z18, Z20, Z2
	VFMADD231PS Z19, Z20, Z3
	VFMADD231PS Z16, Z21, Z4
	VFMADD231PS Z17, Z21, Z5
	VFMADD231PS Z18, Z21, Z6
	VFMADD231PS Z19, Z21, Z7
	VFMADD231PS Z16, Z22, Z8
	VFMADD231PS Z17, Z22, Z9
	VFMADD231PS Z18, Z22, Z10
	VFMADD231PS Z19, Z22, Z11
	VFMADD231PS Z16, Z23, Z12
	VFMADD231PS Z17, Z23, Z13
	VFMADD231PS Z18, Z23, Z14
	VFMADD231PS Z19, Z23, Z15
	ADDQ DX, R12
	ADDQ $4, SI
	DECQ BX
	JNZ loop64

	MOVQ out+40(FP), DI
	MOVQ os+48(FP), AX
	VMOVUPS Z0, 0(DI)
	VMOVUPS Z1, 64(DI)
	VMOVUPS Z2, 128(DI)
	VMOVUPS Z3, 192(DI)
	ADDQ AX, DI
	VMOVUPS Z4, 0(DI)
	VMOVUPS Z5, 64(DI)
	VMOVUPS Z6, 128(DI)
	VMOVUPS Z7, 192(DI)
	ADDQ AX, DI
	VMOVUPS Z8, 0(DI)
	VMOVUPS Z9, 64(DI)
	VMOVUPS Z10, 128(DI)
	VMOVUPS Z11, 192(DI)
	ADDQ AX, DI
	VMOVUPS Z12, 0(DI)
	VMOVUPS Z13, 64(DI)
	VMOVUPS Z14, 128(DI)
	VMOVUPS Z15, 192(DI)
	VZEROUPPER
	RET

// func smallDotUnfused1(l *float32, cols *float32, cs uintptr, k int, out *float32, mask uint16)
//
// One row: from zero, s += l[k]·cols[k] in k order, the product rounded
// before the add.
TEXT ·smallDotUnfused1(SB), NOSPLIT, $0-42
	MOVQ l+0(FP), R8
	MOVQ cols+8(FP), R12
	MOVQ cs+16(FP), DX
	MOVQ k+24(FP), BX
	VXORPS Z0, Z0, Z0

loop1:
	VBROADCASTSS (R8), Z5
	VMULPS (R12), Z5, Z5
	VADDPS Z5, Z0, Z0
	ADDQ DX, R12
	ADDQ $4, R8
	DECQ BX
	JNZ loop1

	MOVQ out+32(FP), DI
	MOVW mask+40(FP), CX
	KMOVW CX, K1
	VMOVUPS Z0, K1, (DI)
	VZEROUPPER
	RET

// func smallDotTree1(l *float32, cols *float32, cs uintptr, k int, out *float32, mask uint16)
//
// One row, compute's 4 x 4 tile of dot products for 16 columns: lane j of
// its 16 (Zj here, a vector of columns) a fused chain over k = j, j+16, ...
// from zero for the first k - k%16 values of k; the lanes added as its
// REDUCE_Z does (j and j+8, j and j+4, then (0+1) + (2+3)); then the rest
// of k a fused chain onto the sum.
TEXT ·smallDotTree1(SB), NOSPLIT, $0-42
	MOVQ l+0(FP), R8
	MOVQ cols+8(FP), R12
	MOVQ cs+16(FP), DX
	MOVQ k+24(FP), BX

	ZERO_Z0_Z15

chunk:
	CMPQ BX, $16
	JLT reduce
	MOVQ R12, R13
	VBROADCASTSS 0(R8), Z16
	VFMADD231PS (R13), Z16, Z0
	ADDQ DX, R13
	VBROADCASTSS 4(R8), Z17
	VFMADD231PS (R13), Z17, Z1
	ADDQ DX, R13
	VBROADCASTSS 8(R8), Z18
	VFMADD231PS (R13), Z18, Z2
	ADDQ DX, R13
	VBROADCASTSS 12(R8), Z19
	VFMADD231PS (R13), Z19, Z3
	ADDQ DX, R13
	VBROADCASTSS 16(R8), Z20
	VFMADD231PS (R13), Z20, Z4
	ADDQ DX, R13
	VBROADCASTSS 20(R8), Z21
	VFMADD231PS (R13), Z21, Z5
	ADDQ DX, R13
	VBROADCASTSS 24(R8), Z22
	VFMADD231PS (R13), Z22, Z6
	ADDQ DX, R13
	VBROADCASTSS 28(R8), Z23
	VFMADD231PS (R13), Z23, Z7
	ADDQ DX, R13
	VBROADCASTSS 32(R8), Z16
	VFMADD231PS (R13), Z16, Z8
	ADDQ DX, R13
	VBROADCASTSS 36(R8), Z17
	VFMADD231PS (R13), Z17, Z9
	ADDQ DX, R13
	VBROADCASTSS 40(R8), Z18
	VFMADD231PS (R13), Z18, Z10
	ADDQ DX, R13
	VBROADCASTSS 44(R8), Z19
	VFMADD231PS (R13), Z19, Z11
	ADDQ DX, R13
	VBROADCASTSS 48(R8), Z20
	VFMADD231PS (R13), Z20, Z12
	ADDQ DX, R13
	VBROADCASTSS 52(R8), Z21
	VFMADD231PS (R13), Z21, Z13
	ADDQ DX, R13
	VBROADCASTSS 56(R8), Z22
	VFMADD231PS (R13), Z22, Z14
	ADDQ DX, R13
	VBROADCASTSS 60(R8), Z23
	VFMADD231PS (R13), Z23, Z15
	ADDQ DX, R13
	MOVQ R13, R12
	ADDQ $64, R8
	SUBQ $16, BX
	JMP chunk

reduce:
	VADDPS Z8, Z0, Z0
	VADDPS Z9, Z1, Z1
	VADDPS Z10, Z2, Z2
	VADDPS Z11, Z3, Z3
	VADDPS Z12, Z4, Z4
	VADDPS Z13, Z5, Z5
	VADDPS Z14, Z6, Z6
	VADDPS Z15, Z7, Z7
	VADDPS Z4, Z0, Z0
	VADDPS Z5, Z1, Z1
	VADDPS Z6, Z2, Z2
	VADDPS Z7, Z3, Z3
	VADDPS Z1, Z0, Z0
	VADDPS Z3, Z2, Z2
	VADDPS Z2, Z0, Z0
	TESTQ BX, BX
	JZ store1

tail:
	VBROADCASTSS (R8), Z16
	VFMADD231PS (R12), Z16, Z0
	ADDQ DX, R12
	ADDQ $4, R8
	DECQ BX
	JNZ tail

store1:
	MOVQ out+32(FP), DI
	MOVW mask+40(FP), CX
	KMOVW CX, K1
	VMOVUPS Z0, K1, (DI)
	VZEROUPPER
	RET
