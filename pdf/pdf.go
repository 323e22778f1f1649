// Package pdf reads PDF documents with PDFium compiled to WebAssembly
// (github.com/klippa-app/go-pdfium in its webassembly mode, run by wazero:
// pure Go, no cgo). It extracts the text of each page and renders pages to
// PNG, each page under a time bound and every instance under a memory
// bound.
//
// Nothing is loaded until a document is first opened: an Engine compiles
// the WebAssembly module on first use (keeping wazero's compilation cache
// on disk, so later processes skip most of that cost) and reuses its
// instances. Extracted text is cached on disk keyed by the file's content
// hash, so a file is extracted once.
//
// Failures are fault errors in phase context: pdf_damaged (the document or
// one of its pages cannot be parsed; detail "page" names the 1-based page
// when the fault is a page's), pdf_encrypted (a password is needed),
// pdf_page_limit (a page ran past the time bound, or the engine past its
// memory bound), pdf_image_too_large (a render over the pixel bound). See
// docs/corpus.md.
package pdf

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/klippa-app/go-pdfium"
	pdfiumerr "github.com/klippa-app/go-pdfium/errors"
	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"
	"github.com/klippa-app/go-pdfium/webassembly"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/pdfreader"
)

// Error kinds reported by this package, all in phase context.
const (
	// KindDamaged: the PDF (or, with detail "page", one of its pages)
	// cannot be parsed.
	KindDamaged fault.Kind = "pdf_damaged"
	// KindEncrypted: the PDF is encrypted with a user password.
	KindEncrypted fault.Kind = "pdf_encrypted"
	// KindPageLimit: a page took longer than the per-page time bound, or
	// the engine needed more memory than its bound (detail "page", "limit").
	KindPageLimit fault.Kind = "pdf_page_limit"
	// KindImageTooLarge: a page rendered at the asked DPI would exceed the
	// pixel bound (detail "pixels", "max_pixels").
	KindImageTooLarge fault.Kind = "pdf_image_too_large"
)

// Defaults of Config.
const (
	DefaultPageTimeout  = 10 * time.Second
	DefaultMaxMemory    = 1 << 30 // bytes of WebAssembly memory per instance
	DefaultMaxPixels    = 40_000_000
	DefaultMaxInstances = 2
	DefaultMaxDPI       = 600
	// MinMemory is the smallest MaxMemory: the module starts with about
	// 18.2 MiB of memory.
	MinMemory = 24 << 20
)

// extractVersion names the extraction's output format in the text cache;
// bump it when the text of a page changes (engine or normalisation).
const extractVersion = "pdfium-wasm-v1.21.5/1"

// Config configures an Engine. The zero Config takes every default.
type Config struct {
	// CacheDir is the directory of wazero's compilation cache. Empty:
	// os.UserCacheDir()/rlm/wazero; "-": no cache (compile every time).
	CacheDir string
	// TextCacheDir holds extracted text keyed by the PDF's SHA-256.
	// Empty: os.UserCacheDir()/rlm/pdftext; "-": no cache.
	TextCacheDir string
	// PageTimeout bounds the work on one page (0: DefaultPageTimeout).
	PageTimeout time.Duration
	// MaxMemory bounds the WebAssembly memory of one instance in bytes
	// (0: DefaultMaxMemory; at least MinMemory, PDFium's initial memory
	// and some room).
	MaxMemory int64
	// MaxPixels bounds a rendered page's width*height (0: DefaultMaxPixels).
	MaxPixels int64
	// MaxInstances bounds the instances run at once (0: DefaultMaxInstances).
	MaxInstances int
}

// Engine extracts and renders PDFs. It is safe for concurrent use; it
// loads PDFium on first use. Close releases it.
type Engine struct {
	cfg Config

	mu     sync.Mutex
	pool   pdfium.Pool
	cache  wazero.CompilationCache
	closed bool
	// Loads counts PDFium initialisations (module compilations), for tests.
	loads atomic.Int64
	// hashes counts the documents Extract hashed, for tests.
	hashes atomic.Int64
}

