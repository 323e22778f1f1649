package rlmlog

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/demo"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/model/openai"
	"github.com/rlm-go/rlm/model/replay"
	"github.com/rlm-go/rlm/trace"
)

// The logs under testdata/shape-*.jsonl are written from the official
// schema at each of its shapes (docs/trace.md lists the versions and the
// files each shape is read from): shape-flat-usage (no metadata line, flat
// prompt_tokens/completion_tokens, [kind, value] answers), official.jsonl
// (metadata first, usage_summary), shape-run-context-session (run_context
// lines, a persistent session whose iteration numbers run on, a cell that
// raised), shape-child-trajectory (children's trajectories nested in
// metadata, total_cost, REPLResult.final_answer, a session whose numbers
// restart, a null iteration_time) and shape-errors (run_context before
// metadata, failed sub-calls, structured prompts, usage over two models).
var shapes = []struct {
	file string
	// per run: turns, answer ("" when none); children (depth of each);
	// failed cells; failed calls
	turns        []int
	answers      []string
	childDepths  []int
	failedCells  int
	failedCalls  int
	cellExcTypes []string
}{
	{file: "shape-flat-usage.jsonl", turns: []int{2}, answers: []string{"42"}},
	{file: "official.jsonl", turns: []int{3}, answers: []string{"billing"}, failedCalls: 1},
	{file: "shape-run-context-session.jsonl", turns: []int{3, 2, 1}, answers: []string{"billing", "", "3"}, failedCells: 1, cellExcTypes: []string{"ZeroDivisionError"}},
	{file: "shape-child-trajectory.jsonl", turns: []int{3, 2}, answers: []string{"2, 3, 5, 7, 11", "14 characters"}, childDepths: []int{1, 2}},
	{file: "shape-errors.jsonl", turns: []int{2}, answers: []string{"done"}, failedCells: 1, failedCalls: 1, cellExcTypes: []string{""}},
}

// TestImportShapes: every shape imports with its completions as runs of
// their own (turns numbered from 1, each with its answer), children as
// nested runs one level deeper with their own turns, and cells whose
// stderr is not empty as failed.
func TestImportShapes(t *testing.T) {
	for _, tc := range shapes {
		t.Run(tc.file, func(t *testing.T) {
			evs := importFile(t, "testdata/"+tc.file)
			byID := map[string]trace.Event{}
			for _, ev := range evs {
				byID[ev.ID] = ev
			}
			var turns []int
			var answers, excs []string
			var childDepths []int
			failedCells, failedCalls := 0, 0
			for _, ev := range evs {
				switch ev.Kind {
				case trace.KindRun:
					if ev.Parent != "" {
						t.Fatalf("run %s has a parent", ev.ID)
					}
					n := 0
					for _, c := range evs {
						if c.Parent == ev.ID && c.Kind == trace.KindTurn {
							n++
							if c.Name != fmt.Sprintf("turn %d", n) {
								t.Errorf("run %s: turn %q, want turn %d", ev.ID, c.Name, n)
							}
						}
					}
					if ev.Attrs["turns"] != n {
						t.Errorf("run %s: turns attr %v, counted %d", ev.ID, ev.Attrs["turns"], n)
					}
					turns = append(turns, n)
					a, _ := ev.Attrs["answer"].(string)
					answers = append(answers, a)
				case trace.KindChild:
					p := byID[byID[byID[ev.Parent].Parent].Parent] // cell → turn → run or child
					if ev.Depth != p.Depth+1 || byID[ev.Parent].Name != "cell" {
						t.Errorf("child %s at depth %d under %s (depth %d)", ev.ID, ev.Depth, p.ID, p.Depth)
					}
					childDepths = append(childDepths, ev.Depth)
					own := 0
					for _, c := range evs {
						if c.Parent == ev.ID && c.Kind == trace.KindTurn {
							own++
							if c.Depth != ev.Depth {
								t.Errorf("child turn %s at depth %d, child at %d", c.ID, c.Depth, ev.Depth)
							}
						}
					}
					if own == 0 || ev.Attrs["turns"] != own || ev.Attrs["answer"] == nil {
						t.Errorf("child %s: %d turns, attrs %v", ev.ID, own, ev.Attrs)
					}
				case trace.KindPlanStep:
					if ev.Status == trace.StatusError {
						failedCells++
						if ev.Error == nil || ev.Error.Kind != trace.KindCellException {
							t.Errorf("failed cell %s: error %v", ev.ID, ev.Error)
						}
						e, _ := ev.Attrs["exception"].(string)
						excs = append(excs, e)
					}
				case trace.KindModelCall:
					if ev.Status == trace.StatusError {
						failedCalls++
					}
					if p := byID[ev.Parent]; ev.Depth != p.Depth+1 {
						t.Errorf("call %s at depth %d under a cell at %d", ev.ID, ev.Depth, p.Depth)
					}
				}
			}
			if fmt.Sprint(turns) != fmt.Sprint(tc.turns) || fmt.Sprint(answers) != fmt.Sprint(tc.answers) {
				t.Errorf("runs: turns %v answers %q, want %v %q", turns, answers, tc.turns, tc.answers)
			}
			if fmt.Sprint(childDepths) != fmt.Sprint(tc.childDepths) {
				t.Errorf("children at depths %v, want %v", childDepths, tc.childDepths)
			}
			if failedCells != tc.failedCells || failedCalls != tc.failedCalls || fmt.Sprint(excs) != fmt.Sprint(tc.cellExcTypes) {
				t.Errorf("failed cells %d %q, calls %d; want %d %q, %d", failedCells, excs, failedCalls, tc.failedCells, tc.cellExcTypes, tc.failedCalls)
			}
		})
	}
}

