package tool

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/effect"
	"github.com/rlm-go/rlm/fault"
)

// TestCooperativeHandler: a handler declared Cooperative runs on the
// goroutine that runs the call (Invoke's for a read with a free slot, a
// pool worker for an effect) instead of one of its own, with the same outcomes as any handler: its value, Kind timeout past
// the time limit (indeterminate for an effect), handler_panic, and the
// caller's cancellation as a control error.
func TestCooperativeHandler(t *testing.T) {
	waitEnd := func(ctx context.Context, _ Request) (any, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	cases := []struct {
		name    string
		effect  authority.Effect
		handler Handler
		cancel  bool       // the caller cancels once the handler runs
		kind    fault.Kind // "" for ok; the Result's error kind
		ctrl    error      // Invoke's error
	}{
		{name: "ok", handler: func(context.Context, Request) (any, error) { return map[string]any{"ok": true}, nil }},
		{name: "time limit", handler: waitEnd, kind: fault.KindTimeout},
		{name: "panic", handler: func(context.Context, Request) (any, error) { panic("boom") }, kind: KindHandlerPanic},
		{name: "caller cancels", handler: waitEnd, cancel: true, ctrl: context.Canceled},
		{name: "effect past the time limit", effect: authority.EffectWrite, handler: waitEnd, kind: KindIndeterminate},
	}
	for _, c := range cases {
		for _, coop := range []bool{false, true} {
			t.Run(c.name, func(t *testing.T) {
				reg := NewRegistry()
				onCaller := make(chan bool, 1)
				started := make(chan struct{})
				mustRegister(t, reg, Spec{
					Name: "t", Effect: cmpEffect(c.effect), Args: json.RawMessage(`{"type":"object"}`), Result: json.RawMessage(`{"type":"object"}`),
					Limits: Limits{TimeLimit: 20 * time.Millisecond}, Cooperative: coop,
					Handler: func(ctx context.Context, req Request) (any, error) {
						buf := make([]byte, 64<<10)
						// executeHandler is a frame of this goroutine only when it
						// called the handler itself.
						onCaller <- strings.Contains(string(buf[:runtime.Stack(buf, false)]), "tool.(*call).executeHandler(")
						close(started)
						return c.handler(ctx, req)
					},
				})
				cfg := Config{}
				if c.effect != "" {
					j, err := effect.Open(filepath.Join(t.TempDir(), "effects.db"))
					if err != nil {
						t.Fatal(err)
					}
					t.Cleanup(func() { j.Close() })
					cfg.Journal = j
				}
				rt := NewRuntime(reg, cfg)
				rt.Authority().Set("session:t", authority.Dangerous)
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				if c.cancel {
					go func() { <-started; cancel() }()
				}
				call := Call{Name: "t", Args: json.RawMessage(`{}`), Invocation: Invocation{Capabilities: capability.MustSet("tool:t"), AuthorityContext: "session:t"}}
				if c.cancel {
					call.Options.TimeLimit = time.Minute
				}
				res, err := rt.Invoke(ctx, call)
				if c.ctrl != nil {
					if !errors.Is(err, c.ctrl) {
						t.Fatalf("cooperative %v: got %v, want %v", coop, err, c.ctrl)
					}
				} else if err != nil {
					t.Fatal(err)
				} else if c.kind == "" && res.Status != StatusOK || c.kind != "" && fault.KindOf(res.Error) != c.kind {
					t.Fatalf("cooperative %v: got %s %v, want %q", coop, res.Status, res.Error, c.kind)
				}
				if got := <-onCaller; got != coop {
					t.Fatalf("cooperative %v: the handler ran on the goroutine running the call: %v", coop, got)
				}
			})
		}
	}
}

func cmpEffect(e authority.Effect) authority.Effect {
	if e == "" {
		return authority.EffectRead
	}
	return e
}
