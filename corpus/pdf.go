package corpus

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/pdfreader"
)

// TextKindPDF is the kind of a context holding the text of one PDF.
const TextKindPDF = "pdf"

// MaxPDFBytes bounds the size of one PDF file: its bytes are copied into
// the PDF engine's memory to be read.
const MaxPDFBytes = 256 << 20

// pageSep separates the text of two pages: a form feed (the page break of
// plain text, as pdftotext writes it) on a line of its own, belonging to
// no page.
const pageSep = "\f\n"

// PageInfo is one page of a PDF in a context.
type PageInfo struct {
	// Page is the page's 1-based number within its PDF.
	Page int `json:"page"`
	// File names the PDF in a composite context (see AddFiles).
	File string `json:"file,omitempty"`
	// Offset and Bytes locate the page's text in the context; Line is
	// the context's line on which it starts.
	Offset int64 `json:"offset"`
	Bytes  int64 `json:"bytes"`
	Line   int64 `json:"line"`
	// Width and Height are the page's size in points (1/72 inch).
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
	// Handle is a sub-context holding just this page's text.
	Handle Handle `json:"handle"`

	// src is the PDF's file, for rendering the page (see PageImage).
	src *pdfFile
}

// pdfFile is a PDF file whose pages are in a context: its path, the
// SHA-256 (hex) of its bytes when they were read, and the file's identity
// then (stamp; guarded by the store's mu), by which a render knows the
// file unchanged without reading it again.
type pdfFile struct {
	path, sum string
	stamp     fileStamp
	trusted   bool // stamp may vouch for sum (see fileStamp.vouches)
}

// fileStamp is a file's identity as stat gives it: device and inode (a
// file replaced by another), size, modification and change time. Any
// write to a file, and any change of its times, sets its change time to
// the clock of that moment, which the writer cannot choose. So a file
// whose stamp is unchanged holds the bytes it held when the stamp was
// taken, provided the change time then was older than the clock's
// granularity on every file system (stampSlack): a write in the same
// tick as the last one could otherwise keep the stamp (git's "racily
// clean" files). A file stamped that fresh is read and hashed again.
type fileStamp struct {
	dev, ino           uint64
	size, mtime, ctime int64
}

// stampSlack is how much older than the moment it was taken a stamp's
// change time must be for the stamp to vouch for the file's bytes: the
// coarsest change-time granularity of the file systems rlm may read (FAT
// keeps 2 s).
var stampSlack = 2 * time.Second

// vouches reports whether stamp st, taken at time at (before the bytes
// were read), proves the bytes unchanged while the file keeps it.
func (st fileStamp) vouches(at time.Time) bool {
	return st.ctime < at.Add(-stampSlack).UnixNano()
}

// stampFile returns f's stamp and whether it vouches for the bytes read
// from f after it (see fileStamp).
func stampFile(f *os.File) (fileStamp, bool) {
	at := time.Now()
	fi, err := f.Stat()
	if err != nil {
		return fileStamp{}, false
	}
	st, ok := stampOf(fi)
	return st, ok && st.vouches(at)
}

// pdfHashes counts the PDFs hashed (hashPDF), for tests.
var pdfHashes atomic.Int64

