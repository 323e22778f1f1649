package corpus

import (
	"bytes"
	"context"
	"math"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/pdfreader"
)

// ActionImage names rendering a page of a PDF to an image (code mode's
// context.pages[i].image(), a plan's image action): a context operation
// needing the capability context:slice, as reading the page's text does.
const ActionImage = "image"

// Bounds of a page image's resolution, in dots per inch.
const (
	DefaultImageDPI = 100
	MinImageDPI     = 30
	MaxImageDPI     = 300
)

// maxImageCache bounds the bytes of rendered pages a Store keeps; past it
// the cache is emptied before the next one is added.
const maxImageCache = 64 << 20

// pageKey identifies a rendered page: the PDF's content hash, the page
// number and the resolution.
type pageKey struct {
	sum       string
	page, dpi int
}

// CheckImageDPI checks a page image's dpi: MinImageDPI..MaxImageDPI, else
// invalid_limit with a hint.
func CheckImageDPI(dpi int64) error {
	if dpi < MinImageDPI || dpi > MaxImageDPI {
		return newErr(KindInvalidLimit, "dpi out of range").With("dpi", dpi).
			With("min", MinImageDPI).With("max", MaxImageDPI).
			WithHint("give a dpi between 30 and 300 (100 is the default; 150 reads small print)")
	}
	return nil
}

// PageOf returns the page that handle h holds: h must be one of the page
// sub-contexts of a PDF (Metadata.Pages[i].Handle) or another view of
// exactly one page's text (a chunk of partition pages=1, the context of
// a one-page PDF), else not_a_page.
func (s *Store) PageOf(h Handle) (PageInfo, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, err := s.lookup(h)
	if err != nil {
		return PageInfo{}, err
	}
	lo, hi := e.base, e.base+int64(len(e.data))
	var found []PageInfo
	for _, p := range e.pages {
		if p.Offset+p.Bytes > lo && p.Offset < hi || p.Offset == lo && p.Bytes == 0 {
			found = append(found, p)
		}
	}
	// The view holds one page when it starts at the page and ends at its
	// end or the separator after it.
	if len(found) == 1 {
		p := found[0]
		end := p.Offset + p.Bytes
		if p.src != nil && lo == p.Offset && (hi == end || hi == end+int64(len(pageSep))) {
			return p, nil
		}
	}
	return PageInfo{}, newErr(KindNotAPage, "the handle is not a page of a PDF").With("handle", h.String()).With("pages", len(found)).
		WithHint("render one page: context.pages[i] in code mode; in a plan a handle from the context's metadata pages or from partition with strategy pages and size 1")
}

// PageImage renders the page held by page handle h (see PageOf) at dpi
// (CheckImageDPI) to PNG with the store's PDF engine. With maxEdge > 0 a
// page whose longest edge would exceed maxEdge pixels at dpi is rendered
// at the largest dpi that keeps it within maxEdge instead (an image is
// scaled down to its sending bound anyway; rendering larger only costs
// memory). Rendered pages are
// cached by (the PDF's content hash, page, dpi) for the store's life. A
// PDF whose file changed since it was registered fails with
// context_changed; a page over the engine's pixel bound with
// pdf_image_too_large.
func (s *Store) PageImage(ctx context.Context, h Handle, dpi, maxEdge int) (PDFImage, PageInfo, error) {
	if err := CheckImageDPI(int64(dpi)); err != nil {
		return PDFImage{}, PageInfo{}, err
	}
	p, err := s.PageOf(h)
	if err != nil {
		return PDFImage{}, PageInfo{}, err
	}
	if long := max(p.Width, p.Height); maxEdge > 0 && long > 0 && math.Ceil(long*float64(dpi)/72) > float64(maxEdge) {
		dpi = max(1, int(math.Floor(float64(maxEdge)*72/long)))
	}
	key := pageKey{sum: p.src.sum, page: p.Page, dpi: dpi}
	s.mu.Lock()
	im, ok := s.images[key]
	s.mu.Unlock()
	if ok {
		return im, p, nil
	}
	im, err = s.renderPage(ctx, h, p, dpi)
	if err != nil {
		if fe := fault.As(err); fe != nil {
			return PDFImage{}, p, fe.With("path", p.src.path)
		}
		return PDFImage{}, p, err
	}
	s.mu.Lock()
	if s.images == nil || s.imageBytes+int64(len(im.PNG)) > maxImageCache {
		s.images, s.imageBytes = map[pageKey]PDFImage{}, 0
	}
	if _, dup := s.images[key]; !dup {
		s.images[key] = im
		s.imageBytes += int64(len(im.PNG))
	}
	s.mu.Unlock()
	return im, p, nil
}

// renderPage renders page p of the PDF it is in at dpi. A file whose stamp
// is the one its bytes were read and hashed under, and vouches for them
// (fileStamp), is rendered from without being read whole or hashed: the
// reader reads the blocks the page needs (pdfreader.SourceRenderer). Any
// other is read and hashed again: bytes that differ from the ones opened
// are context_changed; the same bytes renew the stamp. A file whose
// stamp changes while the page renders is context_changed too.
func (s *Store) renderPage(ctx context.Context, h Handle, p PageInfo, dpi int) (PDFImage, error) {
	src := p.src
	rd, err := s.pdfReader(src.path)
	if err != nil {
		return PDFImage{}, err
	}
	f, err := Open(ctx, src.path)
	if err != nil {
		if fault.As(err) != nil {
			return PDFImage{}, err
		}
		return PDFImage{}, fault.Wrap(err, fault.PhaseContext, fault.KindIO, "cannot open PDF")
	}
	defer f.Close()
	changed := func() error {
		return newErr(KindContextChanged, "the PDF changed since it was opened").With("handle", h.String()).
			WithHint("open the PDF again to render its current pages")
	}
	stamp, vouches := stampFile(f)
	s.mu.Lock()
	known := src.trusted && stamp == src.stamp
	s.mu.Unlock()
	sr, partial := rd.(pdfreader.SourceRenderer)
	if known && partial {
		im, err := sr.RenderSource(ctx, src.path, f, stamp.size, p.Page, dpi)
		if now, _ := stampFile(f); now != stamp {
			return PDFImage{}, changed() // a failure too may come of the change
		}
		return im, err
	}
	data, err := readPDFBytes(f, nil)
	if err != nil {
		return PDFImage{}, fault.Wrap(err, fault.PhaseContext, fault.KindIO, "cannot read PDF")
	}
	if hashPDF(data) != src.sum {
		return PDFImage{}, changed()
	}
	if vouches {
		s.mu.Lock()
		src.stamp, src.trusted = stamp, true
		s.mu.Unlock()
	}
	if partial {
		return sr.RenderSource(ctx, src.path, bytes.NewReader(data), int64(len(data)), p.Page, dpi)
	}
	return rd.RenderPDFPage(ctx, src.path, data, p.Page, dpi)
}
