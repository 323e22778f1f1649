package vision

import "golang.org/x/image/draw"

// SetScaler swaps the scaler for a benchmark, returning the one before.
func SetScaler(s draw.Scaler) draw.Scaler {
	old := scaler
	scaler = s
	return old
}