// hashPDF returns the SHA-256 (hex) of a PDF's bytes.
func hashPDF(data []byte) string {
	pdfHashes.Add(1)
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// pageAt returns the page of pages whose text holds byte offset pos, or
// nil (pos in a page separator or outside every PDF).
func pageAt(pages []PageInfo, pos int64) *PageInfo {
	i := sort.Search(len(pages), func(i int) bool { return pages[i].Offset > pos }) - 1
	if i < 0 || pos >= pages[i].Offset+pages[i].Bytes {
		return nil
	}
	return &pages[i]
}

// PDFReader reads the PDFs of a store: package pdf's Engine is one.
type PDFReader = pdfreader.Reader

// PDFPage and PDFImage are a PDF page's size and text, and a rendered
// page (package pdf's Page and Image).
type (
	PDFPage  = pdfreader.Page
	PDFImage = pdfreader.Image
)

// KindNoPDFReader: a PDF was opened in a program that links no PDF
// engine (it imports neither package pdf nor package rlm, which does).
const KindNoPDFReader fault.Kind = "no_pdf_reader"

// SetPDFReader sets the reader of the PDFs registered in s (a
// *pdf.Engine). Without one, s uses the reader the program registered:
// importing package pdf (package rlm does) registers pdf.Default(),
// loaded on the first PDF. A program that links none refuses PDFs with
// no_pdf_reader, so that PDFium (about 11 MB) is linked only by programs
// that read PDFs.
func (s *Store) SetPDFReader(r PDFReader) {
	s.mu.Lock()
	s.pdf = r
	s.mu.Unlock()
}

func (s *Store) pdfReader(name string) (PDFReader, error) {
	s.mu.Lock()
	r := s.pdf
	s.mu.Unlock()
	if r == nil {
		r = pdfreader.Default()
	}
	if r == nil {
		return nil, newErr(KindNoPDFReader, "this program links no PDF engine").With("path", name).
			WithHint(`import _ "github.com/rlm-go/rlm/pdf" (package rlm does), or set one with Store.SetPDFReader`)
	}
	return r, nil
}

// pdfText is the text of a PDF laid out for a context.
type pdfText struct {
	text  []byte
	lines int64
	pages []PageInfo // offsets and lines relative to text (Line 1-based)
}

// layoutPDF lays out the pages' text: each page's text, ending in a newline
// when not empty, pages separated by pageSep.
func layoutPDF(name string, pages []PDFPage) pdfText {
	var b bytes.Buffer
	var lines int64
	out := pdfText{pages: make([]PageInfo, len(pages))}
	for i, p := range pages {
		if i > 0 {
			b.WriteString(pageSep)
			lines++
		}
		t := p.Text
		if t != "" && !strings.HasSuffix(t, "\n") {
			t += "\n"
		}
		out.pages[i] = PageInfo{Page: i + 1, File: name, Offset: int64(b.Len()), Bytes: int64(len(t)), Line: lines + 1, Width: p.Width, Height: p.Height}
		b.WriteString(t)
		lines += int64(strings.Count(t, "\n"))
	}
	out.text, out.lines = b.Bytes(), lines
	return out
}

// source records the PDF's file in its pages.
func (t pdfText) source(src *pdfFile) {
	for i := range t.pages {
		t.pages[i].src = src
	}
}

// readPDF reads the PDF at path name (at most MaxPDFBytes) and extracts
// its pages. head is its first bytes, already read from f.
func (s *Store) readPDF(ctx context.Context, name string, head []byte, f *os.File) ([]PDFPage, *pdfFile, error) {
	stamp, trusted := stampFile(f)
	data, err := readPDFBytes(f, head)
	if err != nil {
		return nil, nil, fault.Wrap(err, fault.PhaseContext, fault.KindIO, "cannot read PDF").With("path", name)
	}
	if len(data) > MaxPDFBytes {
		return nil, nil, newErr(KindContextTooLarge, "PDF exceeds the size limit").With("path", name).With("max_bytes", MaxPDFBytes).
			WithHint("split the PDF or pass its text")
	}
	rd, err := s.pdfReader(name)
	if err != nil {
		return nil, nil, err
	}
	sum := hashPDF(data)
	var pages []PDFPage
	if se, ok := rd.(pdfreader.SumExtractor); ok {
		pages, err = se.ExtractPagesSum(ctx, name, sum, data) // hashed once
	} else {
		pages, err = rd.ExtractPages(ctx, name, data)
	}
	if err != nil {
		if fe := fault.As(err); fe != nil {
			return nil, nil, fe.With("path", name)
		}
		return nil, nil, err
	}
	return pages, &pdfFile{path: name, sum: sum, stamp: stamp, trusted: trusted}, nil
}

// readPDFBytes returns head (bytes already read from f) followed by the
// rest of f, at most MaxPDFBytes+1 bytes in all, read into one buffer
// sized by f's size: the bytes are copied once (a file that grows
// meanwhile is still read up to the bound).
func readPDFBytes(f *os.File, head []byte) ([]byte, error) {
	size := int64(len(head))
	if fi, err := f.Stat(); err == nil {
		size = max(size, fi.Size())
	}
	var b bytes.Buffer
	b.Grow(int(min(size, MaxPDFBytes+1)) + bytes.MinRead)
	b.Write(head)
	_, err := b.ReadFrom(io.LimitReader(f, MaxPDFBytes+1-int64(len(head))))
	return b.Bytes(), err
}

// sniffPDF opens path and reports whether it is a PDF, returning the open
// file and the bytes read from it.
func sniffPDF(ctx context.Context, path string) (*os.File, []byte, bool, error) {
	f, err := Open(ctx, path)
	if err != nil {
		if fault.As(err) != nil {
			return nil, nil, false, err
		}
		return nil, nil, false, fault.Wrap(err, fault.PhaseContext, fault.KindIO, "cannot open file").With("path", path)
	}
	head := make([]byte, binarySniff)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		f.Close()
		return nil, nil, false, fault.Wrap(err, fault.PhaseContext, fault.KindIO, "cannot read file").With("path", path)
	}
	return f, head[:n], pdfreader.IsPDF(head[:n]), nil
}

// addPDF registers the text of a PDF (from AddFile) as a context of kind
// pdf with a sub-context per page.
func (s *Store) addPDF(ctx context.Context, path string, f *os.File, head []byte) (Handle, error) {
	pages, src, err := s.readPDF(ctx, path, head, f)
	if err != nil {
		return Handle{}, err
	}
	lt := layoutPDF("", pages)
	lt.source(src)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return Handle{}, newErr(KindStoreClosed, "store is closed")
	}
	now := time.Now()
	s.seq++
	root := &entry{
		h: Handle{ID: idString(s.seq), Version: 1}, kind: TextKindPDF, data: lt.text,
		back: &backing{data: lt.text}, created: now, name: filepath.Base(path), path: path,
		pages: lt.pages,
	}
	root.lines.Store(lt.lines + 1)
	root.back.refs = 1
	s.entries[s.seq] = root
	s.addPageSubs(root, lt.pages, now)
	return root.h, nil
}

// addPageSubs registers a sub-context of root per page, setting the pages'
// handles. s.mu must be held.
func (s *Store) addPageSubs(root *entry, pages []PageInfo, now time.Time) {
	for i := range pages {
		p := &pages[i]
		lo, hi := p.Offset, p.Offset+p.Bytes
		s.seq++
		name := root.name
		if p.File != "" {
			name = p.File
		}
		e := &entry{
			h: Handle{ID: idString(s.seq), Version: 1}, kind: TextKindSub, data: root.data[lo:hi:hi],
			back: root.back, created: now, name: name, path: root.path, parent: root.h, offset: lo,
			files: root.files, pages: pages, base: lo,
		}
		root.back.refs++
		s.entries[s.seq] = e
		p.Handle = e.h
	}
}

// pagesIn returns the pages of e whose text starts within e's view, with
// offsets relative to the view.
func (e *entry) pagesIn() []PageInfo {
	var out []PageInfo
	end := e.base + int64(len(e.data))
	for _, p := range e.pages {
		if p.Offset >= e.base && p.Offset < end {
			p.Offset -= e.base
			out = append(out, p)
		}
	}
	return out
}
