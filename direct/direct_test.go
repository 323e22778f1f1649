package direct

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/prompt"
	"github.com/rlm-go/rlm/tool"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

const (
	validRead    = `{"q":"x"}`
	validWrite   = `{"n":1}`
	badWrite     = `{"n":"one"}` // schema failure
	badRead      = `{"q":7}`     // schema failure
	rawBad       = `{"n":`       // normalize failure
	fsWriteOK    = `{"path":"out.txt","content":"hello"}`
	fsWriteNoCtt = `{"path":"out.txt"}` // schema failure: content missing
)

// wantFault asserts err is an *Error with the given phase and kind.
func wantFault(t *testing.T, err error, phase fault.Phase, kind fault.Kind) *Error {
	t.Helper()
	if err == nil {
		t.Fatalf("want %s/%s, got nil", phase, kind)
	}
	if fault.PhaseOf(err) != phase || fault.KindOf(err) != kind {
		t.Fatalf("want %s/%s, got %v", phase, kind, err)
	}
	var de *Error
	if !errors.As(err, &de) {
		t.Fatalf("error is not a *direct.Error: %T", err)
	}
	return de
}

// TestEffectIsolationMatrix: any effectful call in a multi-call batch,
// including one whose arguments failed validation or normalization, makes
// the batch fatal; no sibling runs and there is no further provider turn.
func TestEffectIsolationMatrix(t *testing.T) {
	cases := []struct {
		name  string
		calls []tc
	}{
		{"malformed_effectful_then_valid_read", []tc{call("c1", "probe_write", badWrite), call("c2", "probe_read", validRead)}},
		{"valid_read_then_malformed_effectful", []tc{call("c1", "probe_read", validRead), call("c2", "probe_write", badWrite)}},
		{"malformed_effectful_then_malformed_read", []tc{call("c1", "probe_write", badWrite), call("c2", "probe_read", badRead)}},
		{"malformed_read_then_malformed_effectful", []tc{call("c1", "probe_read", badRead), call("c2", "probe_write", badWrite)}},
		{"raw_malformed_effectful_then_valid_read", []tc{call("c1", "probe_write", rawBad), call("c2", "probe_read", validRead)}},
		{"valid_read_then_raw_malformed_effectful", []tc{call("c1", "probe_read", validRead), call("c2", "probe_write", rawBad)}},
		{"valid_effectful_then_valid_read", []tc{call("c1", "probe_write", validWrite), call("c2", "probe_read", validRead)}},
		{"valid_effectful_then_unknown", []tc{call("c1", "probe_write", validWrite), call("c2", "nope", validRead)}},
		{"fs_write_malformed_then_context_search", []tc{call("c1", "fs_write", fsWriteNoCtt), call("c2", "context_search", `{"query":"NEEDLE"}`)}},
		{"fs_write_valid_then_fs_read", []tc{call("c1", "fs_write", fsWriteOK), call("c2", "fs_read", `{"path":"out.txt"}`)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, fixOpts{}, completion("", c.calls...), final("must not be reached"))
			res, err := f.run(t, "use probe_read probe_write")
			de := wantFault(t, err, PhaseNativeCall, KindEffectfulBatchUnsupported)
			if got := f.reads.Load() + f.writes.Load(); got != 0 {
				t.Errorf("handlers ran %d times", got)
			}
			if f.fileExists("out.txt") {
				t.Error("fs_write ran")
			}
			if f.requests() != 1 {
				t.Errorf("provider requests = %d, want 1 (no repair turn)", f.requests())
			}
			if de.ToolCalls != 0 || de.ContextCalls != 0 || res.ToolCalls != 0 {
				t.Errorf("calls charged: %+v", de)
			}
			if de.Usage.TotalTokens != 110 || de.Turns != 1 {
				t.Errorf("usage of the rejected response not charged: %+v", de.Usage)
			}
		})
	}
}

