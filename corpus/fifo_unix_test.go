//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package corpus

import (
	"context"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/rlm-go/rlm/fault"
)

// TestAddFileFIFO: AddFile of a named pipe fails with io_error (not a
// regular file) at once; it used to block opening the pipe until some
// process opened it for writing, whatever the context.
func TestAddFileFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skip("no mkfifo:", err)
	}
	s := NewStore()
	defer s.Close()
	_, err := s.AddFile(context.Background(), p)
	wantKind(t, err, fault.KindIO)
}
