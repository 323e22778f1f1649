//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package corpus

import (
	"errors"
	"io"
	"os"
)

// mapFile reads the file at path into memory: this platform has no mmap
// support in package syscall.
func mapFile(path string) (data []byte, mapped bool, err error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, false, err
	}
	if !fi.Mode().IsRegular() {
		return nil, false, errors.New("not a regular file")
	}
	b, err := os.ReadFile(path)
	return b, false, err
}

// mapOpen reads the open file f from its current offset into memory.
func mapOpen(f *os.File) (data []byte, mapped bool, err error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, false, err
	}
	if !fi.Mode().IsRegular() {
		return nil, false, errors.New("not a regular file")
	}
	b, err := io.ReadAll(f)
	return b, false, err
}

func unmapFile([]byte) error { return nil }
