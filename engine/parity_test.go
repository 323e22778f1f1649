package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/trace"
)

// Code mode behaves like plan mode around the interpreter: the tests
// below cover the file list of the system prompt, streamed root replies,
// the trace of a cell that raised, and the events that place sub-calls
// under the reply and cell that made them.

// filesContext registers the files named (name -> content) in a temporary
// directory as one composite context, as rlm run --context DIR does.
func filesContext(t *testing.T, store *corpus.Store, files map[string]string) corpus.Handle {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h, err := store.AddFiles(context.Background(), "dir", []string{dir}, corpus.FilesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// systemPrompt0 runs one query in mode over h and returns the root
// system prompt; the model answers at once.
func systemPrompt0(t *testing.T, store *corpus.Store, h corpus.Handle, mode string) string {
	t.Helper()
	var sys string
	prov := model.ProviderFunc(func(ctx context.Context, req model.Request) (*model.Response, error) {
		sys = req.Messages[0].Content
		if mode == ModeCode {
			return &model.Response{Text: py(`FINAL("ok")`)}, nil
		}
		return &model.Response{Text: `{"answer":"ok"}`}, nil
	})
	eng, err := New(Config{Provider: prov, Model: "test-model", Store: store, Mode: mode})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Run(context.Background(), "q", h); err != nil {
		t.Fatal(err)
	}
	return sys
}

var fileLine = regexp.MustCompile(`(?m)^(\d+): ("(?:[^"\\]|\\.)*"), (?:offset (\d+), )?(\d+) bytes, line (\d+)$`)

// With a context of several files, the code-mode system prompt lists the
// files as plan mode's does (same names, sizes and first lines, same
// order), with each file's offset; slicing the context at a listed offset
// gives the file's text, as the prompt says.
func TestCodeSystemPromptListsFiles(t *testing.T) {
	store := corpus.NewStore()
	t.Cleanup(func() { store.Close() })
	files := map[string]string{"a.log": "alpha 1\nalpha 2\n", "sub/b.log": "beta\n", "c.txt": "gamma without newline"}
	h := filesContext(t, store, files)
	planPrompt := systemPrompt0(t, store, h, ModePlan)
	codePrompt := systemPrompt0(t, store, h, ModeCode)
	if !strings.Contains(codePrompt, "The context is 3 files") || !strings.Contains(codePrompt, "context.files()[NAME]") {
		t.Fatalf("code prompt lacks the file list:\n%s", codePrompt)
	}
	planFiles := fileLine.FindAllStringSubmatch(planPrompt, -1)
	codeFiles := fileLine.FindAllStringSubmatch(codePrompt, -1)
	if len(planFiles) != 3 || len(codeFiles) != 3 {
		t.Fatalf("files listed: plan %d, code %d\n%s", len(planFiles), len(codeFiles), codePrompt)
	}
	for i := range planFiles {
		p, c := planFiles[i], codeFiles[i]
		if p[1] != c[1] || p[2] != c[2] || p[4] != c[4] || p[5] != c[5] {
			t.Errorf("file %d: plan %q, code %q", i, p[0], c[0])
		}
	}
	// What the prompt says works: each listed name is a key of
	// context.files(), whose value is that file.
	for _, c := range codeFiles {
		name, _ := strconv.Unquote(c[2])
		prov := model.ProviderFunc(func(ctx context.Context, req model.Request) (*model.Response, error) {
			return &model.Response{Text: py(fmt.Sprintf("FINAL(str(context.files()[%s]))", c[2]))}, nil
		})
		eng, err := New(Config{Provider: prov, Model: "test-model", Store: store, Mode: ModeCode})
		if err != nil {
			t.Fatal(err)
		}
		res, err := eng.Run(context.Background(), "q", h)
		if err != nil {
			t.Fatal(err)
		}
		want := ""
		for k, text := range files {
			if strings.HasSuffix(name, "/"+k) {
				want = text
			}
		}
		if want == "" || res.Answer != want {
			t.Errorf("%s: context.files()[name] = %q, want %q", name, res.Answer, want)
		}
	}
	// A single text lists no files, in either mode.
	one, err := store.AddString("one", "just text\n")
	if err != nil {
		t.Fatal(err)
	}
	if p := systemPrompt0(t, store, one, ModeCode); strings.Contains(p, "Files (") {
		t.Fatalf("a single text lists files:\n%s", p)
	}
}

// The code-mode list has plan mode's bound: the first promptFiles files,
// then how many more there are.
func TestCodeFileListBounded(t *testing.T) {
	var files []corpus.FileInfo
	for i := range promptFiles + 5 {
		files = append(files, corpus.FileInfo{Name: "src/f" + strconv.Itoa(i) + ".go", Offset: int64(i * 10), Bytes: 10, Line: int64(i + 1)})
	}
	files[1].Name = "odd\nname.go"
	var b strings.Builder
	writeCodeFiles(&b, files)
	p := b.String()
	for _, want := range []string{
		"The context is 205 files", "context.files()[NAME]",
		"\n0: \"src/f0.go\", 10 bytes, line 1",
		"\n1: \"odd\\nname.go\", 10 bytes, line 2",
		"\n199: \"src/f199.go\", 10 bytes,", "... and 5 more files",
	} {
		if !strings.Contains(p, want) {
			t.Errorf("list lacks %q:\n%.600s", want, p)
		}
	}
	if strings.Contains(p, "src/f200.go") {
		t.Error("the list has more than promptFiles files")
	}
	b.Reset()
	writeCodeFiles(&b, nil)
	if b.Len() != 0 {
		t.Fatalf("no files: %q", b.String())
	}
}

// streamingModel streams every root request's reply in pieces through
// OnDelta and answers sub-calls (one user message) whole, recording
// whether each request asked for a stream.
type streamingModel struct {
	mu      sync.Mutex
	replies []string // root replies, in order
	sub     string
	root    []bool // Stream of each root request
	subs    []bool // Stream of each sub-call
}

func (s *streamingModel) Complete(ctx context.Context, req model.Request) (*model.Response, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(req.Messages) == 1 {
		s.subs = append(s.subs, req.Stream)
		return &model.Response{Text: s.sub}, nil
	}
	text := s.replies[len(s.root)]
	s.root = append(s.root, req.Stream)
	if req.OnDelta != nil {
		for len(text) > 0 {
			n := min(len(text), 7)
			req.OnDelta(text[:n])
			text = text[n:]
		}
	}
	return &model.Response{Text: s.replies[len(s.root)-1], Meta: model.Meta{Streamed: req.Stream}}, nil
}

// Config.Stream streams code-mode root replies exactly as plan mode's:
// the root request asks for a stream, the pieces arrive as delta events
// of the turn (a credential split over pieces still redacted), and
// sub-calls are never streamed.
func TestCodeStreamsRootReplies(t *testing.T) {
	const fake = "sk-FAKE-rlm-9f8e7d6c5b4a3210"
	for _, mode := range []string{ModePlan, ModeCode} {
		t.Run(mode, func(t *testing.T) {
			s := &streamingModel{sub: "sub answer"}
			if mode == ModeCode {
				s.replies = []string{"Checking, key " + fake + ".\n" + py(`print(llm_query("hi"))`), py(`FINAL("done")`)}
			} else {
				s.replies = []string{`{"steps":[{"op":"model","prompt":"hi","bind":"x"}]} key ` + fake, `{"answer":"done"}`}
			}
			var deltas = map[int]*strings.Builder{}
			var kinds []string
			cfg := Config{Mode: mode, Stream: true, Observer: func(ev Event) {
				if ev.Kind == EventDelta {
					if deltas[ev.Turn] == nil {
						deltas[ev.Turn] = &strings.Builder{}
					}
					deltas[ev.Turn].WriteString(ev.Delta)
					if n := len(kinds); n == 0 || kinds[n-1] != "delta" {
						kinds = append(kinds, "delta")
					}
					return
				}
				kinds = append(kinds, string(ev.Kind))
			}}
			eng, h := scriptedEngine(t, haystack, cfg, s)
			res, err := eng.Run(context.Background(), "q", h)
			if err != nil || res.Answer != "done" {
				t.Fatalf("%v %+v", err, res)
			}
			if len(s.root) != 2 || !s.root[0] || !s.root[1] {
				t.Fatalf("root requests streamed: %v", s.root)
			}
			if len(s.subs) != 1 || s.subs[0] {
				t.Fatalf("sub-calls streamed: %v", s.subs)
			}
			for turn := 1; turn <= 2; turn++ {
				got := deltas[turn].String()
				want := trace.RedactText(s.replies[turn-1])
				if got != want || strings.Contains(got, "9f8e7d6c") {
					t.Errorf("turn %d deltas %q, want %q", turn, got, want)
				}
			}
			// A plan's sub-calls run before its turn event; a code
			// reply is reported before its cells run (EventReply).
			want := "delta sub_call turn delta turn"
			if mode == ModeCode {
				want = "delta reply cell sub_call turn delta reply cell turn"
			}
			if got := strings.Join(kinds, " "); got != want {
				t.Errorf("events %s, want %s", got, want)
			}
		})
	}
}

// A cell that raised is a failed step in the trace: its span ends with
// status error and a cell_exception error naming the exception's type and
// line (not its message), as a failed plan step's span does; the turn and
// the run, which went on, are ok.
func TestCodeCellExceptionFailsItsSpan(t *testing.T) {
	f := newFixture(t, haystack, codeCfg(),
		reply("Query: q", py(`print("before")`, `x = 1 // 0`)),
		reply("ZeroDivisionError", py(`FINAL("recovered")`)),
	)
	res, err := f.run(t, "q")
	if err != nil || res.Answer != "recovered" {
		t.Fatalf("%v %+v", err, res)
	}
	var cells []trace.Event
	for _, ev := range res.Trajectory {
		switch {
		case ev.Kind == trace.KindPlanStep && ev.Name == "cell":
			cells = append(cells, ev)
		case ev.Status != trace.StatusOK:
			t.Errorf("%s %s: status %s", ev.Kind, ev.Name, ev.Status)
		}
	}
	if len(cells) != 2 {
		t.Fatalf("%d cells", len(cells))
	}
	bad, good := cells[0], cells[1]
	if bad.Status != trace.StatusError || bad.Error == nil || bad.Error.Kind != trace.KindCellException {
		t.Fatalf("raising cell: status %s error %+v", bad.Status, bad.Error)
	}
	if bad.Error.Detail["exception"] != "ZeroDivisionError" || bad.Error.Detail["line"] != 2 || bad.Attrs["exception"] != "ZeroDivisionError" {
		t.Fatalf("raising cell: %+v attrs %v", bad.Error, bad.Attrs)
	}
	if strings.Contains(bad.Error.Message, "division") {
		t.Fatalf("the error carries the exception's message: %q", bad.Error.Message)
	}
	if good.Status != trace.StatusOK || good.Error != nil {
		t.Fatalf("finishing cell: %s %+v", good.Status, good.Error)
	}
}

// In code mode the observer sees each reply before its cells run and each
// cell as it starts, so a sub-call is reported after the reply and the
// cell that made it and before the turn ends; turn events say how many
// cells ran.
func TestCodeEventsPlaceSubCallsUnderTheirCell(t *testing.T) {
	var events []Event
	f := newFixture(t, haystack, Config{Mode: ModeCode, Observer: func(ev Event) { events = append(events, ev) }},
		reply("Query: q", py(`a = llm_query("first")`)+"\ntext\n"+py(`b = llm_query("second")`, `print(a, b)`)),
		reply("first", "done-1"),
		reply("second", "done-2"),
		reply("done-1 done-2", py(`FINAL(a + b)`)),
	)
	res, err := f.run(t, "q")
	if err != nil {
		t.Fatalf("%v %+v", err, res)
	}
	var got []string
	for _, ev := range events {
		s := fmt.Sprintf("%s d%d", ev.Kind, ev.Depth)
		switch ev.Kind {
		case EventReply:
			s += fmt.Sprintf(" t%d a%d cells=%d %s", ev.Turn, ev.Attempt, ev.Cells, ev.Mode)
		case EventCell:
			s += fmt.Sprintf(" t%d cell %d/%d", ev.Turn, ev.Cell, ev.Cells)
		case EventTurn:
			s += fmt.Sprintf(" t%d %s ran=%d %s", ev.Turn, ev.Outcome, ev.Cells, ev.Mode)
		}
		got = append(got, s)
	}
	want := []string{
		"reply d0 t1 a1 cells=2 code",
		"cell d0 t1 cell 1/2",
		"sub_call d1",
		"cell d0 t1 cell 2/2",
		"sub_call d1",
		"turn d0 t1 plan ran=2 code",
		"reply d0 t2 a1 cells=1 code",
		"cell d0 t2 cell 1/1",
		"turn d0 t2 answer ran=1 code",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if events[0].ReplyBytes == 0 || !strings.Contains(events[0].Reply, `llm_query("first")`) {
		t.Fatalf("reply event: %+v", events[0])
	}
}
