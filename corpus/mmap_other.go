//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package corpus

import (
	"errors"
	"io"
	"os"
)

// mapFile reads the file at path into memory: this platform has no mmap
// support in package syscall.
func mapFile(path string) (data []byte, rd *os.File, err error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, errors.New("not a regular file")
	}
	b, err := os.ReadFile(path)
	return b, nil, err
}

// mapOpen reads the open file f from its current offset into memory.
func mapOpen(f *os.File) (data []byte, rd *os.File, err error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, errors.New("not a regular file")
	}
	b, err := io.ReadAll(f)
	return b, nil, err
}

func unmapFile([]byte, *os.File) error { return nil }
