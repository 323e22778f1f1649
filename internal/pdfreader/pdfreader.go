// Package pdfreader is where the context store finds its PDF reader. The
// store (package corpus) reads PDFs only through the Reader interface;
// package pdf (PDFium in WebAssembly, about 11 MB of a binary) registers
// its process-wide engine here when a program imports it, as package rlm
// does. A program that imports the engine and the store but not package
// pdf does not link PDFium, and the store refuses a PDF with a hint
// naming the import (docs/corpus.md, "PDF contexts").
package pdfreader

import (
	"bytes"
	"context"
	"io"
	"sync"
)

// Page is one page of a PDF: its size in points (1/72 inch) and its text.
type Page struct {
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
	Text   string  `json:"text"`
}

// Image is a rendered page.
type Image struct {
	PNG           []byte
	Width, Height int // pixels
}

// Reader reads PDFs. Errors are fault errors (package pdf's kinds).
type Reader interface {
	// ExtractPages returns the pages of the PDF in data, in order; name
	// names the document in errors.
	ExtractPages(ctx context.Context, name string, data []byte) ([]Page, error)
	// RenderPDFPage renders page (1-based) of the PDF in data at dpi to
	// PNG.
	RenderPDFPage(ctx context.Context, name string, data []byte, page, dpi int) (Image, error)
}

// SourceRenderer is a Reader that renders a page from a PDF it reads
// through an io.ReaderAt, only the parts the page needs, and hashes
// nothing. The store renders through it when its reader has it (package
// pdf's Engine does): for a PDF whose file is unchanged since it was
// opened (checked by the store) a render then neither reads the whole
// file nor hashes it (docs/corpus.md, "Page images").
type SourceRenderer interface {
	// RenderSource renders page (1-based) of the size bytes of the PDF
	// in r at dpi to PNG; name names the document in errors. r must not
	// change during the call.
	RenderSource(ctx context.Context, name string, r io.ReaderAt, size int64, page, dpi int) (Image, error)
}

// SumExtractor is a Reader that takes the SHA-256 of a document from its
// caller instead of computing it again: package pdf's Engine keys its
// text cache by it, and the store hashes every PDF it opens anyway.
type SumExtractor interface {
	// ExtractPagesSum is ExtractPages for data whose SHA-256, in lower
	// case hex, is sum.
	ExtractPagesSum(ctx context.Context, name, sum string, data []byte) ([]Page, error)
}

var (
	mu       sync.Mutex
	register func() Reader
)

// Register makes r the reader of every store that has none of its own.
// r is called on the first PDF, so registering costs nothing at start.
func Register(r func() Reader) {
	mu.Lock()
	register = r
	mu.Unlock()
}

// Default returns the registered reader, or nil when the program links
// none.
func Default() Reader {
	mu.Lock()
	r := register
	mu.Unlock()
	if r == nil {
		return nil
	}
	return r()
}

// IsPDF reports whether head (a file's first bytes) starts a PDF: the
// header "%PDF-" and a version digit at its very start. (Readers accept
// the header later within the first 1024 bytes; rlm does not, so that a
// text file quoting a PDF header near its start stays text.)
func IsPDF(head []byte) bool {
	return len(head) > 5 && bytes.HasPrefix(head, []byte("%PDF-")) && head[5] >= '0' && head[5] <= '9'
}