// TestImportChildTokens: a child's usage in the log is its whole usage;
// the import gives the child what its own calls used, so the tokens over
// the tree add up to the log's figures, each call counted once.
func TestImportChildTokens(t *testing.T) {
	evs := importFile(t, "testdata/shape-child-trajectory.jsonl")
	var total int64
	for _, ev := range evs {
		if ev.Tokens != nil {
			total += ev.Tokens.Total
		}
	}
	// The log: the child's entry 2100+40 (its grandchild's 400+9 inside).
	if total != 2140 {
		t.Fatalf("tokens over the tree %d, want 2140", total)
	}
}

// runContextAttrs are a run-context entry's attributes: the official visualizer
// reads every line but metadata as an iteration, so exports write no
// run_context lines and these do not come back.
var runContextAttrs = []string{"prompt", "root_prompt", "session_mode"}

// TestRoundTripShapes: import → export → import gives the same events on
// everything the format holds (times to the microsecond), for every
// shape; only the run-context attributes (runContextAttrs) are not
// written back.
func TestRoundTripShapes(t *testing.T) {
	for _, tc := range shapes {
		t.Run(tc.file, func(t *testing.T) {
			first := importFile(t, "testdata/"+tc.file)
			var buf bytes.Buffer
			if err := Export(&buf, first); err != nil {
				t.Fatal(err)
			}
			checkOfficialParser(t, buf.Bytes())
			second, err := Import(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatalf("%v\n%s", err, buf.String())
			}
			// The import went through a trace file and back, as a user's would.
			var file bytes.Buffer
			if err := trace.WriteJSONL(&file, first); err != nil {
				t.Fatal(err)
			}
			first, err = trace.Read(&file)
			if err != nil {
				t.Fatal(err)
			}
			if len(second) != len(first) {
				t.Fatalf("%d events, want %d\n%s", len(second), len(first), buf.String())
			}
			for i := range first {
				rc := false
				for _, k := range runContextAttrs {
					_, ok := first[i].Attrs[k]
					rc = rc || (ok && first[i].Kind == trace.KindRun)
				}
				a, b := normal(first[i], rc), normal(second[i], rc)
				if a != b {
					t.Errorf("event %d differs:\n got %s\nwant %s", i, b, a)
				}
			}
		})
	}
}

// normal renders an event for comparison: times rounded to the
// microsecond, run-context attributes (and the start of a later run that
// had one) dropped, attributes through JSON.
func normal(ev trace.Event, fromRunContext bool) string {
	ev.Start, ev.End = ev.Start.Round(1000), ev.End.Round(1000)
	ev.DurationMS = math.Round(ev.DurationMS*1000) / 1000
	if ev.Kind == trace.KindRun {
		attrs := map[string]any{}
		for k, v := range ev.Attrs {
			attrs[k] = v
		}
		for _, k := range runContextAttrs {
			delete(attrs, k)
		}
		ev.Attrs = attrs
		if fromRunContext && ev.Seq > 1 {
			// a later completion starts at its run_context line, which
			// is not written back: it then starts with its first turn
			ev.Start, ev.DurationMS = time.Time{}, 0
		}
	}
	if ev.Tokens != nil && ev.Tokens.Total == 0 && ev.Attrs["flat_usage"] == nil {
		ev.Tokens = nil
	}
	b, _ := json.Marshal(ev)
	var v any
	_ = json.Unmarshal(b, &v)
	b, _ = json.Marshal(v)
	return string(b)
}