// TestSingletonMalformedEffectfulIsRepairable: alone, a malformed effectful
// call gets a repair observation, its handler never runs, and the next
// turn can succeed.
func TestSingletonMalformedEffectfulIsRepairable(t *testing.T) {
	for _, args := range []string{fsWriteNoCtt, `{"path":"out.txt",`} {
		t.Run(args, func(t *testing.T) {
			f := newFixture(t, fixOpts{},
				completion("", call("w1", "fs_write", args)),
				completion("", call("w2", "fs_write", fsWriteOK)),
				final("written"))
			res, err := f.run(t, "write out.txt with fs_write")
			if err != nil {
				t.Fatal(err)
			}
			if res.Answer != "written" || res.ToolCalls != 1 || res.Turns != 3 {
				t.Fatalf("result %+v", res)
			}
			b, err := os.ReadFile(filepath.Join(f.dir, "out.txt"))
			if err != nil || string(b) != "hello" {
				t.Fatalf("file = %q, %v", b, err)
			}
			obs := f.srv.toolMessages(t)
			if !strings.Contains(obs["w1"], `"status":"rejected"`) || !strings.Contains(obs["w1"], `"malformed_arguments"`) {
				t.Errorf("repair observation = %s", obs["w1"])
			}
			// The second request already carries the repair observation, and
			// the write had not happened then: the handler count after turn 1
			// was 0 (only one tool call was ever charged).
			kinds := eventTypes(res.Events)
			if !slices.Equal(kinds, []string{"model", "native_call_rejected", "model", "native_tool", "model"}) {
				t.Errorf("events = %v", kinds)
			}
		})
	}
}

func eventTypes(evs []Event) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e.Type)
	}
	return out
}

// TestRecoverableFaultsKeepValidSiblingsInOrder: recoverable faults become
// repair observations and valid read siblings run, in provider order.
func TestRecoverableFaultsKeepValidSiblingsInOrder(t *testing.T) {
	f := newFixture(t, fixOpts{},
		completion("", call("a", "nope", validRead), call("b", "probe_read", validRead), call("c", "probe_read", `{"q":"x","q":"y"}`),
			call("d", "probe_read", badRead), call("e", "context_search", `{"query":"NEEDLE"}`)),
		final("done"))
	res, err := f.run(t, "probe")
	if err != nil {
		t.Fatal(err)
	}
	if f.reads.Load() != 1 || res.ToolCalls != 1 || res.ContextCalls != 1 {
		t.Fatalf("reads=%d result=%+v", f.reads.Load(), res)
	}
	var got []string
	for _, e := range res.Events {
		if e.CallID != "" {
			got = append(got, e.CallID+":"+e.Type+":"+e.Phase+"/"+e.Kind)
		}
	}
	want := []string{"a:native_call_rejected:catalog/unavailable_tool_schema", "b:native_tool:/",
		"c:native_call_rejected:normalize/malformed_arguments", "d:native_call_rejected:schema/malformed_arguments", "e:native_context:/"}
	if !slices.Equal(got, want) {
		t.Fatalf("events\n got %v\nwant %v", got, want)
	}
	last := f.srv.requests(t)[1]
	var ids []string
	for _, m := range last.Messages {
		if m.Role == "tool" {
			ids = append(ids, m.ToolCallID)
		}
	}
	if !slices.Equal(ids, []string{"a", "b", "c", "d", "e"}) {
		t.Errorf("tool message order %v", ids)
	}
	if obs := f.srv.toolMessages(t)["e"]; !strings.Contains(obs, "NEEDLE-42") {
		t.Errorf("context observation %s", obs)
	}
}

// TestCallIDReuseAcrossTurnsIsFatal covers ids of executed and of faulted
// calls.
func TestCallIDReuseAcrossTurnsIsFatal(t *testing.T) {
	cases := []struct {
		name      string
		first     tc
		wantReads int64
	}{
		{"executed_id", call("c1", "probe_read", validRead), 1},
		{"faulted_id", call("c1", "nope", validRead), 0},
		{"malformed_id", call("c1", "probe_read", rawBad), 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, fixOpts{},
				completion("", c.first),
				completion("", call("c2", "probe_read", validRead), call("c1", "probe_read", validRead)),
				final("unreachable"))
			_, err := f.run(t, "probe")
			wantFault(t, err, PhaseNativeCall, KindDuplicateCallID)
			if f.reads.Load() != c.wantReads {
				t.Errorf("reads = %d, want %d (the valid sibling must not run)", f.reads.Load(), c.wantReads)
			}
			if f.requests() != 2 {
				t.Errorf("requests = %d", f.requests())
			}
		})
	}
}

