package durable

import "time"

// SetRetryWindow shortens the retry of connection failures in tests.
func SetRetryWindow(d time.Duration) func() {
	old := retryWindow
	retryWindow = d
	return func() { retryWindow = old }
}
