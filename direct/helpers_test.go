package direct

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/effect"
	"github.com/rlm-go/rlm/model/openai"
	"github.com/rlm-go/rlm/model/replay"
	"github.com/rlm-go/rlm/prompt"
	"github.com/rlm-go/rlm/tool"
	"github.com/rlm-go/rlm/tool/builtin"
	"github.com/rlm-go/rlm/workspace"
)

// tc is one tool call in a scripted response.
type tc struct{ id, name, args, typ string }

func call(id, name, args string) tc { return tc{id: id, name: name, args: args} }

// completion builds a chat.completion JSON object with text (null when
// empty and calls exist) and tool calls.
func completion(text string, calls ...tc) json.RawMessage {
	msg := map[string]any{"role": "assistant", "content": text}
	finish := "stop"
	if len(calls) > 0 {
		finish = "tool_calls"
		if text == "" {
			msg["content"] = nil
		}
		var list []any
		for _, c := range calls {
			typ := c.typ
			if typ == "" {
				typ = "function"
			}
			list = append(list, map[string]any{"id": c.id, "type": typ, "function": map[string]any{"name": c.name, "arguments": c.args}})
		}
		msg["tool_calls"] = list
	}
	comp := map[string]any{
		"id": "chatcmpl-test", "object": "chat.completion", "created": 1, "model": "test-model",
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
		"usage":   map[string]any{"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110},
	}
	raw, err := json.Marshal(comp)
	if err != nil {
		panic(err)
	}
	return raw
}

func final(text string) json.RawMessage { return completion(text) }

// recServer is a replay handler behind a recording HTTP server, so tests
// go through the real HTTP provider and can inspect every request.
type recServer struct {
	*httptest.Server
	h      *replay.Handler
	mu     sync.Mutex
	bodies [][]byte
}

func newRecServer(t testing.TB, interactions []replay.Interaction) *recServer {
	t.Helper()
	rs := &recServer{h: replay.NewHandler(&replay.Cassette{Version: replay.Version, Interactions: interactions})}
	rs.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		rs.mu.Lock()
		rs.bodies = append(rs.bodies, b)
		rs.mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(b))
		rs.h.ServeHTTP(w, r)
	}))
	t.Cleanup(rs.Close)
	return rs
}

// wireRequest is the part of a chat request the tests inspect.
type wireRequest struct {
	Messages []struct {
		Role       string  `json:"role"`
		Content    *string `json:"content"`
		ToolCallID string  `json:"tool_call_id"`
	} `json:"messages"`
	Tools      []json.RawMessage `json:"tools"`
	ToolChoice any               `json:"tool_choice"`
}

func (rs *recServer) requests(t testing.TB) []wireRequest {
	t.Helper()
	rs.mu.Lock()
	defer rs.mu.Unlock()
	var out []wireRequest
	for _, b := range rs.bodies {
		var r wireRequest
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatalf("request body: %v", err)
		}
		out = append(out, r)
	}
	return out
}

// toolMessages returns the contents of every tool message the server saw
// last (the final request holds the whole conversation).
func (rs *recServer) toolMessages(t testing.TB) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, r := range rs.requests(t) {
		for _, m := range r.Messages {
			if m.Role == "tool" && m.Content != nil {
				out[m.ToolCallID] = *m.Content
			}
		}
	}
	return out
}

// fixOpts shape a fixture.
type fixOpts struct {
	tier    authority.Tier
	caps    []string
	mode    prompt.Mode
	limits  Limits
	context string
	delayMS int
	edit    func(*Config)
}

// fixture is a temp workspace with fs_* tools and counting probe tools,
// the canonical tool runtime with a journal, a context store and a
// recording replay server.
type fixture struct {
	dir    string
	srv    *recServer
	cfg    Config
	reads  atomic.Int64
	writes atomic.Int64
	// caller is the budget tracker probe_read's last call carried.
	caller     atomic.Pointer[budget.Tracker]
	blockStart chan struct{}
}

