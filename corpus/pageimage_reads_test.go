package corpus

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/pdfgen"
	"github.com/rlm-go/rlm/internal/pdfreader"
	"github.com/rlm-go/rlm/pdf"
)

// countingPDF is the store's engine, counting the whole documents it is
// handed to render and the bytes it reads through a source.
type countingPDF struct {
	*pdf.Engine
	whole, read   atomic.Int64
	extract, sums atomic.Int64 // documents handed to ExtractPages, ExtractPagesSum
}

func (c *countingPDF) ExtractPages(ctx context.Context, name string, data []byte) ([]PDFPage, error) {
	c.extract.Add(1)
	return c.Engine.ExtractPages(ctx, name, data)
}

func (c *countingPDF) ExtractPagesSum(ctx context.Context, name, sum string, data []byte) ([]PDFPage, error) {
	c.sums.Add(1)
	return c.Engine.ExtractPagesSum(ctx, name, sum, data)
}

func (c *countingPDF) RenderPDFPage(ctx context.Context, name string, data []byte, page, dpi int) (PDFImage, error) {
	c.whole.Add(1)
	return c.Engine.RenderPDFPage(ctx, name, data, page, dpi)
}

func (c *countingPDF) RenderSource(ctx context.Context, name string, r io.ReaderAt, size int64, page, dpi int) (PDFImage, error) {
	return c.Engine.RenderSource(ctx, name, readCounter{r, &c.read}, size, page, dpi)
}

type readCounter struct {
	r io.ReaderAt
	n *atomic.Int64
}

func (c readCounter) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.n.Add(int64(n))
	return n, err
}

var (
	_ pdfreader.SourceRenderer = (*countingPDF)(nil)
	_ pdfreader.SumExtractor   = (*countingPDF)(nil)
)

