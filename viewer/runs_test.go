package viewer

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/trace"
	"github.com/rlm-go/rlm/trace/rlmlog"
)

// evb builds the events of a hand-written trace.
type evb struct {
	t0  time.Time
	evs []trace.Event
}

func (b *evb) add(parent string, depth int, kind trace.Kind, name string, status trace.Status, attrs map[string]any) *trace.Event {
	seq := len(b.evs) + 1
	start := b.t0.Add(time.Duration(seq) * time.Millisecond)
	ev := trace.Event{Seq: uint64(seq), ID: "e" + strconv.Itoa(seq), Parent: parent, Depth: depth, Kind: kind, Name: name, Status: status,
		Start: start, Attrs: attrs}
	if status != trace.StatusStarted {
		ev.End, ev.DurationMS = start.Add(time.Millisecond), 1
	}
	b.evs = append(b.evs, ev)
	return &b.evs[len(b.evs)-1]
}

func newEvb() *evb { return &evb{t0: time.Date(2026, 12, 6, 9, 0, 0, 0, time.UTC)} }

// writeLines writes events as JSONL lines in the given order (a live file
// lists them as they end, start lines first).
func writeLines(t *testing.T, dir, name string, evs []trace.Event) string {
	t.Helper()
	var b strings.Builder
	if err := trace.WriteJSONL(&b, evs); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// started returns ev as its start line.
func started(ev trace.Event) trace.Event {
	ev.Status, ev.End, ev.DurationMS, ev.Attrs, ev.Tokens, ev.Error = trace.StatusStarted, time.Time{}, 0, nil, nil, nil
	return ev
}

func iterationOf(t *testing.T, url string, pos int) Iteration {
	t.Helper()
	var it Iteration
	if code := get(t, fmt.Sprintf("%s/api/iteration?file=0&pos=%d", url, pos), &it); code != http.StatusOK {
		t.Fatalf("iteration at %d: status %d", pos, code)
	}
	return it
}

// TestAPIRuns: what the run view is given, for the shapes a trace takes:
// an engine's code-mode run with content (a failed cell, a sub-call whose
// reply sits on its note, a child RLM), a trace from before cells that
// raised ended as errors, a plan-mode run, a live file with spans in
// flight (start lines), a live file without them (its run not written
// yet), and an imported official log (sub-calls with prompts, children).
func TestAPIRuns(t *testing.T) {
	cases := []struct {
		name  string
		path  func(t *testing.T, dir string) string
		check func(t *testing.T, url string, m Model, runs Runs)
	}{{
		name: "code run",
		path: func(t *testing.T, dir string) string { p, _ := codeRunTrace(t, dir); return p },
		check: func(t *testing.T, url string, m Model, runs Runs) {
			if len(runs.Runs) != 1 {
				t.Fatalf("%d runs", len(runs.Runs))
			}
			r := runs.Runs[0]
			if r.Question != "Which line mentions disk?" || r.Answer != "The disk line: disk full on /var" || r.Mode != "code" || r.Turns != 3 ||
				r.SubCalls != 2 || r.Children != 1 || r.MaxDepth != 1 || r.Failed != 1 || r.Tokens != 600 || r.Status != trace.StatusOK || len(r.Iterations) != 3 {
				t.Fatalf("run %+v", r)
			}
			if it := r.Iterations[0]; it.FailedCells != 1 || it.Cells != 1 || it.N != 1 || it.Final {
				t.Fatalf("iteration 1 %+v", it)
			}
			if it := r.Iterations[1]; it.SubCalls != 1 || it.Children != 1 || it.FailedCells != 0 {
				t.Fatalf("iteration 2 %+v", it)
			}
			if !r.Iterations[2].Final {
				t.Fatalf("iteration 3 %+v", r.Iterations[2])
			}
			it := iterationOf(t, url, r.Iterations[0].Pos)
			c := it.Cells[0]
			if !it.Recorded || !strings.HasPrefix(it.Reply, "Let me look") || it.Call == nil || it.Call.Model != "root-model" || it.Call.Tokens != 120 ||
				!c.Failed || c.Exception != "ZeroDivisionError" || c.Err != "execute/cell_exception" || c.Stdout != "lines: 4\n" ||
				!strings.Contains(c.Stderr, "ZeroDivisionError") || !strings.Contains(c.Code, "1 // 0") || c.N != 1 {
				t.Fatalf("iteration 1 %+v, cell %+v", it, c)
			}
			it = iterationOf(t, url, r.Iterations[1].Pos)
			c = it.Cells[0]
			if c.Failed || len(c.Calls) != 1 || c.Calls[0].Model != "sub-model" || c.Calls[0].Reply != "A short summary of the log" || c.Calls[0].Depth != 1 ||
				len(c.Ops) != 1 || c.Ops[0].Name != "slice" || len(c.Children) != 1 {
				t.Fatalf("iteration 2 cell %+v", c)
			}
			ch := c.Children[0]
			if ch.Kind != trace.KindChild || ch.Question != "Find the line about the disk." || ch.Answer != "disk full on /var" || ch.Turns != 1 || ch.Depth != 1 ||
				ch.SubCalls != 0 || len(ch.Iterations) != 1 || !ch.Iterations[0].Final {
				t.Fatalf("child %+v", ch)
			}
			if it := iterationOf(t, url, ch.Iterations[0].Pos); it.Depth != 1 || len(it.Cells) != 1 || !it.Cells[0].Final || it.Call.Model != "sub-model" {
				t.Fatalf("child's iteration %+v", it)
			}
		},
	}, {
		name: "cell that raised, older trace",
		path: func(t *testing.T, dir string) string {
			b := newEvb()
			b.add("", 0, trace.KindRun, "rlm", trace.StatusOK, nil)
			b.add("e1", 0, trace.KindTurn, "turn 1", trace.StatusOK, nil)
			b.add("e2", 0, trace.KindPlanStep, "cell", trace.StatusOK, map[string]any{"cell": 1, "exception": "KeyError"})
			b.add("e1", 0, trace.KindTurn, "turn 2", trace.StatusOK, nil)
			b.add("e4", 0, trace.KindPlanStep, "cell", trace.StatusOK, map[string]any{"cell": 1, "final": true})
			return writeLines(t, dir, "old.jsonl", b.evs)
		},
		check: func(t *testing.T, url string, m Model, runs Runs) {
			if m.Nodes[2].Status != trace.StatusError || m.Nodes[2].Err != "execute/cell_exception" || m.Summary.Failed != 1 || m.Nodes[0].SubErr != 1 {
				t.Fatalf("tree: cell %+v, summary %+v", m.Nodes[2], m.Summary)
			}
			r := runs.Runs[0]
			if r.Failed != 1 || r.Iterations[0].FailedCells != 1 || r.Iterations[1].FailedCells != 0 {
				t.Fatalf("run %+v", r)
			}
			if c := iterationOf(t, url, 1).Cells[0]; !c.Failed || c.Exception != "KeyError" {
				t.Fatalf("cell %+v", c)
			}
		},
	}, {
		name: "plan run",
		path: func(t *testing.T, dir string) string {
			b := newEvb()
			b.add("", 0, trace.KindRun, "rlm", trace.StatusOK, map[string]any{"query": "count errors", "answer": "3"})
			b.add("e1", 0, trace.KindTurn, "turn 1", trace.StatusOK, map[string]any{"reply": `{"steps":[{"op":"search","bind":"hits"}]}`})
			b.add("e2", 0, trace.KindModelCall, "gpt", trace.StatusOK, nil).Tokens = &trace.Tokens{Prompt: 10, Completion: 2, Total: 12}
			b.add("e2", 0, trace.KindPlanStep, "context", trace.StatusOK, map[string]any{"bind": "hits"})
			b.add("e4", 0, trace.KindContextOp, "search", trace.StatusOK, nil)
			b.add("e2", 0, trace.KindPlanStep, "map", trace.StatusError, map[string]any{"bind": "parts"}).Error = fault.New(fault.PhaseExecute, "branch_failed", "a branch failed")
			b.add("e6", 0, trace.KindPlanStep, "branch 0", trace.StatusOK, map[string]any{"branch": 0})
			b.add("e7", 1, trace.KindModelCall, "mini", trace.StatusOK, nil)
			b.add("e6", 0, trace.KindPlanStep, "branch 1", trace.StatusError, map[string]any{"branch": 1})
			b.add("e9", 1, trace.KindModelCall, "mini", trace.StatusError, nil).Error = fault.New(fault.PhaseProvider, "rate_limited", "429")
			return writeLines(t, dir, "plan.jsonl", b.evs)
		},
		check: func(t *testing.T, url string, m Model, runs Runs) {
			r := runs.Runs[0]
			if r.Mode != "plan" || r.Question != "count errors" || r.Answer != "3" || r.SubCalls != 2 || r.Failed != 3 {
				t.Fatalf("run %+v", r)
			}
			if it := r.Iterations[0]; it.Cells != 2 || it.FailedCells != 1 || it.SubCalls != 2 || it.FailedCalls != 1 {
				t.Fatalf("strip %+v", it)
			}
			it := iterationOf(t, url, 1)
			if it.Mode != "plan" || !strings.Contains(it.Reply, `"bind":"hits"`) || len(it.Cells) != 2 {
				t.Fatalf("iteration %+v", it)
			}
			s0, s1 := it.Cells[0], it.Cells[1]
			if s0.Name != "context" || s0.Bind != "hits" || s0.Failed || len(s0.Ops) != 1 || s0.Ops[0].Name != "search" {
				t.Fatalf("step 1 %+v", s0)
			}
			if s1.Name != "map" || !s1.Failed || s1.Err != "execute/branch_failed" || s1.Steps != 2 || s1.FailedSteps != 1 || len(s1.Calls) != 2 ||
				s1.Calls[1].Status != trace.StatusError || s1.Calls[1].Err != "provider/rate_limited" {
				t.Fatalf("step 2 %+v", s1)
			}
		},
	}, {
		name: "engine plan run",
		path: func(t *testing.T, dir string) string { p, _ := planRunTrace(t, dir); return p },
		check: func(t *testing.T, url string, m Model, runs Runs) {
			r := runs.Runs[0]
			if r.Mode != "plan" || r.Turns != 2 || r.Answer != "disk full on /var" || r.Question != "Which line mentions disk?" {
				t.Fatalf("run %+v", r)
			}
			it := iterationOf(t, url, r.Iterations[0].Pos)
			if !strings.Contains(it.Reply, `"pattern":"disk"`) || !strings.Contains(it.Observation, "disk full on /var") || len(it.Cells) != 1 ||
				it.Cells[0].Bind != "hits" || len(it.Cells[0].Ops) != 1 || it.Cells[0].Ops[0].Name != "search" {
				t.Fatalf("plan iteration %+v", it)
			}
		},
	}, {
		name: "live, spans in flight",
		path: func(t *testing.T, dir string) string {
			b := newEvb()
			run := b.add("", 0, trace.KindRun, "rlm", trace.StatusOK, nil)
			t1 := b.add("e1", 0, trace.KindTurn, "turn 1", trace.StatusOK, nil)
			mc1 := b.add("e2", 0, trace.KindModelCall, "gpt", trace.StatusOK, nil)
			t2 := b.add("e1", 0, trace.KindTurn, "turn 2", trace.StatusOK, nil)
			mc2 := b.add("e4", 0, trace.KindModelCall, "gpt", trace.StatusOK, nil)
			cell := b.add("e4", 0, trace.KindPlanStep, "cell", trace.StatusOK, map[string]any{"cell": 1})
			sub := b.add("e6", 1, trace.KindModelCall, "mini", trace.StatusOK, nil)
			// As a live file has them mid-run: turn 1 ended, turn 2's
			// model call ended, its cell and the cell's sub-call in flight.
			lines := []trace.Event{started(*run), started(*t1), started(*mc1), *mc1, *t1, started(*t2), started(*mc2), *mc2, started(*cell), started(*sub)}
			return writeLines(t, dir, "live.jsonl", lines)
		},
		check: func(t *testing.T, url string, m Model, runs Runs) {
			if len(m.Nodes) != 7 || m.Summary.Turns != 2 || m.Summary.InFlight != 4 || m.Summary.Status != trace.StatusStarted {
				t.Fatalf("%d nodes, summary %+v", len(m.Nodes), m.Summary)
			}
			r := runs.Runs[0]
			if r.Status != trace.StatusStarted || r.Turns != 2 || r.InFlight != 3 || r.Iterations[0].InFlight != 0 || r.Iterations[1].InFlight != 3 {
				t.Fatalf("run %+v", r)
			}
			it := iterationOf(t, url, r.Iterations[1].Pos)
			if it.Status != trace.StatusStarted || it.Cells[0].Status != trace.StatusStarted || len(it.Cells[0].Calls) != 1 || it.Cells[0].Calls[0].Status != trace.StatusStarted {
				t.Fatalf("iteration in flight %+v", it)
			}
		},
	}, {
		name: "live, run not written yet",
		path: func(t *testing.T, dir string) string {
			b := newEvb()
			b.add("", 0, trace.KindRun, "rlm", trace.StatusOK, nil)
			b.add("e1", 0, trace.KindTurn, "turn 1", trace.StatusOK, nil)
			b.add("e2", 0, trace.KindModelCall, "gpt", trace.StatusOK, nil)
			b.add("e1", 0, trace.KindTurn, "turn 2", trace.StatusOK, nil)
			b.add("e4", 0, trace.KindModelCall, "gpt", trace.StatusOK, nil)
			// A live file from before start lines: the run is missing.
			return writeLines(t, dir, "live-old.jsonl", []trace.Event{b.evs[2], b.evs[1], b.evs[4], b.evs[3]})
		},
		check: func(t *testing.T, url string, m Model, runs Runs) {
			if m.Summary.Turns != 2 {
				t.Fatalf("summary %+v: want 2 turns", m.Summary)
			}
			if len(runs.Runs) != 1 || runs.Runs[0].Pos != -1 || runs.Runs[0].Turns != 2 || runs.Runs[0].Status != trace.StatusStarted {
				t.Fatalf("runs %+v", runs.Runs)
			}
			if it := iterationOf(t, url, runs.Runs[0].Iterations[1].Pos); it.N != 2 || it.Call == nil {
				t.Fatalf("iteration %+v", it)
			}
		},
	}, {
		name: "official log",
		path: func(t *testing.T, dir string) string {
			f, err := os.Open("../trace/rlmlog/testdata/shape-errors.jsonl")
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			evs, err := rlmlog.Import(f)
			if err != nil {
				t.Fatal(err)
			}
			return writeLines(t, dir, "imported.jsonl", evs)
		},
		check: func(t *testing.T, url string, m Model, runs Runs) {
			r := runs.Runs[0]
			if r.Answer != "done" || r.Iterations[0].FailedCells != 1 || r.Iterations[0].FailedCalls != 1 {
				t.Fatalf("run %+v", r)
			}
			c := iterationOf(t, url, r.Iterations[0].Pos).Cells[0]
			if !c.Failed || len(c.Calls) != 3 || c.Calls[0].Reply != "A" || !strings.Contains(c.Calls[0].Prompt, "a") || c.Calls[1].Status != trace.StatusError ||
				c.Calls[1].Prompt != "b" || !strings.Contains(c.Calls[2].Reply, "C") {
				t.Fatalf("cell %+v", c)
			}
		},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := serve(t, Options{}, tc.path(t, t.TempDir()))
			var m Model
			if code := get(t, srv.URL+"/api/tree?file=0", &m); code != http.StatusOK {
				t.Fatalf("tree: status %d", code)
			}
			var runs Runs
			if code := get(t, srv.URL+"/api/runs?file=0", &runs); code != http.StatusOK || runs.Version != m.Version {
				t.Fatalf("runs: status %d, version %d (tree %d)", code, runs.Version, m.Version)
			}
			tc.check(t, srv.URL, m, runs)
		})
	}
}

