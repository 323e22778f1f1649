//go:build !linux

package corpus

import "math"

const evictMinSize = math.MaxInt

func evictPages([]byte) {}
