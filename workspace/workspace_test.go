package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"go.uber.org/goleak"

	"github.com/rlm-go/rlm/fault"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// newWorkspace builds:
//
//	ws/a.txt            "hello"
//	ws/sub/b.txt        "bee"
//	ws/link_in  -> sub/b.txt
//	ws/link_dir -> sub
//	ws/link_out -> ../outside.txt
//	ws/link_abs -> /etc/hostname (absolute)
//	ws/dangling -> missing
//	ws/fifo             (named pipe)
//	outside.txt         "secret"
func newWorkspace(t testing.TB) *Root {
	t.Helper()
	base := t.TempDir()
	ws := filepath.Join(base, "ws")
	must(t, os.MkdirAll(filepath.Join(ws, "sub"), 0o755))
	must(t, os.WriteFile(filepath.Join(ws, "a.txt"), []byte("hello"), 0o644))
	must(t, os.WriteFile(filepath.Join(ws, "sub", "b.txt"), []byte("bee"), 0o644))
	must(t, os.WriteFile(filepath.Join(base, "outside.txt"), []byte("secret"), 0o644))
	must(t, os.Symlink("sub/b.txt", filepath.Join(ws, "link_in")))
	must(t, os.Symlink("sub", filepath.Join(ws, "link_dir")))
	must(t, os.Symlink("../outside.txt", filepath.Join(ws, "link_out")))
	must(t, os.Symlink(filepath.Join(base, "outside.txt"), filepath.Join(ws, "link_abs")))
	must(t, os.Symlink("missing", filepath.Join(ws, "dangling")))
	if err := syscall.Mkfifo(filepath.Join(ws, "fifo"), 0o644); err != nil {
		t.Logf("mkfifo unavailable: %v", err)
	}
	r, err := Open(ws)
	must(t, err)
	t.Cleanup(func() { r.Close() })
	return r
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func reason(err error) any {
	if fe := fault.As(err); fe != nil {
		return fe.Detail["reason"]
	}
	return nil
}

func TestReadFile(t *testing.T) {
	r := newWorkspace(t)
	cases := []struct {
		path    string
		kind    fault.Kind
		reason  string
		content string
	}{
		{path: "a.txt", content: "hello"},
		{path: "sub/b.txt", content: "bee"},
		{path: "link_in", content: "bee"},
		{path: "link_dir/b.txt", content: "bee"},
		{path: "", kind: KindConfinementDenied, reason: ReasonEmpty},
		{path: "/etc/passwd", kind: KindConfinementDenied, reason: ReasonAbsolute},
		{path: "../outside.txt", kind: KindConfinementDenied, reason: ReasonParent},
		{path: "sub/../a.txt", kind: KindConfinementDenied, reason: ReasonParent},
		{path: "./a.txt", kind: KindConfinementDenied, reason: ReasonDotSegment},
		{path: ".", kind: KindConfinementDenied, reason: ReasonDotSegment},
		{path: "sub//b.txt", kind: KindConfinementDenied, reason: ReasonEmptySegment},
		{path: "sub/", kind: KindConfinementDenied, reason: ReasonEmptySegment},
		{path: "a.txt\x00", kind: KindConfinementDenied, reason: ReasonNUL},
		{path: `sub\b.txt`, kind: KindConfinementDenied, reason: ReasonBackslash},
		{path: "link_out", kind: KindConfinementDenied, reason: ReasonSymlinkEscape},
		{path: "link_abs", kind: KindConfinementDenied, reason: ReasonSymlinkEscape},
		{path: "dangling", kind: KindConfinementDenied, reason: ReasonSymlinkBroken},
		{path: "sub", kind: KindConfinementDenied, reason: ReasonNotRegular},
		{path: "a.txt/x", kind: KindConfinementDenied, reason: ReasonNotDirectory},
		{path: "missing.txt", kind: fault.KindNotFound},
		{path: strings.Repeat("a", MaxPathBytes+1), kind: KindConfinementDenied, reason: ReasonTooLong},
	}
	if _, err := os.Lstat(filepath.Join(r.Dir(), "fifo")); err == nil {
		cases = append(cases, struct {
			path    string
			kind    fault.Kind
			reason  string
			content string
		}{path: "fifo", kind: KindConfinementDenied, reason: ReasonNotRegular})
	}
	for _, c := range cases {
		f, err := r.ReadFile(c.path, 1024)
		if fault.KindOf(err) != c.kind {
			t.Errorf("%q: kind %q want %q (%v)", c.path, fault.KindOf(err), c.kind, err)
			continue
		}
		if c.reason != "" && reason(err) != c.reason {
			t.Errorf("%q: reason %v want %s", c.path, reason(err), c.reason)
		}
		if c.kind == "" && f.Content != c.content {
			t.Errorf("%q: content %q", c.path, f.Content)
		}
		if err != nil && strings.Contains(err.Error(), r.Dir()) {
			t.Errorf("%q: error leaks host path: %v", c.path, err)
		}
	}
}

func TestReadTruncates(t *testing.T) {
	r := newWorkspace(t)
	f, err := r.ReadFile("a.txt", 2)
	must(t, err)
	if f.Content != "he" || !f.Truncated || f.Bytes != 5 {
		t.Fatalf("got %+v", f)
	}
}

func TestList(t *testing.T) {
	r := newWorkspace(t)
	l, err := r.List(".", 100)
	must(t, err)
	var names []string
	for _, e := range l.Entries {
		names = append(names, e.Name+":"+e.Type)
	}
	got := strings.Join(names, ",")
	want := "a.txt:file,dangling:symlink,"
	if !strings.HasPrefix(got, want) || !strings.Contains(got, "sub:dir") {
		t.Fatalf("listing %s", got)
	}
	if _, err := r.List("a.txt", 10); fault.KindOf(err) != KindConfinementDenied {
		t.Fatalf("listing a file: %v", err)
	}
	if _, err := r.List("link_out", 10); reason(err) != ReasonSymlinkEscape {
		t.Fatalf("listing escaping link: %v", err)
	}
	l, err = r.List(".", 1)
	must(t, err)
	if !l.Truncated || len(l.Entries) != 1 {
		t.Fatalf("not truncated: %+v", l)
	}
}

func TestWriteFile(t *testing.T) {
	r := newWorkspace(t)
	w, err := r.WriteFile("new.txt", []byte("x"))
	must(t, err)
	if !w.Created || w.Bytes != 1 {
		t.Fatalf("%+v", w)
	}
	w, err = r.WriteFile("link_dir/b.txt", []byte("yy"))
	must(t, err)
	if w.Created {
		t.Fatalf("overwrite reported created: %+v", w)
	}
	b, _ := os.ReadFile(filepath.Join(r.Dir(), "sub", "b.txt"))
	if string(b) != "yy" {
		t.Fatalf("content %q", b)
	}
	for path, want := range map[string]string{
		"link_out":      ReasonSymlinkEscape,
		"sub":           ReasonNotRegular,
		"../escape.txt": ReasonParent,
		"/tmp/x":        ReasonAbsolute,
	} {
		if _, err := r.WriteFile(path, []byte("z")); reason(err) != want {
			t.Errorf("%s: %v want %s", path, err, want)
		}
	}
	if _, err := r.WriteFile("nodir/x.txt", []byte("z")); fault.KindOf(err) != fault.KindNotFound {
		t.Errorf("missing dir: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(filepath.Dir(r.Dir()), "outside.txt")); string(b) != "secret" {
		t.Fatal("outside file modified")
	}
}

func FuzzCheckPath(f *testing.F) {
	for _, s := range []string{"a.txt", "../x", "/etc/passwd", "a/./b", "a//b", "a\x00b", `a\b`, ".", "..", "a/..", "link_out/x", "sub/b.txt", "C:/x"} {
		f.Add(s)
	}
	r := newWorkspace(f)
	f.Cleanup(func() { r.Close() })
	f.Fuzz(func(t *testing.T, rel string) {
		err := CheckPath(rel, true)
		if err == nil {
			if strings.HasPrefix(rel, "/") || strings.Contains(rel, "\x00") || strings.Contains(rel, "\\") {
				t.Fatalf("accepted %q", rel)
			}
			for seg := range strings.SplitSeq(rel, "/") {
				if seg == ".." || (seg == "." && rel != ".") || seg == "" {
					t.Fatalf("accepted %q", rel)
				}
			}
		} else if fault.KindOf(err) != KindConfinementDenied {
			t.Fatalf("untyped error %v", err)
		}
		got, err := r.Resolve(rel, true)
		if err != nil {
			if fault.As(err) == nil {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		// Whatever resolves must stay inside the workspace on the host.
		full := filepath.Join(r.Dir(), got)
		if real, err := filepath.EvalSymlinks(full); err == nil && !within(r.Dir(), real) {
			t.Fatalf("%q resolved outside: %s", rel, real)
		}
		if f, err := r.ReadFile(rel, 64); err == nil && f.Content == "secret" {
			t.Fatalf("%q read the outside file", rel)
		}
	})
}
