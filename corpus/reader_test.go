package corpus

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestMappedFileDescriptorsReleased checks that the descriptor a mapping
// keeps for reads is closed with the mapping: by Delete, by Close, and
// after the last sub-context of a deleted parent goes.
func TestMappedFileDescriptorsReleased(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("counts /proc/self/fd")
	}
	fds := func() int {
		ents, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Fatal(err)
		}
		return len(ents)
	}
	path := filepath.Join(t.TempDir(), "text")
	if err := os.WriteFile(path, []byte(strings.Repeat("a line of text\n", 1000)), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	before := fds()
	s := NewStore()
	var subs []Handle
	for i := range 10 {
		h, err := s.AddFile(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		switch i % 3 {
		case 0:
			if err := s.Delete(h); err != nil {
				t.Fatal(err)
			}
		case 1:
			sub, err := s.Sub(ctx, h, 0, 100)
			if err != nil {
				t.Fatal(err)
			}
			subs = append(subs, sub)
			if err := s.Delete(h); err != nil {
				t.Fatal(err)
			}
		}
	}
	if got := fds(); got != before+6 { // 3 live files, 3 kept by their subs
		t.Errorf("open descriptors: %d more, want 6", got-before)
	}
	for _, h := range subs {
		if _, err := s.Search(ctx, h, "line", SearchOptions{CountOnly: true}, Limits{}); err != nil {
			t.Fatal(err)
		}
		if err := s.Delete(h); err != nil {
			t.Fatal(err)
		}
	}
	if got := fds(); got != before+3 {
		t.Errorf("open descriptors after deleting the subs: %d more, want 3", got-before)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if got := fds(); got != before {
		t.Errorf("open descriptors after Close: %d more, want 0", got-before)
	}
}
