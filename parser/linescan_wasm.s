#include "textflag.h"

// CANDIDATES(w) pushes (z-0x01..01) &^ z for z = (w^0x0a..0a) & 0x9f..9f,
// using R7. Masked with 0x80..80, it is not zero exactly when a byte of
// w is one of '\n' (0x0a), '*' (0x2a), 'J' (0x4a) and 'j' (0x6a), which
// differ only in the bits that 0x9f clears: one test for the two bytes
// sought, and two that JSON of Kubernetes objects seldom holds, which
// the exact test of the block sets apart.
#define CANDIDATES(w) \
	Get w; \
	I64Const $0x0a0a0a0a0a0a0a0a; \
	I64Xor; \
	I64Const $-0x6060606060606061; \
	I64And; \
	Tee R7; \
	I64Const $0x0101010101010101; \
	I64Sub; \
	Get R7; \
	I64Const $-1; \
	I64Xor; \
	I64And

// RET_IF_FOUND(p) returns p's index in the slice (p less R3) when the
// byte at p is '\n' or 'j'.
#define RET_IF_FOUND(p) \
	Get p; \
	I32WrapI64; \
	I64Load8U $0; \
	Tee R5; \
	I64Const $10; \
	I64Eq; \
	Get R5; \
	I64Const $106; \
	I64Eq; \
	I32Or; \
	If; \
		Get SP; \
		Get p; \
		Get R3; \
		I64Sub; \
		I64Store ret+24(FP); \
		RET; \
	End

// MAYBE(w) pushes ((w^0x0a..0a) & 0x9f..9f) - 0x01..01, whose bytes have
// their top bit set at least where CANDIDATES' have: also at most bytes
// of 0x80 and above, and above a candidate, where the subtraction
// borrows, which CANDIDATES then tells apart. It takes three operations a
// word where CANDIDATES takes five, and most blocks of a line are plain
// ASCII without a candidate.
#define MAYBE(w) \
	Get w; \
	I64Const $0x0a0a0a0a0a0a0a0a; \
	I64Xor; \
	I64Const $-0x6060606060606061; \
	I64And; \
	I64Const $0x0101010101010101; \
	I64Sub

// func newlineOrJ(b []byte) int
//
// R0 is the address read, R3 the slice's start, R4 its end. Sixteen bytes
// at a time, as two words tested first with MAYBE, and where that marks
// a byte, with CANDIDATES; a block with a candidate is looked through a
// byte at a time for the first '\n' or 'j', and where it has neither the
// search goes on after it. The last fifteen bytes go a byte at a time.
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

		MAYBE(R5)
		MAYBE(R6)
		I64Or
		// 0x8080808080808080
		I64Const $-0x7f7f7f7f7f7f7f80
		I64And
		I64Eqz
		I32Eqz
		If
			CANDIDATES(R5)
			CANDIDATES(R6)
			I64Or

			// 0x8080808080808080: a candidate, looked through.
			I64Const $-0x7f7f7f7f7f7f7f80
			I64And
			I64Eqz
			I32Eqz
			If
				// R8 runs over the block's sixteen bytes, up to R9.
				Get R0
				Tee R8
				I64Const $16
				I64Add
				Set R9
				Block
				Loop
					Get R8
					Get R9
					I64GeU
					BrIf $1

					RET_IF_FOUND(R8)

					Get R8
					I64Const $1
					I64Add
					Set R8
					Br $0
				End
				End
			End
		End

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

		RET_IF_FOUND(R0)

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