// checkOfficialParser checks data as the official visualizer reads it
// (visualizer/src/lib/parse-logs.ts and components/CodeBlock.tsx): every
// line is JSON; a line whose type is not metadata is an iteration, whose
// code_blocks must be an array of blocks with a result (stdout, stderr,
// execution_time, rlm_calls an array of calls whose response is a
// string), a prompt it can iterate (an array or a string), iteration_time
// a number or null, final_answer a string, a pair or null.
func checkOfficialParser(t *testing.T, data []byte) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if !IsLog(data) {
		t.Errorf("the log is not recognised: %.80s", lines[0])
	}
	var check func(where string, it map[string]any)
	check = func(where string, it map[string]any) {
		blocks, ok := it["code_blocks"].([]any)
		if !ok {
			t.Errorf("%s: code_blocks %T", where, it["code_blocks"])
			return
		}
		switch it["prompt"].(type) {
		case []any, string:
		default:
			t.Errorf("%s: prompt %T", where, it["prompt"])
		}
		if _, ok := it["response"].(string); !ok {
			t.Errorf("%s: response %T", where, it["response"])
		}
		switch it["iteration_time"].(type) {
		case nil, float64:
		default:
			t.Errorf("%s: iteration_time %T", where, it["iteration_time"])
		}
		switch it["final_answer"].(type) {
		case nil, string:
		default:
			t.Errorf("%s: final_answer %T", where, it["final_answer"])
		}
		for j, b := range blocks {
			res, _ := b.(map[string]any)["result"].(map[string]any)
			if res == nil {
				t.Errorf("%s block %d: no result", where, j)
				continue
			}
			_, so := res["stdout"].(string)
			_, se := res["stderr"].(string)
			calls, rc := res["rlm_calls"].([]any)
			if !so || !se || !rc {
				t.Errorf("%s block %d: result %v", where, j, res)
			}
			for k, c := range calls {
				cm := c.(map[string]any)
				if _, ok := cm["response"].(string); !ok && cm["prompt_tokens"] == nil {
					// the visualizer slices the response; a structured one
					// was structured in the log it came from
					if _, imported := cm["response"].(map[string]any); !imported {
						t.Errorf("%s block %d call %d: response %T", where, j, k, cm["response"])
					}
				}
				if md, ok := cm["metadata"].(map[string]any); ok {
					its, _ := md["iterations"].([]any)
					for n, ci := range its {
						check(fmt.Sprintf("%s child %d iteration %d", where, k, n+1), ci.(map[string]any))
					}
				}
			}
		}
	}
	for i, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if m["type"] == "metadata" {
			continue
		}
		if m["type"] != "iteration" {
			t.Errorf("line %d: type %v (the visualizer reads it as an iteration)", i+1, m["type"])
		}
		check(fmt.Sprintf("line %d", i+1), m)
	}
}

// runDemo runs the demo in a mode over its cassette, recording content or
// not.
func runDemo(t *testing.T, mode string, content bool) []trace.Event {
	t.Helper()
	ctx := context.Background()
	cas, err := demo.CassetteFor(mode)
	if err != nil {
		t.Fatal(err)
	}
	srv := replay.NewServer(cas)
	defer srv.Close()
	prov, err := openai.New(openai.Config{Name: "replay", BaseURL: srv.BaseURL(), Model: demo.RootModel})
	if err != nil {
		t.Fatal(err)
	}
	sp := demo.Spec(mode)
	sp.TraceContent = content
	sess, err := rlm.Open(ctx, sp, rlm.WithProvider(prov))
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	store := corpus.NewStore()
	defer store.Close()
	h, err := store.AddString("server.log", demo.Corpus(demo.CorpusBytes))
	if err != nil {
		t.Fatal(err)
	}
	res, err := sess.RunOn(ctx, rlm.On{Store: store, Context: h, Query: demo.Query})
	if err != nil {
		t.Fatal(err)
	}
	return res.Result.Trajectory
}

