package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/replay"
	"github.com/rlm-go/rlm/trace"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

const haystack = "alpha line\nthe secret token is ABC-123\nomega line\n"

func TestDirectAnswer(t *testing.T) {
	f := newFixture(t, haystack, Config{}, reply("Query: what", `{"answer":"42"}`))
	res, err := f.run(t, "what is it?")
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != StatusCompleted || res.Answer != "42" || res.Turns != 1 || res.Usage.TotalTokens != 110 || res.Counters.ModelCalls != 1 {
		t.Fatalf("%+v", res)
	}
}

// A plan without final yields an observation that the next turn sees.
func TestMultiTurnObservationFeedsNextTurn(t *testing.T) {
	f := newFixture(t, haystack, Config{},
		reply("Query: find", steps(map[string]any{"op": "context", "handle": input("context"), "action": map[string]any{"type": "search", "pattern": "secret"}, "bind": "hits"})),
		// Only matches if the observation carried the search result.
		reply("ABC-123", steps(map[string]any{"op": "final", "value": map[string]any{"ref": "field", "value": map[string]any{"ref": "index", "value": ref("hits"), "index": 0}, "key": "value"}})),
	)
	res, err := f.run(t, "find the token")
	if err != nil {
		t.Fatal(err)
	}
	if res.Answer != "the secret token is ABC-123" || res.Turns != 2 || res.Counters.ContextOps != 1 {
		t.Fatalf("%+v", res)
	}
	if _, ok := res.Vars["hits"]; !ok {
		t.Fatal("final variables missing")
	}
	kinds := map[trace.Kind]int{}
	for _, ev := range res.Trajectory {
		kinds[ev.Kind]++
	}
	if kinds[trace.KindRun] != 1 || kinds[trace.KindTurn] != 2 || kinds[trace.KindModelCall] != 2 || kinds[trace.KindContextOp] != 1 {
		t.Fatalf("trajectory kinds %v", kinds)
	}
}

// A map fan-out runs sub-calls concurrently within the bound and keeps input
// order.
func TestMapFanOutConcurrencyAndOrder(t *testing.T) {
	text := lines(8, func(i int) string { return "record " + string(rune('A'+i)) })
	plan := steps(
		map[string]any{"op": "context", "handle": input("context"), "action": map[string]any{"type": "partition", "strategy": "lines", "size": 1}, "bind": "parts"},
		map[string]any{"op": "map", "over": ref("parts"), "as": "p", "concurrency": 8, "bind": "answers", "plan": map[string]any{"steps": []any{
			map[string]any{"op": "model", "prompt": map[string]any{"join": []any{"classify: ", map[string]any{"text": map[string]any{"ref": "field", "value": ref("p"), "key": "handle"}}}}, "bind": "a"},
			map[string]any{"op": "final", "value": ref("a")},
		}}},
		map[string]any{"op": "final", "value": ref("answers")},
	)
	inter := []replay.Interaction{reply("Query: classify", plan)}
	// Reverse order in the cassette with delays so completion order differs
	// from input order.
	for i := 7; i >= 0; i-- {
		r := string(rune('A' + i))
		inter = append(inter, replayDelayed("classify: record "+r, "answer "+r, 20+5*(7-i)))
	}
	f := newFixture(t, text, Config{Limits: budget.Limits{MaxConcurrency: 3}}, inter...)
	res, err := f.run(t, "classify all")
	if err != nil {
		t.Fatal(err)
	}
	got, ok := res.Answer.([]any)
	if !ok || len(got) != 8 {
		t.Fatalf("answer %#v", res.Answer)
	}
	for i, v := range got {
		if v != "answer "+string(rune('A'+i)) {
			t.Fatalf("item %d = %v: order lost", i, v)
		}
	}
	if c := res.Counters; c.MaxInFlight > 3 || c.MaxInFlight < 2 {
		t.Fatalf("max in flight %d, want 2..3", c.MaxInFlight)
	}
	if res.UsageByDepth[1].Calls != 8 || res.UsageByDepth[0].Calls != 1 {
		t.Fatalf("usage by depth %+v", res.UsageByDepth)
	}
}

