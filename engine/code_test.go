package engine

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/golden"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/replay"
	"github.com/rlm-go/rlm/repl"
	"github.com/rlm-go/rlm/trace"
)

// py wraps code in a ```python fence, as a model writes it.
func py(code ...string) string {
	return "```python\n" + strings.Join(code, "\n") + "\n```"
}

func codeCfg() Config { return Config{Mode: ModeCode} }

// Variables survive across turns; the second turn is only served when the
// observation carried the first cell's printed output.
func TestCodeMultiTurnVariablesPersist(t *testing.T) {
	f := newFixture(t, haystack, codeCfg(),
		reply("Query: find", "Let me look.\n"+py(`i = context.find("secret")`, `line = context[i:i+30]`, `print("found at", i)`)),
		reply("found at 15", py(`tok = line.splitlines()[0].split(" ")[3]`, `FINAL(tok)`)),
	)
	res, err := f.run(t, "find the token")
	if err != nil {
		t.Fatal(err)
	}
	if res.Answer != "ABC-123" || res.Turns != 2 || res.Counters.ContextOps != 2 {
		t.Fatalf("%+v", res)
	}
	if res.Vars["i"] != "15" {
		t.Fatalf("vars %v", res.Vars)
	}
	cells := 0
	for _, ev := range res.Trajectory {
		if ev.Kind == trace.KindPlanStep && ev.Name == "cell" {
			cells++
			if ev.Attrs["fingerprint"] == "" || ev.Attrs["steps"] == nil {
				t.Fatalf("cell span %v", ev.Attrs)
			}
		}
	}
	if cells != 2 {
		t.Fatalf("cells %d", cells)
	}
}

// An invented output followed by an answer must not finish the run: prose
// FINAL is ignored, and a FINAL cell after a cell whose output the model
// has not seen is not accepted.
func TestCodeInventedOutputDoesNotFinish(t *testing.T) {
	invented := py(`n = context.count("line")`, `print("n =", n)`) + "\nOutput:\n```\nn = 7\n```\nSo the answer is 7. FINAL(7)\n" + py(`FINAL(7)`)
	f := newFixture(t, haystack, codeCfg(),
		reply("Query: how many", invented),
		reply("n = 2", py(`FINAL(n)`)),
	)
	res, err := f.run(t, "how many lines mention line?")
	if err != nil {
		t.Fatal(err)
	}
	if res.Answer != int64(2) || res.Turns != 2 {
		t.Fatalf("%+v", res)
	}
}

// A deferred answer dict does not finish a later cell unseen.
func TestCodeDeferredAnswerDictCleared(t *testing.T) {
	f := newFixture(t, haystack, codeCfg(),
		reply("Query: q", py(`print("looking")`)+"\n"+py(`answer = {"content": "guess", "ready": True}`)),
		reply("not accepted", py(`print("still looking")`)),
		reply("still looking", py(`FINAL("checked")`)),
	)
	res, err := f.run(t, "q")
	if err != nil || res.Answer != "checked" || res.Turns != 3 {
		t.Fatalf("%v %+v", err, res)
	}
}

// Prose beside code is never taken as the answer.
func TestCodeProseAnswerIgnored(t *testing.T) {
	f := newFixture(t, haystack, codeCfg(),
		reply("Query: q", py(`x = len(context)`)+"\nFINAL(\"wrong\")"),
		reply("[no output]", py(`FINAL_VAR("x")`)),
	)
	res, err := f.run(t, "q")
	if err != nil {
		t.Fatal(err)
	}
	if res.Answer != int64(len(haystack)) {
		t.Fatalf("%+v", res.Answer)
	}
}

// FINAL_VAR and the answer dict both finish; the answer dict is checked
// at the end of the cell.
func TestCodeFinishConventions(t *testing.T) {
	for name, code := range map[string]string{
		"final_var":   py(`result = {"count": 3}`, `FINAL_VAR("result")`),
		"answer_dict": py(`answer = {"content": {"count": 3}, "ready": True}`),
		"final":       py(`FINAL({"count": 3})`, `print("never runs")`),
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, haystack, codeCfg(), reply("Query: q", code))
			res, err := f.run(t, "q")
			if err != nil {
				t.Fatal(err)
			}
			m, ok := res.Answer.(map[string]any)
			if !ok || m["count"] != int64(3) || res.Turns != 1 {
				t.Fatalf("%#v", res.Answer)
			}
		})
	}
}

