package corpus

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/rlm-go/rlm/corpus/internal/find"
	"github.com/rlm-go/rlm/fault"
)

// Kinds of registered text, reported in Metadata.Kind.
const (
	TextKindText = "text" // registered from a string or an io.Reader
	TextKindFile = "file" // a memory-mapped (or, off unix, read) file
	TextKindSub  = "sub"  // a zero-copy view of a range of another text
	// TextKindFiles ("files", a composite of several files) is in files.go.
)

// Store holds registered texts. It is safe for concurrent use. The zero
// Store is not usable; call NewStore. Close releases every mapping.
type Store struct {
	mu      sync.Mutex
	seq     uint64            // last issued ID number
	entries map[uint64]*entry // live entries by ID number
	closed  bool
	// testWindow, testReadMin and testParallelMin, when set, replace
	// readWindow, readMin and parallelMin (tests exercise window and
	// segment boundaries with tiny ones).
	testWindow, testReadMin, testParallelMin int
	// testCandidates makes a regex search use its required literal set
	// (see litset.go) whenever it has one, however common the literals.
	testCandidates bool
	// testNoTeddy makes the literal-set prefilter use one finder per
	// literal (the portable path) even where the vector scan runs.
	testNoTeddy bool
	// pdf reads PDFs (nil: the registered reader); see SetPDFReader.
	pdf PDFReader
	// images caches rendered pages (see PageImage); imageBytes is
	// their total size.
	images     map[pageKey]PDFImage
	imageBytes int64
}

// NewStore returns an empty Store.
func NewStore() *Store {
	return &Store{entries: make(map[uint64]*entry)}
}

// backing owns the memory behind one or more entries. Entries and running
// operations each hold a reference; the memory is unmapped when the last
// reference goes.
type backing struct {
	data   []byte
	refs   int  // guarded by Store.mu
	mapped bool // data is a file mapping released with unmapFile
	// file, for a mapping, is the mapped file kept open: scans read it
	// into a buffer rather than fault the mapping in (see reader).
	file *os.File
}

// fileBacking returns the backing of data mapped from rd (data is in
// memory when rd is nil).
func fileBacking(data []byte, rd *os.File) *backing {
	return &backing{data: data, mapped: rd != nil, file: rd}
}

// release lets the operating system drop resident pages of b, a range of
// this backing that a scan has finished with. Only large file mappings do
// anything; the data stays valid and is paged back in on access.
func (bk *backing) release(b []byte) {
	if bk.mapped && len(bk.data) >= evictMinSize {
		evictPages(b)
	}
}

// entry is one registered version of a text. It is immutable once
// published except for the lazily computed line count.
type entry struct {
	h       Handle
	kind    string
	data    []byte
	back    *backing
	created time.Time
	name    string
	path    string
	parent  Handle
	offset  int64
	lines   atomic.Int64 // line count + 1; 0 when not yet computed
	// sample is the byte histogram of the text's first sampleSize bytes
	// (searcher.sampleHist); nil until a search needs it.
	sample atomic.Pointer[find.Hist]
	// files, for a composite context and views of it, lists the files
	// (shared, immutable); base is the offset of data within the composite.
	files   []FileInfo
	base    int64
	skipped int
	// pages, for the text of PDFs and views of it, lists the pages
	// (shared, immutable; offsets like files').
	pages []PageInfo
}

// Metadata describes a registered text.
type Metadata struct {
	Handle  Handle    `json:"handle"`
	Kind    string    `json:"kind"` // "text", "file", "sub", "files" or "pdf"
	Bytes   int64     `json:"bytes"`
	Lines   int64     `json:"lines"`
	Created time.Time `json:"created"`
	Name    string    `json:"name,omitempty"`
	Path    string    `json:"path,omitempty"`
	// Parent and Offset locate a sub-context within the text it views.
	Parent *Handle `json:"parent,omitempty"`
	Offset int64   `json:"offset,omitempty"`
	// Files lists the files of a composite context (kind "files"), sorted
	// by name; Skipped counts binary files left out of its directories.
	Files   []FileInfo `json:"files,omitempty"`
	Skipped int        `json:"skipped,omitempty"`
	// PageCount and Pages list the pages of the PDFs in a context of kind
	// "pdf" or "files" (see AddFile); a view of one lists the pages that
	// start in it, with offsets relative to the view.
	PageCount int        `json:"page_count,omitempty"`
	Pages     []PageInfo `json:"pages,omitempty"`
}

// AddString registers text under an optional name. The string is not
// copied.
func (s *Store) AddString(name, text string) (Handle, error) {
	b := unsafe.Slice(unsafe.StringData(text), len(text))
	return s.add(&entry{kind: TextKindText, data: b, name: name}, &backing{data: b})
}

// AddReader registers the text read from r until EOF, under an optional
// name. A read error fails with Kind io_error. An ended ctx stops the read
// at once, even while a read is blocked (see copyCtx).
func (s *Store) AddReader(ctx context.Context, name string, r io.Reader) (Handle, error) {
	var buf bytes.Buffer
	if _, err := copyCtx(ctx, &buf, r, nil); err != nil {
		if fault.As(err) != nil {
			return Handle{}, err
		}
		return Handle{}, fault.Wrap(err, fault.PhaseContext, fault.KindIO, "read failed").With("name", name)
	}
	b := buf.Bytes()
	return s.add(&entry{kind: TextKindText, data: b, name: name}, &backing{data: b})
}