func rlmPlan(query string) string {
	return steps(
		map[string]any{"op": "rlm", "query": query, "context": input("context"), "bind": "child"},
		map[string]any{"op": "final", "value": ref("child")},
	)
}

func TestRecursiveChild(t *testing.T) {
	f := newFixture(t, haystack, Config{},
		reply("Query: root", steps(
			map[string]any{"op": "context", "handle": input("context"), "action": map[string]any{"type": "slice", "start": 11, "length": 28}, "bind": "s"},
			map[string]any{"op": "rlm", "query": "child question", "context": map[string]any{"ref": "field", "value": ref("s"), "key": "text"}, "bind": "child"},
			map[string]any{"op": "final", "value": map[string]any{"join": []any{"child said: ", ref("child")}}},
		)),
		reply("Query: child question", `{"answer":"ABC-123"}`),
	)
	res, err := f.run(t, "root question")
	if err != nil {
		t.Fatal(err)
	}
	if res.Answer != "child said: ABC-123" || res.Recursion.RecursiveCalls != 1 || res.Recursion.MaxDepth != 1 {
		t.Fatalf("%+v", res)
	}
	var child bool
	for _, ev := range res.Trajectory {
		if ev.Kind == trace.KindChild && ev.Depth == 1 {
			child = true
		}
	}
	if !child {
		t.Fatal("no rlm_child event at depth 1")
	}
	if f.store.Len() != 1 {
		t.Fatalf("sub-contexts leaked: %d handles", f.store.Len())
	}
}

// A max depth above MaxSupportedDepth is refused before any model call,
// with or without the deprecated opt-in (issue 31: depth 2 and 3 need
// none).
func TestDepthAboveMaximumRefused(t *testing.T) {
	for _, deep := range []bool{false, true} {
		f := newFixture(t, haystack, Config{Limits: budget.Limits{MaxDepth: MaxSupportedDepth + 1}, ExperimentalDeepRecursion: deep}, reply("", `{"answer":"x"}`))
		res, err := f.run(t, "q")
		if fault.KindOf(err) != KindDeepRecursionRequired || res.Status != StatusFailed {
			t.Fatalf("opt-in %v: want %s, got %v", deep, KindDeepRecursionRequired, err)
		}
		if f.srv.Stats().Served != 0 {
			t.Fatal("a model call happened before the depth gate")
		}
		if len(res.Trajectory) != 1 || res.Trajectory[0].Kind != trace.KindRun || res.Trajectory[0].Error == nil {
			t.Fatalf("a refused run still has its run event: %+v", res.Trajectory)
		}
	}

	// Without the opt-in, a grandchild runs at depth 2.
	g := newFixture(t, haystack, Config{Limits: budget.Limits{MaxDepth: 2}},
		reply("Query: level0", rlmPlan("level1")),
		reply("Query: level1", rlmPlan("level2")),
		reply("Query: level2", `{"answer":"deep"}`),
	)
	res, err := g.run(t, "level0")
	if err != nil || res.Answer != "deep" || res.Recursion.MaxDepth != 2 {
		t.Fatalf("%v %+v", err, res)
	}
	// Depth 1 (the default) refuses the grandchild with a budget error.
	h := newFixture(t, haystack, Config{},
		reply("Query: level0", rlmPlan("level1")),
		reply("Query: level1", rlmPlan("level2")),
	)
	_, err = h.run(t, "level0")
	if fault.KindOf(err) != budget.KindMaxDepth {
		t.Fatalf("want max_depth_exceeded, got %v", err)
	}
}