// NewEngine returns an Engine with cfg; nothing is loaded yet.
func NewEngine(cfg Config) *Engine {
	if cfg.PageTimeout <= 0 {
		cfg.PageTimeout = DefaultPageTimeout
	}
	if cfg.MaxMemory <= 0 {
		cfg.MaxMemory = DefaultMaxMemory
	}
	cfg.MaxMemory = max(cfg.MaxMemory, MinMemory)
	if cfg.MaxPixels <= 0 {
		cfg.MaxPixels = DefaultMaxPixels
	}
	if cfg.MaxInstances <= 0 {
		cfg.MaxInstances = DefaultMaxInstances
	}
	return &Engine{cfg: cfg}
}

var defaultEngine = sync.OnceValue(func() *Engine { return NewEngine(Config{}) })

// Importing this package makes Default the context store's PDF reader
// (a store reads PDFs only when a program links an engine: package rlm
// imports this one; corpus.Store.SetPDFReader sets a store's own).
func init() {
	pdfreader.Register(func() pdfreader.Reader { return Default() })
}

// ExtractPages is Extract's pages: what the context store reads.
func (e *Engine) ExtractPages(ctx context.Context, name string, data []byte) ([]Page, error) {
	d, err := e.Extract(ctx, name, data)
	if err != nil {
		return nil, err
	}
	return d.Pages, nil
}

// ExtractPagesSum is ExtractPages for data whose SHA-256 (lower case hex)
// the caller has computed: sum keys the text cache and data is not hashed
// again (pdfreader.SumExtractor; the context store hashes every PDF it
// opens). A sum that is not 64 hex digits is refused (invalid).
func (e *Engine) ExtractPagesSum(ctx context.Context, name, sum string, data []byte) ([]Page, error) {
	if b, err := hex.DecodeString(sum); err != nil || len(b) != sha256.Size || strings.ToLower(sum) != sum {
		return nil, fault.New(fault.PhaseContext, fault.KindInvalid, "not a SHA-256 in lower case hex").With("name", name).
			WithHint("pass the hex SHA-256 of the document's bytes, or call ExtractPages")
	}
	d, err := e.extract(ctx, name, sum, data)
	if err != nil {
		return nil, err
	}
	return d.Pages, nil
}

// RenderPDFPage renders page (1-based) of the PDF in data at dpi: Extract
// (from the text cache when it holds the document) then RenderPage.
func (e *Engine) RenderPDFPage(ctx context.Context, name string, data []byte, page, dpi int) (Image, error) {
	d, err := e.Extract(ctx, name, data)
	if err != nil {
		return Image{}, err
	}
	return d.RenderPage(ctx, page, dpi)
}

// Default returns the process-wide Engine with the default Config. It is
// created on first call and loads PDFium on its first document.
func Default() *Engine { return defaultEngine() }

// Loads reports how many times the engine compiled and started PDFium
// (1 after first use; the instances are reused).
func (e *Engine) Loads() int64 { return e.loads.Load() }

// Close releases PDFium. Later use fails.
func (e *Engine) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return nil
	}
	e.closed = true
	var err error
	if e.pool != nil {
		err = e.pool.Close()
		e.pool = nil
	}
	if e.cache != nil {
		if cerr := e.cache.Close(context.Background()); err == nil {
			err = cerr
		}
	}
	return err
}