// A reply without code gets a host-written observation asking for code
// (a repair); beyond MaxRepairs in a row the run ends.
func TestCodeNoCodeRepair(t *testing.T) {
	f := newFixture(t, haystack, codeCfg(),
		reply("Query: q", "The answer is 42."),
		reply("contained no code block", py(`FINAL(42)`)),
	)
	res, err := f.run(t, "q")
	if err != nil || res.Answer != int64(42) {
		t.Fatalf("%v %+v", err, res)
	}
	f = newFixture(t, haystack, Config{Mode: ModeCode, MaxRepairs: 1},
		reply("Query: q", "The answer is 42."),
		reply("contained no code block", "Really, 42."),
	)
	_, err = f.run(t, "q")
	if fault.KindOf(err) != KindMissingCode {
		t.Fatalf("want missing_code, got %v", err)
	}
}

// An exception is an observation with its type and line, not a failure;
// later cells of the same reply do not run.
func TestCodeExceptionIsObservation(t *testing.T) {
	f := newFixture(t, haystack, codeCfg(),
		reply("Query: q", py(`x = 1`, `y = [1][5]`)+"\n"+py(`print("second")`)),
		reply("cell 2 not run", py(`FINAL(x)`)),
	)
	res, err := f.run(t, "q")
	if err != nil || res.Answer != int64(1) {
		t.Fatalf("%v %+v", err, res)
	}
}

// Code mode grants capability code itself, even over capabilities the
// caller listed without it (issue 29: Mode code with custom capabilities
// failed with capability_denied).
func TestCodeModeGrantsCode(t *testing.T) {
	caps := DefaultCapabilities("test-model", "test-model")
	f := newFixture(t, haystack, Config{Mode: ModeCode, Capabilities: caps}, reply("", py(`FINAL(1)`)))
	res, err := f.run(t, "q")
	if err != nil || res.Answer != int64(1) {
		t.Fatalf("%v %+v", err, res)
	}
	if !f.eng.Config().Capabilities.Has(capability.Code) {
		t.Fatal("code not granted")
	}
}

// Cell stdout is truncated to the observation limit with a note of how
// much was cut.
func TestCodeObservationTruncated(t *testing.T) {
	f := newFixture(t, haystack, Config{Mode: ModeCode, ObservationBytes: 512},
		reply("Query: q", py(`print("x" * 5000)`)),
		reply("bytes cut]", py(`FINAL("ok")`)),
	)
	res, err := f.run(t, "q")
	if err != nil || res.Answer != "ok" {
		t.Fatalf("%v %+v", err, res)
	}
}

// llm_query_batched of 100 prompts: results in input order while the
// cassette answers out of order, within the concurrency bound.
func TestCodeLLMQueryBatched100(t *testing.T) {
	inter := []replay.Interaction{
		reply("Query: classify", py(
			`prompts = ["classify item %d." % i for i in range(100)]`,
			`out = llm_query_batched(prompts, concurrency=16)`,
			`ok = all([out[i] == "label %d" % i for i in range(100)])`,
			`print("in order:", ok, len(out))`)),
		reply("in order: True 100", py(`FINAL(out[:3])`)),
	}
	for i := 99; i >= 0; i-- {
		inter = append(inter, replayDelayed(fmt.Sprintf("classify item %d.", i), fmt.Sprintf("label %d", i), (i%5)))
	}
	f := newFixture(t, haystack, Config{Mode: ModeCode, Limits: budget.Limits{MaxConcurrency: 4}}, inter...)
	res, err := f.run(t, "classify")
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(res.Answer) != "[label 0 label 1 label 2]" || res.Counters.ModelCalls != 102 {
		t.Fatalf("%v %+v", res.Answer, res.Counters)
	}
	if res.Counters.MaxInFlight > 4 || res.Counters.MaxInFlight < 2 {
		t.Fatalf("max in flight %d", res.Counters.MaxInFlight)
	}
}

// Budget exhaustion in the middle of a batch interrupts the cell and ends
// the run with the budget's kind.
func TestCodeBudgetExhaustedMidBatch(t *testing.T) {
	inter := []replay.Interaction{
		reply("Query: q", py(`print("started")`, `out = llm_query_batched(["p%d" % i for i in range(50)], concurrency=2)`, `print("unreachable")`)),
	}
	for range 50 {
		inter = append(inter, reply("", "sub"))
	}
	// Each call reports 110 tokens and reserves its worst case (prompt plus
	// 300 completion tokens) while in flight: the budget runs out part way.
	f := newFixture(t, haystack, Config{Mode: ModeCode, MaxTokens: 300, Limits: budget.Limits{MaxTotalTokens: 4000, MaxConcurrency: 2}}, inter...)
	res, err := f.run(t, "q")
	if fault.KindOf(err) != budget.KindMaxTotalTokens {
		t.Fatalf("want max_total_tokens_exceeded, got %v", err)
	}
	if res.Counters.ModelCalls >= 50 || res.Counters.ModelCalls < 4 {
		t.Fatalf("the batch was not interrupted: %d calls", res.Counters.ModelCalls)
	}
	if res.Partial != "started\n" {
		t.Fatalf("partial %q", res.Partial)
	}
}

