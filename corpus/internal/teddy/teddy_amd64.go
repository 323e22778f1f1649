//go:build amd64 && !purego

package teddy

// vectorMin is the shortest string the vector scan takes: one block of
// 32 positions reads 34 bytes (the block and the 2 bytes after it).
const vectorMin = 32 + fingerprint - 1

// useAVX2 is set when the CPU and OS support AVX2.
var useAVX2 = hasAVX2()

func hasAVX2() bool {
	_, _, c, _ := cpuid(1, 0)
	const osxsave, avx = 1 << 27, 1 << 28
	if c&osxsave == 0 || c&avx == 0 {
		return false
	}
	if eax, _ := xgetbv(); eax&6 != 6 { // XMM and YMM state saved by the OS
		return false
	}
	if maxLeaf, _, _, _ := cpuid(0, 0); maxLeaf < 7 {
		return false
	}
	_, b, _, _ := cpuid(7, 0)
	return b&(1<<5) != 0
}

func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

func xgetbv() (eax, edx uint32)

// scanAVX2 returns the offset of the first candidate in s (len(s) >=
// vectorMin) among the blocks of 32 positions it scans, or -1 and the
// offset of the first position it did not scan.
//
//go:noescape
func scanAVX2(s []byte, tab *[2 * fingerprint][32]byte) (cand, next int)