func cacheDir(dir, leaf string) string {
	if dir == "-" {
		return ""
	}
	if dir != "" {
		return dir
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(base, "rlm", leaf)
}

// load starts PDFium once.
func (e *Engine) load() (pdfium.Pool, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return nil, fault.New(fault.PhaseContext, fault.KindInternal, "pdf engine is closed")
	}
	if e.pool != nil {
		return e.pool, nil
	}
	rc := wazero.NewRuntimeConfig().
		WithCoreFeatures(api.CoreFeaturesV2 | experimental.CoreFeaturesExceptionHandling).
		WithCloseOnContextDone(true).
		WithMemoryLimitPages(uint32(min(e.cfg.MaxMemory/65536, 65536)))
	if dir := cacheDir(e.cfg.CacheDir, "wazero"); dir != "" {
		if c, err := wazero.NewCompilationCacheWithDir(dir); err == nil {
			e.cache = c
			rc = rc.WithCompilationCache(c)
		}
		// An unusable cache directory only costs the compilation.
	}
	p, err := webassembly.Init(webassembly.Config{
		MinIdle:       0,
		MaxIdle:       e.cfg.MaxInstances,
		MaxTotal:      e.cfg.MaxInstances,
		ReuseWorkers:  true,
		RuntimeConfig: rc,
		FSConfig:      wazero.NewFSConfig(), // no file system: documents are passed as bytes
		Stdout:        io.Discard,
		Stderr:        io.Discard,
	})
	if err != nil {
		return nil, fault.Wrap(err, fault.PhaseContext, fault.KindInternal, "cannot start the PDF engine")
	}
	e.loads.Add(1)
	e.pool = p
	return p, nil
}

// Page is one page of a Document: its size in points (1/72 inch) and, from
// Extract, its text.
type Page = pdfreader.Page

// Document is an extracted PDF. Pages are in order; page numbers in this
// package's API and errors are 1-based.
type Document struct {
	Name  string
	Pages []Page
	// Cached reports that the text came from the text cache.
	Cached bool

	e    *Engine
	data []byte
}

// IsPDF reports whether head (a file's first bytes) starts a PDF: the
// header "%PDF-" and a version digit at its very start. (Readers accept
// the header later within the first 1024 bytes; rlm does not, so that a
// text file quoting a PDF header near its start stays text.)
func IsPDF(head []byte) bool { return pdfreader.IsPDF(head) }

// session is one borrowed instance with a document open in it.
type session struct {
	e      *Engine
	inst   pdfium.Pdfium
	doc    references.FPDF_DOCUMENT
	name   string
	killed bool
}

func (e *Engine) open(ctx context.Context, name string, data []byte) (*session, error) {
	d := data
	return e.openDoc(ctx, name, &requests.OpenDocument{File: &d})
}

// openReader opens the size bytes of the PDF in r: PDFium reads the
// blocks it needs through r as it needs them.
func (e *Engine) openReader(ctx context.Context, name string, r io.ReaderAt, size int64) (*session, error) {
	if size <= 0 {
		return nil, fault.New(fault.PhaseContext, KindDamaged, "the PDF cannot be read: it is empty").With("name", name).
			WithHint("the file is not a readable PDF; repair it (for example qpdf in.pdf out.pdf) or pass its text")
	}
	return e.openDoc(ctx, name, &requests.OpenDocument{FileReader: io.NewSectionReader(r, 0, size), FileReaderSize: size})
}

func (e *Engine) openDoc(ctx context.Context, name string, req *requests.OpenDocument) (*session, error) {
	if err := ctx.Err(); err != nil {
		return nil, ctxErr(err)
	}
	p, err := e.load()
	if err != nil {
		return nil, err
	}
	inst, err := p.GetInstanceWithContext(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctxErr(ctx.Err())
		}
		return nil, fault.Wrap(err, fault.PhaseContext, fault.KindInternal, "cannot get a PDF engine instance")
	}
	s := &session{e: e, inst: inst, name: name}
	err = s.bounded(ctx, 0, func() error {
		r, err := inst.OpenDocument(req)
		if err == nil {
			s.doc = r.Document
		}
		return err
	})
	if err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

func (s *session) close() {
	if s.killed {
		return
	}
	if s.doc != "" {
		_, _ = s.inst.FPDF_CloseDocument(&requests.FPDF_CloseDocument{Document: s.doc})
	}
	_ = s.inst.Close()
}