// A run at the supported maximum depth, 3, without an opt-in: a chain of
// children reaches depth 3, every depth's call is charged at its depth
// (Result.UsageByDepth), and a great-great-grandchild is refused by the
// max_depth budget.
func TestDepthThreeUsageByDepth(t *testing.T) {
	f := newFixture(t, haystack, Config{Limits: budget.Limits{MaxDepth: 3}},
		reply("Query: level0", rlmPlan("level1")),
		reply("Query: level1", rlmPlan("level2")),
		reply("Query: level2", rlmPlan("level3")),
		reply("Query: level3", `{"answer":"deepest"}`),
	)
	res, err := f.run(t, "level0")
	if err != nil || res.Answer != "deepest" || res.Recursion.MaxDepth != 3 || res.Recursion.RecursiveCalls != 3 {
		t.Fatalf("%v %+v", err, res.Recursion)
	}
	if len(res.UsageByDepth) != 4 {
		t.Fatalf("usage by depth %+v, want depths 0 to 3", res.UsageByDepth)
	}
	var sum int64
	for d := 0; d <= 3; d++ {
		if u := res.UsageByDepth[d]; u.Calls != 1 || u.TotalTokens <= 0 {
			t.Errorf("depth %d: %+v, want one call with tokens", d, u)
		}
		sum += res.UsageByDepth[d].Calls
	}
	if sum != res.Usage.Calls {
		t.Errorf("per-depth calls %d, total %d", sum, res.Usage.Calls)
	}

	g := newFixture(t, haystack, Config{Limits: budget.Limits{MaxDepth: 3}},
		reply("Query: level0", rlmPlan("level1")),
		reply("Query: level1", rlmPlan("level2")),
		reply("Query: level2", rlmPlan("level3")),
		reply("Query: level3", rlmPlan("level4")),
	)
	if _, err := g.run(t, "level0"); fault.KindOf(err) != budget.KindMaxDepth {
		t.Fatalf("want max_depth_exceeded at depth 4, got %v", err)
	}
}

func TestRecursiveCycleRejected(t *testing.T) {
	f := newFixture(t, haystack, Config{Limits: budget.Limits{MaxDepth: 3}, ExperimentalDeepRecursion: true},
		reply("Query: same", rlmPlan("same")),
	)
	res, err := f.run(t, "same")
	if fault.KindOf(err) != KindRecursiveCycle {
		t.Fatalf("want recursive_cycle, got %v", err)
	}
	if res.Counters.ModelCalls != 1 {
		t.Fatalf("a cycle must end the run without a repair turn: %d model calls", res.Counters.ModelCalls)
	}
}

func TestChildCapabilitiesNarrow(t *testing.T) {
	if _, err := New(Config{Provider: nil}); fault.KindOf(err) != fault.KindInvalidConfig {
		t.Fatal("nil provider accepted")
	}
	f := newFixture(t, haystack, Config{
		Capabilities:      capability.MustSet("rlm", "model:test-model", "context:search"),
		ChildCapabilities: capability.MustSet("model:test-model"),
	},
		reply("Query: root", rlmPlan("child")),
		// The child tries a search it is not granted.
		reply("Query: child", steps(map[string]any{"op": "context", "handle": input("context"), "action": map[string]any{"type": "search", "pattern": "x"}, "bind": "h"})),
	)
	_, err := f.run(t, "root")
	if fe := fault.As(err); fe == nil || fe.Kind != "capability_denied" {
		t.Fatalf("want capability_denied, got %v", err)
	}
	// Widening the child set is a configuration error.
	_, err = New(Config{Provider: f.eng.cfg.Provider, Store: f.store, Capabilities: capability.MustSet("rlm"), ChildCapabilities: capability.MustSet("map")})
	if fault.KindOf(err) != capability.KindWideningDenied {
		t.Fatalf("want widening_denied, got %v", err)
	}
}

func TestRepairMessageOnInvalidPlan(t *testing.T) {
	f := newFixture(t, haystack, Config{},
		reply("Query: q", `{"steps":[{"op":"launch_missiles"}]}`),
		reply("rejected without execution", `{"answer":"fixed"}`),
	)
	res, err := f.run(t, "q")
	if err != nil || res.Answer != "fixed" || res.Counters.ModelCalls != 2 {
		t.Fatalf("%v %+v", err, res)
	}
	// With one repair allowed, two rejections in a row fail the run with
	// the typed error.
	g := newFixture(t, haystack, Config{MaxRepairs: 1},
		reply("Query: q", `not json at all`),
		reply("rejected without execution", `still not json`),
	)
	res, err = g.run(t, "q")
	if fault.PhaseOf(err) != fault.PhaseParse || res.Usage.Calls != 2 {
		t.Fatalf("%v %+v", err, res.Usage)
	}
}

