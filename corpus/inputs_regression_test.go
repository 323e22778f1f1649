package corpus

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/rlm-go/rlm/budget"
)

// Audit: a directory given twice (or a file named and also found in a
// directory given) is included once, but counted twice against MaxFiles.
func TestMaxFilesCountsDuplicates(t *testing.T) {
	dir := writeTree(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	s := NewStore()
	defer s.Close()
	ctx := context.Background()
	for _, paths := range [][]string{
		{dir, dir},
		{dir, filepath.Join(dir, "a.txt")},
	} {
		h, err := s.AddFiles(ctx, "c", paths, FilesOptions{MaxFiles: 2})
		if err != nil {
			t.Errorf("AddFiles(%q, MaxFiles 2) over 2 distinct files: %v", paths, err)
			continue
		}
		m, _ := s.Metadata(ctx, h)
		if len(m.Files) != 2 {
			t.Errorf("files = %d, want 2", len(m.Files))
		}
	}
}

// Audit: AddFiles allocates a fresh 1 MiB copy buffer (and starts a
// goroutine per read) for every file: memory churn and time grow with the
// number of files, not their size.
func TestAddFilesManySmallFilesAlloc(t *testing.T) {
	const n = 2000
	files := map[string]string{}
	for i := 0; i < n; i++ {
		files[fmt.Sprintf("d/f%05d.txt", i)] = "hello\n"
	}
	dir := writeTree(t, files)
	s := NewStore()
	defer s.Close()
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	t0 := time.Now()
	if _, err := s.AddFiles(context.Background(), "c", []string{dir}, FilesOptions{}); err != nil {
		t.Fatal(err)
	}
	el := time.Since(t0)
	runtime.ReadMemStats(&m1)
	alloc := m1.TotalAlloc - m0.TotalAlloc
	t.Logf("%d files of 6 bytes: %v, allocated %d MiB, %d GCs", n, el, alloc>>20, m1.NumGC-m0.NumGC)
	if alloc > 64<<20 {
		t.Fatalf("AddFiles of %d six-byte files allocated %d MiB (> 64 MiB)", n, alloc>>20)
	}
}

// Audit: a named pipe given with other paths (--context a.log --context
// FIFO) is opened with a blocking open(2): while no writer has opened it,
// an ended ctx (Ctrl-C, a deadline) does not stop AddFiles.
func TestAddFilesFIFOOpenHonoursCtx(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no mkfifo:", err)
	}
	a := filepath.Join(dir, "a.txt")
	if err := os.WriteFile(a, []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := NewStore()
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := s.AddFiles(ctx, "c", []string{a, fifo}, FilesOptions{})
		done <- err
	}()
	select {
	case err := <-done:
		wantKind(t, err, budget.KindTimeLimit)
	case <-time.After(30 * time.Second):
		// Unblock the open so the goroutine ends, then fail.
		if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			w.Close()
		}
		<-done
		t.Fatal("AddFiles still blocked opening the FIFO 29.9 s after its ctx ended")
	}
}
