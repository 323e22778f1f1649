package mcp

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/rlm-go/rlm/fault"
)

// A root given through a symbolic link (--root /data, /data -> /mnt/data)
// accepts the absolute paths under it as the caller sees them; escapes
// stay refused.
func TestServeRootThroughSymlink(t *testing.T) {
	real := t.TempDir()
	if err := os.WriteFile(filepath.Join(real, "log.txt"), []byte("ok\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "data")
	if err := os.Symlink(real, link); err != nil {
		t.Skip(err)
	}
	outside := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(outside, []byte("no\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv, err := NewServer(ServeConfig{Roots: []string{link}, Run: func(context.Context, RunRequest) (*RunResult, error) { return nil, nil }})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	for _, c := range []struct {
		path string
		ok   bool
	}{
		{filepath.Join(link, "log.txt"), true},
		{filepath.Join(real, "log.txt"), true},
		{"log.txt", true},
		{filepath.Join(link, "..", filepath.Base(filepath.Dir(outside)), "secret.txt"), false},
		{outside, false},
		{filepath.Join(link, "..", "data2", "x"), false},
	} {
		p, err := srv.resolve(c.path)
		switch {
		case c.ok && err != nil:
			t.Errorf("%s: %v, want it resolved under the root", c.path, err)
		case c.ok && p != filepath.Join(real, "log.txt"):
			t.Errorf("%s: resolved to %s", c.path, p)
		case !c.ok && fault.KindOf(err) != KindPathNotAllowed:
			t.Errorf("%s: %q, %v, want mcp/%s", c.path, p, err, KindPathNotAllowed)
		}
	}
}