// TestBatchFatalBeforeExecution: cardinality, budgets, in-batch duplicate
// ids and malformed envelopes reject the whole batch before any handler.
func TestBatchFatalBeforeExecution(t *testing.T) {
	three := []tc{call("a", "probe_read", validRead), call("b", "probe_read", rawBad), call("c", "probe_read", validRead)}
	cases := []struct {
		name   string
		limits Limits
		calls  []tc
		phase  fault.Phase
		kind   fault.Kind
	}{
		{"cardinality", Limits{MaxNativeCallsPerBatch: 2}, three, PhaseNativeCall, KindBatchTooLarge},
		{"tool_budget", Limits{Limits: budget.Limits{MaxToolCalls: 1}}, three, PhaseNativeCall, KindToolCallBudget},
		{"context_budget", Limits{Limits: budget.Limits{MaxContextOps: 1}},
			[]tc{call("a", "context_search", `{"query":"a"}`), call("b", "context_peek", `{"selector":"head"}`), call("c", "probe_read", validRead)},
			PhaseNativeCall, KindContextCallBudget},
		{"duplicate_id_in_batch", Limits{}, []tc{call("a", "probe_read", validRead), call("a", "probe_read", validRead)}, PhaseNativeCall, KindDuplicateCallID},
		{"malformed_call_id", Limits{}, []tc{call("a", "probe_read", validRead), call("bad id!", "probe_read", validRead)}, PhaseNativeCall, KindMalformedCallID},
		{"long_call_id", Limits{}, []tc{call(strings.Repeat("x", 129), "probe_read", validRead)}, PhaseNativeCall, KindMalformedCallID},
		{"malformed_name", Limits{}, []tc{call("a", "probe_read", validRead), call("b", "probe read", validRead)}, PhaseNativeCall, KindMalformedProtocolToken},
		{"unsupported_type", Limits{}, []tc{call("a", "probe_read", validRead), {id: "b", name: "probe_read", args: validRead, typ: "custom"}}, PhaseNativeCall, KindUnsupportedCallType},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, fixOpts{limits: c.limits}, completion("text does not rescue", c.calls...), final("unreachable"))
			res, err := f.run(t, "probe")
			de := wantFault(t, err, c.phase, c.kind)
			if f.reads.Load() != 0 || de.ToolCalls != 0 || de.ContextCalls != 0 || f.requests() != 1 {
				t.Errorf("reads=%d err=%+v requests=%d", f.reads.Load(), de, f.requests())
			}
			if res.Status != StatusError || res.Answer != "" {
				t.Errorf("result %+v", res)
			}
		})
	}
}

// TestFaultedSiblingsDoNotConsumeBatchBudget: only resolved calls count
// against the remaining budget.
func TestFaultedSiblingsDoNotConsumeBatchBudget(t *testing.T) {
	f := newFixture(t, fixOpts{limits: Limits{Limits: budget.Limits{MaxToolCalls: 1}}},
		completion("", call("a", "probe_read", validRead), call("b", "nope", "{}"), call("c", "probe_read", badRead)),
		final("done"))
	res, err := f.run(t, "probe")
	if err != nil || res.ToolCalls != 1 || f.reads.Load() != 1 {
		t.Fatalf("res=%+v err=%v", res, err)
	}
}

// TestTextWithCallsIsNeverFinal: text beside tool calls is not an answer.
func TestTextWithCallsIsNeverFinal(t *testing.T) {
	f := newFixture(t, fixOpts{}, completion("premature answer", call("a", "probe_read", validRead)), final("real answer"))
	res, err := f.run(t, "probe")
	if err != nil || res.Answer != "real answer" || f.reads.Load() != 1 {
		t.Fatalf("res=%+v err=%v", res, err)
	}
	if m := f.srv.requests(t)[1].Messages[2]; m.Role != "assistant" || m.Content == nil || *m.Content != "premature answer" {
		t.Errorf("assistant message not kept: %+v", m)
	}
}

