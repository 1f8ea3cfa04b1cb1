//go:build goexperiment.simd && amd64

#include "textflag.h"

// SLOT_ROW points CX at the next slot's row: its index (idx at R9, which
// advances R10 bytes) clamped to [0, R12] (rows - 1), the row at SI plus
// index times R8 bytes, or R14 (zero) when the index is R13 (zeroRow).
#define SLOT_ROW \
	MOVLQSX (R9), AX \
	ADDQ R10, R9 \
	XORL DX, DX \
	TESTQ AX, AX \
	CMOVQLT DX, AX \
	CMPQ AX, R12 \
	CMOVQGT R12, AX \
	MOVQ AX, CX \
	IMULQ R8, CX \
	ADDQ SI, CX \
	CMPQ AX, R13 \
	CMOVQEQ R14, CX

// LOAD_ROW loads the row at CX's 4 vectors under the masks K1-K4.
#define LOAD_ROW(a, b, c, d) \
	VMOVUPS.Z 0(CX), K1, a \
	VMOVUPS.Z 64(CX), K2, b \
	VMOVUPS.Z 128(CX), K3, c \
	VMOVUPS.Z 192(CX), K4, d

// SCALE_ROW multiplies 4 vectors by the slot's weight (Z8).
#define SCALE_ROW(a, b, c, d) \
	VMULPS Z8, a, a \
	VMULPS Z8, b, b \
	VMULPS Z8, c, c \
	VMULPS Z8, d, d

// ADD_ROW adds Z4-Z7 to the sums Z0-Z3.
#define ADD_ROW \
	VADDPS Z4, Z0, Z0 \
	VADDPS Z5, Z1, Z1 \
	VADDPS Z6, Z2, Z2 \
	VADDPS Z7, Z3, Z3

// func gatherSumChunk(o *float32, x *float32, rowBytes uintptr, idx *int32, stride uintptr, k int, w *float32, rows int, zeroRow int, zero *float32, masks uint64)
//
// One output row's columns [c, c+64) of a gather-sum (gathersum.go),
// o and x already offset by c: o = Σ over k slots in order of x's row
// idx[slot] (clamped to [0, rows), zero's row when it equals zeroRow),
// times w[slot] when w is not nil (the product rounded, then added); the
// first slot's row (or product) is o's start. idx and w advance stride
// bytes per slot. masks holds 16 bits per vector of 16 columns: lanes
// outside them are neither read nor written.
TEXT ·gatherSumChunk(SB), NOSPLIT, $0-88
	MOVQ o+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ rowBytes+16(FP), R8
	MOVQ idx+24(FP), R9
	MOVQ stride+32(FP), R10
	MOVQ k+40(FP), BX
	MOVQ w+48(FP), R11
	MOVQ rows+56(FP), R12
	DECQ R12
	MOVQ zeroRow+64(FP), R13
	MOVQ zero+72(FP), R14
	MOVQ masks+80(FP), AX
	KMOVW AX, K1
	SHRQ $16, AX
	KMOVW AX, K2
	SHRQ $16, AX
	KMOVW AX, K3
	SHRQ $16, AX
	KMOVW AX, K4

	TESTQ R11, R11
	JNZ weighted

	// Unweighted: the first row, then each next one added.
	SLOT_ROW
	LOAD_ROW(Z0, Z1, Z2, Z3)
	DECQ BX
	JZ store

plain:
	SLOT_ROW
	LOAD_ROW(Z4, Z5, Z6, Z7)
	ADD_ROW
	DECQ BX
	JNZ plain
	JMP store

weighted:
	SLOT_ROW
	VBROADCASTSS (R11), Z8
	ADDQ R10, R11
	LOAD_ROW(Z0, Z1, Z2, Z3)
	SCALE_ROW(Z0, Z1, Z2, Z3)
	DECQ BX
	JZ store

wloop:
	SLOT_ROW
	VBROADCASTSS (R11), Z8
	ADDQ R10, R11
	LOAD_ROW(Z4, Z5, Z6, Z7)
	SCALE_ROW(Z4, Z5, Z6, Z7)
	ADD_ROW
	DECQ BX
	JNZ wloop

store:
	VMOVUPS Z0, K1, 0(DI)
	VMOVUPS Z1, K2, 64(DI)
	VMOVUPS Z2, K3, 128(DI)
	VMOVUPS Z3, K4, 192(DI)
	VZEROUPPER
	RET
