// Package pdftest makes the PDF engines of tests.
package pdftest

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rlm-go/rlm/pdf"
)

// PageTimeout is the page time bound of the tests' PDF engines: their
// pages render under the race detector on a loaded machine (a 300 dpi page
// took 6-13 s at load 14), and the bound is not what they test (package
// pdf's tests end it on purpose, through its hook).
const PageTimeout = 2 * time.Minute

// Config is the configuration of a test's PDF engine: its text cache in
// textCacheDir, pages bound by PageTimeout, and wazero's compilation
// cache kept between runs in os.TempDir().
func Config(textCacheDir string) pdf.Config {
	return pdf.Config{CacheDir: filepath.Join(os.TempDir(), "rlm-test-wazero-cache"), PageTimeout: PageTimeout, TextCacheDir: textCacheDir}
}

// Engine returns an engine of Config(t.TempDir()), closed when the test
// ends.
func Engine(t testing.TB) *pdf.Engine {
	t.Helper()
	e := pdf.NewEngine(Config(t.TempDir()))
	t.Cleanup(func() { e.Close() })
	return e
}