// Every budget kind ends a run with a typed error that still carries usage
// and the trajectory.
func TestBudgetExhaustion(t *testing.T) {
	search := steps(map[string]any{"op": "context", "handle": input("context"), "action": map[string]any{"type": "search", "pattern": "line"}, "bind": "a"})
	search2 := steps(map[string]any{"op": "context", "handle": input("context"), "action": map[string]any{"type": "search", "pattern": "token"}, "bind": "b"})
	longAnswer := `{"answer":"` + strings.Repeat("x", 100) + `"}`
	cases := []struct {
		name   string
		limits budget.Limits
		inter  []replay.Interaction
		kind   fault.Kind
	}{
		{"iterations", budget.Limits{MaxIterations: 1}, []replay.Interaction{reply("", search), reply("", search2)}, budget.KindMaxIterations},
		{"model calls", budget.Limits{MaxModelCalls: 1}, []replay.Interaction{reply("", search), reply("", search2)}, budget.KindMaxModelCalls},
		{"context ops", budget.Limits{MaxContextOps: 1}, []replay.Interaction{reply("", search), reply("", search2)}, budget.KindMaxContextOps},
		{"tokens", budget.Limits{MaxTotalTokens: 50}, []replay.Interaction{reply("", search), reply("", search2)}, budget.KindMaxTotalTokens},
		{"output bytes", budget.Limits{MaxOutputBytes: 10}, []replay.Interaction{reply("", longAnswer)}, budget.KindMaxOutputBytes},
		{"time", budget.Limits{TimeLimit: 50 * time.Millisecond}, []replay.Interaction{replayDelayed("", search, 500)}, budget.KindTimeLimit},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, haystack, Config{Limits: c.limits}, c.inter...)
			res, err := f.run(t, "q")
			if fault.KindOf(err) != c.kind || fault.PhaseOf(err) != fault.PhaseBudget {
				t.Fatalf("want budget/%s, got %v", c.kind, err)
			}
			if res.Error == nil || res.Error.Kind != c.kind || res.Status != StatusFailed {
				t.Fatalf("result error %+v", res.Error)
			}
			switch c.name {
			case "time":
			case "tokens":
				// Refused before sending: the first call's worst case
				// (prompt plus max_tokens) does not fit.
				if res.Usage.Calls != 0 || res.Counters.ModelCalls != 0 || f.srv.Stats().Requests != 0 {
					t.Fatalf("a call was sent: %+v %+v", res.Usage, res.Counters)
				}
			default:
				if res.Usage.Calls == 0 {
					t.Fatal("usage lost")
				}
			}
			if len(res.Trajectory) == 0 {
				t.Fatal("trajectory lost")
			}
		})
	}
}

func TestCostBudget(t *testing.T) {
	search := steps(map[string]any{"op": "context", "handle": input("context"), "action": map[string]any{"type": "search", "pattern": "line"}, "bind": "a"})
	f := newFixture(t, haystack, Config{Model: "gpt-4o", Limits: budget.Limits{MaxCostUSD: 0.0001}},
		replyFull("", search, 0, "gpt-4o"), replyFull("", strings.Replace(search, `"a"`, `"b"`, 1), 0, "gpt-4o"))
	res, err := f.run(t, "q")
	if fault.KindOf(err) != budget.KindMaxCost {
		t.Fatalf("want max_cost_exceeded, got %v", err)
	}
	// The first call's priced worst case exceeds $0.0001: refused before
	// sending.
	if res.Usage.Calls != 0 || res.Counters.ModelCalls != 0 || f.srv.Stats().Requests != 0 {
		t.Fatalf("a call was sent: %+v", res.Usage)
	}
}

