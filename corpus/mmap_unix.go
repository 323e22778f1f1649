//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package corpus

import (
	"errors"
	"os"
	"syscall"
)

// mapFile maps the file at path read-only and shared. An empty file maps to
// nil (mmap rejects zero lengths).
func mapFile(path string) (data []byte, mapped bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	return mapOpen(f)
}

// mapOpen maps the open file f from its start, read-only and shared.
func mapOpen(f *os.File) (data []byte, mapped bool, err error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, false, err
	}
	if !fi.Mode().IsRegular() {
		return nil, false, errors.New("not a regular file")
	}
	size := fi.Size()
	if size == 0 {
		return nil, false, nil
	}
	if int64(int(size)) != size {
		return nil, false, errors.New("file too large to map")
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, false, err
	}
	return b, true, nil
}

func unmapFile(b []byte) error { return syscall.Munmap(b) }
