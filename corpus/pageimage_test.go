package corpus

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/pdfgen"
)

// PageImage renders a page handle (or a one-page chunk) through the
// store's engine, caches it per (content, page, dpi), caps the long edge,
// and refuses bad dpi, views that are not one page and a changed file.
func TestPageImage(t *testing.T) {
	s, e := pdfStore(t)
	ctx := context.Background()
	path := writePDF(t, t.TempDir(), "report.pdf", 3)
	h, err := s.AddFile(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	meta, err := s.Metadata(ctx, h)
	if err != nil {
		t.Fatal(err)
	}
	im, p, err := s.PageImage(ctx, meta.Pages[1].Handle, DefaultImageDPI, 0)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(im.PNG))
	if err != nil || p.Page != 2 || cfg.Width != im.Width || im.Width != 827 || im.Height != 1170 {
		t.Fatalf("page %d, %dx%d (png %+v, %v)", p.Page, im.Width, im.Height, cfg, err)
	}
	again, _, err := s.PageImage(ctx, meta.Pages[1].Handle, DefaultImageDPI, 0)
	if err != nil || &again.PNG[0] != &im.PNG[0] || len(s.images) != 1 {
		t.Fatalf("second render not cached: %v, %d cached", err, len(s.images))
	}
	// The long edge is capped: 300 dpi would be 3508 px high.
	capped, _, err := s.PageImage(ctx, meta.Pages[0].Handle, 300, 2048)
	if err != nil || capped.Height > 2048 || capped.Height < 2000 {
		t.Fatalf("capped render %dx%d, %v", capped.Width, capped.Height, err)
	}
	// A chunk of one page is that page; one of two pages, or the whole
	// document, is not.
	one, err := s.Partition(ctx, h, PartitionOptions{Strategy: StrategyPages, Size: 1, WithHandles: true}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	two, err := s.Partition(ctx, h, PartitionOptions{Strategy: StrategyPages, Size: 2, WithHandles: true}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if p, err := s.PageOf(*one.Value.([]Chunk)[2].Handle); err != nil || p.Page != 3 {
		t.Fatalf("one-page chunk: page %d, %v", p.Page, err)
	}
	for _, bad := range []Handle{h, *two.Value.([]Chunk)[0].Handle} {
		if _, _, err := s.PageImage(ctx, bad, DefaultImageDPI, 0); fault.KindOf(err) != KindNotAPage {
			t.Errorf("%v: err %v, want not_a_page", bad, err)
		}
	}
	text, err := s.AddString("t", "no pages\n")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.PageOf(text); fault.KindOf(err) != KindNotAPage {
		t.Errorf("text: err %v, want not_a_page", err)
	}
	for _, dpi := range []int{0, MinImageDPI - 1, MaxImageDPI + 1} {
		if _, _, err := s.PageImage(ctx, meta.Pages[0].Handle, dpi, 0); fault.KindOf(err) != KindInvalidLimit {
			t.Errorf("dpi %d: err %v, want invalid_limit", dpi, err)
		}
	}
	// A file rewritten since it was opened is not rendered from.
	b, err := pdfgen.Pages(4, pageLines)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.PageImage(ctx, meta.Pages[2].Handle, DefaultImageDPI, 0); fault.KindOf(err) != KindContextChanged {
		t.Fatalf("changed file: err %v, want context_changed", err)
	}
	if n := e.Loads(); n != 1 {
		t.Errorf("PDFium loaded %d times, want 1 (the store's engine reused)", n)
	}
}

// A page of a PDF in a context of several files renders from its own file.
func TestPageImageFiles(t *testing.T) {
	s, _ := pdfStore(t)
	ctx := context.Background()
	dir := t.TempDir()
	writePDF(t, dir, "b.pdf", 2)
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("text\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := s.AddFiles(ctx, "docs", []string{dir}, FilesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	meta, err := s.Metadata(ctx, h)
	if err != nil || len(meta.Pages) != 2 {
		t.Fatalf("%v, %d pages", err, len(meta.Pages))
	}
	im, p, err := s.PageImage(ctx, meta.Pages[1].Handle, MinImageDPI, 0)
	if err != nil || p.Page != 2 || len(im.PNG) == 0 {
		t.Fatalf("page %d, %d bytes, %v", p.Page, len(im.PNG), err)
	}
}