// A page image of a PDF whose file is unchanged since it was opened is
// rendered without reading the whole file or hashing it: of a 4 MiB PDF
// the reader reads what the page needs. A file rewritten in place (even
// with its size and modification time kept) is read and hashed again and
// refused; a file replaced by the same bytes is read and hashed once, and
// then trusted again.
func TestPageImageReadsOnlyThePage(t *testing.T) {
	old := stampSlack
	stampSlack = 0 // the test's file is stamped right after it is written
	t.Cleanup(func() { stampSlack = old })
	s, e := pdfStore(t)
	c := &countingPDF{Engine: e}
	s.SetPDFReader(c)
	ctx := context.Background()
	doc, err := pdfgen.Pages(3, pageLines)
	if err != nil {
		t.Fatal(err)
	}
	big, err := pdfgen.Padded(doc, 4<<20)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "big.pdf")
	if err := os.WriteFile(path, big, 0o644); err != nil {
		t.Fatal(err)
	}
	hashes := pdfHashes.Load()
	meta := openPDF(t, s, path)
	// Opening hashes the PDF once: the engine gets the sum for its text
	// cache.
	if n := pdfHashes.Load() - hashes; n != 1 || c.sums.Load() != 1 || c.extract.Load() != 0 {
		t.Fatalf("open: %d hashes, %d ExtractPagesSum, %d ExtractPages; want 1, 1, 0", n, c.sums.Load(), c.extract.Load())
	}
	render := func(page, dpi int) error {
		_, _, err := s.PageImage(ctx, meta.Pages[page-1].Handle, dpi, 0)
		return err
	}
	type counts struct{ hashes, whole int64 }
	now := func() counts { return counts{pdfHashes.Load(), c.whole.Load()} }
	step := func(name string, err error, kind fault.Kind, want counts, before counts) {
		t.Helper()
		if fault.KindOf(err) != kind {
			t.Fatalf("%s: err %v, want kind %q", name, err, kind)
		}
		if got := now(); got.hashes-before.hashes != want.hashes || got.whole-before.whole != want.whole {
			t.Fatalf("%s: %d hashes, %d whole documents; want %d, %d", name,
				got.hashes-before.hashes, got.whole-before.whole, want.hashes, want.whole)
		}
	}

	for _, r := range []struct{ page, dpi int }{{2, 100}, {3, 100}, {2, 72}} {
		before := now()
		step("unchanged file", render(r.page, r.dpi), "", counts{}, before)
	}
	if n := c.read.Load(); n == 0 || n > 1<<20 {
		t.Fatalf("read %d bytes for three renders of an %d-byte PDF", n, len(big))
	}

	// The same bytes under a new inode: read and hashed once, then trusted.
	tmp := filepath.Join(dir, "tmp.pdf")
	if err := os.WriteFile(tmp, big, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	before := now()
	step("replaced by the same bytes", render(1, 100), "", counts{hashes: 1}, before)
	before = now()
	step("then trusted", render(1, 72), "", counts{}, before)

	// One byte changed in place, size and modification time kept.
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	changed := append([]byte(nil), big...)
	changed[len(doc)+4096] ^= 1
	if err := os.WriteFile(path, changed, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, time.Time{}, fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	before = now()
	step("rewritten in place", render(3, 72), KindContextChanged, counts{hashes: 1}, before)
}

// openPDF adds the PDF at path to s and returns its metadata.
func openPDF(t testing.TB, s *Store, path string) Metadata {
	t.Helper()
	h, err := s.AddFile(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	meta, err := s.Metadata(context.Background(), h)
	if err != nil {
		t.Fatal(err)
	}
	return meta
}

// wholeOnly is a reader without RenderSource and ExtractPagesSum: the
// store hands it whole documents, as it did every reader before sources.
type wholeOnly struct{ PDFReader }

// A reader that cannot render from a source gets the whole document,
// read and hashed on each render.
func TestPageImageWholeReader(t *testing.T) {
	s, e := pdfStore(t)
	c := &countingPDF{Engine: e}
	s.SetPDFReader(wholeOnly{c})
	ctx := context.Background()
	path := writePDF(t, t.TempDir(), "r.pdf", 2)
	meta := openPDF(t, s, path)
	hashes := pdfHashes.Load()
	if _, _, err := s.PageImage(ctx, meta.Pages[1].Handle, 72, 0); err != nil {
		t.Fatal(err)
	}
	if c.whole.Load() != 1 || c.read.Load() != 0 || pdfHashes.Load() != hashes+1 {
		t.Fatalf("%d whole documents, %d bytes through a source, %d hashes; want 1, 0, 1",
			c.whole.Load(), c.read.Load(), pdfHashes.Load()-hashes)
	}
}

// benchPDF writes a 3-page PDF padded to RLM_BENCH_PDF_MB MiB (default
// 64; at most 255) by pdfgen.Padded and returns its path and size.
func benchPDF(b *testing.B) (string, int) {
	b.Helper()
	mb := 64
	if v := os.Getenv("RLM_BENCH_PDF_MB"); v != "" {
		if _, err := fmt.Sscan(v, &mb); err != nil || mb < 1 || mb > 255 {
			b.Fatalf("RLM_BENCH_PDF_MB=%q: want 1..255", v)
		}
	}
	doc, err := pdfgen.Pages(3, pageLines)
	if err != nil {
		b.Fatal(err)
	}
	big, err := pdfgen.Padded(doc, mb<<20)
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "big.pdf")
	if err := os.WriteFile(path, big, 0o644); err != nil {
		b.Fatal(err)
	}
	return path, len(big)
}

// BenchmarkFirstPageImage renders page 2 of benchPDF's PDF the first
// time (the store's image cache emptied before each): "source" is the
// store's way for an unchanged file, "whole" the way before it (read and
// hash the file; the engine hashes it again to key its text cache, reads
// that and opens the whole document), which a reader without
// RenderSource still gets.
//
//	RLM_BENCH_PDF_MB=255 go test ./corpus -run '^$' -bench FirstPageImage -benchtime 5x
func BenchmarkFirstPageImage(b *testing.B) {
	path, size := benchPDF(b)
	old := stampSlack
	stampSlack = 0
	b.Cleanup(func() { stampSlack = old })
	for _, how := range []string{"source", "whole"} {
		b.Run(fmt.Sprintf("%dMiB/%s", size>>20, how), func(b *testing.B) {
			s, e := pdfStore(b)
			if how == "whole" {
				s.SetPDFReader(wholeOnly{e})
			}
			ctx := context.Background()
			meta := openPDF(b, s, path)
			b.SetBytes(int64(size))
			for b.Loop() {
				s.mu.Lock()
				s.images = nil
				s.mu.Unlock()
				if _, _, err := s.PageImage(ctx, meta.Pages[1].Handle, DefaultImageDPI, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkOpenPDF opens benchPDF's PDF with its text cached (AddFile,
// then Close): "sum" hands the engine the store's hash (ExtractPagesSum),
// "whole" is the way before it, which a reader without ExtractPagesSum
// still gets (the engine hashes the bytes again).
//
//	RLM_BENCH_PDF_MB=255 go test ./corpus -run '^$' -bench OpenPDF -benchtime 5x
func BenchmarkOpenPDF(b *testing.B) {
	path, size := benchPDF(b)
	for _, how := range []string{"sum", "whole"} {
		b.Run(fmt.Sprintf("%dMiB/%s", size>>20, how), func(b *testing.B) {
			s, e := pdfStore(b)
			if how == "whole" {
				s.SetPDFReader(wholeOnly{e})
			}
			ctx := context.Background()
			h, err := s.AddFile(ctx, path) // fills the text cache
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(size))
			for b.Loop() {
				h2, err := s.AddFile(ctx, path)
				if err != nil {
					b.Fatal(err)
				}
				if err := s.Delete(h2); err != nil {
					b.Fatal(err)
				}
			}
			_ = s.Delete(h)
		})
	}
}
