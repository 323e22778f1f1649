package launcher

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestTraceImportExportCmd converts the official-format sample with the
// binary, views it, and exports it back in that format.
func TestTraceImportExportCmd(t *testing.T) {
	dir := t.TempDir()
	sample, err := filepath.Abs("../../trace/rlmlog/testdata/official.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	imported := filepath.Join(dir, "imported.jsonl")
	if r := runBinary(t, nil, nil, "trace", "import", sample, "-o", imported); r.code != 0 {
		t.Fatalf("import: exit %d: %s", r.code, r.stderr)
	}
	r := runBinary(t, nil, nil, "trace", "view", imported)
	if r.code != 0 || strings.Count(r.stdout, "turn ") != 3 || !strings.Contains(r.stdout, "error=provider/RateLimitError") {
		t.Fatalf("view: exit %d:\n%s", r.code, r.stdout)
	}
	back := filepath.Join(dir, "back.jsonl")
	if r := runBinary(t, nil, nil, "trace", "export", "--format", "rlm-jsonl", imported, "-o", back); r.code != 0 {
		t.Fatalf("export: exit %d: %s", r.code, r.stderr)
	}
	out := readFile(t, back)
	if n := strings.Count(out, `"type":"iteration"`); n != 3 || !strings.HasPrefix(out, `{"type":"metadata"`) || !strings.Contains(out, `"final_answer":"billing"`) {
		t.Fatalf("exported log:\n%s", out)
	}
	if r := runBinary(t, nil, nil, "trace", "export", "--format", "otlp", imported); r.code == 0 || !strings.Contains(r.stderr, "invalid_usage") {
		t.Fatalf("unknown format: exit %d: %s", r.code, r.stderr)
	}
	if r := runBinary(t, nil, nil, "trace", "import", imported, "-o", filepath.Join(dir, "x.jsonl")); r.code == 0 || !strings.Contains(r.stderr, "malformed_rlm_log") {
		t.Fatalf("import of a non-official file: exit %d: %s", r.code, r.stderr)
	}
}

// TestTraceImportSessionChildCmd: the binary imports a session log whose
// sub-calls carry child trajectories as two runs with nested children
// and a failed cell shown as failed, and exports the children back into
// their sub-calls' metadata.
func TestTraceImportSessionChildCmd(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		file  string
		runs  int
		shown []string
	}{
		{"shape-child-trajectory.jsonl", 2, []string{"rlm_child depth 1 [d1", "rlm_child depth 2 [d2"}},
		{"shape-run-context-session.jsonl", 3, []string{"✗ plan_step cell", "exception=ZeroDivisionError"}},
	} {
		sample, err := filepath.Abs("../../trace/rlmlog/testdata/" + tc.file)
		if err != nil {
			t.Fatal(err)
		}
		imported := filepath.Join(dir, tc.file)
		if r := runBinary(t, nil, nil, "trace", "import", sample, "-o", imported); r.code != 0 {
			t.Fatalf("%s: import: exit %d: %s", tc.file, r.code, r.stderr)
		}
		r := runBinary(t, nil, nil, "trace", "view", imported)
		if r.code != 0 || strings.Count(r.stdout, "run rlm") != tc.runs {
			t.Fatalf("%s: view: exit %d:\n%s", tc.file, r.code, r.stdout)
		}
		for _, s := range tc.shown {
			if !strings.Contains(r.stdout, s) {
				t.Errorf("%s: view lacks %q:\n%s", tc.file, s, r.stdout)
			}
		}
		r = runBinary(t, nil, nil, "trace", "export", "--format", "rlm-jsonl", imported)
		if r.code != 0 || strings.Contains(r.stdout, `"run_context"`) {
			t.Fatalf("%s: export: exit %d: %s", tc.file, r.code, r.stderr)
		}
		if tc.runs == 2 && strings.Count(r.stdout, `"metadata": {"run_metadata"`)+strings.Count(r.stdout, `"metadata":{"run_metadata"`) != 2 {
			t.Errorf("%s: children not nested in metadata:\n%s", tc.file, r.stdout)
		}
	}
}
