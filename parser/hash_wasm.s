#include "textflag.h"

// word.Mul1 and word.Mul2 (internal/word), as signed constants.
#define MUL1 $-0x61c8864680b583eb
#define MUL2 $-0x40a7b892e31b1a47

// MIX(w) sets R0 to rotl((R0^w) * MUL2, 31), w pushed by the caller's
// code before it.
#define MIX \
	Get R0; \
	I64Xor; \
	I64Const MUL2; \
	I64Mul; \
	I64Const $31; \
	I64Rotl; \
	Set R0

// SHIFTXOR sets R0 to R0 ^ R0>>33.
#define SHIFTXOR \
	Get R0; \
	Get R0; \
	I64Const $33; \
	I64ShrU; \
	I64Xor; \
	Set R0

// func hashBytes(seed uint64, b []byte) uint32
//
// R0 is the hash, R1 the address read, R2 b's end, R4 the last word:
// the bytes after the last whole word, fewer than eight, are the word
// that ends b shifted down past the bytes before them (a byte at a time
// where b is shorter than eight), the same value, little-endian, as
// hash_other.go's.
TEXT ·hashBytes(SB), NOSPLIT, $0-36
	I64Load b_len+16(FP)
	Tee R3
	I64Const MUL1
	I64Mul
	I64Load seed+0(FP)
	I64Xor
	Set R0
	I64Load b_base+8(FP)
	Tee R1
	Get R3
	I64Add
	Set R2

	Block
	Loop
		Get R1
		I64Const $8
		I64Add
		Get R2
		I64GtU
		BrIf $1
		Get R1
		I32WrapI64
		I64Load $0
		MIX
		Get R1
		I64Const $8
		I64Add
		Set R1
		Br $0
	End
	End

	Get R1
	Get R2
	I64LtU
	If
		Get R3
		I64Const $8
		I64GeU
		If
			// (8 - left) * 8 bits to shift off.
			Get R2
			I64Const $8
			I64Sub
			I32WrapI64
			I64Load $0
			I64Const $8
			Get R2
			Get R1
			I64Sub
			I64Sub
			I64Const $3
			I64Shl
			I64ShrU
			Set R4
		Else
			// w = w<<8 | b[k], k from the last byte down to R1.
			I64Const $0
			Set R4
			Block
			Loop
				Get R2
				Get R1
				I64LeU
				BrIf $1
				Get R2
				I64Const $1
				I64Sub
				Set R2
				Get R4
				I64Const $8
				I64Shl
				Get R2
				I32WrapI64
				I64Load8U $0
				I64Or
				Set R4
				Br $0
			End
			End
		End
		Get R4
		MIX
	End

	SHIFTXOR
	Get R0
	I64Const MUL1
	I64Mul
	Set R0
	SHIFTXOR
	Get R0
	I64Const MUL2
	I64Mul
	Set R0
	SHIFTXOR

	Get SP
	Get R0
	I64Const $32
	I64ShrU
	I64Const $1
	I64Or
	I64Store32 ret+32(FP)
	RET
