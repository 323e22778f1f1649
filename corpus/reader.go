package corpus

import (
	"bytes"
	"io"
	"os"
	"sync"
	"unsafe"

	"github.com/rlm-go/rlm/fault"
)

// Scans of a large mapped file take its windows from one of two sources,
// chosen by measurement per platform (docs/corpus.md, Memory):
//
//   - where scanMapped is set (Linux), the mapping itself, each window's
//     pages released behind the scan (MADV_DONTNEED, see
//     backing.release) so that the resident set stays near one window:
//     on the 2-core VM of December 2026 (kernel 6.18) faulting the pages
//     of a fresh 256 MiB mapping in costs ~31 ms of CPU against ~45 ms to
//     copy the same bytes with pread;
//   - elsewhere, and with a test's window size, the file's descriptor,
//     read one window at a time into a reused buffer (pread), so that the
//     pages never enter the process's resident set (an earlier VM faulted
//     a fresh mapping in at 1.8 GB/s and read it at 12 GB/s).
//
// Either way the mapping is the source of the few bytes a window does not
// hold (a line longer than a window). Smaller texts and texts in memory
// are scanned in place.
const (
	readWindow = 1 << 20 // bytes read per window
	readMin    = 4 << 20 // smaller mappings are scanned in place
)

var readBufs = sync.Pool{New: func() any { b := make([]byte, readWindow); return &b }}

// reader serves windows of one entry's text: slices of the text itself, or
// copies read from the file behind its mapping.
type reader struct {
	e    *entry
	data []byte   // the whole text
	file *os.File // nil: windows are slices of data
	base int64    // file offset of data[0]
	buf  *[]byte
	// mapped: windows are slices of the mapping, whose pages before
	// released are let go as the scan moves on.
	mapped   bool
	released int
}

// newReader returns a reader of e; window and min override readWindow and
// readMin when positive (tests use tiny ones).
func newReader(e *entry, window, min int) *reader {
	r := &reader{e: e, data: e.data}
	if min <= 0 {
		min = readMin
	}
	bk := e.back
	if bk.file == nil || len(e.data) < min {
		return r
	}
	if scanMapped && window <= 0 {
		r.mapped = true
		return r
	}
	r.file = bk.file
	r.base = int64(uintptr(unsafe.Pointer(unsafe.SliceData(e.data))) - uintptr(unsafe.Pointer(unsafe.SliceData(bk.data))))
	if window > 0 {
		b := make([]byte, window)
		r.buf = &b
	} else {
		r.buf = readBufs.Get().(*[]byte)
	}
	return r
}

// close gives the buffer back.
func (r *reader) close() {
	if r.buf != nil && len(*r.buf) == readWindow {
		readBufs.Put(r.buf)
	}
	r.buf = nil
}

// need makes the buffer hold at least k bytes.
func (r *reader) need(k int) {
	if r.buf != nil && len(*r.buf) < k {
		r.close()
		b := make([]byte, k)
		r.buf = &b
	}
}

// copies reports whether windows are transient: copies valid until the
// next read, or pages of the mapping released once the scan has moved on
// (reading them again would fault them back in).
func (r *reader) copies() bool { return r.file != nil || r.mapped }

// read returns the bytes data[pos:pos+k], k = min(max, the buffer size,
// len(data)-pos). A file that became shorter is context_changed.
func (r *reader) read(pos, max int) ([]byte, error) {
	end := min(len(r.data), pos+max)
	if r.mapped && pos-r.released >= scanWindow {
		r.e.back.release(r.data[r.released:pos])
		r.released = pos
	}
	if r.file == nil {
		return r.data[pos:end], nil
	}
	b := *r.buf
	b = b[:min(len(b), end-pos)]
	k, err := r.file.ReadAt(b, r.base+int64(pos))
	if k < len(b) {
		if err == nil || err == io.EOF {
			return nil, changedErr(r.e, r.base+int64(pos+k))
		}
		return nil, fault.Wrap(err, fault.PhaseContext, fault.KindIO, "reading the context file failed").With("handle", r.e.h.String())
	}
	return b, nil
}

// lines returns a window of whole lines starting at pos, a line start: a
// read cut after its last '\n', or, when the window holds no '\n', the
// whole line (from the text itself).
func (r *reader) lines(pos, max int) ([]byte, error) {
	w, err := r.read(pos, max)
	if err != nil || pos+len(w) == len(r.data) {
		return w, err
	}
	if j := bytes.LastIndexByte(w, '\n'); j >= 0 {
		return w[:j+1], nil
	}
	end := len(r.data)
	if j := bytes.IndexByte(r.data[pos+len(w):], '\n'); j >= 0 {
		end = pos + len(w) + j + 1
	}
	return r.data[pos:end], nil
}

// at returns the text's bytes [lo, hi): from the window w (holding the
// bytes from off) when it covers them, else from the text itself.
func (r *reader) at(w []byte, off, lo, hi int) []byte {
	if lo >= off && hi <= off+len(w) {
		return w[lo-off : hi-off]
	}
	return r.data[lo:hi]
}