// TestExportEngineRun: a code-mode run recorded with content exports with
// its final answer on the last iteration (and its child's), one code
// block per cell (no block for the reply note), sub-call responses from
// the notes that recorded them, and the child RLM nested in its
// sub-call's metadata; without content no answer is written.
func TestExportEngineRun(t *testing.T) {
	for _, content := range []bool{true, false} {
		t.Run(fmt.Sprint("content=", content), func(t *testing.T) {
			evs := runDemo(t, engine.ModeCode, content)
			var buf bytes.Buffer
			if err := Export(&buf, evs); err != nil {
				t.Fatal(err)
			}
			checkOfficialParser(t, buf.Bytes())
			out := buf.String()
			if strings.Contains(out, "# rlm note") {
				t.Errorf("a note became a code block:\n%s", out)
			}
			ls := lines(t, buf.Bytes())
			cells := 0
			for _, ev := range evs {
				if ev.Name == "cell" && ev.Depth == 0 {
					cells++
				}
			}
			blocks, children, responses, calls := 0, 0, 0, 0
			var final any
			for _, it := range ls[1:] {
				blocks += len(it["code_blocks"].([]any))
				final = it["final_answer"]
				for _, b := range it["code_blocks"].([]any) {
					for _, c := range b.(map[string]any)["result"].(map[string]any)["rlm_calls"].([]any) {
						cm := c.(map[string]any)
						calls++
						if cm["response"] != "" {
							responses++
						}
						if md, ok := cm["metadata"].(map[string]any); ok {
							children++
							its := md["iterations"].([]any)
							last := its[len(its)-1].(map[string]any)
							if (last["final_answer"] != nil) != content || len(its) != 2 {
								t.Errorf("child: %d iterations, final answer %v", len(its), last["final_answer"])
							}
							// The child's question is its call's prompt
							// (recorded only with content).
							if q, _ := cm["prompt"].(string); (q != "") != content {
								t.Errorf("child's prompt %q with content=%v", q, content)
							}
						}
					}
				}
			}
			if blocks != cells || children != 1 || calls != 5 {
				t.Errorf("%d code blocks for %d cells, %d children, %d calls", blocks, cells, children, calls)
			}
			if content && (final == nil || responses != calls) {
				t.Errorf("final answer %v, %d of %d responses", final, responses, calls)
			}
			if !content && (final != nil || responses != 0) {
				t.Errorf("without content: final answer %v, %d responses", final, responses)
			}
		})
	}
}

// TestExportSession: a trace of several runs (rlm chat, a Session)
// exports as one log whose completions import back as as many runs.
func TestExportSession(t *testing.T) {
	one := runDemo(t, engine.ModePlan, true)
	var evs []trace.Event
	for k := range 2 {
		for _, ev := range one {
			ev.Seq += uint64(k * len(one))
			ev.ID = fmt.Sprintf("r%d-%s", k, ev.ID)
			if ev.Parent != "" {
				ev.Parent = fmt.Sprintf("r%d-%s", k, ev.Parent)
			}
			evs = append(evs, ev)
		}
	}
	var buf bytes.Buffer
	if err := Export(&buf, evs); err != nil {
		t.Fatal(err)
	}
	back, err := Import(&buf)
	if err != nil {
		t.Fatal(err)
	}
	var answers []any
	for _, ev := range back {
		if ev.Kind == trace.KindRun {
			answers = append(answers, ev.Attrs["answer"])
		}
	}
	if len(answers) != 2 || answers[0] == nil || answers[0] != answers[1] {
		t.Fatalf("runs' answers %v", answers)
	}
}

// TestIsLogShapes: every shape is recognised, rlm traces and other JSONL
// files are not.
func TestIsLogShapes(t *testing.T) {
	for _, tc := range shapes {
		b, err := os.ReadFile("testdata/" + tc.file)
		if err != nil {
			t.Fatal(err)
		}
		if !IsLog(b) {
			t.Errorf("%s not recognised", tc.file)
		}
	}
	for _, s := range []string{
		`{"seq":1,"id":"e1","kind":"run"}`,
		`{"schema":"rlm.trace.v1","events":[]}`,
		`{"kind":"metadata","type":"metadata"}`,
		"{\"a\":1}\n{\"type\":\"metadata\"}",
	} {
		if IsLog([]byte(s)) {
			t.Errorf("%s recognised", s)
		}
	}
}
