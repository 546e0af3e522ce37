#include "textflag.h"

// func prefetchBytes(b []byte)
TEXT ·prefetchBytes(SB), NOSPLIT, $0-24
	MOVQ b_base+0(FP), SI
	MOVQ b_len+8(FP), CX
	TESTQ CX, CX
	JLE done
	LEAQ (SI)(CX*1), DI

loop:
	PREFETCHT0 (SI)
	ADDQ $64, SI
	CMPQ SI, DI
	JB loop

done:
	RET