// TestMissingFinalOutput: no calls and no text ends the run, usage charged.
func TestMissingFinalOutput(t *testing.T) {
	f := newFixture(t, fixOpts{}, final(""))
	_, err := f.run(t, "hello")
	de := wantFault(t, err, "provider", model.KindMissingFinalOutput)
	if de.Turns != 1 || de.Usage.TotalTokens != 110 || len(de.Events) != 1 {
		t.Errorf("error state %+v", de)
	}
}

// TestAdmission: model-call and token budgets are checked before each
// request, tokens by the request's worst case.
func TestAdmission(t *testing.T) {
	t.Run("model_calls", func(t *testing.T) {
		f := newFixture(t, fixOpts{limits: Limits{Limits: budget.Limits{MaxModelCalls: 1}}},
			completion("", call("a", "probe_read", validRead)), final("unreachable"))
		_, err := f.run(t, "probe")
		de := wantFault(t, err, fault.PhaseBudget, budget.KindMaxModelCalls)
		if f.requests() != 1 || de.ToolCalls != 1 || f.reads.Load() != 1 {
			t.Errorf("requests=%d err=%+v", f.requests(), de)
		}
	})
	t.Run("tokens", func(t *testing.T) {
		f := newFixture(t, fixOpts{limits: Limits{Limits: budget.Limits{MaxTotalTokens: 100}}},
			completion("", call("a", "probe_read", validRead)), final("unreachable"))
		_, err := f.run(t, "probe")
		wantFault(t, err, fault.PhaseBudget, budget.KindMaxTotalTokens)
		// Refused before sending: the first request's worst case (its
		// prompt plus max_tokens) does not fit 100 tokens.
		if f.requests() != 0 {
			t.Errorf("requests=%d", f.requests())
		}
	})
}

// TestObservationBytesCountAgainstOutput: observations are not silently
// truncated; going over max_output_bytes ends the run.
func TestObservationBytesCountAgainstOutput(t *testing.T) {
	f := newFixture(t, fixOpts{limits: Limits{Limits: budget.Limits{MaxOutputBytes: 80}}},
		completion("", call("a", "probe_read", `{"q":"`+strings.Repeat("z", 100)+`"}`)), final("unreachable"))
	_, err := f.run(t, "probe")
	de := wantFault(t, err, fault.PhaseBudget, budget.KindMaxOutputBytes)
	if de.ToolCalls != 1 || de.OutputBytes != 0 {
		t.Errorf("err state %+v", de)
	}
	f2 := newFixture(t, fixOpts{limits: Limits{Limits: budget.Limits{MaxOutputBytes: 500}}},
		completion("", call("a", "probe_read", validRead)), final("ok"))
	res, err := f2.run(t, "probe")
	if err != nil || res.ObservationBytes == 0 || res.OutputBytes != res.ObservationBytes+2 {
		t.Fatalf("res=%+v err=%v", res, err)
	}
}