// A fan-out that cannot fit the model-call budget is refused before any
// sub-call.
func TestCodeBatchRefusedOverBudget(t *testing.T) {
	f := newFixture(t, haystack, Config{Mode: ModeCode, Limits: budget.Limits{MaxModelCalls: 10}},
		reply("Query: q", py(`out = llm_query_batched(["p%d" % i for i in range(50)])`)))
	res, err := f.run(t, "q")
	if fault.KindOf(err) != budget.KindMaxModelCalls || res.Counters.ModelCalls != 1 {
		t.Fatalf("%v %+v", err, res.Counters)
	}
}

// rlm_query runs a child loop (its own interpreter) at depth 1.
func TestCodeRLMQueryChild(t *testing.T) {
	f := newFixture(t, haystack, codeCfg(),
		reply("Query: who", py(`part = context[:40]`, `r = rlm_query("extract the token", context=part)`, `FINAL("token: " + r)`)),
		reply("Query: extract the token", py(`FINAL(context.split(" ")[5].splitlines()[0])`)),
	)
	res, err := f.run(t, "who has it?")
	if err != nil {
		t.Fatal(err)
	}
	if res.Answer != "token: ABC-123" || res.Recursion.RecursiveCalls != 1 || res.Recursion.MaxDepth != 1 {
		t.Fatalf("%+v", res)
	}
}

// The depth gate holds in code mode: a child at the maximum depth that
// calls rlm_query ends the run with max_depth_exceeded.
func TestCodeRLMQueryDepthGate(t *testing.T) {
	f := newFixture(t, haystack, codeCfg(),
		reply("Query: who", py(`r = rlm_query("deeper", context="some text")`)),
		reply("Query: deeper", py(`r = rlm_query("deeper still", context="other")`)),
	)
	_, err := f.run(t, "who")
	if fault.KindOf(err) != budget.KindMaxDepth {
		t.Fatalf("want max_depth_exceeded, got %v", err)
	}
}

// A tool the loop's capabilities do not grant is refused: the run ends
// with capability_denied and the tool never runs; granted, it runs through
// the tool runtime. (Without Capabilities the tools given are granted:
// the caller narrows by listing capabilities.)
func TestCodeToolDeniedByCapabilities(t *testing.T) {
	var calls atomic.Int64
	tools := upperTool(t, &calls)
	narrow := DefaultCapabilities("test-model", "test-model")
	f := newFixture(t, haystack, Config{Mode: ModeCode, Tools: tools, Capabilities: narrow},
		reply("Query: q", py(`r = call_tool("upper", s="hi")`, `FINAL(r)`)))
	_, err := f.run(t, "q")
	if fault.KindOf(err) != capability.KindDenied || calls.Load() != 0 {
		t.Fatalf("want capability_denied, got %v (calls %d)", err, calls.Load())
	}
	caps := f.eng.Config().Capabilities.Union(capability.MustSet("tool:upper"))
	f = newFixture(t, haystack, Config{Mode: ModeCode, Tools: tools, Capabilities: caps},
		reply("Query: q", py(`r = call_tool("upper", s="hi")`, `FINAL(r)`)))
	res, err := f.run(t, "q")
	if err != nil || res.Answer != "HI" || calls.Load() != 1 || res.Counters.ToolCalls != 1 {
		t.Fatalf("%v %+v", err, res)
	}
}

// Cancellation interrupts a running cell at once: the sub-call in flight
// sees it and the run reports cancelled.
func TestCodeCancelMidCell(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	prov := model.ProviderFunc(func(ctx context.Context, req model.Request) (*model.Response, error) {
		if req.Messages[0].Role == model.RoleSystem {
			return &model.Response{Text: py(`r = llm_query("slow")`, `print("unreachable")`)}, nil
		}
		cancel()
		<-ctx.Done()
		return nil, ctx.Err()
	})
	eng, h := codeEngine(t, haystack, Config{Provider: prov})
	res, err := eng.Run(ctx, "q", h)
	if fault.KindOf(err) != fault.KindCancelled || res.Status != StatusCancelled {
		t.Fatalf("want cancelled, got %v", err)
	}
}

