package corpus

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/fault"
)

// writeTree creates files (path -> content) under a new temporary directory
// and returns it.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestAddFilesDirectory(t *testing.T) {
	ctx := context.Background()
	dir := writeTree(t, map[string]string{
		"b.go":          "package b\nfunc B() {} // TODO b\n",
		"a.go":          "package a\n// TODO a", // no final newline
		"sub/c.txt":     "",
		"sub/d.txt":     "one\nTODO d\n",
		".git/config":   "TODO hidden\n",
		".env":          "TODO hidden\n",
		"bin/blob.dat":  "TODO\x00binary\n",
		"sub/.hidden.x": "TODO hidden\n",
	})
	s := NewStore()
	defer s.Close()
	h, err := s.AddFiles(ctx, "code", []string{dir}, FilesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.Metadata(ctx, h)
	if err != nil {
		t.Fatal(err)
	}
	if m.Kind != TextKindFiles || m.Name != "code" || m.Skipped != 1 {
		t.Fatalf("metadata = %+v", m)
	}
	rel := func(n string) string { return strings.TrimPrefix(n, filepath.ToSlash(dir)+"/") }
	var names []string
	for _, f := range m.Files {
		names = append(names, rel(f.Name))
	}
	if got, want := strings.Join(names, ","), "a.go,b.go,sub/c.txt,sub/d.txt"; got != want {
		t.Fatalf("files = %s, want %s", got, want)
	}
	// a.go gets a separating newline; the text is the files in order.
	text, err := s.Text(h, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if want := "package a\n// TODO a\npackage b\nfunc B() {} // TODO b\none\nTODO d\n"; text != want {
		t.Fatalf("text = %q, want %q", text, want)
	}
	if m.Bytes != int64(len(text)) || m.Lines != 6 {
		t.Fatalf("bytes, lines = %d, %d", m.Bytes, m.Lines)
	}
	// Each file's handle holds just that file.
	for _, f := range m.Files {
		got, err := s.Text(f.Handle, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := os.ReadFile(filepath.FromSlash(f.Name))
		if got != string(want) || int64(len(got)) != f.Bytes {
			t.Fatalf("file %s: text %q, want %q", f.Name, got, want)
		}
	}
	// Search hits name their file and the line within it.
	r, err := s.Search(ctx, h, "TODO", SearchOptions{}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	var hits []string
	for _, mt := range r.Value.([]Match) {
		hits = append(hits, rel(mt.File)+":"+strconv.FormatInt(mt.FileLine, 10))
	}
	if got, want := strings.Join(hits, ","), "a.go:2,b.go:2,sub/d.txt:2"; got != want {
		t.Fatalf("hits = %s, want %s", got, want)
	}
	// Searching one file's handle also names the file.
	r, err = s.Search(ctx, m.Files[3].Handle, "TODO", SearchOptions{}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if ms := r.Value.([]Match); len(ms) != 1 || rel(ms[0].File) != "sub/d.txt" || ms[0].Index != 2 {
		t.Fatalf("file search = %+v", ms)
	}
	// A view of the composite keeps naming files.
	sub, err := s.Sub(ctx, h, m.Files[1].Offset, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	r, err = s.Search(ctx, sub, "TODO", SearchOptions{}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if ms := r.Value.([]Match); len(ms) != 2 || rel(ms[0].File) != "b.go" || rel(ms[1].File) != "sub/d.txt" {
		t.Fatalf("view search = %+v", ms)
	}
}

func TestAddFilesExplicitAndDuplicates(t *testing.T) {
	ctx := context.Background()
	dir := writeTree(t, map[string]string{"x.bin": "a\x00b\n", "y.txt": "y\n"})
	s := NewStore()
	defer s.Close()
	x, y := filepath.Join(dir, "x.bin"), filepath.Join(dir, "y.txt")
	// Named files are kept even when binary; a repeated path appears once.
	h, err := s.AddFiles(ctx, "", []string{y, x, y, dir + "/./y.txt"}, FilesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.Metadata(ctx, h)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Files) != 2 || m.Files[0].Name != filepath.ToSlash(x) || m.Files[1].Name != filepath.ToSlash(y) {
		t.Fatalf("files = %+v", m.Files)
	}
}

func TestAddFilesSymlinks(t *testing.T) {
	ctx := context.Background()
	dir := writeTree(t, map[string]string{"real/a.txt": "a\n", "other/b.txt": "b\n"})
	if err := os.Symlink(filepath.Join(dir, "real"), filepath.Join(dir, "link")); err != nil {
		t.Skip("no symlinks:", err)
	}
	if err := os.Symlink(filepath.Join(dir, "other"), filepath.Join(dir, "real", "inner")); err != nil {
		t.Fatal(err)
	}
	s := NewStore()
	defer s.Close()
	// The named link is followed; the link inside the walk is not.
	h, err := s.AddFiles(ctx, "", []string{filepath.Join(dir, "link")}, FilesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.Metadata(ctx, h)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Files) != 1 || m.Files[0].Name != filepath.ToSlash(filepath.Join(dir, "link", "a.txt")) {
		t.Fatalf("files = %+v", m.Files)
	}
}

func TestAddFilesLimits(t *testing.T) {
	ctx := context.Background()
	dir := writeTree(t, map[string]string{"a": "aaaa\n", "b": "bbbb\n", "c": "cccc\n", "e/.x": "hidden\n"})
	cases := []struct {
		name  string
		paths []string
		opt   FilesOptions
		kind  fault.Kind
	}{
		{"too many files", []string{dir}, FilesOptions{MaxFiles: 2}, KindTooManyFiles},
		{"too many bytes", []string{dir}, FilesOptions{MaxTotalBytes: 12}, KindContextTooLarge},
		{"separator counts", []string{filepath.Join(dir, "a")}, FilesOptions{MaxTotalBytes: 4}, KindContextTooLarge},
		{"no files", []string{filepath.Join(dir, "e")}, FilesOptions{}, KindNoFiles},
		{"missing path", []string{filepath.Join(dir, "missing")}, FilesOptions{}, fault.KindIO},
		{"exact fit", []string{dir}, FilesOptions{MaxFiles: 3, MaxTotalBytes: 15}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := NewStore()
			defer s.Close()
			_, err := s.AddFiles(ctx, "", tc.paths, tc.opt)
			if tc.kind == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			wantKind(t, err, tc.kind)
		})
	}
}

func TestAddStream(t *testing.T) {
	ctx := context.Background()
	s := NewStore()
	defer s.Close()
	dir := t.TempDir()
	text := strings.Repeat("line of text\n", 200_000) // several spool chunks
	h, err := s.AddStream(ctx, "stdin", dir, strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Text(h, 16<<20)
	if err != nil {
		t.Fatal(err)
	}
	if got != text {
		t.Fatalf("text differs: %d bytes, want %d", len(got), len(text))
	}
	m, err := s.Metadata(ctx, h)
	if err != nil {
		t.Fatal(err)
	}
	if m.Kind != TextKindText || m.Name != "stdin" || m.Lines != 200_000 {
		t.Fatalf("metadata = %+v", m)
	}
	// The spool file is gone once registered.
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("spool dir holds %d entries", len(ents))
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	_, err = s.AddStream(cctx, "stdin", dir, strings.NewReader(text))
	wantKind(t, err, fault.KindCancelled)
	_, err = s.AddStream(ctx, "stdin", filepath.Join(dir, "missing"), strings.NewReader(text))
	wantKind(t, err, fault.KindIO)
}

// BenchmarkAddStream measures spooling a 64 MiB stream to disk and mapping
// it.
func BenchmarkAddStream(b *testing.B) {
	text := strings.Repeat("2026-12-02 INFO a line of a log that is spooled\n", 64<<20/48)
	dir := b.TempDir()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		s := NewStore()
		if _, err := s.AddStream(context.Background(), "stdin", dir, strings.NewReader(text)); err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
}

// TestAddFilesNamedBinaryInWalkedDir: a binary file named directly is kept
// even when a directory named too also reaches it (where it would be
// skipped as binary), whatever the order of the paths: the same inputs
// give the same context.
func TestAddFilesNamedBinaryInWalkedDir(t *testing.T) {
	ctx := context.Background()
	dir := writeTree(t, map[string]string{"x.bin": "a\x00b\n", "y.txt": "y\n"})
	x := filepath.Join(dir, "x.bin")
	for _, paths := range [][]string{{dir, x}, {x, dir}} {
		s := NewStore()
		h, err := s.AddFiles(ctx, "", paths, FilesOptions{})
		if err != nil {
			t.Fatal(err)
		}
		m, err := s.Metadata(ctx, h)
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
		if len(m.Files) != 2 || m.Files[0].Name != filepath.ToSlash(x) || m.Skipped != 0 {
			t.Errorf("paths %q: files = %+v, skipped %d; want x.bin and y.txt, none skipped", paths, m.Files, m.Skipped)
		}
	}
}