// AddFile registers the file at path. On unix the file is memory-mapped
// read-only and shared, not copied; elsewhere it is read into memory. A
// file truncated while registered makes the operations that read the lost
// part fail with Kind context_changed (see guard). Failures have Kind
// io_error.
//
// A PDF (recognised by its "%PDF-" header, not its name) is registered as
// its extracted text instead, kind "pdf": the pages' text in order,
// separated by a form-feed line, with Metadata.Pages listing each page's
// range, size and sub-context handle. A damaged or encrypted PDF fails
// with the pdf package's kinds (pdf_damaged naming the page, pdf_encrypted).
func (s *Store) AddFile(ctx context.Context, path string) (Handle, error) {
	if err := ctx.Err(); err != nil {
		return Handle{}, ctxErr(err)
	}
	if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() {
		if f, head, isPDF, err := sniffPDF(ctx, path); err == nil {
			defer f.Close()
			if isPDF {
				return s.addPDF(ctx, path, f, head)
			}
		}
	}
	b, rd, err := mapFile(path)
	if err != nil {
		return Handle{}, fault.Wrap(err, fault.PhaseContext, fault.KindIO, "cannot map file").With("path", path)
	}
	h, err := s.add(&entry{kind: TextKindFile, data: b, name: filepath.Base(path), path: path}, fileBacking(b, rd))
	if err != nil {
		_ = unmapFile(b, rd)
	}
	return h, err
}

func (s *Store) add(e *entry, bk *backing) (Handle, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return Handle{}, newErr(KindStoreClosed, "store is closed")
	}
	s.seq++
	e.h = Handle{ID: idString(s.seq), Version: 1}
	e.back = bk
	e.created = time.Now()
	bk.refs++
	s.entries[s.seq] = e
	return e.h, nil
}

// lookup returns the live entry for h. s.mu must be held.
func (s *Store) lookup(h Handle) (*entry, error) {
	n, ok := idNumber(h.ID)
	if !ok || n > s.seq {
		return nil, newErr(KindUnknownHandle, "unknown handle").With("handle", h.String())
	}
	e := s.entries[n]
	switch {
	case e == nil && s.closed:
		return nil, staleErr(h, "store is closed")
	case e == nil:
		return nil, staleErr(h, "handle was deleted")
	case e.h.Version != h.Version:
		return nil, staleErr(h, "handle version is not current").With("current", e.h.String())
	}
	return e, nil
}

// acquire returns the entry for h with a reference on its backing, which the
// caller must give back with s.unref.
func (s *Store) acquire(h Handle) (*entry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, err := s.lookup(h)
	if err != nil {
		return nil, err
	}
	e.back.refs++
	return e, nil
}

// unref drops one reference on bk. s.mu must not be held.
func (s *Store) unref(bk *backing) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.unrefLocked(bk)
}

func (s *Store) unrefLocked(bk *backing) error {
	bk.refs--
	if bk.refs > 0 || !bk.mapped {
		return nil
	}
	data, rd := bk.data, bk.file
	bk.data, bk.file = nil, nil
	if err := unmapFile(data, rd); err != nil {
		return fault.Wrap(err, fault.PhaseContext, fault.KindIO, "munmap failed")
	}
	return nil
}

// Sub registers a zero-copy view of length bytes of h starting at start.
// Both ends snap back to the first byte of the UTF-8 character containing
// them; a range running past the end is clipped. A start beyond the end, or
// a negative start or length, fails with Kind out_of_range. The view keeps
// the parent's memory alive after the parent is deleted.
func (s *Store) Sub(ctx context.Context, h Handle, start, length int64) (Handle, error) {
	if err := ctx.Err(); err != nil {
		return Handle{}, ctxErr(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return Handle{}, newErr(KindStoreClosed, "store is closed")
	}
	p, err := s.lookup(h)
	if err != nil {
		return Handle{}, err
	}
	r, err := guard(p, func() ([2]int, error) {
		lo, hi, err := clampRange(p.data, start, length)
		return [2]int{lo, hi}, err
	})
	if err != nil {
		return Handle{}, err
	}
	lo, hi := r[0], r[1]
	s.seq++
	e := &entry{
		h:       Handle{ID: idString(s.seq), Version: 1},
		kind:    TextKindSub,
		data:    p.data[lo:hi:hi],
		back:    p.back,
		created: time.Now(),
		name:    p.name,
		path:    p.path,
		parent:  p.h,
		offset:  int64(lo),
		files:   p.files,
		pages:   p.pages,
		base:    p.base + int64(lo),
	}
	p.back.refs++
	s.entries[s.seq] = e
	return e.h, nil
}

// clampRange validates and snaps [start, start+length) within data.
func clampRange(data []byte, start, length int64) (lo, hi int, err error) {
	size := int64(len(data))
	if start < 0 || length < 0 || start > size {
		return 0, 0, newErr(KindOutOfRange, "range outside the text").
			With("start", start).With("length", length).With("bytes", size)
	}
	end := size
	if length < size-start {
		end = start + length
	}
	return snapBack(data, int(start)), snapBack(data, int(end)), nil
}

// Replace registers text as the next version of h and returns its handle;
// h becomes stale. Sub-contexts of h keep viewing the old text.
func (s *Store) Replace(h Handle, text string) (Handle, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return Handle{}, newErr(KindStoreClosed, "store is closed")
	}
	old, err := s.lookup(h)
	if err != nil {
		return Handle{}, err
	}
	b := unsafe.Slice(unsafe.StringData(text), len(text))
	n, _ := idNumber(h.ID)
	e := &entry{
		h:       Handle{ID: h.ID, Version: h.Version + 1},
		kind:    TextKindText,
		data:    b,
		back:    &backing{data: b, refs: 1},
		created: time.Now(),
		name:    old.name,
	}
	s.entries[n] = e
	return e.h, s.unrefLocked(old.back)
}