// The run's time limit interrupts a cell that never ends.
func TestCodeTimeLimitMidCell(t *testing.T) {
	prov := model.ProviderFunc(func(ctx context.Context, req model.Request) (*model.Response, error) {
		return &model.Response{Text: py(`n = 0`, `while True:`, `    n += 1`)}, nil
	})
	eng, h := codeEngine(t, haystack, Config{Provider: prov, Limits: budget.Limits{TimeLimit: 200 * time.Millisecond},
		Code: repl.Config{MaxCellSteps: 1 << 62, MaxTotalSteps: 1 << 62, CellTimeout: time.Hour}})
	_, err := eng.Run(context.Background(), "q", h)
	if fault.KindOf(err) != budget.KindTimeLimit {
		t.Fatalf("want time_limit_exceeded, got %v", err)
	}
}

func codeEngine(t *testing.T, text string, cfg Config) (*Engine, corpus.Handle) {
	t.Helper()
	store := corpus.NewStore()
	t.Cleanup(func() { store.Close() })
	h, err := store.AddString("input", text)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Store, cfg.Mode = store, ModeCode
	if cfg.Model == "" {
		cfg.Model = "test-model"
	}
	eng, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return eng, h
}

// The context builtins: search, partition into sub-contexts with the same
// interface, membership, bounded materialization (a large slice is a
// sub-context; splitting more than the limit is an error the model sees).
func TestCodeContextBuiltins(t *testing.T) {
	text := lines(200, func(i int) string {
		return fmt.Sprintf("row %03d %s", i, map[bool]string{true: "needle", false: "hay"}[i%50 == 7])
	})
	// The second turn is served only when the observation carries the
	// figures and the bound's error.
	// A slice is a str however large (within the value bound); a method
	// whose result would pass the bound raises MemoryError.
	f := newFixture(t, text, Config{Mode: ModeCode, PromptBytes: 1024, Code: repl.Config{MaxValueBytes: 8000}},
		reply("Query: q", py(
			`hits = context.search("needle", max_results=3)`,
			`parts = context.partition(lines=50)`,
			`big = context[0:2000]`,
			`print(len(hits), hits[0]["line"], hits[0]["text"], len(parts), len(parts[1]), "row 057" in parts[1], parts[1].find("needle"), hasattr(big, "search"), len(big))`,
			`rows = context.splitlines()`)),
		reply("3 8 row 007 needle 4 603 True 92 False 2000\n", py(`FINAL(parts[1].splitlines()[7])`)),
	)
	res, err := f.run(t, "q")
	if err != nil {
		t.Fatal(err)
	}
	if res.Answer != "row 057 needle" {
		t.Fatalf("%v", res.Answer)
	}
	var obs string
	for _, ev := range res.Trajectory {
		if ev.Kind == trace.KindPlanStep && ev.Name == "cell" && ev.Attrs["exception"] != nil {
			obs = fmt.Sprint(ev.Attrs["exception"])
		}
	}
	if obs == "" {
		t.Fatal("splitting more than the limit raised nothing")
	}
}

// Every sub-call of a cell is a child of the cell's span.
func TestCodeSubCallsAreCellChildren(t *testing.T) {
	f := newFixture(t, haystack, codeCfg(),
		reply("Query: q", py(`a = llm_query("one")`, `b = llm_query_batched(["two", "three"])`, `FINAL([a] + b)`)),
		reply("one", "1"), reply("two", "2"), reply("three", "3"),
	)
	res, err := f.run(t, "q")
	if err != nil || fmt.Sprint(res.Answer) != "[1 2 3]" {
		t.Fatalf("%v %v", err, res.Answer)
	}
	parent := map[string]string{}
	var cell string
	for _, ev := range res.Trajectory {
		parent[ev.ID] = ev.Parent
		if ev.Kind == trace.KindPlanStep && ev.Name == "cell" {
			cell = ev.ID
		}
	}
	under := func(id string) bool {
		for ; id != ""; id = parent[id] {
			if id == cell {
				return true
			}
		}
		return false
	}
	n := 0
	for _, ev := range res.Trajectory {
		if ev.Kind == trace.KindModelCall && ev.Depth == 1 {
			n++
			if !under(ev.ID) {
				t.Fatalf("sub-call %s is not under the cell", ev.ID)
			}
		}
	}
	if n != 3 {
		t.Fatalf("%d sub-calls", n)
	}
}

