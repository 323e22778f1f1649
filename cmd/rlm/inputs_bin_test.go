package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/model/replay"
)

// builtRLM builds the rlm binary into a directory of t and returns its
// path (the build cache makes every build after the first one a link).
func builtRLM(t *testing.T) string {
	t.Helper()
	if p, ok := builtFor[t.Name()]; ok {
		return p
	}
	p := filepath.Join(t.TempDir(), "rlm")
	if out, err := exec.Command("go", "build", "-o", p, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	builtFor[t.Name()] = p
	return p
}

// builtFor maps a test name to its binary (tests using it do not run in
// parallel).
var builtFor = map[string]string{}

// execRLM runs the built binary with stdin and returns stdout, stderr and
// the exit code.
func execRLM(t *testing.T, stdin string, env []string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(builtRLM(t), args...)
	cmd.Stdin = strings.NewReader(stdin)
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// matchCassette writes a cassette whose i-th interaction answers only a
// request containing contains[i].
func matchCassette(t *testing.T, dir string, replies, contains []string) string {
	t.Helper()
	c := &replay.Cassette{Version: replay.Version}
	for i, r := range replies {
		in := replay.Interaction{Response: completion(r)}
		if contains[i] != "" {
			in.Match = &replay.Match{Contains: contains[i]}
		}
		c.Interactions = append(c.Interactions, in)
	}
	p := filepath.Join(dir, "match-cassette.json")
	if err := c.Save(p); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRunContextDirectoryAndRepeated: --context DIR and repeated --context
// build one context; the model is shown the file list and search hits name
// their file.
func TestRunContextDirectoryAndRepeated(t *testing.T) {
	dir := t.TempDir()
	code := filepath.Join(dir, "code")
	for p, c := range map[string]string{"a.go": "package a\n", "sub/b.go": "package b\n// needle here\n", ".git/x": "needle\n", "img.png": "\x00needle"} {
		full := filepath.Join(code, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, []byte(c), 0o644)
	}
	search := `{"steps":[{"op":"context","handle":{"ref":"input","name":"context"},"action":{"type":"search","pattern":"needle"},"bind":"hits"}]}`
	cas := matchCassette(t, dir,
		[]string{search, `{"answer":"in b.go"}`},
		[]string{`The context is 2 files`, `"file":"` + filepath.ToSlash(code) + `/sub/b.go","file_line":2`})
	out, errOut, rc := execRLM(t, "", nil, "run", "--context", code, "--replay", cas, "--json", "where is the needle?")
	if rc != 0 {
		t.Fatalf("exit %d: %s %s", rc, out, errOut)
	}
	var res struct {
		Status string `json:"status"`
		Answer any    `json:"answer"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.Status != "completed" || res.Answer != "in b.go" {
		t.Fatalf("%v %s", err, out)
	}

	// Repeated --context keeps every file, not only the last.
	a, b := filepath.Join(code, "a.go"), filepath.Join(code, "sub", "b.go")
	cas = matchCassette(t, dir, []string{`{"answer":"two"}`},
		[]string{`0: "` + filepath.ToSlash(a) + `", 10 bytes, line 1` + "\n" + `1: "` + filepath.ToSlash(b) + `", 25 bytes, line 2`})
	out, errOut, rc = execRLM(t, "", nil, "run", "--context", b, "--context", a, "--replay", cas, "how many files?")
	if rc != 0 || strings.TrimSpace(out) != "two" {
		t.Fatalf("exit %d: %s %s", rc, out, errOut)
	}

	// rlm context on a directory lists the files with handles.
	out, errOut, rc = execRLM(t, "", nil, "context", "metadata", code)
	if rc != 0 {
		t.Fatalf("exit %d: %s", rc, errOut)
	}
	var meta struct {
		Value struct {
			Kind    string `json:"kind"`
			Skipped int    `json:"skipped"`
			Files   []struct {
				Name   string          `json:"name"`
				Handle json.RawMessage `json:"handle"`
			} `json:"files"`
		} `json:"value"`
	}
	if err := json.Unmarshal([]byte(out), &meta); err != nil || meta.Value.Kind != "files" || meta.Value.Skipped != 1 ||
		len(meta.Value.Files) != 2 || len(meta.Value.Files[1].Handle) == 0 {
		t.Fatalf("%v %s", err, out)
	}

	// Stdin cannot be mixed with paths; an empty directory says so.
	_, errOut, rc = execRLM(t, "x", nil, "run", "--context", "-", "--context", a, "--replay", cas, "q")
	if rc == 0 || !strings.Contains(errOut, "config/invalid") {
		t.Fatalf("stdin with a path: exit %d: %s", rc, errOut)
	}
	empty := filepath.Join(dir, "empty")
	os.Mkdir(empty, 0o755)
	_, errOut, rc = execRLM(t, "", nil, "context", "metadata", empty)
	if rc == 0 || !strings.Contains(errOut, "no_files") {
		t.Fatalf("empty dir: exit %d: %s", rc, errOut)
	}
}

// TestContextStdin: rlm context and rlm run take - for stdin, spooled to a
// temporary file that is gone afterwards.
func TestContextStdin(t *testing.T) {
	tmp := t.TempDir()
	env := []string{"TMPDIR=" + tmp}
	text := strings.Repeat("some line of the log\n", 100_000)
	out, errOut, rc := execRLM(t, text, env, "context", "search", "-", "line", "--count")
	if rc != 0 {
		t.Fatalf("exit %d: %s", rc, errOut)
	}
	var res struct {
		Value int `json:"value"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.Value != 100_000 {
		t.Fatalf("%v %s", err, out)
	}
	dir := t.TempDir()
	cas := matchCassette(t, dir, []string{`{"answer":"ok"}`}, []string{"2100000 bytes, 100000 lines"})
	out, errOut, rc = execRLM(t, text, env, "run", "--context", "-", "--replay", cas, "q")
	if rc != 0 || strings.TrimSpace(out) != "ok" {
		t.Fatalf("exit %d: %s %s", rc, out, errOut)
	}
	if ents, _ := os.ReadDir(tmp); len(ents) != 0 {
		t.Fatalf("spool files left in TMPDIR: %d", len(ents))
	}
}
