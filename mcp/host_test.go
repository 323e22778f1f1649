package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/effect"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/mcptest"
	"github.com/rlm-go/rlm/tool"
)

// fakeServer is the scripted server (this test binary in server mode).
func fakeServer(t *testing.T, eff authority.Effect, env ...string) (ServerConfig, string) {
	t.Helper()
	mark := filepath.Join(t.TempDir(), "mark")
	sc := ServerConfig{Command: os.Args[0], Args: []string{"-test.run=^$"}, Effect: eff,
		Env: map[string]string{mcptest.EnvServer: "1", mcptest.EnvMark: mark}}
	for i := 0; i+1 < len(env); i += 2 {
		sc.Env[env[i]] = env[i+1]
	}
	return sc, mark
}

type fixture struct {
	host *Host
	reg  *tool.Registry
	rt   *tool.Runtime
	mark string
}

func newFixture(t *testing.T, opts Options, eff authority.Effect, env ...string) *fixture {
	t.Helper()
	sc, mark := fakeServer(t, eff, env...)
	h := NewHost(Config{Servers: map[string]ServerConfig{"fake": sc}}, opts)
	t.Cleanup(func() { h.Close() })
	reg := tool.NewRegistry()
	if _, err := h.Import(context.Background(), reg); err != nil {
		t.Fatal(err)
	}
	j, err := effect.OpenDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	return &fixture{host: h, reg: reg, rt: tool.NewRuntime(reg, tool.Config{Journal: j}), mark: mark}
}

