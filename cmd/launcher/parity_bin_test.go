package launcher

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Code mode behaves like plan mode around the interpreter, through the
// built binary: the file list in the system prompt, --stream, rlm chat's
// -v/--trace/--trace-content/--json/--stream, a cell that raised as a
// failed node of trace view, and -vv placing sub-calls under their cell.

// The code-mode system prompt lists the files of --context DIR and of
// repeated --context files, as plan mode's does: the cassette answers
// only a prompt that holds the list, and the model's code reads the second
// file by its name.
func TestRunCodeListsContextFiles(t *testing.T) {
	t.Parallel()
	bin := builtBinary(t)
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	os.MkdirAll(src, 0o755)
	os.WriteFile(filepath.Join(src, "a.log"), []byte("alpha 1\nalpha 2\n"), 0o644) // 16 bytes
	os.WriteFile(filepath.Join(src, "b.log"), []byte("beta\n"), 0o644)
	for name, ctxArgs := range map[string][]string{
		"dir":   {"--context", src},
		"files": {"--context", filepath.Join(src, "b.log"), "--context", filepath.Join(src, "a.log")},
	} {
		t.Run(name, func(t *testing.T) {
			b := filepath.ToSlash(filepath.Join(src, "b.log"))
			want := `1: "` + b + `", 5 bytes, line 3`
			cas := matchCassette(t, t.TempDir(), []string{pyBlock(`FINAL(context.files()["` + b + `"].strip())`)}, []string{want})
			args := append([]string{"run", "--mode", "code", "--replay", cas}, ctxArgs...)
			out, errOut, code := binRun(t, bin, append(args, "which files?")...)
			if code != 0 || strings.TrimSpace(out) != "beta" {
				t.Fatalf("exit %d: %q\n%s", code, out, errOut)
			}
			// Plan mode lists the same files (without offsets).
			plan := matchCassette(t, t.TempDir(), []string{`{"answer":"listed"}`}, []string{`1: "` + b + `", 5 bytes, line 3`})
			out, errOut, code = binRun(t, bin, append(append([]string{"run", "--replay", plan}, ctxArgs...), "which files?")...)
			if code != 0 || strings.TrimSpace(out) != "listed" {
				t.Fatalf("plan: exit %d: %q\n%s", code, out, errOut)
			}
		})
	}
}

// --stream streams code-mode root replies as it streams plan replies: the
// requests ask for a stream (model_call attribute stream), -v prints the
// reply as it arrives under the turn's "streaming" header, and what
// follows is the turn's outcome and observation.
func TestRunCodeStream(t *testing.T) {
	t.Parallel()
	bin := builtBinary(t)
	dir := t.TempDir()
	ctxFile := filepath.Join(dir, "in.txt")
	os.WriteFile(ctxFile, []byte("one\ntwo needle\nthree\n"), 0o644)
	first := "Let me count.\n" + pyBlock(`print(context.count("needle"))`)
	cas := writeCassette(t, dir, first, pyBlock(`FINAL("streamed")`))
	tracePath := filepath.Join(dir, "t.jsonl")
	out, errOut, code := binRun(t, bin, "run", "--mode", "code", "--context", ctxFile, "--replay", cas, "--stream", "-v", "--trace", tracePath, "--trace-content", "q")
	if code != 0 || strings.TrimSpace(out) != "streamed" {
		t.Fatalf("exit %d: %s\n%s", code, out, errOut)
	}
	for _, want := range []string{
		"── turn 1 · depth 0 · gpt-4o-mini · streaming\n" + first + "\n   cell ran\n   observation:\n   │ 1\n",
		"── turn 2 · depth 0 · gpt-4o-mini · streaming\n" + pyBlock(`FINAL("streamed")`) + "\n   final answer\n",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if strings.Contains(errOut, "   reply:") {
		t.Errorf("a streamed reply was printed again:\n%s", errOut)
	}
	streamed, replies := 0, 0
	for _, ev := range traceLines(t, tracePath) {
		if ev.Kind == "model_call" && ev.Attrs["stream"] == true {
			streamed++
		}
		if ev.Kind == "turn" && ev.Attrs["reply"] != nil {
			replies++
		}
	}
	if streamed != 2 || replies != 2 {
		t.Errorf("trace: %d streamed model calls, %d turn replies", streamed, replies)
	}
}

type traceLine struct {
	Seq    uint64         `json:"seq"`
	Kind   string         `json:"kind"`
	Name   string         `json:"name"`
	Parent string         `json:"parent"`
	Status string         `json:"status"`
	Attrs  map[string]any `json:"attrs"`
}

func traceLines(t *testing.T, path string) []traceLine {
	t.Helper()
	var out []traceLine
	for _, line := range strings.Split(strings.TrimSpace(readFile(t, path)), "\n") {
		var ev traceLine
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("%v: %.300s", err, line)
		}
		out = append(out, ev)
	}
	return out
}

