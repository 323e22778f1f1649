//go:build !amd64 || purego

package teddy

import "math"

const vectorMin = math.MaxInt

var useAVX2 = false

func scanAVX2([]byte, *[2 * fingerprint][32]byte) (cand, next int) {
	panic("teddy: no vector scan on this platform")
}
