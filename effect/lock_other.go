//go:build !unix

package effect

import "os"

// lockFile opens path without locking: single-writer enforcement needs an
// advisory lock this platform build does not provide.
func lockFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, ioErr(err, "open journal lock")
	}
	return f, nil
}

func unlockFile(f *os.File) {
	if f != nil {
		_ = f.Close()
	}
}
