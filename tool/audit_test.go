package tool

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/capability"
)

// An effectful call answered from the journal (a replay) before any
// authority decision still records in its trace the tier its tool's
// effects run under: the caller's, capped by the tool's ceiling.
func TestEffectReplayTraceRecordsCappedTier(t *testing.T) {
	f := newFixture(t, true)
	call := cappedUnderDangerous(t, f, "capped_write", authority.EffectWrite, authority.AllowSession)
	ctx := WithCallID(context.Background(), "c1")
	for i, want := range []string{"ok", TraceStatusReplayed} {
		res, err := f.rt.Invoke(ctx, call)
		if err != nil || res.Status != StatusOK || res.Trace.Status != want {
			t.Fatalf("call %d: %+v %v", i, res, err)
		}
		if res.Trace.Authority != string(authority.AllowSession) {
			t.Fatalf("call %d (%s): trace authority %q, want the capped %q", i, want, res.Trace.Authority, authority.AllowSession)
		}
	}
}

// An approved operation was authorized against its owner's context: the
// trace of its result names that owner, as a directly allowed call's does.
func TestApprovedTraceRecordsOwner(t *testing.T) {
	f := newFixture(t, true)
	ctx := context.Background()
	res, err := f.rt.Invoke(ctx, mkCall("write", `{"key":"k"}`))
	if err != nil || res.Status != StatusApprovalRequired || res.Trace.Owner != "session:t" {
		t.Fatalf("%+v %v", res, err)
	}
	if _, err := f.rt.Approve(ctx, res.ApprovalID); err != nil {
		t.Fatal(err)
	}
	out, err := f.rt.AwaitApproval(ctx, res.ApprovalID)
	if err != nil || out.Status != StatusOK || out.Trace.Authorization != AuthAllowed {
		t.Fatalf("%+v %v", out, err)
	}
	if out.Trace.Owner != "session:t" {
		t.Fatalf("approved call's trace owner %q, want session:t", out.Trace.Owner)
	}
}

// An allow-once call cancelled while it waits for a worker never runs: the
// grant is not spent on it, and the same call again runs (it does not
// replay the cancellation).
func TestAllowOnceCancelledBeforeRunKeepsGrant(t *testing.T) {
	f := newFixture(t, true)
	release := make(chan struct{})
	mustRegister(t, f.reg, Spec{Name: "block", Effect: authority.EffectRead, Args: json.RawMessage(`{}`), Result: json.RawMessage(`{}`),
		Limits: Limits{TimeLimit: 10 * time.Second},
		Handler: func(ctx context.Context, req Request) (any, error) {
			select {
			case <-release:
				return "done", nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}})
	j := f.rt.journal
	f.rt = NewRuntime(f.reg, Config{Journal: j, Pool: NewPool(1, 1)})
	ctx := context.Background()
	blocker := f.rt.Start(ctx, Call{Name: "block", Invocation: Invocation{Capabilities: capability.MustSet("tool:block")}})
	f.rt.Authority().Set("session:t", authority.AllowOnce)
	queued := f.rt.Start(ctx, mkCall("write", `{"key":"once"}`))
	queued.Cancel()
	close(release)
	if res, err := blocker.Await(ctx); err != nil || res.Status != StatusOK {
		t.Fatalf("blocker: %+v %v", res, err)
	}
	queued.Await(ctx)
	if f.n("write") != 0 {
		t.Fatal("cancelled call ran")
	}
	if m := f.rt.Authority().Mode("session:t"); m != authority.AllowOnce {
		t.Fatalf("a call that never ran spent the allow_once grant: mode %s", m)
	}
	res, err := f.rt.Invoke(ctx, mkCall("write", `{"key":"once"}`))
	if err != nil || res.Status != StatusOK || res.Replayed || f.n("write") != 1 {
		t.Fatalf("retry: %+v %v n=%d", res, err, f.n("write"))
	}
}

// cappedUnderDangerous registers a tool with the given effect and
// authority ceiling, sets the caller's context to dangerous and returns a
// call of the tool that holds its capability.
func cappedUnderDangerous(t *testing.T, f *fixture, name string, eff authority.Effect, ceiling authority.Tier) Call {
	t.Helper()
	mustRegister(t, f.reg, Spec{
		Name: name, Effect: eff, AuthorityCeiling: ceiling,
		Args: json.RawMessage(`{"type":"object"}`), Result: json.RawMessage(`{}`),
		Handler: func(context.Context, Request) (any, error) { return map[string]any{}, nil },
	})
	f.rt.Authority().Set("session:t", authority.Dangerous)
	call := mkCall(name, `{}`)
	call.Invocation.Capabilities = capability.MustSet("tool:" + name)
	return call
}
