package tool

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/capability"
)

// TestReadFingerprintMatchesOperation pins the read-path shortcut to
// authority.Operation.Fingerprint, which it must reproduce exactly.
func TestReadFingerprintMatchesOperation(t *testing.T) {
	reg := NewRegistry()
	mustRegister(t, reg, Spec{Name: "any.tool-1", Effect: authority.EffectRead, Args: json.RawMessage(`{}`), Result: json.RawMessage(`{}`),
		Preflight: func(ctx context.Context, args json.RawMessage) (json.RawMessage, map[string]any, error) {
			var a map[string]any
			json.Unmarshal(args, &a)
			if d, ok := a["details"].(map[string]any); ok {
				return nil, d, nil
			}
			return nil, nil, nil
		},
		Handler: func(context.Context, Request) (any, error) { return 1, nil }})
	rt := NewRuntime(reg, Config{})
	for _, tc := range []struct{ args, authCtx string }{
		{``, ""},
		{`{"b":1,"a":[1.50,-0,1e3,"x\u00e9\n<>&",null,true,{}]}`, "session:é"},
		{`{"details":{"path":"a/b.txt","size":12,"nested":{"z":[],"y":"\u2028"}}}`, "owner \"q\""},
		{`{"details":{}}`, "c"},
		{`{"n":123456789012345678901234567890}`, "c"},
	} {
		cl := Call{Name: "any.tool-1", Args: json.RawMessage(tc.args),
			Invocation: Invocation{Capabilities: capability.MustSet("tool:any.tool-1"), AuthorityContext: tc.authCtx}}
		c := &call{rt: rt, c: cl}
		if fe := c.validate(context.Background()); fe != nil {
			t.Fatalf("%s: %v", tc.args, fe)
		}
		want, err := c.op.Fingerprint()
		if err != nil {
			t.Fatal(err)
		}
		got, ok := c.readFingerprint()
		if !ok || got != want {
			t.Errorf("%s: readFingerprint %q %v, Operation.Fingerprint %q", tc.args, got, ok, want)
		}
		res, err := rt.Invoke(context.Background(), cl)
		if err != nil || res.Status != StatusOK || res.Fingerprint != want || res.Trace.Fingerprint != want {
			t.Errorf("%s: invoke %+v %v, want fingerprint %s", tc.args, res, err, want)
		}
	}
}

// TestInvokeInlineReleasesSlot checks that a synchronous read call that
// ran on the caller's goroutine gives its worker slot back, and hands it to
// queued work.
func TestInvokeInlineReleasesSlot(t *testing.T) {
	f := newFixture(t, false)
	pool := NewPool(1, 4)
	rt := NewRuntime(f.reg, Config{Pool: pool})
	ctx := context.Background()
	c := mkCall("echo", `{"value":3}`)
	c.Invocation.Capabilities = capability.MustSet("tool:echo")
	for range 3 {
		if res, err := rt.Invoke(ctx, c); err != nil || res.Status != StatusOK {
			t.Fatal(res.Error, err)
		}
	}
	if st := pool.Status(); st.Running != 0 || st.Queued != 0 {
		t.Fatalf("pool not idle: %+v", st)
	}
	// With every slot taken, Invoke queues on the pool like Start, and the
	// slot released by an inline call passes to the queued work.
	if !pool.acquire() {
		t.Fatal("slot not free")
	}
	type outcome struct {
		res Result
		err error
	}
	done := make(chan outcome)
	go func() {
		res, err := rt.Invoke(ctx, c)
		done <- outcome{res, err}
	}()
	for pool.Status().Queued != 1 {
		time.Sleep(time.Millisecond)
	}
	pool.release()
	if o := <-done; o.err != nil || o.res.Status != StatusOK {
		t.Fatal(o.res.Error, o.err)
	}
	for pool.Status().Running != 0 { // the worker goroutine is exiting
		time.Sleep(time.Millisecond)
	}
	if st := pool.Status(); st.Queued != 0 {
		t.Fatalf("pool not idle: %+v", st)
	}
}
