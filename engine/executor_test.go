package engine

import (
	"context"
	"encoding/json"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/model"
)

// recordingExec records every call the engine hands it and then runs it in
// process. With answer set, it answers sub-model calls itself instead of
// sending them.
type recordingExec struct {
	mu     sync.Mutex
	calls  []Call
	answer *model.Response
	sent   atomic.Int64
}

func (x *recordingExec) note(c Call) {
	x.mu.Lock()
	x.calls = append(x.calls, c)
	x.mu.Unlock()
}

func (x *recordingExec) Model(ctx context.Context, c Call, req model.Request, p model.Provider) (*model.Response, error) {
	x.note(c)
	if x.answer != nil && c.Kind == CallModel {
		r := *x.answer
		return &r, nil
	}
	x.sent.Add(1)
	return p.Complete(ctx, req)
}

func (x *recordingExec) Tool(ctx context.Context, c Call, name string, args json.RawMessage, call func(context.Context) (json.RawMessage, error)) (json.RawMessage, error) {
	x.note(c)
	return call(ctx)
}

func (x *recordingExec) Child(ctx context.Context, c Call, run func(context.Context) (any, error)) (any, error) {
	x.note(c)
	return run(ctx)
}

// Every model request, tool call and child loop goes through the
// configured executor, each with its kind, depth and the turn of its loop.
func TestExecutorSeesEverySubCall(t *testing.T) {
	var toolCalls atomic.Int64
	tools := upperTool(t, &toolCalls)
	caps := DefaultCapabilities("test-model", "test-model").Union(capability.MustSet("tool:upper"))
	x := &recordingExec{}
	f := newFixture(t, haystack, Config{Tools: tools, Capabilities: caps, Executor: x},
		reply("Query: root", steps(
			map[string]any{"op": "model", "prompt": "sub question", "bind": "a"},
			map[string]any{"op": "tool", "name": "upper", "args": map[string]any{"s": "abc"}, "bind": "u"},
			map[string]any{"op": "rlm", "query": "child question", "context": "some child text", "bind": "c"},
		)),
		reply("Query: child question", `{"answer":"child answer"}`),
		reply("sub question", "sub answer"),
		reply("Observation:", `{"answer":"done"}`),
	)
	res, err := f.run(t, "root question")
	if err != nil || res.Answer != "done" {
		t.Fatalf("%v %+v", err, res.Answer)
	}
	type seen struct {
		kind         string
		depth, turn  int
		fingerprints bool
	}
	var got []seen
	for _, c := range x.calls {
		got = append(got, seen{c.Kind, c.Depth, c.Turn, c.Fingerprint != ""})
	}
	want := []seen{
		{CallTurn, 0, 1, false},
		{CallModel, 1, 1, false},
		{CallTool, 0, 1, false},
		{CallChild, 1, 1, true},
		{CallTurn, 1, 1, false},
		{CallTurn, 0, 2, false},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("calls\n got %+v\nwant %+v", got, want)
	}
	if x.calls[3].Fingerprint != res.Recursion.Fingerprints[0] {
		t.Fatalf("child fingerprint %q, recursion %v", x.calls[3].Fingerprint, res.Recursion.Fingerprints)
	}
}

// A response the executor supplies without sending (a durable executor's
// recorded result) is admitted and charged exactly like a sent one, so
// budgets and usage stay the engine's.
func TestExecutorAnswerIsCharged(t *testing.T) {
	usage := budget.Usage{PromptTokens: 7, CompletionTokens: 3, TotalTokens: 10, TokensKnown: true}
	x := &recordingExec{answer: &model.Response{Text: "recorded", Usage: usage}}
	f := newFixture(t, haystack, Config{Executor: x, Limits: budget.Limits{MaxModelCalls: 3}},
		reply("Query: root", steps(
			map[string]any{"op": "model", "prompt": "never sent", "bind": "a"},
			map[string]any{"op": "final", "value": ref("a")},
		)),
	)
	res, err := f.run(t, "root question")
	if err != nil || res.Answer != "recorded" {
		t.Fatalf("%v %+v", err, res.Answer)
	}
	if n := x.sent.Load(); n != 1 {
		t.Fatalf("%d requests sent, want the root turn only", n)
	}
	if res.Counters.ModelCalls != 2 || res.UsageByDepth[1].TotalTokens != 10 || res.UsageByDepth[1].Calls != 1 {
		t.Fatalf("counters %+v usage by depth %+v", res.Counters, res.UsageByDepth)
	}
}

func TestDefaultExecutorIsInProcess(t *testing.T) {
	f := newFixture(t, haystack, Config{}, reply("Query: q", `{"answer":"a"}`))
	if _, ok := f.eng.Config().Executor.(InProcess); !ok {
		t.Fatalf("default executor %T", f.eng.Config().Executor)
	}
}

// The engine links neither DBOS nor a database driver: only package
// durable does, so rlm run without --db and the demo need no database.
func TestEngineLinksNoDatabase(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool to list the engine's dependencies")
	}
	out, err := exec.Command(goTool, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.Contains(dep, "dbos-transact-golang") || strings.Contains(dep, "jackc/") || strings.HasSuffix(dep, "/durable") {
			t.Fatalf("engine depends on %s", dep)
		}
	}
}
