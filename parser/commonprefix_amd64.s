#include "textflag.h"

// func commonPrefix(a, b []byte) int
//
// 64 bytes a step, with SSE2 (every amd64 has it); at a difference, or
// with fewer than 64 bytes left, 16 a step; the last 16 end at the
// shorter slice's end, over bytes already found equal.
TEXT ·commonPrefix(SB), NOSPLIT, $0-56
	MOVQ a_base+0(FP), SI
	MOVQ a_len+8(FP), CX
	MOVQ b_base+24(FP), DI
	MOVQ b_len+32(FP), DX
	CMPQ DX, CX
	CMOVQLT DX, CX
	XORQ AX, AX

loop64:
	LEAQ 64(AX), BX
	CMPQ BX, CX
	JGT loop16
	MOVOU (SI)(AX*1), X0
	MOVOU (DI)(AX*1), X1
	MOVOU 16(SI)(AX*1), X2
	MOVOU 16(DI)(AX*1), X3
	MOVOU 32(SI)(AX*1), X4
	MOVOU 32(DI)(AX*1), X5
	MOVOU 48(SI)(AX*1), X6
	MOVOU 48(DI)(AX*1), X7
	PCMPEQB X1, X0
	PCMPEQB X3, X2
	PCMPEQB X5, X4
	PCMPEQB X7, X6
	PAND X2, X0
	PAND X6, X4
	PAND X4, X0
	PMOVMSKB X0, R8
	CMPL R8, $0xffff
	JNE loop16
	MOVQ BX, AX
	JMP loop64

loop16:
	LEAQ 16(AX), BX
	CMPQ BX, CX
	JGT tail
	MOVOU (SI)(AX*1), X0
	MOVOU (DI)(AX*1), X1
	PCMPEQB X1, X0
	PMOVMSKB X0, R8
	XORL $0xffff, R8
	JNZ found
	MOVQ BX, AX
	JMP loop16

tail:
	CMPQ CX, $16
	JLT bytes
	MOVQ CX, AX
	SUBQ $16, AX
	MOVOU (SI)(AX*1), X0
	MOVOU (DI)(AX*1), X1
	PCMPEQB X1, X0
	PMOVMSKB X0, R8
	XORL $0xffff, R8
	JNZ found
	MOVQ CX, ret+48(FP)
	RET

found:
	BSFL R8, R8
	ADDQ R8, AX
	MOVQ AX, ret+48(FP)
	RET

bytes:
	CMPQ AX, CX
	JGE done
	MOVBLZX (SI)(AX*1), R8
	CMPB R8, (DI)(AX*1)
	JNE done
	INCQ AX
	JMP bytes

done:
	MOVQ AX, ret+48(FP)
	RET