// TestAPIRunViewRefusals: /api/run and /api/iteration answer only for a
// node of their kind at the current version.
func TestAPIRunViewRefusals(t *testing.T) {
	path, _ := codeRunTrace(t, t.TempDir())
	srv := serve(t, Options{}, path)
	var runs Runs
	get(t, srv.URL+"/api/runs?file=0", &runs)
	v := strconv.Itoa(runs.Version)
	for _, tc := range []struct {
		url  string
		code int
	}{
		{"/api/iteration?file=0&pos=1&version=" + v, http.StatusOK},
		{"/api/iteration?file=0&pos=0", http.StatusNotFound},            // a run, not a turn
		{"/api/iteration?file=0&pos=1&version=99", http.StatusNotFound}, // stale
		{"/api/iteration?file=0&pos=999", http.StatusNotFound},
		{"/api/iteration?file=0&pos=x", http.StatusBadRequest},
		{"/api/iteration?file=7&pos=1", http.StatusNotFound},
		{"/api/run?file=0&pos=0&version=" + v, http.StatusOK},
		{"/api/run?file=0&pos=1", http.StatusNotFound}, // a turn, not a run
	} {
		if code := get(t, srv.URL+tc.url, nil); code != tc.code {
			t.Errorf("%s: status %d, want %d", tc.url, code, tc.code)
		}
	}
	var rv RunView
	if get(t, srv.URL+"/api/run?file=0&pos=0", &rv); rv.Turns != 3 || rv.Question == "" {
		t.Fatalf("run %+v", rv)
	}
}

