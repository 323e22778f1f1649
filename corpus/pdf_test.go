package corpus

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/pdfgen"
	"github.com/rlm-go/rlm/internal/pdfreader"
	"github.com/rlm-go/rlm/internal/pdftest"
	"github.com/rlm-go/rlm/pdf"
)

// pdfStore returns a store closed at the end of the test whose PDF engine
// keeps its text cache in the test's temporary directory (wazero's
// compilation cache is shared between runs in os.TempDir()).
func pdfStore(t testing.TB) (*Store, *pdf.Engine) {
	t.Helper()
	e := pdf.NewEngine(pdftest.Config(t.TempDir()))
	s := NewStore()
	s.SetPDFReader(e)
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
		if err := e.Close(); err != nil {
			t.Errorf("engine Close: %v", err)
		}
	})
	return s, e
}

// pageLines is the text of page p of the test documents.
func pageLines(p int) []string {
	return []string{fmt.Sprintf("Page %d first line", p), fmt.Sprintf("total %d units", p*7)}
}

func writePDF(t testing.TB, dir, name string, n int) string {
	t.Helper()
	b, err := pdfgen.Pages(n, pageLines)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPDFContext(t *testing.T) {
	s, _ := pdfStore(t)
	ctx := context.Background()
	path := writePDF(t, t.TempDir(), "report.pdf", 3)
	h, err := s.AddFile(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	want := "Page 1 first line\ntotal 7 units\n\f\nPage 2 first line\ntotal 14 units\n\f\nPage 3 first line\ntotal 21 units\n"
	if got, err := s.Text(h, 1<<20); err != nil || got != want {
		t.Fatalf("text = %q, %v; want %q", got, err, want)
	}
	m, err := s.Metadata(ctx, h)
	if err != nil {
		t.Fatal(err)
	}
	if m.Kind != TextKindPDF || m.PageCount != 3 || len(m.Pages) != 3 || m.Lines != 8 || m.Path != path {
		t.Fatalf("metadata = %+v", m)
	}
	for i, p := range m.Pages {
		if p.Page != i+1 || p.Width < 595 || p.Width > 596 || p.Height < 841 || p.Height > 842 || p.Line != int64(1+3*i) {
			t.Errorf("page %d = %+v", i+1, p)
		}
		txt, err := s.Text(p.Handle, 1<<20)
		if wantPage := strings.Join(pageLines(i+1), "\n") + "\n"; err != nil || txt != wantPage {
			t.Errorf("page %d text = %q, %v; want %q", i+1, txt, err, wantPage)
		}
	}

	res, err := s.Search(ctx, h, "units", SearchOptions{}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	hits := res.Value.([]Match)
	if len(hits) != 3 {
		t.Fatalf("hits = %+v", hits)
	}
	for i, m := range hits {
		if m.Page != i+1 || m.File != "" {
			t.Errorf("hit %d = %+v, want page %d", i, m, i+1)
		}
	}
	// A page's own handle: hits carry the page too.
	res, err = s.Search(ctx, m.Pages[1].Handle, "first", SearchOptions{}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if hits := res.Value.([]Match); len(hits) != 1 || hits[0].Page != 2 {
		t.Fatalf("page hits = %+v", hits)
	}
	// The separator line belongs to no page.
	res, err = s.Search(ctx, h, "\f", SearchOptions{}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if hits := res.Value.([]Match); len(hits) != 2 || hits[0].Page != 0 {
		t.Fatalf("separator hits = %+v", hits)
	}
}

func TestPDFPartitionPages(t *testing.T) {
	s, _ := pdfStore(t)
	ctx := context.Background()
	h, err := s.AddFile(ctx, writePDF(t, t.TempDir(), "r.pdf", 5))
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Do(ctx, h, Action{Type: ActionPartition, Strategy: StrategyPages, Size: 2, WithText: true, WithHandles: true}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	chunks := res.Value.([]Chunk)
	if len(chunks) != 3 {
		t.Fatalf("chunks = %d", len(chunks))
	}
	var all string
	for i, c := range chunks {
		first, last := 2*i+1, min(2*i+2, 5)
		if c.FirstPage != first || c.LastPage != last {
			t.Errorf("chunk %d pages %d-%d, want %d-%d", i, c.FirstPage, c.LastPage, first, last)
		}
		if !strings.HasPrefix(*c.Text, fmt.Sprintf("Page %d first", first)) || !strings.Contains(*c.Text, fmt.Sprintf("total %d units", last*7)) {
			t.Errorf("chunk %d text = %q", i, *c.Text)
		}
		// Pages of a chunk's view are the chunk's pages.
		m, err := s.Metadata(ctx, *c.Handle)
		if err != nil {
			t.Fatal(err)
		}
		if m.PageCount != last-first+1 || m.Pages[0].Page != first || m.Pages[0].Offset != 0 {
			t.Errorf("chunk %d metadata pages = %+v", i, m.Pages)
		}
		all += *c.Text
	}
	if full, _ := s.Text(h, 1<<20); all != full {
		t.Fatal("chunks do not tile the text")
	}
	// A text without pages cannot be cut by pages.
	th, err := s.AddString("plain", "a\nb\n")
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Partition(ctx, th, PartitionOptions{Strategy: StrategyPages, Size: 1}, Limits{})
	wantKind(t, err, KindInvalidAction)
}

func TestPDFInFiles(t *testing.T) {
	s, _ := pdfStore(t)
	ctx := context.Background()
	dir := t.TempDir()
	writePDF(t, dir, "b-report.pdf", 2)
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("units in a text file\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "c.log"), []byte("more units\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := s.AddFiles(ctx, "context", []string{dir}, FilesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.Metadata(ctx, h)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Files) != 3 || m.Skipped != 0 || m.Files[1].Pages != 2 || m.PageCount != 2 {
		t.Fatalf("metadata = %+v", m)
	}
	pdfName := filepath.ToSlash(filepath.Join(dir, "b-report.pdf"))
	for i, p := range m.Pages {
		if p.File != pdfName || p.Page != i+1 || p.Offset < m.Files[1].Offset {
			t.Errorf("page %d = %+v", i, p)
		}
	}
	res, err := s.Search(ctx, h, "units", SearchOptions{}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	hits := res.Value.([]Match)
	type hit struct {
		file          string
		page          int
		line, fileLin int64
	}
	var got []hit
	for _, m := range hits {
		got = append(got, hit{filepath.Base(m.File), m.Page, m.Index, m.FileLine})
	}
	want := []hit{{"a.txt", 0, 1, 1}, {"b-report.pdf", 1, 3, 2}, {"b-report.pdf", 2, 6, 5}, {"c.log", 0, 7, 1}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("hits = %v, want %v", got, want)
	}
	// Partition by pages: the text before the first page goes with it.
	res, err = s.Partition(ctx, h, PartitionOptions{Strategy: StrategyPages, Size: 1, WithText: true}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	chunks := res.Value.([]Chunk)
	if len(chunks) != 2 || !strings.HasPrefix(*chunks[0].Text, "units in a text file\nPage 1") || !strings.HasSuffix(*chunks[1].Text, "more units\n") {
		t.Fatalf("chunks = %+v", chunks)
	}
}

func TestPDFErrors(t *testing.T) {
	s, _ := pdfStore(t)
	ctx := context.Background()
	dir := t.TempDir()
	good, err := pdfgen.Pages(3, pageLines)
	if err != nil {
		t.Fatal(err)
	}
	damaged, err := pdfgen.DamagePage(good, 2)
	if err != nil {
		t.Fatal(err)
	}
	enc, err := pdfgen.Encrypted(1, "secret")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		data []byte
		kind fault.Kind
		page any
	}{
		{"damaged.pdf", damaged, pdf.KindDamaged, 2},
		{"encrypted.pdf", enc, pdf.KindEncrypted, nil},
		{"truncated.pdf", good[:200], pdf.KindDamaged, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, tc.name)
			if err := os.WriteFile(p, tc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			for _, add := range []func() error{
				func() error { _, err := s.AddFile(ctx, p); return err },
				func() error { _, err := s.AddFiles(ctx, "c", []string{dir}, FilesOptions{}); return err },
			} {
				err := add()
				wantKind(t, err, tc.kind)
				fe := fault.As(err)
				if fe.Detail["page"] != tc.page || fe.Detail["path"] == nil || fe.Hint == "" {
					t.Fatalf("error = %v (detail %v, hint %q)", err, fe.Detail, fe.Hint)
				}
				if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, tc.data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			os.Remove(p)
		})
	}
}

// TestPDFExtractOnce: a second store opening the same file reads the text
// cache and never starts PDFium.
func TestPDFExtractOnce(t *testing.T) {
	cacheDir := t.TempDir()
	path := writePDF(t, t.TempDir(), "r.pdf", 2)
	var texts []string
	var loads []int64
	for range 2 {
		e := pdf.NewEngine(pdftest.Config(cacheDir))
		s := NewStore()
		s.SetPDFReader(e)
		h, err := s.AddFile(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		txt, err := s.Text(h, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		texts, loads = append(texts, txt), append(loads, e.Loads())
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if texts[0] != texts[1] || loads[0] != 1 || loads[1] != 0 {
		t.Fatalf("loads = %v, texts equal %v", loads, texts[0] == texts[1])
	}
}

// TestPDF500Pages opens, searches and partitions a generated 500-page PDF,
// and logs the extraction's time and memory per page (figures in
// docs/corpus.md: go test -run TestPDF500Pages -v ./corpus/).
func TestPDF500Pages(t *testing.T) {
	const n = 500
	s, e := pdfStore(t)
	ctx := context.Background()
	path := writePDF(t, t.TempDir(), "big.pdf", n)
	fi, _ := os.Stat(path)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	h, err := s.AddFile(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	elapsed := time.Since(start)
	runtime.ReadMemStats(&after)
	t.Logf("%d pages (%d bytes): first open %v (%v/page, engine loads %d), Go heap allocated %d KiB (%d KiB/page)",
		n, fi.Size(), elapsed, elapsed/n, e.Loads(), (after.TotalAlloc-before.TotalAlloc)>>10, (after.TotalAlloc-before.TotalAlloc)>>10/n)
	m, err := s.Metadata(ctx, h)
	if err != nil {
		t.Fatal(err)
	}
	if m.PageCount != n {
		t.Fatalf("pages = %d", m.PageCount)
	}
	res, err := s.Search(ctx, h, "Page 377 first line", SearchOptions{}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if hits := res.Value.([]Match); len(hits) != 1 || hits[0].Page != 377 {
		t.Fatalf("hits = %+v", hits)
	}
	res, err = s.Partition(ctx, h, PartitionOptions{Strategy: StrategyPages, Size: 100}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if chunks := res.Value.([]Chunk); len(chunks) != 5 || chunks[4].FirstPage != 401 || chunks[4].LastPage != 500 {
		t.Fatalf("chunks = %+v", chunks)
	}
}

// A program that links no PDF engine (it imports neither package pdf nor
// package rlm) refuses a PDF with no_pdf_reader and the import in the
// hint, whether the PDF is the context or one of a directory's files;
// nothing is silently skipped. (This test binary imports pdf, so the
// registration is taken away for the test and given back.)
func TestNoPDFReader(t *testing.T) {
	pdfreader.Register(nil)
	defer pdfreader.Register(func() pdfreader.Reader { return pdf.Default() })
	dir := t.TempDir()
	file := writePDF(t, dir, "report.pdf", 2)
	s := NewStore()
	defer s.Close()
	for _, open := range []func() error{
		func() error { _, err := s.AddFile(context.Background(), file); return err },
		func() error {
			_, err := s.AddFiles(context.Background(), "dir", []string{dir}, FilesOptions{})
			return err
		},
	} {
		err := open()
		if fault.KindOf(err) != KindNoPDFReader {
			t.Fatalf("err = %v, want %s", err, KindNoPDFReader)
		}
		if fe := fault.As(err); fe == nil || !strings.Contains(fe.Hint, `"github.com/rlm-go/rlm/pdf"`) {
			t.Fatalf("hint of %v does not name the import", err)
		}
	}
	// A store with its own reader reads it without the registration.
	own, _ := pdfStore(t)
	if _, err := own.AddFile(context.Background(), file); err != nil {
		t.Fatal(err)
	}
}
