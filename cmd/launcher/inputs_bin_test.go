package launcher

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rlm-go/rlm/model/replay"
)

// execRLM runs the built binary with stdin and extra environment.
func execRLM(t *testing.T, stdin string, env []string, args ...string) (string, string, int) {
	t.Helper()
	r := runBinary(t, strings.NewReader(stdin), binaryEnv(env...), args...)
	return r.stdout, r.stderr, r.code
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
	t.Parallel()
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
	t.Parallel()
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

// chatServer is a local OpenAI-compatible server answering with replies in
// order and keeping each request body.
type chatServer struct {
	*httptest.Server
	mu       sync.Mutex
	requests []map[string]any
}

func newChatServer(t *testing.T, replies ...json.RawMessage) *chatServer {
	t.Helper()
	cs := &chatServer{}
	cs.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		cs.mu.Lock()
		n := len(cs.requests)
		cs.requests = append(cs.requests, body)
		cs.mu.Unlock()
		if n >= len(replies) {
			http.Error(w, `{"error":{"message":"no more replies"}}`, http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(replies[n])
	}))
	t.Cleanup(cs.Close)
	return cs
}

// toolNames returns the function names request i offered.
func (cs *chatServer) toolNames(i int) []string {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	var names []string
	if i >= len(cs.requests) {
		return nil
	}
	tools, _ := cs.requests[i]["tools"].([]any)
	for _, tl := range tools {
		fn, _ := tl.(map[string]any)["function"].(map[string]any)
		name, _ := fn["name"].(string)
		names = append(names, name)
	}
	return names
}

// TestDirectGrantedToolIsOffered: a tool granted by exact name is offered
// to the model in compiled mode even when the query gives no evidence for
// it; a wildcard grant still goes through compiled selection.
func TestDirectGrantedToolIsOffered(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, "notes.txt"), []byte("buy milk\n"), 0o644)
	cs := newChatServer(t,
		directReply("", [3]string{"r1", "fs_read", `{"path":"notes.txt"}`}),
		directReply("The notes say: buy milk."))
	env := []string{"RLM_TEST_KEY=sk-test"}
	out, errOut, rc := execRLM(t, "", env, "direct", "--base-url", cs.URL+"/v1", "--api-key-env", "RLM_TEST_KEY",
		"--allow", "tool:fs_read", "--workspace", ws, "--json", "summarize notes.txt")
	if rc != 0 {
		t.Fatalf("exit %d: %s %s", rc, out, errOut)
	}
	if got := cs.toolNames(0); !slices.Contains(got, "fs_read") {
		t.Fatalf("first request offers %v, want fs_read", got)
	}
	d := parseDirect(t, out)
	if d.Status != "completed" || d.ToolCalls != 1 || !strings.Contains(d.Answer, "buy milk") {
		t.Fatalf("%+v", d)
	}

	// A wildcard grant is not pinned: nothing in the query selects fs_write.
	cs = newChatServer(t, directReply("nothing to do"))
	out, errOut, rc = execRLM(t, "", env, "direct", "--base-url", cs.URL+"/v1", "--api-key-env", "RLM_TEST_KEY",
		"--allow", "tool:*", "--workspace", ws, "--json", "say hello")
	if rc != 0 {
		t.Fatalf("exit %d: %s %s", rc, out, errOut)
	}
	if got := cs.toolNames(0); slices.Contains(got, "fs_write") {
		t.Fatalf("wildcard grant offers %v", got)
	}
}

// TestBenchRunAllTrialsFailed: bench run prints its report and exits 1 when
// every attempted trial failed.
func TestBenchRunAllTrialsFailed(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	c := &replay.Cassette{Version: replay.Version}
	for range 4 {
		c.Interactions = append(c.Interactions, replay.Interaction{Status: 400})
	}
	cas := filepath.Join(dir, "fail.json")
	if err := c.Save(cas); err != nil {
		t.Fatal(err)
	}
	out, errOut, rc := execRLM(t, "", nil, "bench", "run", "--replay", cas, "--task", "niah", "--size", "3000", "--runs", "2", "--json")
	if rc != 1 || !strings.Contains(errOut, "all_trials_failed") {
		t.Fatalf("exit %d: %s", rc, errOut)
	}
	var rep struct {
		Trials []struct {
			Status string `json:"status"`
		} `json:"trials"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Trials) != 4 {
		t.Fatalf("report: %v %s", err, out)
	}
	// One success among failures is not a failed benchmark.
	cassette := filepath.Join("..", "..", "bench", "testdata", "bench_niah.json")
	_, errOut, rc = execRLM(t, "", nil, "bench", "run", "--replay", cassette, "--task", "niah", "--size", "3000", "--runs", "2", "--seed", "2")
	if rc != 0 {
		t.Fatalf("exit %d: %s", rc, errOut)
	}
}

// TestTraceViewDetails: rlm trace view shows search patterns, bind names
// and branches in order, and names a turn once.
func TestTraceViewDetails(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	in := filepath.Join(dir, "in.txt")
	os.WriteFile(in, []byte("one\ntwo needle\nthree hay\n"), 0o644)
	search := func(p, bind string) string {
		return `{"op":"context","handle":{"ref":"input","name":"context"},"action":{"type":"search","pattern":"` + p + `"},"bind":"` + bind + `"}`
	}
	cas := writeCassette(t, dir,
		`{"steps":[`+search("needle", "hits")+`,{"op":"parallel","plans":[{"steps":[`+search("hay", "a")+`]},{"steps":[`+search("one", "b")+`]}],"bind":"both"}]}`,
		`{"answer":"line 2"}`)
	tr := filepath.Join(dir, "run.jsonl")
	out, errOut, rc := execRLM(t, "", nil, "run", "--context", in, "--replay", cas, "--trace", tr, "where is the needle?")
	if rc != 0 {
		t.Fatalf("exit %d: %s %s", rc, out, errOut)
	}
	view, errOut, rc := execRLM(t, "", nil, "trace", "view", tr)
	if rc != 0 {
		t.Fatalf("exit %d: %s", rc, errOut)
	}
	for _, want := range []string{`pattern="needle"`, "bind=hits", "bind=both", `pattern="hay"`, "✓ turn 1 ", "✓ turn 2 "} {
		if !strings.Contains(view, want) {
			t.Errorf("trace view lacks %q:\n%s", want, view)
		}
	}
	if strings.Contains(view, "turn turn") {
		t.Errorf("trace view repeats the kind:\n%s", view)
	}
	if b0, b1 := strings.Index(view, "branch 0"), strings.Index(view, "branch 1"); b0 < 0 || b1 < b0 {
		t.Errorf("branches out of order:\n%s", view)
	}
}
