#include "textflag.h"

// NOFIT returns -1: b does not fit the template.
#define NOFIT \
	Get SP; \
	I64Const $-1; \
	I64Store ret+104(FP); \
	RET

// ZEROS(w, c) pushes (y-0x01..01) &^ y for y = w^c: masked with
// 0x80..80, it marks exactly the lowest byte of w equal to c's bytes (a
// borrow can mark bytes above it, never below). It uses R15.
#define ZEROS(w, c) \
	Get w; \
	I64Const c; \
	I64Xor; \
	Tee R15; \
	I64Const $0x0101010101010101; \
	I64Sub; \
	Get R15; \
	I64Const $-1; \
	I64Xor; \
	I64And

// func matchSpans(b []byte, i int, tb []byte, spans []uint64, found []int) int
//
// R0 is the address read in b, R1 b's end, R12 b's start; R2 is tb's
// start, R3 the offset in tb where the fixed bytes go on (after the last
// string), R7 where they end; R4 runs over the spans up to R5, R13
// holding the current one; R6 is where a string's start and end go in
// found. The fixed bytes are compared a word at a time, the last word
// overlapping the one before (a byte at a time for fewer than eight); a
// string's end is searched for a word at a time, for its quote, a
// backslash or a line end at once.
TEXT ·matchSpans(SB), NOSPLIT, $0-112
	I64Load b_base+0(FP)
	Tee R12
	I64Load b_len+8(FP)
	I64Add
	Set R1
	Get R12
	I64Load i+24(FP)
	I64Add
	Set R0
	I64Load tb_base+32(FP)
	Set R2
	I64Const $0
	Set R3
	I64Load spans_base+56(FP)
	Tee R4
	I64Load spans_len+64(FP)
	I64Const $3
	I64Shl
	I64Add
	Set R5

	Block
	Loop
		// R7: where the fixed bytes end in tb, the next string or tb's end.
		Get R4
		Get R5
		I64LtU
		If
			Get R4
			I32WrapI64
			I64Load $0
			Tee R13
			I64Const $0xffffffff
			I64And
			Set R7
		Else
			I64Load tb_len+40(FP)
			Set R7
		End

		// R8: how many; R9 runs over them in tb; R10 is where they end in b.
		Get R7
		Get R3
		I64Sub
		Set R8
		Get R1
		Get R0
		I64Sub
		Get R8
		I64LtU
		If
			NOFIT
		End
		Get R2
		Get R3
		I64Add
		Set R9
		Get R0
		Get R8
		I64Add
		Set R10

		Get R8
		I64Const $8
		I64GeU
		If
			// R11: the last word's address in b.
			Get R10
			I64Const $8
			I64Sub
			Set R11
			Block
			Loop
				Get R0
				Get R11
				I64GeU
				BrIf $1
				Get R0
				I32WrapI64
				I64Load $0
				Get R9
				I32WrapI64
				I64Load $0
				I64Ne
				If
					NOFIT
				End
				Get R0
				I64Const $8
				I64Add
				Set R0
				Get R9
				I64Const $8
				I64Add
				Set R9
				Br $0
			End
			End
			Get R11
			I32WrapI64
			I64Load $0
			Get R2
			Get R7
			I64Add
			I64Const $8
			I64Sub
			I32WrapI64
			I64Load $0
			I64Ne
			If
				NOFIT
			End
		Else
			Block
			Loop
				Get R0
				Get R10
				I64GeU
				BrIf $1
				Get R0
				I32WrapI64
				I64Load8U $0
				Get R9
				I32WrapI64
				I64Load8U $0
				I64Ne
				If
					NOFIT
				End
				Get R0
				I64Const $1
				I64Add
				Set R0
				Get R9
				I64Const $1
				I64Add
				Set R9
				Br $0
			End
			End
		End
		Get R10
		Set R0

		// The template's end: b fits.
		Get R4
		Get R5
		I64GeU
		BrIf $1

		// The fixed bytes go on in tb after the string's.
		Get R7
		Get R13
		I64Const $32
		I64ShrU
		I64Const $0xffff
		I64And
		I64Add
		Set R3

		// The string's end, from R0 (R10 is its start).
		Block
		Loop
			Get R0
			I64Const $8
			I64Add
			Get R1
			I64LeU
			If
				Get R0
				I32WrapI64
				I64Load $0
				Set R14
				ZEROS(R14, $0x2222222222222222)
				ZEROS(R14, $0x5c5c5c5c5c5c5c5c)
				I64Or
				ZEROS(R14, $0x0a0a0a0a0a0a0a0a)
				I64Or
				// 0x8080808080808080
				I64Const $-0x7f7f7f7f7f7f7f80
				I64And
				Tee R14
				I64Eqz
				If
					Get R0
					I64Const $8
					I64Add
					Set R0
					Br $2
				End
				Get R0
				Get R14
				I64Ctz
				I64Const $3
				I64ShrU
				I64Add
				Set R0
			Else
				Block
				Loop
					Get R0
					Get R1
					I64GeU
					BrIf $1
					Get R0
					I32WrapI64
					I64Load8U $0
					Tee R14
					I64Const $34
					I64Eq
					Get R14
					I64Const $92
					I64Eq
					I32Or
					Get R14
					I64Const $10
					I64Eq
					I32Or
					BrIf $1
					Get R0
					I64Const $1
					I64Add
					Set R0
					Br $0
				End
				End
				Get R0
				Get R1
				I64GeU
				If
					NOFIT
				End
			End

			// A quote ends the string.
			Get R0
			I32WrapI64
			I64Load8U $0
			Tee R14
			I64Const $34
			I64Eq
			BrIf $1

			// A backslash, in a string the walk skips (R13's top bit),
			// passes over the byte after it unless that is a line end;
			// a line end does not fit.
			Get R13
			I64Const $0
			I64GeS
			If
				NOFIT
			End
			Get R14
			I64Const $10
			I64Eq
			If
				NOFIT
			End
			Get R0
			I64Const $1
			I64Add
			Get R1
			I64LtU
			If
				Get R0
				I32WrapI64
				I64Load8U $1
				I64Const $10
				I64Eq
				If
					NOFIT
				End
			End
			Get R0
			I64Const $2
			I64Add
			Set R0
			Br $0
		End
		End

		// The span's slot of found (bits 48-62) gets the string's start
		// and end in b.
		Get R13
		I64Const $48
		I64ShrU
		I64Const $0x7fff
		I64And
		I64Const $4
		I64Shl
		I64Load found_base+80(FP)
		I64Add
		Tee R6
		I32WrapI64
		Get R10
		Get R12
		I64Sub
		I64Store $0
		Get R6
		I32WrapI64
		Get R0
		Get R12
		I64Sub
		I64Store $8
		Get R4
		I64Const $8
		I64Add
		Set R4
		Br $0
	End
	End

	Get SP
	Get R0
	Get R12
	I64Sub
	I64Store ret+104(FP)
	RET