// pageHook, when set by a test, runs inside every bounded call with the
// call's context and a function that ends the page's time bound at once.
var pageHook func(ctx context.Context, page int, expire func())

// errPageTime is the cause of a page's context whose time bound ended.
var errPageTime = errors.New("page time bound")

// bounded runs f, PDFium's work on page (1-based; 0 for the document),
// under the page time bound and ctx: when either ends first the instance
// is killed (wazero stops the running code) and the call fails.
func (s *session) bounded(ctx context.Context, page int, f func() error) error {
	pctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	expire := func() { cancel(errPageTime) }
	timer := time.AfterFunc(s.e.cfg.PageTimeout, expire)
	defer timer.Stop()
	killed := make(chan struct{})
	stop := context.AfterFunc(pctx, func() {
		defer close(killed)
		_ = s.inst.Kill()
	})
	err := func() error {
		if pageHook != nil {
			pageHook(pctx, page, expire)
		}
		return f()
	}()
	if !stop() {
		<-killed
		s.killed = true
		if cerr := ctx.Err(); cerr != nil {
			return ctxErr(cerr)
		}
		return s.limitErr(page, "time").With("page_timeout_ms", s.e.cfg.PageTimeout.Milliseconds()).
			WithHint("the page is too complex for the per-page time bound; raise it or skip the page")
	}
	if err != nil {
		return s.classify(page, err)
	}
	return nil
}

func (s *session) limitErr(page int, limit string) *fault.Error {
	e := fault.New(fault.PhaseContext, KindPageLimit, "PDF page exceeded its bound").With("limit", limit).With("name", s.name)
	if page > 0 {
		e = e.With("page", page)
	}
	return e
}

// classify maps an error of PDFium to the package's kinds.
func (s *session) classify(page int, err error) error {
	var fe *fault.Error
	if errors.As(err, &fe) {
		return err
	}
	msg := err.Error()
	switch {
	case errors.Is(err, pdfiumerr.ErrPassword), errors.Is(err, pdfiumerr.ErrSecurity):
		return fault.Wrap(err, fault.PhaseContext, KindEncrypted, "the PDF is encrypted").With("name", s.name).
			WithHint("decrypt it first (for example qpdf --decrypt --password=PASSWORD in.pdf out.pdf) and pass the copy")
	case strings.Contains(msg, "memory") || strings.Contains(msg, "out of bounds") || strings.Contains(msg, "abort") ||
		strings.Contains(msg, "too large"):
		// The WebAssembly memory bound was hit: a failed allocation ends
		// in an abort or a trap, or a bitmap that could not be created.
		return s.limitErr(page, "memory").With("max_memory", s.e.cfg.MaxMemory).
			WithHint("the page needs more memory than the PDF engine's bound; raise it or skip the page")
	}
	fe = fault.Wrap(err, fault.PhaseContext, KindDamaged, "the PDF cannot be read").With("name", s.name)
	if page > 0 {
		fe = fe.With("page", page).WithHint("the page is damaged; repair the file (for example qpdf in.pdf out.pdf) or remove the page")
	} else {
		fe = fe.WithHint("the file is not a readable PDF; repair it (for example qpdf in.pdf out.pdf) or pass its text")
	}
	return fe
}

func ctxErr(err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return fault.Wrap(err, fault.PhaseContext, budget.KindTimeLimit, "context deadline exceeded")
	}
	return fault.Wrap(err, fault.PhaseContext, fault.KindCancelled, "cancelled")
}

// Extract returns the pages of the PDF in data (sizes and text), named name
// in errors. The text is cached on disk by the SHA-256 of data: a document
// is extracted once. The Document keeps data (not copied) to render pages.
func (e *Engine) Extract(ctx context.Context, name string, data []byte) (*Document, error) {
	e.hashes.Add(1)
	sum := sha256.Sum256(data)
	return e.extract(ctx, name, hex.EncodeToString(sum[:]), data)
}