// TestRunEndingToolOutcomes: approval_required, capability denial and a
// replayed effect end the run with typed errors; plain tool errors are
// observations.
func TestRunEndingToolOutcomes(t *testing.T) {
	t.Run("approval_required", func(t *testing.T) {
		f := newFixture(t, fixOpts{tier: authority.ApproveDiff}, completion("", call("w", "fs_write", fsWriteOK)), final("unreachable"))
		_, err := f.run(t, "write")
		de := wantFault(t, err, PhaseAuthority, authority.KindApprovalRequired)
		if f.fileExists("out.txt") || f.requests() != 1 || de.ToolCalls != 1 {
			t.Errorf("file=%v requests=%d err=%+v", f.fileExists("out.txt"), f.requests(), de)
		}
		if ev := de.Events[len(de.Events)-1]; ev.Type != EventNativeTool || ev.Status != "approval_required" {
			t.Errorf("last event %+v", ev)
		}
	})
	t.Run("capability_denied", func(t *testing.T) {
		// Visible is not authorized: the runtime re-checks capabilities.
		f := newFixture(t, fixOpts{edit: func(c *Config) {
			inner := c.Tools
			c.Tools = invokerFunc(func(ctx context.Context, cl tool.Call) (tool.Result, error) {
				cl.Invocation.Capabilities = capability.MustSet("context:search")
				return inner.Invoke(ctx, cl)
			})
		}}, completion("", call("a", "probe_read", validRead)), final("unreachable"))
		_, err := f.run(t, "probe")
		wantFault(t, err, fault.PhaseTool, capability.KindDenied)
		if f.reads.Load() != 0 || f.requests() != 1 {
			t.Errorf("reads=%d requests=%d", f.reads.Load(), f.requests())
		}
	})
	t.Run("replayed_effect", func(t *testing.T) {
		// One call id for every call of the run: the second write is the
		// first one again, and its replay is not fresh authority.
		f := newFixture(t, fixOpts{},
			completion("", call("w1", "probe_write", validWrite)),
			completion("", call("w2", "probe_write", validWrite)),
			final("unreachable"))
		_, err := f.runCtx(t, tool.WithCallID(context.Background(), "same"), "write twice")
		wantFault(t, err, PhaseEffect, KindEffectfulReplayDenied)
		if f.writes.Load() != 1 {
			t.Errorf("writes = %d, want 1", f.writes.Load())
		}
	})
	t.Run("resumed_run_replays", func(t *testing.T) {
		// A resumed run gets its own recorded effect back as an
		// observation; nothing runs twice.
		f := newFixture(t, fixOpts{},
			completion("", call("w1", "probe_write", validWrite)), final("first"),
			completion("", call("w9", "probe_write", validWrite)), final("resumed"))
		run := tool.NewRun()
		if res, err := f.runCtx(t, tool.WithRun(context.Background(), run), "write"); err != nil || res.Answer != "first" {
			t.Fatalf("first run: %+v %v", res, err)
		}
		resumed := tool.ResumeRun(run.ID())
		res, err := f.runCtx(t, tool.WithRun(context.Background(), resumed), "write")
		if err != nil || res.Answer != "resumed" || f.writes.Load() != 1 || resumed.Replayed() != 1 {
			t.Fatalf("resumed run: %+v %v writes=%d replayed=%d", res, err, f.writes.Load(), resumed.Replayed())
		}
	})
	t.Run("tool_error_is_observation", func(t *testing.T) {
		f := newFixture(t, fixOpts{}, completion("", call("r", "fs_read", `{"path":"../etc/passwd"}`)), final("done"))
		res, err := f.run(t, "read")
		if err != nil || res.Answer != "done" {
			t.Fatalf("res=%+v err=%v", res, err)
		}
		obs := f.srv.toolMessages(t)["r"]
		if !strings.Contains(obs, `"status":"error"`) || !strings.Contains(obs, `"confinement_denied"`) {
			t.Errorf("observation %s", obs)
		}
	})
}

type invokerFunc func(ctx context.Context, c tool.Call) (tool.Result, error)

func (f invokerFunc) Invoke(ctx context.Context, c tool.Call) (tool.Result, error) { return f(ctx, c) }

// TestObservationsNeverLeakInternals: every observation the model sees
// has only whitelisted keys and none of the binding, effect, capability,
// authority or validator text.
func TestObservationsNeverLeakInternals(t *testing.T) {
	f := newFixture(t, fixOpts{},
		completion("", call("a", "fs_write", `{"path":"out.txt","content":1,"extra":true}`)),
		completion("", call("b", "probe_write", rawBad)),
		completion("", call("c", "secret_tool", validRead), call("d", "probe_read", `{"q":"x","zz":1}`), call("e", "fs_read", `{"path":"/abs"}`),
			call("g", "context_peek", `{"selector":"metadata"}`)),
		final("done"))
	res, err := f.run(t, "probe")
	if err != nil {
		t.Fatal(err)
	}
	obs := f.srv.toolMessages(t)
	if len(obs) != 6 {
		t.Fatalf("observations: %v", obs)
	}
	for id, content := range obs {
		checkObservation(t, id, content)
	}
	if res.ToolCalls != 1 || res.ContextCalls != 1 {
		t.Errorf("result %+v", res)
	}
}

var forbiddenInObservations = []string{`"effect"`, `"binding"`, `"capability"`, "tool:", "context:", `"authority"`, "approve_diff", "dangerous",
	"schema_validation_failed", "does not match", "handler", "$term", "network_write", `"write"`, "validation failed", "jsonschema", "rlm.invalid", "\"handle\"", "/tmp"}

