//go:build unix

package effect

import (
	"errors"
	"os"
	"syscall"

	"github.com/rlm-go/rlm/fault"
)

// lockFile takes an exclusive, non-blocking advisory lock on path. The
// kernel releases it when the process dies, so a crashed writer never
// blocks the next one.
func lockFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, ioErr(err, "open journal lock")
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fault.New(PhaseEffect, KindJournalLocked, "another process holds the effect journal")
		}
		return nil, ioErr(err, "lock journal")
	}
	return f, nil
}

func unlockFile(f *os.File) {
	if f == nil {
		return
	}
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	_ = f.Close()
}