// Cancelling mid-run stops the in-flight fan-out promptly and leaves no
// goroutine behind (checked by goleak in TestMain).
func TestCancellationMidRun(t *testing.T) {
	text := lines(6, func(i int) string { return "row" })
	plan := steps(
		map[string]any{"op": "context", "handle": input("context"), "action": map[string]any{"type": "partition", "strategy": "lines", "size": 1}, "bind": "parts"},
		map[string]any{"op": "map", "over": ref("parts"), "as": "p", "bind": "out", "plan": map[string]any{"steps": []any{
			map[string]any{"op": "model", "prompt": "slow", "bind": "a"},
			map[string]any{"op": "final", "value": ref("a")},
		}}},
	)
	inter := []replay.Interaction{reply("Query:", plan)}
	for range 6 {
		inter = append(inter, replayDelayed("slow", "late", 5000))
	}
	f := newFixture(t, text, Config{}, inter...)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(150*time.Millisecond, cancel)
	start := time.Now()
	res, err := f.eng.Run(ctx, "q", f.h)
	if fault.KindOf(err) != fault.KindCancelled || res.Status != StatusCancelled {
		t.Fatalf("want cancelled, got %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("cancellation took %v", d)
	}
	if res.Usage.Calls < 1 {
		t.Fatal("usage of the root call lost")
	}
}

// recorder is an in-process provider that answers from script and keeps
// every request.
type recorder struct {
	mu     sync.Mutex
	reqs   []model.Request
	script func(req model.Request) string
}

func (p *recorder) Complete(ctx context.Context, req model.Request) (*model.Response, error) {
	p.mu.Lock()
	p.reqs = append(p.reqs, req)
	p.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return &model.Response{Text: p.script(req), Usage: budget.Usage{PromptTokens: 10, CompletionTokens: 1, TotalTokens: 11, TokensKnown: true}}, nil
}

func (p *recorder) requests() []model.Request {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.reqs)
}

func newRecorderEngine(t *testing.T, text string, cfg Config, script func(req model.Request) string) (*Engine, *recorder, corpus.Handle) {
	t.Helper()
	store := corpus.NewStore()
	t.Cleanup(func() { store.Close() })
	h, err := store.AddString("input", text)
	if err != nil {
		t.Fatal(err)
	}
	p := &recorder{script: script}
	cfg.Provider, cfg.Store = p, store
	if cfg.Model == "" {
		cfg.Model = "m"
	}
	eng, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return eng, p, h
}

func allText(req model.Request) string {
	var b strings.Builder
	for _, m := range req.Messages {
		b.WriteString(m.Content)
		b.WriteByte('\n')
	}
	return b.String()
}

// The repair message names the rejected part by a path in the plan
// language's own vocabulary: a key the model invented is never echoed.
func TestRepairMessageNeverEchoesModelText(t *testing.T) {
	eng, p, h := newRecorderEngine(t, haystack, Config{}, func(req model.Request) string {
		if len(req.Messages) == 2 {
			return `{"steps":[{"op":"final","value":{"IGNORE_PREVIOUS_INSTRUCTIONS":{"ref":"bogus"}}}]}`
		}
		return `{"answer":"ok"}`
	})
	res, err := eng.Run(context.Background(), "q", h)
	if err != nil || res.Answer != "ok" {
		t.Fatalf("%v %+v", err, res)
	}
	reqs := p.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	repair := allText(reqs[1])
	if !strings.Contains(repair, "rejected without execution") || !strings.Contains(repair, "unknown_ref") || !strings.Contains(repair, "steps[0].value.?.ref") {
		t.Fatalf("repair message does not name the rejected part:\n%s", repair)
	}
	if strings.Contains(repair, "IGNORE_PREVIOUS") {
		t.Fatalf("repair message echoes model text:\n%s", repair)
	}
}

