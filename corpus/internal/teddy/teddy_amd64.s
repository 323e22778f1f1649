//go:build amd64 && !purego

#include "textflag.h"

// func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL eaxArg+0(FP), AX
	MOVL ecxArg+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET

// func xgetbv() (eax, edx uint32)
TEXT ·xgetbv(SB), NOSPLIT, $0-8
	MOVL $0, CX
	XGETBV
	MOVL AX, eax+0(FP)
	MOVL DX, edx+4(FP)
	RET

// nibbles computes into DST the buckets of the 32 bytes at SRC: the AND of
// the low-nibble table LO and the high-nibble table HI looked up with
// VPSHUFB. Y15 holds 0x0f in every byte; T is a scratch register.
#define NIBBLES(SRC, LO, HI, DST, T) \
	VMOVDQU SRC, DST \
	VPSRLW  $4, DST, T \
	VPAND   Y15, DST, DST \
	VPAND   Y15, T, T \
	VPSHUFB DST, LO, DST \
	VPSHUFB T, HI, T \
	VPAND   T, DST, DST

// func scanAVX2(s []byte, tab *[6][32]byte) (cand, next int)
TEXT ·scanAVX2(SB), NOSPLIT, $0-48
	MOVQ s_base+0(FP), SI
	MOVQ s_len+8(FP), DX
	MOVQ tab+24(FP), DI
	VMOVDQU 0(DI), Y8
	VMOVDQU 32(DI), Y9
	VMOVDQU 64(DI), Y10
	VMOVDQU 96(DI), Y11
	VMOVDQU 128(DI), Y12
	VMOVDQU 160(DI), Y13
	MOVQ $0x0f0f0f0f0f0f0f0f, AX
	MOVQ AX, X15
	VPBROADCASTQ X15, Y15
	VPXOR Y14, Y14, Y14
	SUBQ $34, DX        // the last block start: 34 bytes are read
	XORQ CX, CX

loop:
	CMPQ CX, DX
	JGT  done
	NIBBLES((SI)(CX*1), Y8, Y9, Y0, Y1)
	NIBBLES(1(SI)(CX*1), Y10, Y11, Y2, Y3)
	NIBBLES(2(SI)(CX*1), Y12, Y13, Y4, Y5)
	VPAND    Y2, Y0, Y0
	VPAND    Y4, Y0, Y0
	VPCMPEQB Y14, Y0, Y0
	VPMOVMSKB Y0, AX
	NOTL     AX
	TESTL    AX, AX
	JNZ      found
	ADDQ     $32, CX
	JMP      loop

found:
	BSFL AX, AX
	ADDQ CX, AX
	MOVQ AX, cand+32(FP)
	MOVQ CX, next+40(FP)
	VZEROUPPER
	RET

done:
	MOVQ $-1, cand+32(FP)
	MOVQ CX, next+40(FP)
	VZEROUPPER
	RET
