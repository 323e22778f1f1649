package tool

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/effect"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/trace"
	"github.com/rlm-go/rlm/workspace"
)

var update = flag.Bool("update", false, "rewrite golden files")

func TestMain(m *testing.M) {
	if dir := os.Getenv(crashChildEnv); dir != "" {
		runCrashChild(dir)
		os.Exit(0)
	}
	goleak.VerifyTestMain(m)
}

// fixture is a registry of test tools with handler-invocation counters.
type fixture struct {
	reg   *Registry
	rt    *Runtime
	calls map[string]*atomic.Int32
	mu    sync.Mutex
	seen  []string // args seen by the write handler
}

const echoArgs = `{"type":"object","properties":{"value":{"type":"integer","exclusiveMinimum":0,"maximum":32}},"required":["value"],"additionalProperties":false}`

func newFixture(t testing.TB, withJournal bool) *fixture {
	t.Helper()
	f := &fixture{reg: NewRegistry(), calls: map[string]*atomic.Int32{}}
	count := func(name string) *atomic.Int32 {
		c := &atomic.Int32{}
		f.calls[name] = c
		return c
	}
	echo := count("echo")
	mustRegister(t, f.reg, Spec{
		Name: "echo", Description: "echo a small integer", Effect: authority.EffectRead,
		Args:   json.RawMessage(echoArgs),
		Result: json.RawMessage(`{"type":"object","properties":{"seen":{"type":"integer","maximum":10}},"required":["seen"]}`),
		Handler: func(ctx context.Context, req Request) (any, error) {
			echo.Add(1)
			var a struct{ Value int }
			json.Unmarshal(req.Args, &a)
			return map[string]int{"seen": a.Value}, nil
		},
	})
	slow := count("slow")
	mustRegister(t, f.reg, Spec{
		Name: "slow", Effect: authority.EffectRead, Args: json.RawMessage(`{"type":"object"}`), Result: json.RawMessage(`{}`),
		Limits: Limits{TimeLimit: 30 * time.Millisecond},
		Handler: func(ctx context.Context, req Request) (any, error) {
			slow.Add(1)
			<-ctx.Done()
			return nil, ctx.Err()
		},
	})
	big := count("big")
	mustRegister(t, f.reg, Spec{
		Name: "big", Effect: authority.EffectRead, Args: json.RawMessage(`{"type":"object"}`), Result: json.RawMessage(`{"type":"string"}`),
		Limits: Limits{MaxOutputBytes: 16},
		Handler: func(ctx context.Context, req Request) (any, error) {
			big.Add(1)
			return strings.Repeat("x", 32), nil
		},
	})
	conf := count("confined")
	mustRegister(t, f.reg, Spec{
		Name: "confined", Effect: authority.EffectWrite,
		Args:   json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`),
		Result: json.RawMessage(`{"type":"object"}`),
		Preflight: func(ctx context.Context, args json.RawMessage) (json.RawMessage, map[string]any, error) {
			var a struct{ Path string }
			json.Unmarshal(args, &a)
			if strings.Contains(a.Path, "..") {
				return nil, nil, fault.New("workspace", workspace.KindConfinementDenied, "outside").With("reason", "parent_segment")
			}
			return nil, map[string]any{"resolved": "ws/" + a.Path}, nil
		},
		Handler: func(ctx context.Context, req Request) (any, error) {
			conf.Add(1)
			return map[string]any{"resolved": req.Details["resolved"]}, nil
		},
	})
	write := count("write")
	mustRegister(t, f.reg, Spec{
		Name: "write", Effect: authority.EffectWrite,
		Args:   json.RawMessage(`{"type":"object","properties":{"key":{"type":"string"},"value":{"type":"string"}},"required":["key"]}`),
		Result: json.RawMessage(`{"type":"object","properties":{"ok":{"const":true}}}`),
		Handler: func(ctx context.Context, req Request) (any, error) {
			write.Add(1)
			f.mu.Lock()
			f.seen = append(f.seen, string(req.Args))
			f.mu.Unlock()
			if req.IdempotencyKey == "" {
				return nil, errors.New("missing idempotency key")
			}
			return json.RawMessage(`{"ok":true}`), nil
		},
	})
	cfg := Config{}
	if withJournal {
		j, err := effect.Open(filepath.Join(t.TempDir(), "effects.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { j.Close() })
		cfg.Journal = j
	}
	f.rt = NewRuntime(f.reg, cfg)
	return f
}

func mustRegister(t testing.TB, r *Registry, s Spec) {
	t.Helper()
	if err := r.Register(s); err != nil {
		t.Fatal(err)
	}
}

var allCaps = capability.MustSet("tool:echo", "tool:slow", "tool:big", "tool:confined", "tool:write")

func mkCall(name, args string) Call {
	return Call{Name: name, Args: json.RawMessage(args), Invocation: Invocation{Capabilities: allCaps, AuthorityContext: "session:t"}}
}

func (f *fixture) n(name string) int32 { return f.calls[name].Load() }

func TestRegister(t *testing.T) {
	h := func(context.Context, Request) (any, error) { return nil, nil }
	obj := json.RawMessage(`{"type":"object"}`)
	cases := []struct {
		name string
		spec Spec
		kind fault.Kind
	}{
		{"ok", Spec{Name: "a.b-c_1", Effect: authority.EffectRead, Args: obj, Result: obj, Handler: h}, ""},
		{"explicit capability", Spec{Name: "cap", Capability: "tool:cap", Effect: authority.EffectRead, Args: obj, Result: obj, Handler: h}, ""},
		{"bad name", Spec{Name: "a b", Effect: authority.EffectRead, Args: obj, Result: obj, Handler: h}, KindInvalidTool},
		{"long name", Spec{Name: strings.Repeat("a", 65), Effect: authority.EffectRead, Args: obj, Result: obj, Handler: h}, KindInvalidTool},
		{"capability mismatch", Spec{Name: "m", Capability: "tool:other", Effect: authority.EffectRead, Args: obj, Result: obj, Handler: h}, KindInvalidTool},
		{"missing effect", Spec{Name: "e", Args: obj, Result: obj, Handler: h}, KindInvalidTool},
		{"unknown effect", Spec{Name: "e2", Effect: "delete_everything", Args: obj, Result: obj, Handler: h}, KindInvalidTool},
		{"missing handler", Spec{Name: "nh", Effect: authority.EffectRead, Args: obj, Result: obj}, KindInvalidTool},
		{"negative limits", Spec{Name: "nl", Effect: authority.EffectRead, Args: obj, Result: obj, Handler: h, Limits: Limits{TimeLimit: -1}}, KindInvalidTool},
		{"bad schema", Spec{Name: "bs", Effect: authority.EffectRead, Args: json.RawMessage(`{"type":5}`), Result: obj, Handler: h}, KindInvalidSchema},
		{"bad bound", Spec{Name: "bb", Effect: authority.EffectRead, Args: json.RawMessage(`{"minimum":"zero"}`), Result: obj, Handler: h}, KindInvalidSchema},
		{"external ref", Spec{Name: "er", Effect: authority.EffectRead, Args: json.RawMessage(`{"$ref":"https://example.com/s.json"}`), Result: obj, Handler: h}, KindInvalidSchema},
		{"missing result", Spec{Name: "mr", Effect: authority.EffectRead, Args: obj, Handler: h}, KindInvalidSchema},
		{"not json", Spec{Name: "nj", Effect: authority.EffectRead, Args: json.RawMessage(`{`), Result: obj, Handler: h}, KindInvalidSchema},
		{"ceiling", Spec{Name: "ceil", Effect: authority.EffectWrite, AuthorityCeiling: authority.ApproveDiff, Args: obj, Result: obj, Handler: h}, ""},
		{"allow_once ceiling", Spec{Name: "ceil1", Effect: authority.EffectWrite, AuthorityCeiling: authority.AllowOnce, Args: obj, Result: obj, Handler: h}, KindInvalidTool},
		{"unknown ceiling", Spec{Name: "ceil2", Effect: authority.EffectWrite, AuthorityCeiling: "yolo", Args: obj, Result: obj, Handler: h}, KindInvalidTool},
		{"duplicate", Spec{Name: "a.b-c_1", Effect: authority.EffectRead, Args: obj, Result: obj, Handler: h}, KindDuplicateTool},
	}
	r := NewRegistry()
	for _, c := range cases {
		if err := r.Register(c.spec); fault.KindOf(err) != c.kind {
			t.Errorf("%s: %v want %s", c.name, err, c.kind)
		}
	}
}

func TestDiscoveryGolden(t *testing.T) {
	f := newFixture(t, false)
	got, err := json.MarshalIndent(f.reg.Schemas(), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "schemas.golden.json")
	if *update {
		os.MkdirAll("testdata", 0o755)
		os.WriteFile(golden, append(got, '\n'), 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != string(got)+"\n" {
		t.Fatalf("schemas differ from %s (run with -update):\n%s", golden, got)
	}
	if strings.Contains(string(got), "andler") {
		t.Fatal("discovery mentions handlers")
	}
}

func TestPipelineFailures(t *testing.T) {
	cases := []struct {
		name    string
		call    Call
		kind    fault.Kind
		status  string
		pointer any
		handler string // tool whose counter must be...
		want    int32  // ...this after the call
	}{
		{name: "unknown tool", call: mkCall("nope", `{}`), kind: KindUnknownTool, status: "unknown_tool"},
		{name: "malformed json", call: mkCall("echo", `{"value":`), kind: KindMalformedArgs, status: "malformed_args", handler: "echo"},
		{name: "duplicate key", call: mkCall("echo", `{"value":1,"value":2}`), kind: KindMalformedArgs, status: "malformed_args", pointer: "/value", handler: "echo"},
		{name: "trailing data", call: mkCall("echo", `{"value":1} {}`), kind: KindMalformedArgs, status: "malformed_args", handler: "echo"},
		{name: "exclusive minimum boundary", call: mkCall("echo", `{"value":0}`), kind: KindSchemaValidation, status: "malformed_args", pointer: "/value", handler: "echo"},
		{name: "negative", call: mkCall("echo", `{"value":-1}`), kind: KindSchemaValidation, status: "malformed_args", pointer: "/value", handler: "echo"},
		{name: "maximum", call: mkCall("echo", `{"value":33}`), kind: KindSchemaValidation, status: "malformed_args", pointer: "/value", handler: "echo"},
		{name: "extra field", call: mkCall("echo", `{"value":1,"x":2}`), kind: KindSchemaValidation, status: "malformed_args", pointer: "", handler: "echo"},
		{name: "missing field", call: mkCall("echo", `{}`), kind: KindSchemaValidation, status: "malformed_args", pointer: "", handler: "echo"},
		{name: "huge number", call: mkCall("confined", `{"path":"a","n":1e999}`), kind: KindMalformedArgs, status: "malformed_args", handler: "confined"},
		{name: "schema wins over capability", call: func() Call {
			c := mkCall("echo", `{"value":"x"}`)
			c.Invocation.Capabilities = capability.Set{}
			return c
		}(),
			kind: KindSchemaValidation, status: "malformed_args", pointer: "/value", handler: "echo"},
		{name: "capability denied", call: func() Call {
			c := mkCall("echo", `{"value":1}`)
			c.Invocation.Capabilities = capability.MustSet("tool:other")
			return c
		}(),
			kind: capability.KindDenied, status: "capability_denied", handler: "echo"},
		{name: "invalid limits", call: func() Call { c := mkCall("echo", `{"value":1}`); c.Options.TimeLimit = -time.Second; return c }(),
			kind: budget.KindInvalidLimits, status: "invalid_limits", handler: "echo"},
		{name: "confinement", call: mkCall("confined", `{"path":"../x"}`), kind: workspace.KindConfinementDenied, status: "confinement_denied", handler: "confined"},
		{name: "timeout", call: mkCall("slow", `{}`), kind: fault.KindTimeout, status: "timeout", handler: "slow", want: 1},
		{name: "tightened timeout", call: func() Call { c := mkCall("echo", `{"value":1}`); c.Options.MaxOutputBytes = 4; return c }(),
			kind: KindOversizedOutput, status: "oversized_output", handler: "echo", want: 1},
		{name: "oversized", call: mkCall("big", `{}`), kind: KindOversizedOutput, status: "oversized_output", handler: "big", want: 1},
		{name: "invalid result", call: mkCall("echo", `{"value":11}`), kind: KindInvalidResult, status: "invalid_result", pointer: "/seen", handler: "echo", want: 1},
		{name: "no journal", call: mkCall("write", `{"key":"k"}`), kind: effect.KindStoreRequired, status: "effect_store_required", handler: "write"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, false)
			f.rt.Authority().Set("session:t", authority.Dangerous) // approval is not what is tested here
			res, err := f.rt.Invoke(context.Background(), c.call)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != StatusError || fault.KindOf(res.Error) != c.kind {
				t.Fatalf("got %s %v, want %s", res.Status, res.Error, c.kind)
			}
			if res.Trace.Status != c.status || res.Trace.Tool != c.call.Name {
				t.Fatalf("trace %+v", res.Trace)
			}
			if c.pointer != nil && res.Error.Detail["pointer"] != c.pointer {
				t.Fatalf("pointer %v want %v (%v)", res.Error.Detail["pointer"], c.pointer, res.Error)
			}
			if c.want == 0 && res.Trace.Authorization != AuthDenied {
				t.Fatalf("authorization %s", res.Trace.Authorization)
			}
			if c.handler != "" && f.n(c.handler) != c.want {
				t.Fatalf("handler ran %d times, want %d", f.n(c.handler), c.want)
			}
			if c.kind == KindOversizedOutput && res.Trace.OutputBytes == 0 {
				t.Fatal("output bytes not traced")
			}
		})
	}
}

func TestReadOKAndTraced(t *testing.T) {
	f := newFixture(t, false)
	rec := trace.NewRecorder()
	ctx := trace.WithRecorder(context.Background(), rec)
	for range 2 {
		res, err := f.rt.Invoke(ctx, mkCall("echo", `{"value":3}`))
		if err != nil || res.Status != StatusOK || string(res.Value) != `{"seen":3}` {
			t.Fatalf("%+v %v", res, err)
		}
		tr := res.Trace
		if tr.Authorization != AuthAllowed || tr.Authority != "approve_diff" || tr.Status != "ok" ||
			!strings.HasPrefix(tr.Fingerprint, "sha256:") || tr.OutputBytes != 10 || tr.ApprovalID != "" {
			t.Fatalf("trace %+v", tr)
		}
	}
	if f.n("echo") != 2 {
		t.Fatal("read tools must not be memoized")
	}
	evs := rec.Events()
	if len(evs) != 2 || evs[0].Kind != trace.KindToolCall || evs[0].Attrs[SpanAttrAuthorization] != AuthAllowed ||
		evs[0].Attrs["status"] != "ok" || evs[0].Bytes != 10 {
		t.Fatalf("events %+v", evs)
	}
}

func TestEffectApproveDiffFlow(t *testing.T) {
	f := newFixture(t, true)
	ctx := context.Background()
	res, err := f.rt.Invoke(WithCallID(ctx, "1"), mkCall("write", `{"key":"k","value":"v","token":"secret-token"}`))
	if err != nil || res.Status != StatusApprovalRequired || res.ApprovalID == "" || res.Pending == nil {
		t.Fatalf("%+v %v", res, err)
	}
	if res.Trace.Authorization != AuthPending || res.Trace.Status != "approval_required" || res.Trace.ApprovalID != res.ApprovalID {
		t.Fatalf("trace %+v", res.Trace)
	}
	if b, _ := json.Marshal(res.Pending); strings.Contains(string(b), "secret-token") {
		t.Fatalf("pending record leaks a secret: %s", b)
	}
	if f.n("write") != 0 || f.rt.Pool().Status().Running != 0 {
		t.Fatal("pending operation ran or holds a worker")
	}
	if _, err := f.rt.Approve(ctx, res.ApprovalID); err != nil {
		t.Fatal(err)
	}
	out, err := f.rt.AwaitApproval(ctx, res.ApprovalID)
	if err != nil || out.Status != StatusOK || string(out.Value) != `{"ok":true}` || out.Trace.Authorization != AuthAllowed {
		t.Fatalf("%+v %v", out, err)
	}
	if _, err := f.rt.Approve(ctx, res.ApprovalID); fault.KindOf(err) != authority.KindApprovalNotPending {
		t.Fatal(err)
	}
	// The same call again (same call id) replays the journal observation
	// without approval.
	again, err := f.rt.Invoke(WithCallID(ctx, "1"), mkCall("write", `{"key":"k","value":"v","token":"secret-token"}`))
	if err != nil || again.Status != StatusOK || again.Trace.Status != TraceStatusReplayed || !again.Replayed || f.n("write") != 1 {
		t.Fatalf("%+v %v n=%d", again, err, f.n("write"))
	}
	// Another caller's identical call is not replayed: it passes its own
	// authority check (approve_diff: pending) and nothing runs.
	other := mkCall("write", `{"key":"k","value":"v","token":"secret-token"}`)
	other.Invocation.AuthorityContext = "session:other"
	res2, err := f.rt.Invoke(WithCallID(ctx, "1"), other)
	if err != nil || res2.Status != StatusApprovalRequired || res2.Trace.Status == TraceStatusReplayed || f.n("write") != 1 {
		t.Fatalf("observation leaked across authority contexts: %+v %v n=%d", res2, err, f.n("write"))
	}
}

func TestDenyAndEdit(t *testing.T) {
	f := newFixture(t, true)
	ctx := context.Background()
	res, _ := f.rt.Invoke(ctx, mkCall("write", `{"key":"a"}`))
	f.rt.Deny(res.ApprovalID, "nope")
	out, _ := f.rt.AwaitApproval(ctx, res.ApprovalID)
	if fault.KindOf(out.Error) != authority.KindApprovalDenied || f.n("write") != 0 {
		t.Fatalf("%+v", out)
	}

	res, _ = f.rt.Invoke(ctx, mkCall("write", `{"key":"b"}`))
	if _, err := f.rt.Edit(res.ApprovalID, json.RawMessage(`{"key":5}`)); fault.KindOf(err) != KindSchemaValidation {
		t.Fatalf("invalid edit accepted: %v", err)
	}
	rec, err := f.rt.Edit(res.ApprovalID, json.RawMessage(`{"key":"c"}`))
	if err != nil || rec.ID == res.ApprovalID || rec.Fingerprint == res.Fingerprint {
		t.Fatalf("%+v %v", rec, err)
	}
	if _, err := f.rt.Approve(ctx, res.ApprovalID); fault.KindOf(err) != authority.KindApprovalNotPending {
		t.Fatalf("stale approval: %v", err)
	}
	f.rt.Approve(ctx, rec.ID)
	out, _ = f.rt.AwaitApproval(ctx, rec.ID)
	if out.Status != StatusOK || f.n("write") != 1 || f.seen[0] != `{"key":"c"}` {
		t.Fatalf("%+v seen=%v", out, f.seen)
	}
}

func TestDangerousSkipsOnlyApproval(t *testing.T) {
	f := newFixture(t, true)
	f.rt.Authority().Set("session:t", authority.Dangerous)
	ctx := context.Background()
	noCap := mkCall("confined", `{"path":"ok"}`)
	noCap.Invocation.Capabilities = capability.Set{}
	for _, c := range []struct {
		call Call
		kind fault.Kind
	}{
		{mkCall("confined", `{"path":5}`), KindSchemaValidation},
		{noCap, capability.KindDenied},
		{mkCall("confined", `{"path":"../etc"}`), workspace.KindConfinementDenied},
	} {
		res, _ := f.rt.Invoke(ctx, c.call)
		if fault.KindOf(res.Error) != c.kind {
			t.Fatalf("%v want %s", res.Error, c.kind)
		}
	}
	res, _ := f.rt.Invoke(ctx, mkCall("confined", `{"path":"ok"}`))
	if res.Status != StatusOK || string(res.Value) != `{"resolved":"ws/ok"}` || f.n("confined") != 1 {
		t.Fatalf("%+v", res)
	}
}

// TestAuthorityCeiling: a tool's authority ceiling caps the caller's tier
// through the whole pipeline: under dangerous a capped write still waits
// for approval, and an allow_once context keeps its grant for another tool.
func TestAuthorityCeiling(t *testing.T) {
	f := newFixture(t, true)
	var ran atomic.Int32
	mustRegister(t, f.reg, Spec{
		Name: "capped", Effect: authority.EffectWrite, AuthorityCeiling: authority.ApproveDiff,
		Args: json.RawMessage(`{"type":"object"}`), Result: json.RawMessage(`{}`),
		Handler: func(context.Context, Request) (any, error) { ran.Add(1); return map[string]any{}, nil },
	})
	if s, _ := f.reg.Lookup("capped"); s.AuthorityCeiling != authority.ApproveDiff {
		t.Fatalf("schema: %+v", s)
	}
	ctx := context.Background()
	call := mkCall("capped", `{}`)
	call.Invocation.Capabilities = capability.MustSet("tool:capped", "tool:write")
	for _, tier := range []authority.Tier{authority.Dangerous, authority.AllowSession, authority.AllowOnce} {
		f.rt.Authority().Set("session:t", tier)
		res, _ := f.rt.Invoke(ctx, call)
		if res.Status != StatusApprovalRequired || res.Trace.Authority != string(authority.ApproveDiff) || ran.Load() != 0 {
			t.Fatalf("%s: %+v", tier, res)
		}
	}
	if f.rt.Authority().Mode("session:t") != authority.AllowOnce {
		t.Fatal("the capped call consumed allow_once")
	}
	w := mkCall("write", `{"key":"k"}`)
	if res, _ := f.rt.Invoke(ctx, w); res.Status != StatusOK || res.Trace.Authority != "allow_once" {
		t.Fatalf("uncapped write: %+v", res)
	}
}

// A read tool under a ceiling runs at once, and its trace records the
// tier it ran under as Authorize decides it: the caller's, capped.
func TestReadTraceRecordsCappedTier(t *testing.T) {
	f := newFixture(t, true)
	call := cappedUnderDangerous(t, f, "capped_read", authority.EffectRead, authority.ApproveDiff)
	res, _ := f.rt.Invoke(context.Background(), call)
	if res.Status != StatusOK || res.Trace.Authority != string(authority.ApproveDiff) {
		t.Fatalf("want ok under approve_diff, got %+v", res)
	}
}

func TestAllowOnce(t *testing.T) {
	f := newFixture(t, true)
	ctx := context.Background()
	f.rt.Authority().Set("session:t", authority.AllowOnce)
	res, _ := f.rt.Invoke(ctx, mkCall("write", `{"key":"once"}`))
	if res.Status != StatusOK || res.Trace.Authority != "allow_once" {
		t.Fatalf("%+v", res)
	}
	if f.rt.Authority().Mode("session:t") != authority.ApproveDiff {
		t.Fatal("allow_once not consumed")
	}
	again, _ := f.rt.Invoke(ctx, mkCall("write", `{"key":"once"}`))
	if again.Status != StatusOK || again.Trace.Status != TraceStatusReplayed || f.n("write") != 1 {
		t.Fatalf("retry: %+v", again)
	}
	other, _ := f.rt.Invoke(ctx, mkCall("write", `{"key":"other"}`))
	if other.Status != StatusApprovalRequired {
		t.Fatalf("changed payload reused allow_once: %+v", other)
	}
}

func TestConcurrentEffectsRunOnce(t *testing.T) {
	for _, tier := range []authority.Tier{authority.AllowOnce, authority.AllowSession} {
		t.Run(string(tier), func(t *testing.T) {
			f := newFixture(t, true)
			f.rt.Authority().Set("session:t", tier)
			var wg sync.WaitGroup
			for range 16 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					// One call id: sixteen concurrent retries of one effect.
					res, err := f.rt.Invoke(WithCallID(context.Background(), "same"), mkCall("write", `{"key":"same"}`))
					if err != nil {
						t.Error(err)
					}
					switch {
					case res.Status == StatusOK, res.Status == StatusApprovalRequired:
					case fault.KindOf(res.Error) == effect.KindInProgress, fault.KindOf(res.Error) == authority.KindAllowOnceInFlight,
						fault.KindOf(res.Error) == authority.KindDenied, fault.KindOf(res.Error) == KindBackpressure:
					default:
						t.Errorf("unexpected %+v", res)
					}
				}()
			}
			wg.Wait()
			if f.n("write") != 1 {
				t.Fatalf("%d executions", f.n("write"))
			}
		})
	}
}

func TestApproveCancelRaceThroughPipeline(t *testing.T) {
	f := newFixture(t, true)
	ctx := context.Background()
	var ids []string
	for i := range 24 {
		res, _ := f.rt.Invoke(ctx, mkCall("write", fmt.Sprintf(`{"key":"k%d"}`, i)))
		ids = append(ids, res.ApprovalID)
	}
	if st := f.rt.Pool().Status(); st.Running != 0 || st.Queued != 0 {
		t.Fatalf("pending operations hold workers: %+v", st)
	}
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Add(2)
		go func() { defer wg.Done(); f.rt.Approve(ctx, id); f.rt.Approve(ctx, id) }()
		go func() { defer wg.Done(); f.rt.Authority().CancelOwner("session:t", "race") }()
	}
	wg.Wait()
	// Each operation ran at most once; one that resolved ok ran exactly
	// once; one denied or cancelled before its execution claim never ran.
	// (A cancellation that reached a running handler may leave it run and
	// its outcome cancelled: the claim had already happened.)
	// Every outcome first: an approved operation may still be running when
	// Approve returns, so executions are counted once all have ended.
	outs := make([]Result, len(ids))
	for i, id := range ids {
		out, err := f.rt.AwaitApproval(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		outs[i] = out
	}
	execs := map[string]int{}
	f.mu.Lock()
	for _, a := range f.seen {
		execs[a]++
	}
	f.mu.Unlock()
	for i, id := range ids {
		out := outs[i]
		n := execs[fmt.Sprintf(`{"key":"k%d"}`, i)]
		beforeClaim := out.Error != nil && out.Error.Detail["before_execution_claim"] == true
		switch {
		case n > 1:
			t.Errorf("%s ran %d times", id, n)
		case out.Status == StatusOK && n != 1:
			t.Errorf("%s resolved ok after %d executions", id, n)
		case out.Status != StatusOK && out.Error != nil && (beforeClaim || out.Error.Kind == authority.KindApprovalDenied) && n != 0:
			t.Errorf("%s ran although it ended %s before its claim", id, out.Error.Kind)
		}
	}
}

func TestBackpressureAndAwait(t *testing.T) {
	reg := NewRegistry()
	release := make(chan struct{})
	mustRegister(t, reg, Spec{Name: "block", Effect: authority.EffectRead, Args: json.RawMessage(`{}`), Result: json.RawMessage(`{}`),
		Limits: Limits{TimeLimit: 10 * time.Second},
		Handler: func(ctx context.Context, req Request) (any, error) {
			select {
			case <-release:
				return "done", nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}})
	rt := NewRuntime(reg, Config{Pool: NewPool(1, 1)})
	c := Call{Name: "block", Invocation: Invocation{Capabilities: capability.MustSet("tool:block")}}
	ctx := context.Background()
	f1 := rt.Start(ctx, c)
	f2 := rt.Start(ctx, c)
	f3 := rt.Start(ctx, c)
	if res, err := f3.Await(ctx); err != nil || fault.KindOf(res.Error) != KindBackpressure {
		t.Fatalf("%+v %v", res, err)
	}
	short, cancel := context.WithTimeout(ctx, 5*time.Millisecond)
	defer cancel()
	if _, err := f1.Await(short); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("await timeout: %v", err)
	}
	f2.Cancel()
	close(release)
	if res, err := f1.Await(ctx); err != nil || res.Status != StatusOK {
		t.Fatalf("await after timeout: %+v %v", res, err)
	}
	if _, err := f2.Await(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled future: %v", err)
	}
}

func TestCallerCancellationPropagates(t *testing.T) {
	f := newFixture(t, true)
	f.rt.Authority().Set("session:t", authority.AllowSession)
	for _, name := range []string{"slow"} {
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(5*time.Millisecond, cancel)
		c := mkCall(name, `{}`)
		c.Options.TimeLimit = time.Second
		if _, err := f.rt.Invoke(ctx, c); !errors.Is(err, context.Canceled) || fault.As(err) != nil {
			t.Fatalf("%s: got %v, want context.Canceled as itself", name, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := f.rt.Invoke(ctx, mkCall("write", `{"key":"x"}`)); !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
	if f.n("write") != 0 {
		t.Fatal("cancelled call ran")
	}
}

func FuzzInvokeArgs(f *testing.F) {
	for _, s := range []string{`{"value":1}`, `{"value":1,"value":1}`, `{"value":1e999}`, `{"value":123456789012345678901234567890}`,
		strings.Repeat(`{"a":`, 200) + `1` + strings.Repeat(`}`, 200), `[]`, `null`, `{"value":"\u0000"}`, ``} {
		f.Add([]byte(s))
	}
	fx := newFixture(f, false)
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := fx.rt.Invoke(context.Background(), mkCall("echo", string(data)))
		if err != nil {
			t.Fatal(err)
		}
		switch res.Status {
		case StatusOK:
			if res.Trace.Authorization != AuthAllowed {
				t.Fatal("ok without authorization")
			}
		case StatusError:
			if res.Error == nil || res.Error.Kind == "" {
				t.Fatalf("untyped failure %+v", res)
			}
		default:
			t.Fatalf("status %s", res.Status)
		}
	})
}

func BenchmarkReadInvoke(b *testing.B) {
	f := newFixture(b, false)
	reg := f.reg
	mustRegister(b, reg, Spec{Name: "noop", Effect: authority.EffectRead, Args: json.RawMessage(echoArgs),
		Result:  json.RawMessage(`{"type":"object"}`),
		Handler: func(context.Context, Request) (any, error) { return json.RawMessage(`{"ok":true}`), nil }})
	c := mkCall("noop", `{"value":7}`)
	c.Invocation.Capabilities = capability.MustSet("tool:noop")
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := f.rt.Invoke(ctx, c)
		if err != nil || res.Status != StatusOK {
			b.Fatal(res.Error, err)
		}
	}
}

func BenchmarkEffectInvoke(b *testing.B) {
	f := newFixture(b, true)
	f.rt.Authority().Set("session:t", authority.AllowSession)
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		res, err := f.rt.Invoke(ctx, mkCall("write", fmt.Sprintf(`{"key":"k%d"}`, i)))
		if err != nil || res.Status != StatusOK {
			b.Fatal(res.Error, err)
		}
	}
}

// A handler holding the only worker slot can make nested read and
// effectful calls on the same runtime (as a child agent's tools under
// rlm_subagent do): they run on the caller's goroutine instead of queueing
// behind the slot their own ancestor holds.
func TestNestedCallsDoNotStarveThePool(t *testing.T) {
	f := newFixture(t, true)
	rt := NewRuntime(f.reg, Config{Authority: authority.NewStore(), Journal: f.rt.journal, Pool: NewPool(1, 1)})
	if err := rt.Authority().Set("session:t", authority.Dangerous); err != nil {
		t.Fatal(err)
	}
	caps := capability.Of(capability.Tool("echo"), capability.Tool("write"), capability.Tool("outer"))
	inv := Invocation{Capabilities: caps, AuthorityContext: "session:t"}
	var inner []Status
	mustRegister(t, f.reg, Spec{
		Name: "outer", Effect: authority.EffectRead, Args: json.RawMessage(`{"type":"object"}`), Result: json.RawMessage(`{}`),
		Limits: Limits{TimeLimit: 2 * time.Second},
		Handler: func(ctx context.Context, req Request) (any, error) {
			// Another goroutine, as the agent runtime's worker would be.
			done := make(chan error, 1)
			go func() {
				for _, c := range []Call{
					{Name: "echo", Args: json.RawMessage(`{"value":1}`), Invocation: inv},
					{Name: "write", Args: json.RawMessage(`{"key":"nested"}`), Invocation: inv},
				} {
					res, err := rt.Invoke(ctx, c)
					if err != nil {
						done <- err
						return
					}
					inner = append(inner, res.Status)
				}
				done <- nil
			}()
			return map[string]any{}, <-done
		},
	})
	start := time.Now()
	res, err := rt.Invoke(context.Background(), Call{Name: "outer", Args: json.RawMessage(`{}`), Invocation: inv})
	if err != nil || res.Status != StatusOK {
		t.Fatalf("outer = %+v, %v (inner %v)", res, err, inner)
	}
	if fmt.Sprint(inner) != "[ok ok]" || f.n("echo") != 1 || f.n("write") != 1 {
		t.Fatalf("inner = %v, echo %d, write %d", inner, f.n("echo"), f.n("write"))
	}
	if time.Since(start) > time.Second {
		t.Fatalf("nested calls waited for the pool: %v", time.Since(start))
	}
	if st := rt.Pool().Status(); st.Running != 0 || st.Queued != 0 {
		t.Fatalf("pool not idle: %+v", st)
	}
	// A call that merely shares the runtime, not the slot, still queues.
	if onPool(context.Background(), rt.Pool()) {
		t.Fatal("a plain context is marked as on the pool")
	}
}

func TestUnregister(t *testing.T) {
	reg := NewRegistry()
	spec := Spec{Name: "x", Args: json.RawMessage(`{"type":"object"}`), Result: json.RawMessage(`{}`), Effect: authority.EffectRead,
		Handler: func(context.Context, Request) (any, error) { return 1, nil }}
	if err := reg.Register(spec); err != nil {
		t.Fatal(err)
	}
	if !reg.Unregister("x") || reg.Unregister("x") {
		t.Fatal("Unregister must report whether the tool was registered")
	}
	if _, ok := reg.Lookup("x"); ok {
		t.Fatal("unregistered tool still found")
	}
	if err := reg.Register(spec); err != nil {
		t.Fatalf("re-register after Unregister: %v", err)
	}
}
