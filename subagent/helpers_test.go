package subagent

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/rlm-go/rlm/agent"
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/openai"
	"github.com/rlm-go/rlm/model/replay"
	"github.com/rlm-go/rlm/tool"
)

// reply is one cassette interaction answering requests containing match
// (any request when match is empty) with content after delayMS.
func reply(match, content string, delayMS int) replay.Interaction {
	in := replay.Reply(match, model.Response{Text: content, Meta: model.Meta{Model: "test-model"},
		Usage: budget.Usage{PromptTokens: 100, CompletionTokens: 10, TotalTokens: 110, TokensKnown: true}})
	in.DelayMS = delayMS
	return in
}

func js(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func steps(s ...map[string]any) string { return js(map[string]any{"steps": s}) }

func rlmPlan(query string) string {
	return steps(
		map[string]any{"op": "rlm", "query": query, "context": map[string]any{"ref": "input", "name": "context"}, "bind": "child"},
		map[string]any{"op": "final", "value": map[string]any{"ref": "var", "name": "child"}},
	)
}

var contextCaps = []string{"context:peek", "context:slice", "context:search", "context:partition", "context:map", "context:reduce"}

// fixture is an agent runtime with a parent agent, a registry holding
// rlm_subagent, a tool runtime sharing the agent runtime's authority
// store, and an engine completer talking to a replay server over HTTP.
type fixture struct {
	srv        *replay.Server
	store      *corpus.Store
	h          corpus.Handle
	rt         *agent.Runtime
	parent     agent.ID
	parentCaps capability.Set
	reg        *tool.Registry
	tools      *tool.Runtime
	completer  *EngineCompleter
}

type setup struct {
	agent      agent.Options
	cfg        Config
	limits     budget.Limits
	parentCaps capability.Set
	childCaps  capability.Set
	noRegister bool
}

func newFixture(t testing.TB, mod func(*setup), interactions ...replay.Interaction) *fixture {
	t.Helper()
	s := &setup{
		parentCaps: capability.MustSet(append([]string{"tool:rlm_subagent"}, contextCaps...)...),
		childCaps:  capability.MustSet(contextCaps...),
		cfg:        Config{Timeout: TimeoutPolicy{Default: 5e9, Max: 10e9, Grace: 1e9}},
	}
	if mod != nil {
		mod(s)
	}
	srv := replay.NewServer(&replay.Cassette{Version: replay.Version, Interactions: interactions})
	t.Cleanup(srv.Close)
	prov, err := openai.New(openai.Config{BaseURL: srv.BaseURL(), Model: "test-model", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	store := corpus.NewStore()
	t.Cleanup(func() { store.Close() })
	h, err := store.AddString("input", "alpha\nbeta needle\ngamma\n")
	if err != nil {
		t.Fatal(err)
	}
	s.agent.RootCapabilities = s.parentCaps
	rt, err := agent.New(s.agent)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rt.Close)
	parent, err := rt.Spawn("", agent.Spec{Name: "parent"}, s.parentCaps)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{srv: srv, store: store, h: h, rt: rt, parent: parent, parentCaps: s.parentCaps, reg: tool.NewRegistry()}
	f.tools = tool.NewRuntime(f.reg, tool.Config{Authority: rt.Authority()})
	f.completer = &EngineCompleter{Config: engine.Config{Provider: prov, Model: "test-model", Store: store, Limits: s.limits}, Context: h}
	cfg := s.cfg
	cfg.Runtime, cfg.Parent, cfg.ChildCapabilities = rt, parent, s.childCaps
	if cfg.Completer == nil {
		cfg.Completer = f.completer
	}
	if !s.noRegister {
		if err := Register(f.reg, cfg); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

// call invokes rlm_subagent with args under the parent's capabilities.
func (f *fixture) call(t testing.TB, ctx context.Context, args string) (tool.Result, *Envelope) {
	t.Helper()
	res, err := f.tools.Invoke(ctx, tool.Call{Name: Name, Args: json.RawMessage(args), Invocation: tool.Invocation{Capabilities: f.parentCaps}})
	if err != nil {
		t.Fatalf("invoke: %v", err)
	}
	if res.Status != tool.StatusOK {
		return res, nil
	}
	env, err := Decode(res.Value)
	if err != nil {
		t.Fatalf("decode %s: %v", res.Value, err)
	}
	return res, env
}

func (f *fixture) children(t testing.TB) []agent.ID {
	t.Helper()
	c, err := f.rt.Children(f.parent)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// waitRequests waits until the replay server has received n model
// requests (the children's calls are in flight), failing only if that
// takes a minute. Before, tests polled for a few seconds and then went on
// regardless, so on a loaded machine they cancelled before any call.
func (f *fixture) waitRequests(t testing.TB, n int) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); f.srv.Stats().Requests < n; {
		if time.Now().After(deadline) {
			t.Fatalf("the replay server received %d model requests, want %d", f.srv.Stats().Requests, n)
		}
		time.Sleep(2 * time.Millisecond)
	}
}
