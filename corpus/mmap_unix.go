//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package corpus

import (
	"errors"
	"os"
	"syscall"
)

// mapFile maps the file at path read-only and shared. An empty file maps to
// nil (mmap rejects zero lengths). rd, set when the file is mapped, is the
// file kept open so that scans can read it (see reader) instead of
// faulting the mapping's pages in; unmapFile closes it. The file is
// opened non-blocking: a named pipe is then refused as not regular at once
// instead of blocking the open until a writer comes (O_NONBLOCK does not
// change reads of a regular file).
func mapFile(path string) (data []byte, rd *os.File, err error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	data, err = mapFD(f)
	if data == nil {
		f.Close()
		return nil, nil, err
	}
	return data, f, nil
}

// mapOpen maps the open file f from its start, read-only and shared; rd is
// a duplicate of f's descriptor (f stays the caller's).
func mapOpen(f *os.File) (data []byte, rd *os.File, err error) {
	data, err = mapFD(f)
	if data == nil {
		return nil, nil, err
	}
	syscall.ForkLock.RLock()
	fd, err := syscall.Dup(int(f.Fd()))
	if err == nil {
		syscall.CloseOnExec(fd)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		_ = syscall.Munmap(data)
		return nil, nil, err
	}
	return data, os.NewFile(uintptr(fd), f.Name()), nil
}

func mapFD(f *os.File) ([]byte, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	size := fi.Size()
	if size == 0 {
		return nil, nil
	}
	if int64(int(size)) != size {
		return nil, errors.New("file too large to map")
	}
	return syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
}

// unmapFile unmaps b and closes rd (either may be nil).
func unmapFile(b []byte, rd *os.File) error {
	var err error
	if b != nil {
		err = syscall.Munmap(b)
	}
	if rd != nil {
		rd.Close()
	}
	return err
}
