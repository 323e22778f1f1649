package trace

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestLiveFile: events are appended as they end; WriteFile replaces the
// live file (a new inode) with the export sorted by seq; paths that are
// not .jsonl or not regular files are not written live.
func TestLiveFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "run.jsonl")
	live, err := OpenLive(path)
	if err != nil || live == nil {
		t.Fatalf("OpenLive: %v %v", live, err)
	}
	rec := NewRecorder(WithClock(fixedClock()), WithObserver(live.Observe))
	ctx := WithRecorder(context.Background(), rec)
	ctx, run := Start(ctx, KindRun, "rlm")
	_, call := Start(ctx, KindModelCall, "m")
	call.End(nil)
	raw, _ := os.ReadFile(path)
	if bytes.Count(raw, []byte("\n")) != 1 || !bytes.Contains(raw, []byte(`"id":"e2"`)) {
		t.Fatalf("live file after one event: %s", raw)
	}
	run.End(nil)
	before, _ := os.Stat(path)
	if err := live.WriteFile(path, "x", rec.Events(), 0); err != nil {
		t.Fatal(err)
	}
	after, _ := os.Stat(path)
	if os.SameFile(before, after) || after.Mode().Perm() != 0o644 {
		t.Fatalf("the final export did not replace the live file (same inode or mode %v)", after.Mode())
	}
	f, _ := os.Open(path)
	defer f.Close()
	evs, err := Read(f)
	if err != nil || len(evs) != 2 || evs[0].ID != "e1" {
		t.Fatalf("final file: %v %v", evs, err)
	}
	live.Observe(evs[0]) // after WriteFile: ignored
	if n, _ := os.ReadFile(path); bytes.Count(n, []byte("\n")) != 2 {
		t.Fatal("an event after WriteFile reached the file")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("temporary files left: %v", entries)
	}
	fifo := filepath.Join(t.TempDir(), "pipe.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(dir, "run.json"), fifo} {
		if l, err := OpenLive(p); l != nil || err != nil {
			t.Errorf("%s: live %v, err %v", p, l, err)
		}
	}
	var none *LiveFile
	none.Observe(evs[0])
	if err := none.WriteFile(filepath.Join(dir, "plain.json"), "x", evs, 0); err != nil {
		t.Fatal(err)
	}
}
