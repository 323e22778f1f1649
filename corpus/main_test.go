package corpus

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"go.uber.org/goleak"

	"github.com/rlm-go/rlm/fault"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.Cleanup(func(code int) {
		removeBenchFile()
		os.Exit(code)
	}))
}

// wantKind fails t unless err has Kind kind and phase context.
func wantKind(t *testing.T, err error, kind fault.Kind) {
	t.Helper()
	if got := fault.KindOf(err); got != kind {
		t.Fatalf("error kind = %q, want %q (err: %v)", got, kind, err)
	}
	if got := fault.PhaseOf(err); got != fault.PhaseContext {
		t.Fatalf("error phase = %q, want %q", got, fault.PhaseContext)
	}
}

// newTestStore returns a store closed at the end of the test, and a
// handle on text.
func newTestStore(t testing.TB, text string) (*Store, Handle) {
	t.Helper()
	s := NewStore()
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	h, err := s.AddString("test", text)
	if err != nil {
		t.Fatal(err)
	}
	return s, h
}

// writeTemp writes text to a file in a test temp dir and returns its path.
func writeTemp(t testing.TB, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "ctx.txt")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// errCtx is a context whose Err turns to err after ok calls.
type errCtx struct {
	context.Context
	ok  int
	err error
}

func (c *errCtx) Err() error {
	if c.ok > 0 {
		c.ok--
		return nil
	}
	return c.err
}

func faultKind(s string) fault.Kind { return fault.Kind(s) }

func faultAs(err error) *fault.Error { return fault.As(err) }
