package launcher

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/fault"
)

// Audit: a single --context naming a FIFO is opened with a blocking open(2)
// before AddStream's cancellable copy starts: Ctrl-C (ctx) while no writer
// has opened the pipe yet does not stop it.
func TestContextFIFOOpenHonoursCtx(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no mkfifo:", err)
	}
	store := corpus.NewStore()
	defer store.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := rlm.AddContexts(ctx, store, []string{fifo}, nil)
		done <- err
	}()
	select {
	case err := <-done:
		if k := fault.KindOf(err); k != budget.KindTimeLimit {
			t.Fatalf("kind = %q, want time_limit_exceeded (err %v)", k, err)
		}
	case <-time.After(30 * time.Second):
		if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			w.Close()
		}
		<-done
		t.Fatal("addContexts still blocked opening the FIFO 29.9 s after its ctx ended")
	}
}
