//go:build unix

package trace

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestLiveFileFinalExportHonoursUmask: the final export of a live trace
// gets the mode os.Create would give it, umask applied: under umask 077 a
// trace (which may hold prompts and replies) is not made world-readable
// by the rename over the live file.
func TestLiveFileFinalExportHonoursUmask(t *testing.T) {
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	dir := t.TempDir()
	path := filepath.Join(dir, "run.jsonl")
	live, err := OpenLive(path)
	if err != nil || live == nil {
		t.Fatalf("OpenLive: %v %v", live, err)
	}
	rec := NewRecorder(WithClock(fixedClock()), WithObserver(live.Observe))
	_, sp := Start(WithRecorder(context.Background(), rec), KindRun, "rlm")
	sp.End(nil)
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Fatalf("live file mode %v, want 0600 under umask 077", fi.Mode().Perm())
	}
	if err := live.WriteFile(path, "x", rec.Events(), 0); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("final export mode %v, want 0600 under umask 077 (as the live file and os.Create)", fi.Mode().Perm())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("temporary files left: %v", entries)
	}
}
