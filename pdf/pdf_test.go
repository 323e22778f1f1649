package pdf

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/pdfgen"
)

// compileCache is wazero's compilation cache shared by the package's tests
// and kept between runs in the temporary directory (compiling PDFium takes
// seconds; the cache is keyed by wazero's version and the module's hash).
var compileCache string

func TestMain(m *testing.M) {
	dir := filepath.Join(os.TempDir(), "rlm-test-wazero-cache")
	err := os.MkdirAll(dir, 0o700)
	if err != nil {
		panic(err)
	}
	compileCache = dir
	goleak.VerifyTestMain(m, goleak.Cleanup(func(code int) {
		os.Exit(code)
	}))
}

// testEngine returns an engine whose caches live in the test's temporary
// directory, closed at the end of the test.
func testEngine(t testing.TB, cfg Config) *Engine {
	t.Helper()
	dir := t.TempDir()
	if cfg.CacheDir == "" {
		cfg.CacheDir = compileCache
	}
	if cfg.TextCacheDir == "" {
		cfg.TextCacheDir = dir + "/text"
	}
	e := NewEngine(cfg)
	t.Cleanup(func() {
		if err := e.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return e
}

func genPages(t testing.TB, n int) []byte {
	t.Helper()
	b, err := pdfgen.Pages(n, func(p int) []string {
		return []string{fmt.Sprintf("Page %d first line", p), fmt.Sprintf("total %d units", p*7)}
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestExtract(t *testing.T) {
	e := testEngine(t, Config{})
	data := genPages(t, 3)
	d, err := e.Extract(context.Background(), "t.pdf", data)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Pages) != 3 || d.Cached {
		t.Fatalf("pages = %d, cached %v", len(d.Pages), d.Cached)
	}
	for i, p := range d.Pages {
		want := fmt.Sprintf("Page %d first line\ntotal %d units", i+1, (i+1)*7)
		if strings.TrimSpace(p.Text) != want {
			t.Errorf("page %d text = %q, want %q", i+1, p.Text, want)
		}
		if p.Width < 595 || p.Width > 596 || p.Height < 841 || p.Height > 842 {
			t.Errorf("page %d size = %vx%v, want A4 (595x842 pt)", i+1, p.Width, p.Height)
		}
	}
	// Second extraction: from the text cache, no new load.
	d2, err := e.Extract(context.Background(), "t.pdf", data)
	if err != nil {
		t.Fatal(err)
	}
	if !d2.Cached || len(d2.Pages) != 3 || d2.Pages[2].Text != d.Pages[2].Text {
		t.Fatalf("second extract: cached %v pages %d", d2.Cached, len(d2.Pages))
	}
	if e.Loads() != 1 {
		t.Fatalf("loads = %d, want 1", e.Loads())
	}
}

func TestNoLoadUntilUsed(t *testing.T) {
	e := testEngine(t, Config{})
	if e.Loads() != 0 {
		t.Fatal("engine loaded before use")
	}
}

func TestErrors(t *testing.T) {
	e := testEngine(t, Config{TextCacheDir: "-"})
	good := genPages(t, 3)
	damaged, err := pdfgen.DamagePage(good, 2)
	if err != nil {
		t.Fatal(err)
	}
	enc, err := pdfgen.Encrypted(2, "pw")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		data []byte
		kind fault.Kind
		page any
	}{
		{"garbage", []byte("%PDF-1.4\nnot a pdf at all"), KindDamaged, nil},
		{"truncated", good[:len(good)/3], KindDamaged, nil},
		{"damaged page", damaged, KindDamaged, 2},
		{"encrypted", enc, KindEncrypted, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := e.Extract(context.Background(), tc.name+".pdf", tc.data)
			if got := fault.KindOf(err); got != tc.kind {
				t.Fatalf("kind = %q, want %q (err %v)", got, tc.kind, err)
			}
			fe := fault.As(err)
			if fe.Phase != fault.PhaseContext || fe.Hint == "" {
				t.Fatalf("phase %q hint %q", fe.Phase, fe.Hint)
			}
			if got := fe.Detail["page"]; got != tc.page {
				t.Fatalf("page = %v, want %v", got, tc.page)
			}
		})
	}
	// The engine is still usable after the failures.
	if _, err := e.Extract(context.Background(), "good.pdf", good); err != nil {
		t.Fatal(err)
	}
}

func TestPageTimeout(t *testing.T) {
	e := testEngine(t, Config{TextCacheDir: "-"})
	pageHook = func(ctx context.Context, page int, expire func()) {
		if page == 2 {
			expire() // the page's time bound ends while it runs
			<-ctx.Done()
		}
	}
	t.Cleanup(func() { pageHook = nil })
	_, err := e.Extract(context.Background(), "slow.pdf", genPages(t, 3))
	if fault.KindOf(err) != KindPageLimit {
		t.Fatalf("kind = %q, want %q (%v)", fault.KindOf(err), KindPageLimit, err)
	}
	if fe := fault.As(err); fe.Detail["page"] != 2 || fe.Detail["limit"] != "time" {
		t.Fatalf("detail = %v", fe.Detail)
	}
	pageHook = nil
	if _, err := e.Extract(context.Background(), "ok.pdf", genPages(t, 2)); err != nil {
		t.Fatalf("after a killed instance: %v", err)
	}
}

func TestCancel(t *testing.T) {
	e := testEngine(t, Config{TextCacheDir: "-"})
	ctx, cancel := context.WithCancel(context.Background())
	pageHook = func(hctx context.Context, page int, _ func()) {
		if page == 1 {
			cancel()
			<-hctx.Done()
		}
	}
	t.Cleanup(func() { pageHook = nil })
	_, err := e.Extract(ctx, "c.pdf", genPages(t, 2))
	if fault.KindOf(err) != fault.KindCancelled {
		t.Fatalf("kind = %q (%v)", fault.KindOf(err), err)
	}
}

func TestRenderPage(t *testing.T) {
	e := testEngine(t, Config{MaxPixels: 2_000_000})
	d, err := e.Extract(context.Background(), "r.pdf", genPages(t, 2))
	if err != nil {
		t.Fatal(err)
	}
	img, err := d.RenderPage(context.Background(), 2, 72)
	if err != nil {
		t.Fatal(err)
	}
	if img.Width < 595 || img.Width > 596 || img.Height < 841 || img.Height > 842 {
		t.Fatalf("size = %dx%d, want A4 at 72 dpi (595.28x841.89)", img.Width, img.Height)
	}
	dec, err := png.Decode(bytes.NewReader(img.PNG))
	if err != nil {
		t.Fatal(err)
	}
	if b := dec.Bounds(); b.Dx() != img.Width || b.Dy() != img.Height {
		t.Fatalf("png bounds %v", b)
	}
	// Some pixel is dark (the text was drawn).
	dark := false
	for y := 0; y < 100 && !dark; y++ {
		for x := 0; x < 300; x++ {
			if r, _, _, _ := dec.At(x, y).RGBA(); r < 0x8000 {
				dark = true
				break
			}
		}
	}
	if !dark {
		t.Error("rendered page has no dark pixel near its text")
	}
	_, err = d.RenderPage(context.Background(), 1, 300) // 2480x3508 > 2e6
	if fault.KindOf(err) != KindImageTooLarge {
		t.Fatalf("kind = %q (%v)", fault.KindOf(err), err)
	}
	// Within the pixel bound but not the memory bound: a 300 dpi A4
	// bitmap (2480x3508x4 bytes, 35 MB) in 24 MiB of WebAssembly memory.
	small := testEngine(t, Config{MaxMemory: MinMemory, MaxPixels: 1e9})
	sd, err := small.Extract(context.Background(), "r.pdf", genPages(t, 2))
	if err != nil {
		t.Fatal(err)
	}
	_, err = sd.RenderPage(context.Background(), 1, 300)
	if fault.KindOf(err) != KindPageLimit || fault.As(err).Detail["limit"] != "memory" || fault.As(err).Detail["page"] != 1 {
		t.Fatalf("render over the memory bound: %v", err)
	}
	if _, err := sd.RenderPage(context.Background(), 1, 72); err != nil {
		t.Fatalf("after the memory bound: %v", err)
	}
	_, err = d.RenderPage(context.Background(), 3, 72)
	if fault.KindOf(err) != fault.KindInvalid {
		t.Fatalf("kind = %q (%v)", fault.KindOf(err), err)
	}
}

func TestIsPDF(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"%PDF-1.7\n", true},
		{"%PDF-2.0", true},
		{"\n\n%PDF-1.4", false},
		{"log: saw %PDF-1.4 header", false},
		{"%PDF-x", false},
		{"%PDF-", false},
		{"hello", false},
	} {
		if got := IsPDF([]byte(tc.in)); got != tc.want {
			t.Errorf("IsPDF(%.12q) = %v", tc.in, got)
		}
	}
}