// extract is Extract for data whose SHA-256 (hex) is key.
func (e *Engine) extract(ctx context.Context, name, key string, data []byte) (*Document, error) {
	d := &Document{Name: name, e: e, data: data}
	if pages, ok := e.cached(key); ok {
		d.Pages, d.Cached = pages, true
		return d, nil
	}
	s, err := e.open(ctx, name, data)
	if err != nil {
		return nil, err
	}
	defer s.close()
	var n int
	if err := s.bounded(ctx, 0, func() error {
		r, err := s.inst.FPDF_GetPageCount(&requests.FPDF_GetPageCount{Document: s.doc})
		if err == nil {
			n = r.PageCount
		}
		return err
	}); err != nil {
		return nil, err
	}
	d.Pages = make([]Page, n)
	for i := range n {
		if err := s.bounded(ctx, i+1, func() error { return s.page(i, &d.Pages[i]) }); err != nil {
			return nil, err
		}
	}
	e.store(key, d.Pages)
	return d, nil
}

// page reads the size and text of page i (0-based).
func (s *session) page(i int, out *Page) error {
	pg, err := s.inst.FPDF_LoadPage(&requests.FPDF_LoadPage{Document: s.doc, Index: i})
	if err != nil {
		return err
	}
	defer s.inst.FPDF_ClosePage(&requests.FPDF_ClosePage{Page: pg.Page})
	ref := requests.Page{ByReference: &pg.Page}
	w, err := s.inst.FPDF_GetPageWidthF(&requests.FPDF_GetPageWidthF{Page: ref})
	if err != nil {
		return err
	}
	h, err := s.inst.FPDF_GetPageHeightF(&requests.FPDF_GetPageHeightF{Page: ref})
	if err != nil {
		return err
	}
	out.Width, out.Height = float64(w.PageWidth), float64(h.PageHeight)
	tp, err := s.inst.FPDFText_LoadPage(&requests.FPDFText_LoadPage{Page: ref})
	if err != nil {
		return err
	}
	defer s.inst.FPDFText_ClosePage(&requests.FPDFText_ClosePage{TextPage: tp.TextPage})
	cnt, err := s.inst.FPDFText_CountChars(&requests.FPDFText_CountChars{TextPage: tp.TextPage})
	if err != nil {
		return err
	}
	if cnt.Count <= 0 {
		return nil
	}
	t, err := s.inst.FPDFText_GetText(&requests.FPDFText_GetText{TextPage: tp.TextPage, Count: cnt.Count})
	if err != nil {
		return err
	}
	out.Text = normalize(t.Text)
	return nil
}

// normalize turns PDFium's line ends (\r\n, \r) into \n and drops NULs.
func normalize(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	return strings.ReplaceAll(s, "\x00", "")
}

// Image is a rendered page.
type Image = pdfreader.Image

// RenderPage renders page (1-based) of d at dpi (1..DefaultMaxDPI) to PNG.
// A page whose pixel count at dpi would exceed the engine's MaxPixels fails
// with pdf_image_too_large before rendering.
func (d *Document) RenderPage(ctx context.Context, page, dpi int) (Image, error) {
	if page < 1 || page > len(d.Pages) {
		return Image{}, fault.New(fault.PhaseContext, fault.KindInvalid, "no such page").
			With("page", page).With("pages", len(d.Pages)).WithHint("pages are numbered from 1")
	}
	if dpi < 1 || dpi > DefaultMaxDPI {
		return Image{}, fault.New(fault.PhaseContext, fault.KindInvalid, "dpi out of range").
			With("dpi", dpi).With("max", DefaultMaxDPI)
	}
	if d.data == nil {
		return Image{}, fault.New(fault.PhaseContext, fault.KindInvalid, "document has no data to render").WithHint("get it from Engine.Extract")
	}
	if err := d.e.checkPixels(page, dpi, d.Pages[page-1]); err != nil {
		return Image{}, err
	}
	s, err := d.e.open(ctx, d.Name, d.data)
	if err != nil {
		return Image{}, err
	}
	defer s.close()
	return s.render(ctx, page, dpi)
}