const (
	probeReadArgs  = `{"type":"object","properties":{"q":{"type":"string","minLength":1}},"required":["q"],"additionalProperties":false}`
	probeWriteArgs = `{"type":"object","properties":{"n":{"type":"integer","minimum":0}},"required":["n"],"additionalProperties":false}`
)

var allCaps = []string{"tool:fs_read", "tool:fs_list", "tool:fs_write", "tool:probe_read", "tool:probe_write",
	"context:search", "context:slice", "context:peek"}

func newFixture(t testing.TB, o fixOpts, responses ...json.RawMessage) *fixture {
	t.Helper()
	f := &fixture{dir: t.TempDir(), blockStart: make(chan struct{}, 1)}
	ws, err := workspace.Open(f.dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	reg := tool.NewRegistry()
	if err := builtin.Register(reg, ws, builtin.Options{}); err != nil {
		t.Fatal(err)
	}
	must(t, reg.Register(tool.Spec{Name: "probe_read", Description: "Read probe.", Effect: authority.EffectRead,
		Args: json.RawMessage(probeReadArgs), Result: json.RawMessage(`{"type":"object"}`),
		Handler: func(ctx context.Context, req tool.Request) (any, error) {
			f.reads.Add(1)
			tr, _ := budget.FromContext(ctx)
			f.caller.Store(tr)
			var a struct{ Q string }
			_ = json.Unmarshal(req.Args, &a)
			if a.Q == "block" {
				f.blockStart <- struct{}{}
				<-ctx.Done()
				return nil, ctx.Err()
			}
			return map[string]any{"echo": a.Q}, nil
		}}))
	must(t, reg.Register(tool.Spec{Name: "probe_write", Description: "Write probe.", Effect: authority.EffectWrite,
		Args: json.RawMessage(probeWriteArgs), Result: json.RawMessage(`{"type":"object"}`),
		Handler: func(ctx context.Context, req tool.Request) (any, error) {
			f.writes.Add(1)
			return map[string]any{"ok": true}, nil
		}}))
	j, err := effect.Open(filepath.Join(t.TempDir(), "journal.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	auth := authority.NewStore()
	tier := o.tier
	if tier == "" {
		tier = authority.Dangerous
	}
	must(t, auth.Set("test", tier))
	pool := tool.NewPool(2, 16)
	rt := tool.NewRuntime(reg, tool.Config{Authority: auth, Journal: j, Pool: pool})

	store := corpus.NewStore()
	t.Cleanup(func() { store.Close() })
	text := o.context
	if text == "" {
		text = "alpha line\nbeta NEEDLE-42 line\ngamma line\n"
	}
	h, err := store.AddString("input", text)
	must(t, err)

	var interactions []replay.Interaction
	for _, r := range responses {
		interactions = append(interactions, replay.Interaction{Response: r, DelayMS: o.delayMS})
	}
	f.srv = newRecServer(t, interactions)
	prov, err := openai.New(openai.Config{BaseURL: f.srv.URL + "/v1", Model: "test-model", MaxRetries: -1})
	must(t, err)
	caps := o.caps
	if caps == nil {
		caps = allCaps
	}
	mode := o.mode
	if mode == "" {
		mode = prompt.ModeAllTools
	}
	f.cfg = Config{Provider: prov, Capabilities: capability.MustSet(caps...), Registry: reg, Tools: rt,
		AuthorityContext: "test", Store: store, Input: h, Mode: mode, Limits: o.limits}
	if o.edit != nil {
		o.edit(&f.cfg)
	}
	return f
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) run(t testing.TB, query string) (*Result, error) {
	t.Helper()
	return f.runCtx(t, context.Background(), query)
}

func (f *fixture) runCtx(t testing.TB, ctx context.Context, query string) (*Result, error) {
	t.Helper()
	r, err := New(f.cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r.Run(ctx, query)
}

// requests is the number of provider requests served.
func (f *fixture) requests() int { return f.h().Stats().Requests }

func (f *fixture) h() *replay.Handler { return f.srv.h }

// fileExists reports whether the workspace holds name.
func (f *fixture) fileExists(name string) bool {
	_, err := os.Stat(filepath.Join(f.dir, name))
	return err == nil
}
