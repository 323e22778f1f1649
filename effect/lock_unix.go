//go:build unix

package effect

import (
	"os"
	"syscall"
)

// Owner leases. Every open Journal holds an exclusive advisory lock (flock)
// on its own lease file; the kernel releases it when the process dies, so
// "the lease file is missing or can be locked" means "the owner is gone".
// flock locks belong to an open file description, so two Journals of one
// process exclude each other exactly like two processes.

// takeLease creates the lease file at path, locked from its first
// appearance: it is locked under a temporary name and then renamed into
// place, so a checker never sees it unlocked while its owner lives.
func takeLease(path string) (*os.File, error) {
	tmp := path + ".new"
	f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, ioErr(err, "create owner lease")
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		os.Remove(tmp)
		return nil, ioErr(err, "lock owner lease")
	}
	if err := os.Rename(tmp, path); err != nil {
		f.Close()
		os.Remove(tmp)
		return nil, ioErr(err, "publish owner lease")
	}
	return f, nil
}

// leaseHeld reports whether a live owner holds the lease file at path.
func leaseHeld(path string) bool {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return false // no lease file: the owner is gone (or never had one)
	}
	defer f.Close()
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if err == nil {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		return false
	}
	// EWOULDBLOCK: held by a live owner. Any other error is treated as
	// held too: the journal then reports in_progress instead of guessing
	// that the owner died.
	return true
}

// collectLease removes the lease file at path when its owner is gone.
func collectLease(path string) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return
	}
	defer f.Close()
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		return
	}
	os.Remove(path) // removed while locked: a concurrent checker sees it held or missing
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
}

func releaseLease(f *os.File, path string) {
	if f == nil {
		return
	}
	os.Remove(path)
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	_ = f.Close()
}