// TestAPIWaitsForFile: with Options.Wait a file that does not exist yet
// is shown waiting, then followed once written; without it, or in a
// directory that does not exist, New refuses it (io_error).
func TestAPIWaitsForFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "later.jsonl")
	if _, err := New([]string{path}, Options{}); fault.KindOf(err) != fault.KindIO {
		t.Fatalf("without Wait: %v", err)
	}
	if _, err := New([]string{filepath.Join(dir, "nodir", "x.jsonl")}, Options{Wait: true}); fault.KindOf(err) != fault.KindIO {
		t.Fatalf("missing directory: %v", err)
	}
	srv := serve(t, Options{Wait: true}, path)
	var files []FileInfo
	if get(t, srv.URL+"/api/files", &files); len(files) != 1 || !files[0].Waiting || files[0].Error != nil {
		t.Fatalf("files %+v", files)
	}
	var runs Runs
	if get(t, srv.URL+"/api/runs?file=0", &runs); !runs.Waiting || len(runs.Runs) != 0 {
		t.Fatalf("runs %+v", runs)
	}
	writeTrace(t, dir, "later.jsonl", genTrace(40))
	var m Model
	if get(t, srv.URL+"/api/tree?file=0", &m); m.Waiting || len(m.Nodes) != 40 || m.Error != nil {
		t.Fatalf("after writing: waiting %v, %d nodes, error %v", m.Waiting, len(m.Nodes), m.Error)
	}
}
