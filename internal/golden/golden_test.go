package golden

import (
	"os"
	"path/filepath"
	"testing"
)

// recorder captures failures without stopping the outer test.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Helper()               {}
func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) Fatalf(string, ...any) { r.failed = true }
func (r *recorder) Fatal(...any)          { r.failed = true }

func TestCheck(t *testing.T) {
	t.Chdir(t.TempDir()) // restored when the test ends, whatever runs next
	os.Mkdir("testdata", 0o755)
	os.WriteFile(filepath.Join("testdata", "a.txt"), []byte("hello\n"), 0o644)

	r := &recorder{TB: t}
	Check(r, "a.txt", []byte("hello\n"))
	if r.failed {
		t.Fatal("equal output failed")
	}
	r = &recorder{TB: t}
	Check(r, "a.txt", []byte("other\n"))
	if !r.failed {
		t.Fatal("a difference passed")
	}
	t.Setenv("UPDATE_GOLDEN", "1")
	r = &recorder{TB: t}
	CheckJSON(r, "sub/b.json", map[string]int{"x": 1})
	if b, _ := os.ReadFile(filepath.Join("testdata", "sub", "b.json")); r.failed || string(b) != "{\n  \"x\": 1\n}\n" {
		t.Fatalf("update did not write the file: %q", b)
	}
}