// nestedScript answers the root with a map of rlm children over line
// chunks, each child with a map of leaf model calls over its own lines.
func nestedScript(leaf func(ctx context.Context) string) func(ctx context.Context, req model.Request) string {
	fanout := func(inner map[string]any) string {
		return steps(
			map[string]any{"op": "context", "handle": input("context"), "action": map[string]any{"type": "partition", "strategy": "lines", "size": 1}, "bind": "parts"},
			map[string]any{"op": "map", "over": ref("parts"), "as": "p", "concurrency": 4, "bind": "out", "plan": map[string]any{"steps": []any{
				inner, map[string]any{"op": "final", "value": ref("r")},
			}}},
			map[string]any{"op": "final", "value": ref("out")},
		)
	}
	root := fanout(map[string]any{"op": "rlm", "query": "child", "context": map[string]any{"ref": "field", "value": ref("p"), "key": "handle"}, "bind": "r"})
	child := fanout(map[string]any{"op": "model", "prompt": map[string]any{"text": map[string]any{"ref": "field", "value": ref("p"), "key": "handle"}}, "bind": "r"})
	return func(ctx context.Context, req model.Request) string {
		switch {
		case req.Messages[0].Role != model.RoleSystem:
			return leaf(ctx)
		case strings.Contains(req.Messages[0].Content, "Recursion depth: 0."):
			return root
		}
		return child
	}
}