func (f *fixture) call(t *testing.T, ctx context.Context, name, args string, caps ...string) tool.Result {
	t.Helper()
	if caps == nil {
		caps = []string{"tool:mcp.fake.*"}
	}
	res, err := f.rt.Invoke(ctx, tool.Call{Name: name, Args: json.RawMessage(args),
		Invocation: tool.Invocation{Capabilities: capability.MustSet(caps...)}})
	if err != nil && ctx.Err() == nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

// mcpKind is the kind of the phase-mcp error in res's chain.
func mcpKind(res tool.Result) fault.Kind {
	var err error = res.Error
	for err != nil {
		if fe := fault.As(err); fe != nil {
			if fe.Phase == Phase {
				return fe.Kind
			}
			err = fe.Cause
			continue
		}
		break
	}
	return ""
}

func TestImportNamesSchemasAndSkips(t *testing.T) {
	h := NewHost(Config{Servers: map[string]ServerConfig{}}, Options{})
	h.Close()
	sc, _ := fakeServer(t, "")
	h = NewHost(Config{Servers: map[string]ServerConfig{"fake": sc}}, Options{})
	defer h.Close()
	reg := tool.NewRegistry()
	skipped, err := h.Import(context.Background(), reg)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range reg.Schemas() {
		names = append(names, s.Name)
		if s.Effect != authority.EffectProcess {
			t.Errorf("%s: effect %s, want the default process for a stdio server", s.Name, s.Effect)
		}
		if !strings.HasPrefix(s.Description, "MCP tool ") {
			t.Errorf("%s: description %q lacks the server prefix", s.Name, s.Description)
		}
	}
	want := []string{"mcp.fake.add", "mcp.fake.crash", "mcp.fake.echo", "mcp.fake.garbage", "mcp.fake.hang", "mcp.fake.huge", "mcp.fake.storm"}
	if !slices.Equal(names, want) {
		t.Fatalf("registered %v, want %v", names, want)
	}
	if len(skipped) != 1 || skipped[0].Tool != "bad.schema name" || skipped[0].Error.Kind != tool.KindInvalidTool {
		t.Fatalf("skipped = %+v, want the tool with the dangling $ref", skipped)
	}
	var echo *Imported
	for _, im := range h.Imported() {
		if im.Name == "mcp.fake.echo" {
			echo = &im
		}
	}
	if echo == nil || echo.Hints == nil || !echo.Hints.ReadOnlyHint || echo.Effect != authority.EffectProcess {
		t.Fatalf("echo import = %+v: the readOnlyHint is shown but the effect stays the host's default", echo)
	}
}

func TestCallThroughPipeline(t *testing.T) {
	f := newFixture(t, Options{}, authority.EffectRead)
	ctx := context.Background()
	res := f.call(t, ctx, "mcp.fake.echo", `{"text":"hi"}`)
	if res.Status != tool.StatusOK || !strings.Contains(string(res.Value), `"text":"hi"`) {
		t.Fatalf("echo = %+v", res)
	}
	// Input schema: the same validation path as every tool.
	if res := f.call(t, ctx, "mcp.fake.echo", `{"text":1}`); fault.KindOf(res.Error) != tool.KindSchemaValidation {
		t.Fatalf("bad args: %+v", res.Error)
	}
	// Capabilities: exact, server-wide wildcard, other server.
	for _, c := range []struct {
		cap string
		ok  bool
	}{{"tool:mcp.fake.echo", true}, {"tool:mcp.fake.*", true}, {"tool:mcp.*", true}, {"tool:mcp.other.*", false}, {"tool:mcp.fake.add", false}} {
		res := f.call(t, ctx, "mcp.fake.echo", `{"text":"x"}`, c.cap)
		if got := res.Status == tool.StatusOK; got != c.ok {
			t.Errorf("%s: status %s (%v)", c.cap, res.Status, res.Error)
		}
	}
	// Output schema.
	if res := f.call(t, ctx, "mcp.fake.add", `{"a":2,"b":3}`); res.Status != tool.StatusOK || !strings.Contains(string(res.Value), `"structuredContent":{"sum":5}`) {
		t.Fatalf("add = %+v %s", res.Error, res.Value)
	}
	if res := f.call(t, ctx, "mcp.fake.add", `{"a":13,"b":1}`); fault.KindOf(res.Error) != tool.KindInvalidResult {
		t.Fatalf("add violating its output schema = %+v", res.Error)
	}
	data, mime, err := f.host.ReadResource(ctx, "fake", "fake://notes/1")
	if err != nil || mime != "text/plain" || !strings.Contains(string(data), "secret number is 42") {
		t.Fatalf("resource = %q %q %v", data, mime, err)
	}
	if _, _, err := f.host.ReadResource(ctx, "nope", "x"); fault.KindOf(err) != KindUnknownServer {
		t.Fatalf("unknown server: %v", err)
	}
}

func TestDefaultEffectNeedsApproval(t *testing.T) {
	f := newFixture(t, Options{}, "")
	res := f.call(t, context.Background(), "mcp.fake.echo", `{"text":"hi"}`)
	if res.Status != tool.StatusApprovalRequired {
		t.Fatalf("an MCP tool is effectful by default and needs approval; got %+v", res)
	}
	// The host's tier decides, not the server's readOnlyHint.
	sc, _ := fakeServer(t, "")
	h := NewHost(Config{Servers: map[string]ServerConfig{"fake": sc}}, Options{})
	defer h.Close()
	reg := tool.NewRegistry()
	if _, err := h.Import(context.Background(), reg); err != nil {
		t.Fatal(err)
	}
	j, _ := effect.OpenDir(t.TempDir())
	defer j.Close()
	auth := authority.NewStore()
	if err := auth.Set("host", authority.AllowSession); err != nil {
		t.Fatal(err)
	}
	rt := tool.NewRuntime(reg, tool.Config{Journal: j, Authority: auth})
	res, err := rt.Invoke(context.Background(), tool.Call{Name: "mcp.fake.echo", Args: json.RawMessage(`{"text":"hi"}`),
		Invocation: tool.Invocation{Capabilities: capability.MustSet("tool:mcp.fake.echo"), AuthorityContext: "host"}})
	if err != nil || res.Status != tool.StatusOK {
		t.Fatalf("allow_session: %+v %v", res, err)
	}
}

// TestAuthorityCeiling: a server's authority is a ceiling its tools never
// exceed, whatever the run's tier and whatever the tool's annotations
// (echo declares readOnlyHint); a tool narrows it.
func TestAuthorityCeiling(t *testing.T) {
	sc, _ := fakeServer(t, "")
	sc.Authority = authority.AllowSession
	sc.Tools = map[string]ToolPolicy{"echo": {Authority: authority.ApproveDiff}}
	h := NewHost(Config{Servers: map[string]ServerConfig{"fake": sc}}, Options{})
	defer h.Close()
	reg := tool.NewRegistry()
	if _, err := h.Import(context.Background(), reg); err != nil {
		t.Fatal(err)
	}
	for _, im := range h.Imported() {
		want := authority.AllowSession
		if im.Tool == "echo" {
			want = authority.ApproveDiff
		}
		if s, _ := reg.Lookup(im.Name); im.AuthorityCeiling != want || s.AuthorityCeiling != want {
			t.Errorf("%s: ceiling %q (schema %q), want %q", im.Name, im.AuthorityCeiling, s.AuthorityCeiling, want)
		}
	}
	j, err := effect.OpenDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	auth := authority.NewStore()
	if err := auth.Set("host", authority.Dangerous); err != nil {
		t.Fatal(err)
	}
	rt := tool.NewRuntime(reg, tool.Config{Journal: j, Authority: auth})
	call := func(name, args string) tool.Result {
		res, err := rt.Invoke(context.Background(), tool.Call{Name: name, Args: json.RawMessage(args),
			Invocation: tool.Invocation{Capabilities: capability.MustSet("tool:mcp.fake.*"), AuthorityContext: "host"}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	// Under dangerous, echo (readOnlyHint: true) is capped at approve_diff
	// by the host, so it waits: the hint does not lift it.
	if res := call("mcp.fake.echo", `{"text":"hi"}`); res.Status != tool.StatusApprovalRequired || res.Trace.Authority != string(authority.ApproveDiff) {
		t.Fatalf("echo under a ceiling of approve_diff: %+v", res)
	}
	// add runs under the server's ceiling, allow_session, not dangerous.
	if res := call("mcp.fake.add", `{"a":1,"b":2}`); res.Status != tool.StatusOK || res.Trace.Authority != string(authority.AllowSession) {
		t.Fatalf("add under the server's ceiling: %+v", res)
	}
}

func waitFile(t *testing.T, path string) string {
	t.Helper()
	for range 500 {
		if b, err := os.ReadFile(path); err == nil {
			return string(b)
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%s never written", path)
	return ""
}

func TestHangTimesOutAndCancels(t *testing.T) {
	f := newFixture(t, Options{}, authority.EffectRead)
	res, err := f.rt.Invoke(context.Background(), tool.Call{Name: "mcp.fake.hang", Args: json.RawMessage(`{}`),
		Options:    tool.CallOptions{TimeLimit: 300 * time.Millisecond},
		Invocation: tool.Invocation{Capabilities: capability.MustSet("tool:mcp.fake.*")}})
	if err != nil || fault.KindOf(res.Error) != fault.KindTimeout {
		t.Fatalf("hang: %+v %v", res.Error, err)
	}
	if got := waitFile(t, f.mark); got != "cancelled" {
		t.Fatalf("server saw %q, want notifications/cancelled", got)
	}
	os.Remove(f.mark)
	os.Remove(f.mark + mcptest.StartedSuffix)
	// Cancelling the caller's context cancels the request too. Cancelled
	// once the server has the call: cancelled before it was sent, the
	// request never reaches the server, which then has nothing to cancel.
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan tool.Result)
	go func() { done <- f.call(t, ctx, "mcp.fake.hang", `{}`) }()
	waitFile(t, f.mark+mcptest.StartedSuffix)
	cancel()
	<-done
	if got := waitFile(t, f.mark); got != "cancelled" {
		t.Fatalf("server saw %q after context cancel", got)
	}
	// The server survives both.
	if res := f.call(t, context.Background(), "mcp.fake.echo", `{"text":"still"}`); res.Status != tool.StatusOK {
		t.Fatalf("after cancel: %+v", res.Error)
	}
}

func TestFaultsAreTyped(t *testing.T) {
	for _, c := range []struct {
		tool string
		kind fault.Kind
	}{
		{"mcp.fake.crash", KindServerCrashed},
		{"mcp.fake.garbage", KindMalformedMessage},
		{"mcp.fake.huge", KindMessageTooLarge},
	} {
		t.Run(c.tool, func(t *testing.T) {
			f := newFixture(t, Options{Backoff: func(int) time.Duration { return 0 }}, authority.EffectRead)
			pid := f.host.servers["fake"].conn.proc.cmd.Process.Pid
			res := f.call(t, context.Background(), c.tool, `{}`)
			if res.Status != tool.StatusError || mcpKind(res) != c.kind {
				t.Fatalf("%s: %+v, want mcp/%s", c.tool, res.Error, c.kind)
			}
			if c.kind == KindServerCrashed && fault.As(res.Error).Cause.(*fault.Error).Detail["exit_code"] != 3 {
				t.Errorf("exit code: %+v", fault.As(res.Error).Cause)
			}
			// The dead or dropped server is restarted on the next call.
			if res := f.call(t, context.Background(), "mcp.fake.echo", `{"text":"again"}`); res.Status != tool.StatusOK {
				t.Fatalf("restart: %+v", res.Error)
			}
			f.host.Close()
			if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
				t.Fatalf("first server process %d still exists (zombie?): %v", pid, err)
			}
		})
	}
}

func TestBackoffAndRestartLimit(t *testing.T) {
	f := newFixture(t, Options{Backoff: func(int) time.Duration { return time.Hour }}, authority.EffectRead)
	ctx := context.Background()
	if res := f.call(t, ctx, "mcp.fake.crash", `{}`); mcpKind(res) != KindServerCrashed {
		t.Fatalf("crash: %+v", res.Error)
	}
	res := f.call(t, ctx, "mcp.fake.echo", `{"text":"x"}`)
	if mcpKind(res) != KindServerUnavailable {
		t.Fatalf("during back-off: %+v", res.Error)
	}

	g := newFixture(t, Options{Backoff: func(int) time.Duration { return 0 }, MaxRestarts: 1}, authority.EffectRead)
	for i := range 2 {
		if res := g.call(t, ctx, "mcp.fake.crash", `{}`); mcpKind(res) != KindServerCrashed {
			t.Fatalf("crash %d: %+v", i, res.Error)
		}
	}
	if res := g.call(t, ctx, "mcp.fake.echo", `{"text":"x"}`); mcpKind(res) != KindServerUnavailable {
		t.Fatalf("after the restart limit: %+v", res.Error)
	}
}

func TestListChangedStorm(t *testing.T) {
	changed := make(chan string, 100)
	f := newFixture(t, Options{OnChange: func(s string) { changed <- s }}, authority.EffectRead)
	if res := f.call(t, context.Background(), "mcp.fake.storm", `{}`); res.Status != tool.StatusOK {
		t.Fatalf("storm: %+v", res.Error)
	}
	for {
		if _, ok := f.reg.Lookup("mcp.fake.added_later"); ok {
			break
		}
		if s := <-changed; s != "fake" {
			t.Fatalf("change from %q", s)
		}
	}
	if n := f.host.servers["fake"].refreshes.Load(); n >= 1000 {
		t.Fatalf("%d re-imports for 1000 notifications: storms must coalesce", n)
	}
	if res := f.call(t, context.Background(), "mcp.fake.added_later", `{}`); res.Status != tool.StatusOK {
		t.Fatalf("new tool: %+v", res.Error)
	}
}

func TestStartFailures(t *testing.T) {
	ctx := context.Background()
	h := NewHost(Config{Servers: map[string]ServerConfig{
		"missing": {Command: filepath.Join(t.TempDir(), "no-such-server")},
		"silent":  {Command: "sleep", Args: []string{"60"}, StartTimeoutMS: 300},
	}}, Options{})
	defer h.Close()
	if _, err := h.Import(ctx, tool.NewRegistry(), "missing"); fault.KindOf(err) != KindStartFailed {
		t.Fatalf("missing command: %v", err)
	}
	if _, err := h.Import(ctx, tool.NewRegistry(), "silent"); fault.KindOf(err) != KindStartTimeout {
		t.Fatalf("silent server: %v", err)
	}
	if _, err := h.Import(ctx, tool.NewRegistry(), "other"); fault.KindOf(err) != KindUnknownServer {
		t.Fatalf("unknown: %v", err)
	}
}
