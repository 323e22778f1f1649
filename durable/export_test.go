package durable

import (
	"testing"
	"time"
)

// SetRetryWindow shortens the retry of connection failures for the rest
// of t. The old window comes back in t's cleanup, registered before the
// test starts its workers, so after they have stopped (cleanups run last
// registered first): a deferred restore ran before the cleanups that
// stop the workers and raced with their heartbeats.
func SetRetryWindow(t testing.TB, d time.Duration) {
	old := retryWindow
	retryWindow = d
	t.Cleanup(func() { retryWindow = old })
}