func checkObservation(t testing.TB, id, content string) {
	t.Helper()
	for _, bad := range forbiddenInObservations {
		if strings.Contains(content, bad) {
			t.Errorf("observation %s leaks %q: %s", id, bad, content)
		}
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(content), &m); err != nil {
		t.Fatalf("observation %s is not a JSON object: %v", id, err)
	}
	allowed := []string{"call_id", "name", "status", "value", "truncated", "error"}
	for k := range m {
		if !slices.Contains(allowed, k) {
			t.Errorf("observation %s has key %q", id, k)
		}
	}
	if raw, ok := m["error"]; ok {
		var e map[string]json.RawMessage
		if err := json.Unmarshal(raw, &e); err != nil {
			t.Fatal(err)
		}
		for k := range e {
			if !slices.Contains([]string{"phase", "kind", "message", "detail"}, k) {
				t.Errorf("observation %s error has key %q", id, k)
			}
		}
		if d, ok := e["detail"]; ok {
			var dm map[string]json.RawMessage
			if err := json.Unmarshal(d, &dm); err != nil {
				t.Fatal(err)
			}
			for k, v := range dm {
				if !slices.Contains(detailKeys, k) {
					t.Errorf("observation %s detail has key %q", id, k)
				}
				if len(v) > 4*maxDetailString*maxDetailList {
					t.Errorf("observation %s detail %q is unbounded", id, k)
				}
			}
		}
	}
}

// TestSchemasStableAcrossTurns: the schema list is computed once and sent
// unchanged on every turn with tool_choice auto.
func TestSchemasStableAcrossTurns(t *testing.T) {
	for _, mode := range []prompt.Mode{prompt.ModeAllTools, prompt.ModeCompiled} {
		t.Run(string(mode), func(t *testing.T) {
			f := newFixture(t, fixOpts{mode: mode},
				completion("", call("a", "probe_read", validRead)),
				completion("", call("b", "context_search", `{"query":"beta"}`)),
				final("done"))
			res, err := f.run(t, "use probe_read and fs_read")
			if err != nil {
				t.Fatal(err)
			}
			reqs := f.srv.requests(t)
			if len(reqs) != 3 {
				t.Fatalf("requests %d", len(reqs))
			}
			for i, r := range reqs {
				if fmt.Sprint(r.ToolChoice) != "auto" {
					t.Errorf("turn %d tool_choice %v", i, r.ToolChoice)
				}
				if len(r.Tools) != len(reqs[0].Tools) {
					t.Fatalf("turn %d tools differ", i)
				}
				for j := range r.Tools {
					if string(r.Tools[j]) != string(reqs[0].Tools[j]) {
						t.Errorf("turn %d tool %d differs", i, j)
					}
				}
			}
			if !slices.Contains(res.Tools, "probe_read") || res.Tools[0] != ToolContextSearch {
				t.Errorf("tools %v", res.Tools)
			}
		})
	}
}

// TestContextToolsFollowCapabilities: each context tool appears only
// when its capability is granted, and the system prompt says whether
// context tools exist.
func TestContextToolsFollowCapabilities(t *testing.T) {
	cases := []struct {
		caps []string
		want []string
	}{
		{[]string{"tool:probe_read"}, []string{"probe_read"}},
		{[]string{"context:search"}, []string{"context_search"}},
		{[]string{"context:peek", "context:slice", "tool:fs_read"}, []string{"context_slice", "context_peek", "fs_read"}},
		{[]string{"context:*", "tool:probe_write"}, []string{"context_search", "context_slice", "context_peek", "probe_write"}},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.caps, ","), func(t *testing.T) {
			f := newFixture(t, fixOpts{caps: c.caps}, final("hi"))
			res, err := f.run(t, "hello")
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(res.Tools, c.want) {
				t.Errorf("tools %v, want %v", res.Tools, c.want)
			}
			sys := *f.srv.requests(t)[0].Messages[0].Content
			hasCtx := strings.HasPrefix(c.want[0], "context_")
			if strings.Contains(sys, "No context operations are granted") == hasCtx {
				t.Errorf("system prompt context variant wrong: %s", sys)
			}
		})
	}
}

