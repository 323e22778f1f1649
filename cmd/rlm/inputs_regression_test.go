package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime/debug"
	"syscall"
	"testing"
	"time"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
)

// Audit: the durable run fingerprints the --context text with
// Store.Bytes, reading the mapping outside the store's guard. A context file
// truncated after it was mapped (logrotate copytruncate, an editor saving)
// then kills the process with SIGBUS instead of failing with
// context_changed. debug.SetPanicOnFault turns that SIGBUS into a panic
// here so the test can report it.
func TestRunSpecTruncatedContext(t *testing.T) {
	p := filepath.Join(t.TempDir(), "ctx.log")
	if err := os.WriteFile(p, bytes.Repeat([]byte("a line of the log\n"), 1<<16), 0o644); err != nil {
		t.Fatal(err)
	}
	store := corpus.NewStore()
	defer store.Close()
	h, err := addContexts(context.Background(), store, []string{p}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(p, 0); err != nil {
		t.Fatal(err)
	}
	old := debug.SetPanicOnFault(true)
	defer debug.SetPanicOnFault(old)
	var fault_ any
	func() {
		defer func() { fault_ = recover() }()
		_, _, err = runSpec(engine.Config{Store: store}, h, "q")
	}()
	if fault_ != nil {
		t.Fatalf("runSpec faulted reading the truncated mapping (the rlm process dies of SIGBUS): %v", fault_)
	}
	if k := fault.KindOf(err); k != corpus.KindContextChanged {
		t.Fatalf("runSpec error kind = %q, want context_changed (err %v)", k, err)
	}
}

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
		_, err := addContexts(ctx, store, []string{fifo}, nil)
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