func jsonKeys(t *testing.T, doc string) []string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(doc), &m); err != nil {
		t.Fatalf("%v: %s", err, doc)
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// rlm chat takes rlm run's -v, --stream, --trace, --trace-content and
// --json: the replies are printed under their turns, the trace file holds
// every query with its replies, and --json prints one line per query with
// the keys of rlm run --json, whose trace holds that query's events only.
func TestChatRunFlags(t *testing.T) {
	t.Parallel()
	bin := builtBinary(t)
	dir := t.TempDir()
	ctxFile := filepath.Join(dir, "in.txt")
	os.WriteFile(ctxFile, []byte("a\nb\nc\n"), 0o644)
	cas := writeCassette(t, dir,
		pyBlock(`n = len(context.splitlines())`+"\n"+`FINAL(n)`),
		pyBlock(`x = 1 // 0`),
		pyBlock(`FINAL(n * 10)`))
	tracePath := filepath.Join(dir, "chat.jsonl")
	r := execBinary(t, bin, strings.NewReader("how many lines?\ntimes ten?\n"), nil,
		"chat", "--context", ctxFile, "--replay", cas, "-vv", "--stream", "--trace", tracePath, "--trace-content", "--json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s\n%s", r.code, r.stdout, r.stderr)
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) != 2 {
		t.Fatalf("want one JSON line per query:\n%s", r.stdout)
	}
	// The keys of rlm run --json's document.
	runCas := writeCassette(t, t.TempDir(), pyBlock(`FINAL(1)`))
	runOut, _, code := binRun(t, bin, "run", "--mode", "code", "--context", ctxFile, "--replay", runCas, "--json", "q")
	if code != 0 {
		t.Fatalf("run --json: exit %d", code)
	}
	runKeys := jsonKeys(t, runOut)
	var seqs [][]uint64
	for i, line := range lines {
		if keys := jsonKeys(t, line); !slices.Equal(keys, runKeys) {
			t.Errorf("line %d keys %v, run --json keys %v", i+1, keys, runKeys)
		}
		var doc struct {
			Status string      `json:"status"`
			Answer any         `json:"answer"`
			Trace  []traceLine `json:"trace"`
		}
		if err := json.Unmarshal([]byte(line), &doc); err != nil {
			t.Fatal(err)
		}
		if want := []float64{3, 30}[i]; doc.Status != "completed" || doc.Answer != want {
			t.Errorf("line %d: %s %v, want %v", i+1, doc.Status, doc.Answer, want)
		}
		var s []uint64
		roots := 0
		for _, ev := range doc.Trace {
			s = append(s, ev.Seq)
			if ev.Parent == "" {
				roots++
			}
		}
		if roots != 1 || len(s) == 0 {
			t.Errorf("line %d: trace of %d events, %d roots", i+1, len(s), roots)
		}
		seqs = append(seqs, s)
	}
	if len(seqs) == 2 && len(seqs[0]) > 0 && len(seqs[1]) > 0 && seqs[1][0] <= seqs[0][len(seqs[0])-1] {
		t.Errorf("the second query's trace repeats the first's events: %v then %v", seqs[0], seqs[1])
	}
	// The trace file: both queries, the replies kept, the raising cell
	// failed.
	runs, replies, failedCells := 0, 0, 0
	for _, ev := range traceLines(t, tracePath) {
		switch {
		case ev.Kind == "run":
			runs++
		case ev.Kind == "turn" && ev.Attrs["reply"] != nil:
			replies++
		case ev.Kind == "plan_step" && ev.Name == "cell" && ev.Status == "error":
			failedCells++
		}
	}
	if runs != 2 || replies != 3 || failedCells != 1 {
		t.Errorf("trace file: %d runs, %d turn replies, %d failed cells", runs, replies, failedCells)
	}
	// -vv and --stream: the replies as they arrive, under their turns.
	for _, want := range []string{"── turn 1 · depth 0 · gpt-4o-mini · streaming\n```python\nn = len", "   final answer", "   cell ran", "ZeroDivisionError"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
}

// With --json every line rlm chat prints is one JSON document: a failed
// query is its result's line (status failed, exit 1), and a failure of
// the command itself one {"status","error"} line.
func TestChatJSONFailures(t *testing.T) {
	t.Parallel()
	bin := builtBinary(t)
	dir := t.TempDir()
	ctxFile := filepath.Join(dir, "in.txt")
	os.WriteFile(ctxFile, []byte("a\n"), 0o644)
	cas := writeCassette(t, dir, "no code", "still none", "none again", pyBlock(`FINAL("ok")`))
	r := execBinary(t, bin, strings.NewReader("first\nsecond\n"), nil, "chat", "--context", ctxFile, "--replay", cas, "--json")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if r.code != 1 || len(lines) != 2 {
		t.Fatalf("exit %d: %s\n%s", r.code, r.stdout, r.stderr)
	}
	if kind := jsonErrorKind([]byte(lines[0])); kind != "missing_code" || !strings.Contains(lines[1], `"status":"completed"`) {
		t.Fatalf("lines %s", r.stdout)
	}
	for _, c := range []struct {
		want string
		code int
		args []string
	}{
		{"io_error", 1, []string{"--context", filepath.Join(dir, "missing"), "--replay", cas}},
		{"invalid_usage", 2, []string{"--context", ctxFile, "--max-cost", "abc"}},
	} {
		args := c.args
		r = execBinary(t, bin, strings.NewReader("q\n"), nil, append(append([]string{"chat"}, args...), "--json")...)
		if lines := strings.Split(strings.TrimSpace(r.stdout), "\n"); r.code != c.code || len(lines) != 1 || jsonErrorKind([]byte(lines[0])) != c.want {
			t.Errorf("%v: exit %d: %q\n%s", args, r.code, r.stdout, r.stderr)
		}
	}
}

// rlm trace view shows a code cell that raised as a failed node (✗, its
// error kind), like a failed plan step.
func TestTraceViewCodeCellFailed(t *testing.T) {
	t.Parallel()
	bin := builtBinary(t)
	dir := t.TempDir()
	ctxFile := filepath.Join(dir, "in.txt")
	os.WriteFile(ctxFile, []byte("a\n"), 0o644)
	cas := writeCassette(t, dir, pyBlock(`print("before")`+"\n"+`x = 1 // 0`), pyBlock(`FINAL("recovered")`))
	tracePath := filepath.Join(dir, "t.jsonl")
	out, errOut, code := binRun(t, bin, "run", "--mode", "code", "--context", ctxFile, "--replay", cas, "--trace", tracePath, "q")
	if code != 0 || strings.TrimSpace(out) != "recovered" {
		t.Fatalf("exit %d: %s\n%s", code, out, errOut)
	}
	view, errOut, code := binRun(t, bin, "trace", "view", tracePath)
	if code != 0 {
		t.Fatalf("trace view: exit %d: %s", code, errOut)
	}
	var cells []string
	for _, line := range strings.Split(view, "\n") {
		if strings.Contains(line, "plan_step cell") {
			cells = append(cells, strings.TrimSpace(line))
		}
	}
	if len(cells) != 2 || !strings.HasPrefix(cells[0], "✗ plan_step cell") || !strings.Contains(cells[0], "error=execute/cell_exception") ||
		!strings.Contains(cells[0], "exception=ZeroDivisionError") || !strings.HasPrefix(cells[1], "✓ plan_step cell") {
		t.Fatalf("cells %q\n%s", cells, view)
	}
}

// -vv prints a code-mode turn's reply, then each cell with the sub-calls
// it made under it (indented by depth, as plan mode's sub-calls), then
// "cell ran" and the observation; plan mode's output keeps its form.
func TestRunCodeVerboseSubCalls(t *testing.T) {
	t.Parallel()
	bin := builtBinary(t)
	dir := t.TempDir()
	ctxFile := filepath.Join(dir, "in.txt")
	os.WriteFile(ctxFile, []byte("a\n"), 0o644)
	cas := writeCassette(t, dir,
		pyBlock(`a = llm_query("say hi")`+"\n"+`print(a)`)+"\nthen\n"+pyBlock(`b = llm_query("say bye")`),
		"hi there", "bye now",
		pyBlock(`FINAL(a + " / " + b)`))
	out, errOut, code := binRun(t, bin, "run", "--mode", "code", "--context", ctxFile, "--replay", cas, "-vv", "q")
	if code != 0 || strings.TrimSpace(out) != "hi there / bye now" {
		t.Fatalf("exit %d: %s\n%s", code, out, errOut)
	}
	order := []string{
		"── turn 1 · depth 0 · gpt-4o-mini\n   reply:\n   │ ```python\n   │ a = llm_query(\"say hi\")",
		"   cell 1 of 2:\n  ── sub-call · depth 1 · gpt-4o-mini\n     reply:\n     │ hi there\n",
		"   cell 2 of 2:\n  ── sub-call · depth 1 · gpt-4o-mini\n     reply:\n     │ bye now\n",
		"   2 cells ran\n   observation:\n",
		"── turn 2 · depth 0 · gpt-4o-mini\n   reply:\n",
		"   cell 1:\n   final answer\n",
	}
	at := 0
	for _, want := range order {
		i := strings.Index(errOut[at:], want)
		if i < 0 {
			t.Fatalf("-vv output lacks %q after byte %d:\n%s", want, at, errOut)
		}
		at += i + len(want)
	}
	if strings.Contains(errOut, "plan ran") || strings.Count(errOut, "── turn 1 ") != 1 {
		t.Fatalf("-vv output:\n%s", errOut)
	}
	// Plan mode: unchanged (a plan's sub-calls are printed as they
	// return, its turn with its outcome).
	plan := writeCassette(t, t.TempDir(), `{"steps":[{"op":"model","prompt":"say hi","bind":"a"}]}`, "hi there", `{"answer":"done"}`)
	out, errOut, code = binRun(t, bin, "run", "--context", ctxFile, "--replay", plan, "-vv", "q")
	if code != 0 || strings.TrimSpace(out) != "done" {
		t.Fatalf("plan: exit %d: %s\n%s", code, out, errOut)
	}
	want := "  ── sub-call · depth 1 · gpt-4o-mini\n     reply:\n     │ hi there\n── turn 1 · depth 0 · gpt-4o-mini\n   reply:\n"
	if !strings.HasPrefix(errOut, want) || !strings.Contains(errOut, "   plan ran\n   observation:\n") || strings.Contains(errOut, "cell") {
		t.Fatalf("plan -vv output:\n%s", errOut)
	}
}
