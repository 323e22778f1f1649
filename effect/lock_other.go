//go:build !unix

package effect

import "os"

// Without advisory locks, owner liveness cannot be observed on this
// platform: a lease file only records the owner, and an attempt left by
// another owner is treated as left by a process that is gone (run one
// process per journal file here).

func takeLease(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, ioErr(err, "create owner lease")
	}
	return f, nil
}

func leaseHeld(path string) bool { return false }

func collectLease(path string) {}

func releaseLease(f *os.File, path string) {
	if f != nil {
		_ = f.Close()
		_ = os.Remove(path)
	}
}
