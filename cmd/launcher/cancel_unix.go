//go:build unix

package launcher

import (
	"os"
	"os/signal"
	"syscall"
)

// onParentCancel calls cancel on each SIGUSR1 until stop is called.
func onParentCancel(cancel func()) (stop func()) {
	ch := make(chan os.Signal, 1)
	done := make(chan struct{})
	signal.Notify(ch, syscall.SIGUSR1)
	go func() {
		for {
			select {
			case <-ch:
				cancel()
			case <-done:
				return
			}
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}