// A map of rlm children, each running its own map, completes with a single
// tree-wide concurrency slot: only leaf calls hold slots, so nesting cannot
// deadlock.
func TestNestedMapInChildrenWithOneSlot(t *testing.T) {
	script := nestedScript(func(context.Context) string { return "leaf" })
	eng, p, h := newRecorderEngine(t, "a\nb\nc\n", Config{Limits: budget.Limits{MaxConcurrency: 1}}, func(req model.Request) string {
		return script(context.Background(), req)
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := eng.Run(ctx, "q", h)
	if err != nil {
		t.Fatalf("%v", err)
	}
	want := []any{[]any{"leaf"}, []any{"leaf"}, []any{"leaf"}}
	if js(res.Answer) != js(want) || res.Counters.MaxInFlight != 1 {
		t.Fatalf("answer %v, max in flight %d", js(res.Answer), res.Counters.MaxInFlight)
	}
	// 1 root turn + 3 child turns + 3 leaves.
	if n := len(p.requests()); n != 7 || res.Recursion.RecursiveCalls != 3 {
		t.Fatalf("%d requests, %d children", n, res.Recursion.RecursiveCalls)
	}
	if !slices.IsSorted(res.Recursion.Fingerprints) || len(res.Recursion.Fingerprints) != 3 {
		t.Fatalf("fingerprints are not in a deterministic order: %v", res.Recursion.Fingerprints)
	}
}

// blockedFanOut returns an engine whose runs block in nested fan-outs (two
// leaf calls at a time) until cancelled; started receives a value as each
// leaf call starts.
func blockedFanOut(t *testing.T) (eng *Engine, store *corpus.Store, h corpus.Handle, started chan struct{}) {
	t.Helper()
	started = make(chan struct{}, 16)
	script := nestedScript(func(ctx context.Context) string {
		started <- struct{}{}
		<-ctx.Done()
		return "late"
	})
	store = corpus.NewStore()
	t.Cleanup(func() { store.Close() })
	h, _ = store.AddString("input", "a\nb\nc\nd\n")
	prov := model.ProviderFunc(func(ctx context.Context, req model.Request) (*model.Response, error) {
		text := script(ctx, req)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return &model.Response{Text: text, Usage: budget.Usage{TotalTokens: 1, TokensKnown: true}}, nil
	})
	eng, err := New(Config{Provider: prov, Model: "m", Store: store, Limits: budget.Limits{MaxConcurrency: 2}})
	if err != nil {
		t.Fatal(err)
	}
	return eng, store, h, started
}

// Cancelling a run whose children are blocked in nested fan-outs returns
// promptly, with the usage of the calls made, and leaks nothing (goleak).
func TestCancelNestedFanOut(t *testing.T) {
	eng, store, h, started := blockedFanOut(t)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-started
		<-started
		cancel()
	}()
	start := time.Now()
	res, err := eng.Run(ctx, "q", h)
	if fault.KindOf(err) != fault.KindCancelled || res.Status != StatusCancelled {
		t.Fatalf("want cancelled, got %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("cancellation took %v", d)
	}
	if res.Usage.Calls < 3 || res.Counters.MaxInFlight > 2 {
		t.Fatalf("usage %+v counters %+v", res.Usage, res.Counters)
	}
	if store.Len() != 1 {
		t.Fatalf("sub-contexts leaked: %d", store.Len())
	}
}

// A host that ends a run with a typed reason (context.WithCancelCause, as
// the durable executor does when a completed call cannot be recorded) sees
// the run fail with that reason, not as cancelled; a plain cancellation
// still reads cancelled (TestCancelNestedFanOut).
func TestCancelCauseIsReported(t *testing.T) {
	eng, _, h, started := blockedFanOut(t)
	reason := fault.New(fault.PhaseExecute, fault.KindInternal, "the host's reason").With("host", "test")
	ctx, cancel := context.WithCancelCause(context.Background())
	go func() {
		<-started
		cancel(reason)
	}()
	res, err := eng.Run(ctx, "q", h)
	if fault.KindOf(err) != fault.KindInternal || res.Status != StatusFailed || res.Error.Detail["host"] != "test" {
		t.Fatalf("want the host's reason, failed; got %v (status %s)", err, res.Status)
	}
	if res.Usage.Calls < 3 {
		t.Fatalf("usage lost: %+v", res.Usage)
	}
}

// A child handed its parent's whole context as a string (registered as a
// new sub-context) with the parent's query is still a cycle.
func TestRecursiveCycleThroughString(t *testing.T) {
	f := newFixture(t, haystack, Config{Limits: budget.Limits{MaxDepth: 3}, ExperimentalDeepRecursion: true},
		reply("Query: same", steps(
			map[string]any{"op": "rlm", "query": "same", "context": map[string]any{"text": input("context")}, "bind": "child"},
			map[string]any{"op": "final", "value": ref("child")},
		)),
	)
	res, err := f.run(t, "same")
	if fault.KindOf(err) != KindRecursiveCycle || res.Counters.ModelCalls != 1 {
		t.Fatalf("want recursive_cycle after 1 model call, got %v (%d calls)", err, res.Counters.ModelCalls)
	}
	if f.store.Len() != 1 {
		t.Fatalf("sub-contexts leaked: %d", f.store.Len())
	}
}

// The observation of a turn is bounded by ObservationBytes however large
// the new bindings are, and still previews each of them.
func TestObservationIsBounded(t *testing.T) {
	big := lines(2000, func(i int) string { return fmt.Sprintf("line %d with some padding text", i) })
	plan := steps(
		map[string]any{"op": "context", "handle": input("context"), "action": map[string]any{"type": "search", "pattern": "line"}, "bind": "hits"},
		map[string]any{"op": "context", "handle": input("context"), "action": map[string]any{"type": "peek", "selector": "head", "count": 20000}, "bind": "head"},
	)
	const limit = 300
	eng, p, h := newRecorderEngine(t, big, Config{ObservationBytes: limit}, func(req model.Request) string {
		if len(req.Messages) == 2 {
			return plan
		}
		return `{"answer":"done"}`
	})
	if _, err := eng.Run(context.Background(), "q", h); err != nil {
		t.Fatal(err)
	}
	reqs := p.requests()
	obs := reqs[len(reqs)-1].Messages[3].Content
	if len(obs) > limit || !strings.Contains(obs, "hits = ") || !strings.Contains(obs, "head = ") {
		t.Fatalf("observation of %d bytes (limit %d):\n%s", len(obs), limit, obs)
	}
	if !strings.Contains(allText(reqs[0]), "bytes") || strings.Contains(allText(reqs[0]), "line 1999") {
		t.Fatal("the root prompt must carry metadata only, never the whole context")
	}
}

// A negative time limit is unlimited (docs/budget.md), not a deadline in
// the past: the run completes.
func TestUnlimitedTimeLimitRuns(t *testing.T) {
	f := newFixture(t, haystack, Config{Limits: budget.Limits{TimeLimit: -1}}, reply("", `{"answer":"x"}`))
	res, err := f.run(t, "q")
	if err != nil || res.Status != StatusCompleted {
		t.Fatalf("status %s, %v", res.Status, err)
	}
}
