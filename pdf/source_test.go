package pdf

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/pdfgen"
)

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.ReaderAt
	n atomic.Int64
}

func (c *countingReader) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.n.Add(int64(n))
	return n, err
}

// RenderSource renders the page RenderPage renders, reading only the
// blocks of the document the page needs: of a PDF padded to 4 MiB by
// data no page draws, a few KiB. A page that is not there, an empty or a
// damaged document and a page over the pixel bound are refused as
// RenderPage refuses them.
func TestRenderSource(t *testing.T) {
	ctx := context.Background()
	e := testEngine(t, Config{MaxPixels: 2_000_000})
	doc := genPages(t, 3)
	big, err := pdfgen.Padded(doc, 4<<20)
	if err != nil {
		t.Fatal(err)
	}
	d, err := e.Extract(ctx, "big.pdf", big)
	if err != nil || len(d.Pages) != 3 {
		t.Fatalf("padded document: %v, %d pages", err, len(d.Pages))
	}
	want, err := d.RenderPage(ctx, 2, 72)
	if err != nil {
		t.Fatal(err)
	}
	cr := &countingReader{r: bytes.NewReader(big)}
	got, err := e.RenderSource(ctx, "big.pdf", cr, int64(len(big)), 2, 72)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.PNG, want.PNG) || got.Width != want.Width || got.Height != want.Height {
		t.Fatalf("RenderSource %dx%d (%d bytes), RenderPage %dx%d (%d bytes)", got.Width, got.Height, len(got.PNG), want.Width, want.Height, len(want.PNG))
	}
	if n := cr.n.Load(); n == 0 || n > 256<<10 {
		t.Fatalf("read %d of %d bytes to render one page", n, len(big))
	}
	t.Logf("read %d of %d bytes", cr.n.Load(), len(big))

	damaged, err := pdfgen.DamagePage(doc, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		data      []byte
		page, dpi int
		kind      fault.Kind
	}{
		{"no such page", big, 4, 72, fault.KindInvalid},
		{"page zero", big, 0, 72, fault.KindInvalid},
		{"dpi", big, 1, DefaultMaxDPI + 1, fault.KindInvalid},
		{"too many pixels", big, 1, 300, KindImageTooLarge},
		{"empty", nil, 1, 72, KindDamaged},
		{"garbage", []byte("%PDF-1.4\nnot a pdf at all"), 1, 72, KindDamaged},
		{"damaged page", damaged, 2, 72, KindDamaged},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := e.RenderSource(ctx, tc.name+".pdf", bytes.NewReader(tc.data), int64(len(tc.data)), tc.page, tc.dpi)
			if got := fault.KindOf(err); got != tc.kind {
				t.Fatalf("kind = %q, want %q (err %v)", got, tc.kind, err)
			}
		})
	}
}

// ExtractPagesSum takes the document's hash from its caller: it hashes
// nothing, keys the text cache by the sum (Extract of the same bytes
// then hits it) and refuses a sum that is not a lower-case hex SHA-256.
func TestExtractPagesSum(t *testing.T) {
	ctx := context.Background()
	e := testEngine(t, Config{})
	data := genPages(t, 2)
	sum := sha256.Sum256(data)
	key := hex.EncodeToString(sum[:])
	pages, err := e.ExtractPagesSum(ctx, "r.pdf", key, data)
	if err != nil || len(pages) != 2 || !strings.HasPrefix(pages[1].Text, "Page 2 first line") {
		t.Fatalf("%v %+v", err, pages)
	}
	if n := e.hashes.Load(); n != 0 {
		t.Fatalf("hashed %d documents, want 0", n)
	}
	d, err := e.Extract(ctx, "r.pdf", data)
	if err != nil || !d.Cached || e.hashes.Load() != 1 {
		t.Fatalf("Extract after ExtractPagesSum: cached %v, %d hashes, %v", d != nil && d.Cached, e.hashes.Load(), err)
	}
	for _, bad := range []string{"", "xyz", strings.ToUpper(key), key[:62]} {
		if _, err := e.ExtractPagesSum(ctx, "r.pdf", bad, data); fault.KindOf(err) != fault.KindInvalid {
			t.Errorf("sum %q: err %v, want invalid", bad, err)
		}
	}
}