// A child inherits only what its parent grants: without code in the child
// capabilities, a code-mode root's rlm_query child runs in plan mode.
func TestCodeChildWithoutCodeRunsPlanMode(t *testing.T) {
	child := DefaultCapabilities("test-model", "test-model")
	f := newFixture(t, haystack, Config{Mode: ModeCode, ChildCapabilities: child},
		reply("Query: root", py(`r = rlm_query("child question", context="some text")`, `FINAL(r)`)),
		reply("Query: child question", `{"answer":"from a plan child"}`),
	)
	res, err := f.run(t, "root")
	if err != nil || res.Answer != "from a plan child" {
		t.Fatalf("%v %+v", err, res)
	}
	// A child set that asks for code the root lacks is a configuration
	// error.
	if _, err := New(Config{Provider: f.eng.cfg.Provider, Store: f.store, Capabilities: child,
		ChildCapabilities: capability.Of(capability.Code)}); fault.KindOf(err) != capability.KindWideningDenied {
		t.Fatalf("want widening_denied, got %v", err)
	}
}

// The code-mode system prompt, at the root and at the depth limit, is a
// golden file: metadata only, the builtins, how to finish.
func TestCodeSystemPromptGolden(t *testing.T) {
	for _, tc := range []struct {
		name  string
		query string
	}{{"code_prompt_root.golden", "root"}, {"code_prompt_child.golden", "child"}} {
		var sys string
		prov := model.ProviderFunc(func(ctx context.Context, req model.Request) (*model.Response, error) {
			if strings.Contains(req.Messages[1].Content, tc.query) {
				sys = req.Messages[0].Content
			}
			if req.Messages[1].Content == "Query: root" && tc.query == "child" {
				return &model.Response{Text: py(`FINAL(rlm_query("child", context="child text"))`)}, nil
			}
			return &model.Response{Text: py(`FINAL(1)`)}, nil
		})
		eng, h := codeEngine(t, haystack, Config{Provider: prov})
		if _, err := eng.Run(context.Background(), "root", h); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, tc.name, []byte(sys))
	}
}

// rlm_query_batched runs several children and keeps input order; a child
// that fails without ending the run is an error value.
func TestCodeRLMQueryBatched(t *testing.T) {
	f := newFixture(t, haystack, Config{Mode: ModeCode, MaxRepairs: 1},
		reply("Query: root", py(`parts = context.partition(lines=1)`,
			`out = rlm_query_batched(["first line?", "second line?", "third line?"], contexts=parts, concurrency=2)`, `FINAL(out)`)),
		replayDelayed("Query: third line?", py(`FINAL(context.text().strip())`), 0),
		replayDelayed("Query: first line?", py(`FINAL(context.text().strip())`), 30),
		reply("Query: second line?", "no code here"),
		reply("contained no code block", "still no code"),
	)
	res, err := f.run(t, "root")
	if err != nil {
		t.Fatal(err)
	}
	out, _ := res.Answer.([]any)
	if len(out) != 3 || out[0] != "alpha line" || out[2] != "omega line" || !strings.HasPrefix(fmt.Sprint(out[1]), "Error: rlm_query failed: parse/missing_code") {
		t.Fatalf("%#v", res.Answer)
	}
	if res.Recursion.RecursiveCalls != 3 {
		t.Fatalf("%+v", res.Recursion)
	}
}

// Code mode reports turns to the observer, and with TraceContent the trace
// keeps the reply, each cell's code and its output.
func TestCodeObserverAndTraceContent(t *testing.T) {
	var events []Event
	f := newFixture(t, haystack, Config{Mode: ModeCode, TraceContent: true, Observer: func(ev Event) { events = append(events, ev) }},
		reply("Query: q", "no code"),
		reply("contained no code block", py(`print("hello")`)),
		reply("hello", py(`FINAL(llm_query("sub"))`)),
		reply("sub", "done"),
	)
	res, err := f.run(t, "q")
	if err != nil || res.Answer != "done" {
		t.Fatalf("%v %+v", err, res)
	}
	var outcomes []string
	for _, ev := range events {
		outcomes = append(outcomes, string(ev.Kind)+":"+ev.Outcome)
	}
	if got := strings.Join(outcomes, " "); got != "reply: turn:rejected reply: cell: turn:plan reply: cell: sub_call: turn:answer" {
		t.Fatalf("events %s", got)
	}
	if !strings.Contains(events[4].Observation, "hello") || !events[1].Repair {
		t.Fatalf("%+v", events[:5])
	}
	found := false
	for _, ev := range res.Trajectory {
		if ev.Kind == trace.KindPlanStep && ev.Name == "cell" && ev.Attrs["code"] == "print(\"hello\")\n" && ev.Attrs["stdout"] == "hello\n" {
			found = true
		}
	}
	if !found {
		t.Fatal("no cell span with its code and output")
	}
}