// TestCancellation: cancellation during a tool or a provider call ends the
// run as cancelled, with state attached, and is never an observation.
func TestCancellation(t *testing.T) {
	t.Run("during_tool", func(t *testing.T) {
		f := newFixture(t, fixOpts{}, completion("", call("a", "probe_read", `{"q":"block"}`), call("b", "probe_read", validRead)), final("unreachable"))
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go func() {
			<-f.blockStart
			cancel()
		}()
		_, err := f.runCtx(t, ctx, "probe")
		de := wantFault(t, err, fault.PhaseExecute, fault.KindCancelled)
		if de.Turns != 1 || de.ToolCalls != 1 || de.Usage.TotalTokens != 110 || f.reads.Load() != 1 || f.requests() != 1 {
			t.Errorf("err state %+v reads=%d", de, f.reads.Load())
		}
		for _, e := range de.Events {
			if e.Type == EventRejected {
				t.Errorf("cancellation became a repair observation: %+v", e)
			}
		}
	})
	t.Run("during_provider", func(t *testing.T) {
		f := newFixture(t, fixOpts{delayMS: 5000}, final("late"))
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		_, err := f.runCtx(t, ctx, "slow")
		if fault.KindOf(err) != fault.KindCancelled && fault.KindOf(err) != fault.KindTimeout {
			t.Fatalf("err = %v", err)
		}
		var de *Error
		if !errors.As(err, &de) {
			t.Fatalf("no state on cancellation: %T", err)
		}
	})
}

// TestDeadlineSynthesis: inside the reserve the request has no tools and
// asks for the final answer.
func TestDeadlineSynthesis(t *testing.T) {
	now := time.Unix(1000, 0)
	f := newFixture(t, fixOpts{edit: func(c *Config) {
		c.Deadline, c.SynthesisReserve, c.Now = now.Add(time.Second), time.Minute, func() time.Time { return now }
	}}, final("synthesized"))
	res, err := f.run(t, "probe")
	if err != nil || res.Answer != "synthesized" {
		t.Fatalf("res=%+v err=%v", res, err)
	}
	r := f.srv.requests(t)[0]
	if len(r.Tools) != 0 || r.ToolChoice != nil {
		t.Errorf("synthesis request carries tools")
	}
	if last := r.Messages[len(r.Messages)-1]; last.Content == nil || !strings.Contains(*last.Content, "FINAL SYNTHESIS") {
		t.Errorf("no synthesis directive")
	}
	if res.Events[0].Type != EventSynthesis {
		t.Errorf("events %v", eventTypes(res.Events))
	}
	// Tool calls in the synthesis turn are fatal.
	g := newFixture(t, fixOpts{edit: func(c *Config) {
		c.Deadline, c.SynthesisReserve, c.Now = now, time.Minute, func() time.Time { return now }
	}}, completion("", call("a", "probe_read", validRead)))
	_, err = g.run(t, "probe")
	wantFault(t, err, PhaseNativeCall, KindSynthesisToolCalls)
	if g.reads.Load() != 0 {
		t.Error("a tool ran in the synthesis turn")
	}
}

// TestNewRejectsBadConfig covers setup errors.
func TestNewRejectsBadConfig(t *testing.T) {
	f := newFixture(t, fixOpts{})
	cases := map[string]func(c *Config){
		"no_provider":   func(c *Config) { c.Provider = nil },
		"no_runtime":    func(c *Config) { c.Tools = nil },
		"bad_mode":      func(c *Config) { c.Mode = "everything" },
		"neg_tokens":    func(c *Config) { c.MaxTokens = -1 },
		"neg_reserve":   func(c *Config) { c.SynthesisReserve = -time.Second },
		"no_input":      func(c *Config) { c.Input = corpus.Handle{} },
		"bad_ctx_limit": func(c *Config) { c.ContextLimits.MaxBytes = -1 },
	}
	for name, edit := range cases {
		t.Run(name, func(t *testing.T) {
			c := f.cfg
			edit(&c)
			if _, err := New(c); fault.PhaseOf(err) == "" {
				t.Fatalf("err = %v", err)
			}
		})
	}
}
