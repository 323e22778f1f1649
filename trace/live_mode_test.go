package trace

import (
	"os"
	"path/filepath"
	"testing"
)

// TestLiveKeepsExistingMode: for an existing trace file, the live
// file (os.Create on it) keeps the file's mode, and so does the plain
// WriteFile used for every other trace path; the final export of a live
// trace is a new file renamed over it, which silently widens a trace the
// user had restricted (0600) to 0666 less the umask (0644), although the
// trace may hold --trace-content replies, code and output.
func TestLiveKeepsExistingMode(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "run.jsonl")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	live, err := OpenLive(path)
	if err != nil || live == nil {
		t.Fatalf("OpenLive: %v %v", live, err)
	}
	ev := Event{Seq: 1, ID: "e1", Kind: KindRun, Name: "rlm", Status: StatusOK}
	live.Observe(ev)
	fi, _ := os.Stat(path)
	t.Logf("mode during the run: %v", fi.Mode().Perm())
	if err := live.WriteFile(path, "rlm run", []Event{ev}, 0); err != nil {
		t.Fatal(err)
	}
	fi2, _ := os.Stat(path)
	// The non-live path for comparison.
	other := filepath.Join(dir, "run.json")
	_ = os.WriteFile(other, nil, 0o600)
	_ = WriteFile(other, "rlm run", []Event{ev}, 0)
	fi3, _ := os.Stat(other)
	t.Logf("mode after the final export: live %v, plain WriteFile %v", fi2.Mode().Perm(), fi3.Mode().Perm())
	if fi2.Mode().Perm() != 0o600 {
		t.Fatalf("the final export changed the trace's mode from 0600 to %v", fi2.Mode().Perm())
	}
}
