//go:build linux

package corpus

import (
	"os"
	"syscall"
	"unsafe"
)

// evictMinSize is the smallest mapping whose scanned pages are released.
const evictMinSize = 64 << 20

var pageSize = uintptr(os.Getpagesize())

// evictPages tells the kernel that the whole pages inside b, part of a
// shared read-only file mapping, are not needed now (MADV_DONTNEED). For a
// file mapping this only drops the process's page-table entries: the data
// stays in the page cache and is faulted back on the next access, so the
// mapping stays valid while resident set size stays bounded by the scan
// window.
func evictPages(b []byte) {
	if len(b) == 0 {
		return
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	lo := (p + pageSize - 1) &^ (pageSize - 1)
	hi := (p + uintptr(len(b))) &^ (pageSize - 1)
	if hi <= lo {
		return
	}
	_ = syscall.Madvise(b[lo-p:hi-p], syscall.MADV_DONTNEED)
}

// scanMapped makes scans of a large mapped file read the mapping itself,
// releasing its pages behind them, rather than copy it through a buffer
// (see reader).
const scanMapped = true
