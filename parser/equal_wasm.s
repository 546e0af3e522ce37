#include "textflag.h"

// NOTEQUAL returns false.
#define NOTEQUAL \
	Get SP; \
	I64Const $0; \
	I64Store8 ret+48(FP); \
	RET

// XORAT(off) pushes the word of a at R0+off xor b's at R1+off.
#define XORAT(off) \
	Get R0; \
	I32WrapI64; \
	I64Load $off; \
	Get R1; \
	I32WrapI64; \
	I64Load $off; \
	I64Xor

// func equalBytes(a, b []byte) bool
//
// R0 runs over a up to R2, R1 over b. Thirty-two bytes at a time, as four
// words whose differences are or-ed, then eight at a time, and the last
// bytes as the word that ends with them, which overlaps the one before
// (a byte at a time when there are fewer than eight in all).
TEXT ·equalBytes(SB), NOSPLIT, $0-49
	I64Load a_len+8(FP)
	Tee R3
	I64Load b_len+32(FP)
	I64Ne
	If
		NOTEQUAL
	End
	I64Load a_base+0(FP)
	Tee R0
	Get R3
	I64Add
	Set R2
	I64Load b_base+24(FP)
	Set R1

	Get R3
	I64Const $8
	I64LtU
	If
		Block
		Loop
			Get R0
			Get R2
			I64GeU
			BrIf $1
			Get R0
			I32WrapI64
			I64Load8U $0
			Get R1
			I32WrapI64
			I64Load8U $0
			I64Ne
			If
				NOTEQUAL
			End
			Get R0
			I64Const $1
			I64Add
			Set R0
			Get R1
			I64Const $1
			I64Add
			Set R1
			Br $0
		End
		End
		Get SP
		I64Const $1
		I64Store8 ret+48(FP)
		RET
	End

	Block
	Loop
		Get R0
		I64Const $32
		I64Add
		Get R2
		I64GtU
		BrIf $1
		XORAT(0)
		XORAT(8)
		I64Or
		XORAT(16)
		I64Or
		XORAT(24)
		I64Or
		I64Eqz
		I32Eqz
		If
			NOTEQUAL
		End
		Get R0
		I64Const $32
		I64Add
		Set R0
		Get R1
		I64Const $32
		I64Add
		Set R1
		Br $0
	End
	End

	Block
	Loop
		Get R0
		I64Const $8
		I64Add
		Get R2
		I64GtU
		BrIf $1
		XORAT(0)
		I64Eqz
		I32Eqz
		If
			NOTEQUAL
		End
		Get R0
		I64Const $8
		I64Add
		Set R0
		Get R1
		I64Const $8
		I64Add
		Set R1
		Br $0
	End
	End

	// The last word, back from the end: b's end is R1 plus what is left.
	Get R2
	I64Const $8
	I64Sub
	I32WrapI64
	I64Load $0
	Get R1
	Get R2
	Get R0
	I64Sub
	I64Add
	I64Const $8
	I64Sub
	I32WrapI64
	I64Load $0
	I64Eq
	I64ExtendI32U
	Set R3
	Get SP
	Get R3
	I64Store8 ret+48(FP)
	RET
