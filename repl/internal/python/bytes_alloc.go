package python

import (
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
	"weak"
)

// The storage of a bytearray follows CPython's: bytearray.__alloc__() and
// __sizeof__() report ob_alloc, which depends on the history of resizes,
// and deleting from the front only advances the logical start (so that
// consuming a buffer with del buf[:n] takes linear time).
//
// A ByteArray's slice b is the live bytes. Its capacity encodes ob_alloc:
// the bytes after the logical start, less one for CPython's trailing NUL,
// so ob_alloc = cap(b) + start + 1. Two states have cap(b) == 0 and start
// 0: ob_alloc 0 (never allocated), and ob_alloc 1 (resized down to
// nothing), which uses the shared empty array allocOne. The logical start
// (the bytes deleted from the front since the last reallocation) is kept in
// a side table, only for the bytearrays that have had one.

var allocOne [1]byte

// baStarts maps a bytearray to its logical start. An entry stays (at 0)
// once made, until the bytearray is collected, so that one cleanup per
// bytearray removes it.
var baStarts struct {
	sync.Mutex
	m map[weak.Pointer[ByteArray]]int
}

// baStartCount is the number of entries of baStarts: 0 spares the lookups.
var baStartCount atomic.Int64

func baStart(o *ByteArray) int {
	if baStartCount.Load() == 0 {
		return 0
	}
	baStarts.Lock()
	defer baStarts.Unlock()
	return baStarts.m[weak.Make(o)]
}

func baSetStart(o *ByteArray, start int) {
	if start == 0 && baStartCount.Load() == 0 {
		return
	}
	k := weak.Make(o)
	baStarts.Lock()
	defer baStarts.Unlock()
	if _, ok := baStarts.m[k]; !ok {
		if start == 0 {
			return
		}
		if baStarts.m == nil {
			baStarts.m = map[weak.Pointer[ByteArray]]int{}
		}
		baStartCount.Add(1)
		runtime.AddCleanup(o, func(k weak.Pointer[ByteArray]) {
			baStarts.Lock()
			defer baStarts.Unlock()
			if _, ok := baStarts.m[k]; ok {
				delete(baStarts.m, k)
				baStartCount.Add(-1)
			}
		}, k)
	}
	baStarts.m[k] = start
}

// baAlloc returns CPython's ob_alloc of o.
func baAlloc(o *ByteArray) int {
	if cap(o.b) == 0 {
		if start := baStart(o); start > 0 {
			return start + 1
		}
		if unsafe.SliceData(o.b) == &allocOne[0] {
			return 1
		}
		return 0
	}
	return cap(o.b) + baStart(o) + 1
}

// newByteArray returns a bytearray holding b (taken), allocated as CPython
// allocates a new bytearray: exactly.
func newByteArray(b []byte) *ByteArray {
	if cap(b) != len(b) {
		nb := make([]byte, len(b))
		copy(nb, b)
		b = nb
	}
	return &ByteArray{b: b}
}

// newByteArrayStr returns a new bytearray holding a copy of s.
func newByteArrayStr(s string) *ByteArray {
	b := make([]byte, len(s))
	copy(b, s)
	return &ByteArray{b: b}
}

// baResize changes the length of o to n as PyByteArray_Resize does,
// keeping the first min(len, n) bytes; new bytes are zero.
func baResize(t *Thread, o *ByteArray, n int) error {
	size := len(o.b)
	if n == size {
		return nil
	}
	if n <= cap(o.b) {
		// The buffer fits: shrink it to the exact size when less than
		// half of it would be used.
		if n < baAlloc(o)/2 {
			baRealloc(o, n, n+1)
			return nil
		}
		old := len(o.b)
		o.b = o.b[:n]
		if n > old {
			clear(o.b[old:])
		}
		return nil
	}
	if err := t.grow(int64(n)); err != nil {
		return err
	}
	alloc := baAlloc(o)
	var na int
	if 8*int64(n) <= 9*int64(alloc) {
		na = n + n>>3
		if n < 9 {
			na += 3
		} else {
			na += 6
		}
	} else {
		na = n + 1
	}
	baRealloc(o, n, na)
	return nil
}

// baRealloc moves o's bytes to a new buffer of ob_alloc alloc and length
// n, with the logical start back at 0.
func baRealloc(o *ByteArray, n, alloc int) {
	var nb []byte
	if alloc == 1 {
		nb = allocOne[:0:0]
	} else {
		nb = make([]byte, n, alloc-1)
		copy(nb, o.b)
	}
	o.b = nb
	baSetStart(o, 0)
}

// baDelFront deletes the first k bytes of o by advancing its logical
// start, then resizes as CPython does.
func baDelFront(t *Thread, o *ByteArray, k int) error {
	if k <= 0 {
		return nil
	}
	start := baStart(o)
	o.b = o.b[k:]
	baSetStart(o, start+k)
	n := len(o.b)
	// The length is already n; apply the shrink rule of a resize to n.
	if alloc := cap(o.b) + start + k + 1; n < alloc/2 {
		baRealloc(o, n, n+1)
	}
	return nil
}
