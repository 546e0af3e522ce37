#include "textflag.h"

// RET_IF_MATCH(off) returns the index of the lowest byte equal to c in
// the word at R0+off, if it has one (see indexByte): R6 marks it.
#define RET_IF_MATCH(off) \
	Get R0; \
	I32WrapI64; \
	I64Load $off; \
	Get R1; \
	I64Xor; \
	Tee R5; \
	I64Const $0x0101010101010101; \
	I64Sub; \
	Get R5; \
	I64Const $-1; \
	I64Xor; \
	I64And; \
	I64Const $-0x7f7f7f7f7f7f7f80; \
	I64And; \
	Tee R6; \
	I64Eqz; \
	I32Eqz; \
	If; \
		Get SP; \
		Get R0; \
		Get R3; \
		I64Sub; \
		Get R6; \
		I64Ctz; \
		I64Const $3; \
		I64ShrU; \
		I64Const $off; \
		I64Add; \
		I64Add; \
		I64Store ret+32(FP); \
		RET; \
	End

// func indexByte(b []byte, c byte) int
//
// R0 is the address read, R3 the slice's start, R4 its end, R1 c in
// every byte of a word. Sixteen bytes at a time, as two words: a byte
// equal to c is zero in w^R1, and for a word y, (y-0x01..01) &^ y &
// 0x80..80 marks exactly its lowest zero byte (a borrow can mark bytes
// above it, never below), whose index its trailing zeros give. The last
// fifteen bytes go a byte at a time.
TEXT ·indexByte(SB), NOSPLIT, $0-40
	I64Load b_base+0(FP)
	Tee R0
	Set R3
	I64Load b_len+8(FP)
	Get R0
	I64Add
	Set R4
	I64Load8U c+24(FP)
	I64Const $0x0101010101010101
	I64Mul
	Set R1

	Block
	Loop
		Get R0
		I64Const $16
		I64Add
		Get R4
		I64GtU
		BrIf $1

		RET_IF_MATCH(0)
		RET_IF_MATCH(8)

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
		Get R1
		I64Const $0xff
		I64And
		I64Eq
		If
			Get SP
			Get R0
			Get R3
			I64Sub
			I64Store ret+32(FP)
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
	I64Store ret+32(FP)
	RET
