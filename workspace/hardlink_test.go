package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/rlm-go/rlm/fault"
)

// TestHardLinksOutOfWorkspace is issue 18 item 4: a hard link inside the
// workspace to an outside file is refused for writes, and for reads unless
// Options.AllowHardLinkReads; the outside file is never changed.
func TestHardLinksOutOfWorkspace(t *testing.T) {
	base := t.TempDir()
	ws := filepath.Join(base, "ws")
	outside := filepath.Join(base, "outside.txt")
	must(t, os.MkdirAll(ws, 0o755))
	must(t, os.WriteFile(outside, []byte("secret"), 0o644))
	if err := os.Link(outside, filepath.Join(ws, "hard")); err != nil {
		t.Skipf("hard links unsupported: %v", err)
	}
	r, err := Open(ws)
	must(t, err)
	defer r.Close()

	if _, _, err := r.CheckWritable("hard"); fault.KindOf(err) != KindConfinementDenied || reason(err) != ReasonHardLink {
		t.Fatalf("CheckWritable: %v", err)
	}
	if _, err := r.WriteFile("hard", []byte("pwned")); fault.KindOf(err) != KindConfinementDenied || reason(err) != ReasonHardLink {
		t.Fatalf("WriteFile: %v", err)
	}
	if fe := fault.As(func() error { _, err := r.WriteFile("hard", nil); return err }()); fe == nil || fe.Hint == "" {
		t.Fatalf("no hint: %v", fe)
	}
	if b, _ := os.ReadFile(outside); string(b) != "secret" {
		t.Fatalf("outside file changed: %q", b)
	}
	if _, err := r.ReadFile("hard", 100); fault.KindOf(err) != KindConfinementDenied || reason(err) != ReasonHardLink {
		t.Fatalf("ReadFile: %v", err)
	}
	lenient, err := OpenWith(ws, Options{AllowHardLinkReads: true})
	must(t, err)
	defer lenient.Close()
	if f, err := lenient.ReadFile("hard", 100); err != nil || f.Content != "secret" {
		t.Fatalf("AllowHardLinkReads: %+v %v", f, err)
	}
	if _, err := lenient.WriteFile("hard", []byte("pwned")); reason(err) != ReasonHardLink {
		t.Fatalf("AllowHardLinkReads allowed a write: %v", err)
	}
	// A symbolic link inside the workspace to the hard link is refused too.
	must(t, os.Symlink("hard", filepath.Join(ws, "soft")))
	if _, err := r.WriteFile("soft", []byte("pwned")); reason(err) != ReasonHardLink {
		t.Fatalf("WriteFile through a symlink: %v", err)
	}
	if b, _ := os.ReadFile(outside); string(b) != "secret" {
		t.Fatalf("outside file changed: %q", b)
	}
}

// TestHardLinksOutOfWorkspaceAtomicWrite: writes go through a temporary
// file and a rename, so an existing inode is replaced, not rewritten; the
// permission bits and in-workspace symbolic links are kept and no
// temporary file is left behind.
func TestHardLinksOutOfWorkspaceAtomicWrite(t *testing.T) {
	r := newWorkspace(t)
	defer r.Close()
	path := filepath.Join(r.Dir(), "a.txt")
	must(t, os.Chmod(path, 0o600))
	before, err := os.Stat(path)
	must(t, err)
	w, err := r.WriteFile("a.txt", []byte("new"))
	if err != nil || w.Created || w.Bytes != 3 {
		t.Fatalf("%+v %v", w, err)
	}
	after, err := os.Stat(path)
	must(t, err)
	if b, _ := os.ReadFile(path); string(b) != "new" {
		t.Fatalf("content %q", b)
	}
	if after.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", after.Mode())
	}
	if before.Sys().(*syscall.Stat_t).Ino == after.Sys().(*syscall.Stat_t).Ino {
		t.Fatal("the file was rewritten in place, not replaced")
	}
	// Through an in-workspace link: the link stays, its target changes.
	if _, err := r.WriteFile("link_in", []byte("via link")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(filepath.Join(r.Dir(), "link_in")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("link replaced: %v %v", fi, err)
	}
	if b, _ := os.ReadFile(filepath.Join(r.Dir(), "sub", "b.txt")); string(b) != "via link" {
		t.Fatalf("target %q", b)
	}
	if _, err := r.WriteFile("sub/c.txt", []byte("c")); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{r.Dir(), filepath.Join(r.Dir(), "sub")} {
		des, err := os.ReadDir(dir)
		must(t, err)
		for _, de := range des {
			if strings.HasPrefix(de.Name(), tempPrefix) {
				t.Fatalf("temporary file left: %s", de.Name())
			}
		}
	}
}
