#include "textflag.h"

// ZEROBYTES(w, c) pushes (y-0x01..01) &^ y for y = w^c, using R7. Masked
// with 0x80..80, it is not zero exactly when a byte of w equals the byte
// that c repeats.
#define ZEROBYTES(w, c) \
	Get w; \
	I64Const c; \
	I64Xor; \
	Tee R7; \
	I64Const $0x0101010101010101; \
	I64Sub; \
	Get R7; \
	I64Const $-1; \
	I64Xor; \
	I64And

// func newlineOrJ(b []byte) int
//
// R0 is the address read, R3 the slice's start, R4 its end. Sixteen bytes
// at a time, as two words: a byte equal to c is zero in x^(c*0x01..01),
// and for a word y, (y-0x01..01) &^ y & 0x80..80 is not zero if a byte of
// y is. A block where either byte sought occurs is left to the byte loop,
// which finds the first of them, as it does in the last fifteen bytes.
TEXT ·newlineOrJ(SB), NOSPLIT, $0-32
	I64Load b_base+0(FP)
	Tee R0
	Set R3
	I64Load b_len+8(FP)
	Get R0
	I64Add
	Set R4

	Block
	Loop
		// Fewer than sixteen bytes left: to the byte loop.
		Get R0
		I64Const $16
		I64Add
		Get R4
		I64GtU
		BrIf $1

		Get R0
		I32WrapI64
		I64Load $0
		Set R5
		Get R0
		I32WrapI64
		I64Load $8
		Set R6

		// A zero byte in the first word ^ '\n'...
		ZEROBYTES(R5, $0x0a0a0a0a0a0a0a0a)

		// ... or in the first word ^ 'j'...
		ZEROBYTES(R5, $0x6a6a6a6a6a6a6a6a)
		I64Or

		// ... or in the second word ^ '\n'...
		ZEROBYTES(R6, $0x0a0a0a0a0a0a0a0a)
		I64Or

		// ... or in the second word ^ 'j'.
		ZEROBYTES(R6, $0x6a6a6a6a6a6a6a6a)
		I64Or

		// 0x8080808080808080: found, to the byte loop.
		I64Const $-0x7f7f7f7f7f7f7f80
		I64And
		I64Eqz
		I32Eqz
		BrIf $1

		Get R0
		I64Const $16
		I64Add
		Set R0
		Br $0
	End
	End

	Block
	Loop
		Get R0
		Get R4
		I64GeU
		BrIf $1

		Get R0
		I32WrapI64
		I64Load8U $0
		Tee R5
		I64Const $10 // '\n'
		I64Eq
		Get R5
		I64Const $106 // 'j'
		I64Eq
		I32Or
		If
			Get SP
			Get R0
			Get R3
			I64Sub
			I64Store ret+24(FP)
			RET
		End

		Get R0
		I64Const $1
		I64Add
		Set R0
		Br $0
	End
	End

	Get SP
	I64Const $-1
	I64Store ret+24(FP)
	RET