// Delete releases h. Later use of h fails with Kind stale_handle. A file
// mapping is unmapped once no handle (including sub-contexts) and no running
// operation references it.
func (s *Store) Delete(h Handle) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, err := s.lookup(h)
	if err != nil {
		return err
	}
	n, _ := idNumber(h.ID)
	delete(s.entries, n)
	return s.unrefLocked(e.back)
}

// Close deletes every handle and releases every mapping not in use by a
// running operation (those are released when the operation ends). Later
// registrations fail with Kind store_closed. Close is idempotent.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var first error
	for n, e := range s.entries {
		delete(s.entries, n)
		if err := s.unrefLocked(e.back); err != nil && first == nil {
			first = err
		}
	}
	s.closed = true
	return first
}

// Len returns the number of live handles.
func (s *Store) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.entries)
}

// Bytes returns the text of h without copying, and a release function the
// caller must call when done; the bytes stay valid until then even if h is
// deleted. The bytes must not be modified. Reading the bytes of a mapped
// file that was truncated meanwhile faults (SIGBUS) outside the store's
// guard: callers that read them should use View, which reports that as
// context_changed.
func (s *Store) Bytes(h Handle) ([]byte, func(), error) {
	e, err := s.acquire(h)
	if err != nil {
		return nil, nil, err
	}
	var once sync.Once
	return e.data, func() { once.Do(func() { _ = s.unref(e.back) }) }, nil
}

// Text returns a copy of the whole text of h. A text longer than maxBytes
// fails with Kind output_too_large (detail bytes, limit); maxBytes must be
// positive (else Kind invalid_limit).
func (s *Store) Text(h Handle, maxBytes int) (string, error) {
	if maxBytes <= 0 {
		return "", newErr(KindInvalidLimit, "max bytes must be positive").With("limit", "max_bytes").With("value", maxBytes)
	}
	e, err := s.acquire(h)
	if err != nil {
		return "", err
	}
	defer s.unref(e.back)
	if len(e.data) > maxBytes {
		return "", newErr(KindOutputTooLarge, "text exceeds limit").
			With("bytes", len(e.data)).With("limit", maxBytes).With("handle", h.String())
	}
	return guard(e, func() (string, error) { return string(e.data), nil })
}

// Metadata describes h, counting its lines on first use (which reads the
// whole text, checking ctx as it goes).
func (s *Store) Metadata(ctx context.Context, h Handle) (Metadata, error) {
	e, err := s.acquire(h)
	if err != nil {
		return Metadata{}, err
	}
	defer s.unref(e.back)
	o, err := newOp(ctx, e, Limits{})
	if err != nil {
		return Metadata{}, err
	}
	return guard(e, o.metadata)
}

func (o *op) metadata() (Metadata, error) {
	e := o.e
	lines, err := o.lineCount()
	if err != nil {
		return Metadata{}, err
	}
	m := Metadata{
		Handle:  e.h,
		Kind:    e.kind,
		Bytes:   int64(len(e.data)),
		Lines:   lines,
		Created: e.created,
		Name:    e.name,
		Path:    e.path,
	}
	if e.kind == TextKindSub {
		p := e.parent
		m.Parent, m.Offset = &p, e.offset
	}
	if e.kind == TextKindFiles {
		m.Files, m.Skipped = slices.Clone(e.files), e.skipped
	}
	m.Pages = e.pagesIn()
	m.PageCount = len(m.Pages)
	return m, nil
}

// lineCount returns the number of lines of the entry: newlines, plus one for
// a final line without a newline.
func (o *op) lineCount() (int64, error) {
	if v := o.e.lines.Load(); v > 0 {
		return v - 1, nil
	}
	data := o.e.data
	var n int64
	for pos := 0; pos < len(data); {
		end := min(len(data), pos+scanWindow)
		n += int64(bytes.Count(data[pos:end], nl))
		o.acc.BytesInspected += int64(end - pos)
		pos = end
		if err := o.progress(pos); err != nil {
			return 0, err
		}
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	o.e.lines.Store(n + 1)
	return n, nil
}

var nl = []byte{'\n'}
