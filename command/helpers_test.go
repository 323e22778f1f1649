package command

import (
	"context"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/rlm-go/rlm/agent"
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/openai"
	"github.com/rlm-go/rlm/model/replay"
	"github.com/rlm-go/rlm/subagent"
	"github.com/rlm-go/rlm/tool"
)

func reply(match, content string, delayMS int) replay.Interaction {
	in := replay.Reply(match, model.Response{Text: content, Meta: model.Meta{Model: "test-model"},
		Usage: budget.Usage{PromptTokens: 100, CompletionTokens: 10, TotalTokens: 110, TokensKnown: true}})
	in.DelayMS = delayMS
	return in
}

var contextCaps = []string{"context:peek", "context:slice", "context:search", "context:partition", "context:map", "context:reduce"}

func loadKB(t testing.TB) *KB {
	t.Helper()
	kb, err := LoadKB(filepath.Join("testdata", "kb.json"))
	if err != nil {
		t.Fatal(err)
	}
	return kb
}

// host is an agent runtime with a parent agent and a base subagent
// configuration whose completer runs the engine against a replay server.
type host struct {
	srv        *replay.Server
	rt         *agent.Runtime
	parent     agent.ID
	parentCaps capability.Set
	base       subagent.Config
	completes  atomic.Int64
}

func newHost(t testing.TB, parentCaps capability.Set, interactions ...replay.Interaction) *host {
	t.Helper()
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
	rt, err := agent.New(agent.Options{RootCapabilities: parentCaps})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rt.Close)
	parent, err := rt.Spawn("", agent.Spec{Name: "parent"}, parentCaps)
	if err != nil {
		t.Fatal(err)
	}
	hs := &host{srv: srv, rt: rt, parent: parent, parentCaps: parentCaps}
	ec := &subagent.EngineCompleter{Config: engine.Config{Provider: prov, Model: "test-model", Store: store}, Context: h}
	hs.base = subagent.Config{
		Runtime: rt, Parent: parent, ChildCapabilities: capability.MustSet(contextCaps...),
		Completer: subagent.CompleterFunc(func(ctx context.Context, req subagent.Request) (subagent.Completion, error) {
			hs.completes.Add(1)
			return ec.Complete(ctx, req)
		}),
	}
	return hs
}

func defaultParentCaps() capability.Set {
	return capability.MustSet(append([]string{"tool:rlm_subagent"}, contextCaps...)...)
}

// register registers rlm_subagent for cmd and returns a tool runtime over
// the registry that shares the agent runtime's authority store.
func (h *host) register(t testing.TB, reg *tool.Registry, cmd Command) *tool.Runtime {
	t.Helper()
	cfg, err := SubagentConfig(cmd, h.base)
	if err != nil {
		t.Fatal(err)
	}
	if err := subagent.Register(reg, cfg); err != nil {
		t.Fatal(err)
	}
	return tool.NewRuntime(reg, tool.Config{Authority: h.rt.Authority()})
}

func (h *host) children(t testing.TB) []agent.ID {
	t.Helper()
	c, err := h.rt.Children(h.parent)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