// RenderSource renders page (1-based) of the size bytes of the PDF in r
// at dpi (1..DefaultMaxDPI) to PNG, as RenderPage does, reading only the
// blocks of the document the page needs: the cross-reference table, the
// page and what it draws. Nothing is hashed and the text cache is not
// read (the page's size comes from the document). r must not change
// during the call. It is the context store's way to render a page of a
// PDF it has opened (pdfreader.SourceRenderer).
func (e *Engine) RenderSource(ctx context.Context, name string, r io.ReaderAt, size int64, page, dpi int) (Image, error) {
	if dpi < 1 || dpi > DefaultMaxDPI {
		return Image{}, fault.New(fault.PhaseContext, fault.KindInvalid, "dpi out of range").
			With("dpi", dpi).With("max", DefaultMaxDPI)
	}
	s, err := e.openReader(ctx, name, r, size)
	if err != nil {
		return Image{}, err
	}
	defer s.close()
	var n int
	var pg Page
	if err := s.bounded(ctx, 0, func() error {
		r, err := s.inst.FPDF_GetPageCount(&requests.FPDF_GetPageCount{Document: s.doc})
		if err != nil {
			return err
		}
		n = r.PageCount
		if page < 1 || page > n {
			return nil
		}
		sz, err := s.inst.FPDF_GetPageSizeByIndexF(&requests.FPDF_GetPageSizeByIndexF{Document: s.doc, Index: page - 1})
		if err == nil {
			pg.Width, pg.Height = float64(sz.Size.Width), float64(sz.Size.Height)
		}
		return err
	}); err != nil {
		return Image{}, err
	}
	if page < 1 || page > n {
		return Image{}, fault.New(fault.PhaseContext, fault.KindInvalid, "no such page").
			With("page", page).With("pages", n).WithHint("pages are numbered from 1")
	}
	if err := e.checkPixels(page, dpi, pg); err != nil {
		return Image{}, err
	}
	return s.render(ctx, page, dpi)
}

// checkPixels refuses page (1-based; pg its size) at dpi with
// pdf_image_too_large when its pixel count would exceed MaxPixels.
func (e *Engine) checkPixels(page, dpi int, pg Page) error {
	w := int(math.Ceil(pg.Width * float64(dpi) / 72))
	h := int(math.Ceil(pg.Height * float64(dpi) / 72))
	if px := int64(w) * int64(h); px > e.cfg.MaxPixels {
		return fault.New(fault.PhaseContext, KindImageTooLarge, "rendered page exceeds the pixel bound").
			With("page", page).With("dpi", dpi).With("pixels", px).With("max_pixels", e.cfg.MaxPixels).
			WithHint("render at a lower dpi")
	}
	return nil
}

// render renders page (1-based) of the session's document at dpi to PNG.
func (s *session) render(ctx context.Context, page, dpi int) (Image, error) {
	var img Image
	err := s.bounded(ctx, page, func() error {
		r, err := s.inst.RenderPageInDPI(&requests.RenderPageInDPI{
			Page: requests.Page{ByIndex: &requests.PageByIndex{Document: s.doc, Index: page - 1}},
			DPI:  dpi,
		})
		if err != nil {
			return err
		}
		defer r.Cleanup()
		var buf bytes.Buffer
		if err := png.Encode(&buf, r.Result.RenderedImage); err != nil {
			return fault.Wrap(err, fault.PhaseContext, fault.KindInternal, "png encoding failed")
		}
		img = Image{PNG: buf.Bytes(), Width: r.Result.Width, Height: r.Result.Height}
		return nil
	})
	return img, err
}
