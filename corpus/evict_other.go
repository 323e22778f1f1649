//go:build !linux

package corpus

import "math"

const evictMinSize = math.MaxInt

func evictPages([]byte) {}

// scanMapped is unset: without page eviction a scan of the mapping would
// keep the whole file resident (see reader).
const scanMapped = false
