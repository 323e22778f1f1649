package subagent

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/tool"
)

// However a child ends, its envelope carries the tool calls it made
// before it stopped (an effectful call included), not only a completed
// or failed child's.
func TestEndingEnvelopesKeepToolCalls(t *testing.T) {
	made := []tool.Trace{{Tool: "fs_write", Authorization: tool.AuthAllowed, Status: "ok", Owner: "agent:r/c"}}
	for _, c := range []struct {
		name   string
		policy TimeoutPolicy
		cancel bool // cancel the parent once the child runs; else it overruns its time limit
		status string
		kind   fault.Kind
	}{
		{"cancelled", TimeoutPolicy{Default: 5 * time.Second, Max: 10 * time.Second, Grace: time.Second}, true, EnvelopeCancelled, fault.KindCancelled},
		{"timed out", TimeoutPolicy{Default: 20 * time.Millisecond, Max: time.Second, Grace: 200 * time.Millisecond}, false, EnvelopeFailed, fault.KindTimeout},
	} {
		t.Run(c.name, func(t *testing.T) {
			started := make(chan struct{})
			f := newFixture(t, func(s *setup) {
				s.cfg.Timeout = c.policy
				s.cfg.Completer = CompleterFunc(func(ctx context.Context, req Request) (Completion, error) {
					close(started)
					<-ctx.Done() // stops only when cancelled
					return Completion{Status: "cancelled", Usage: budget.Usage{Calls: 2}, ToolCalls: made}, ctx.Err()
				})
			})
			if c.cancel {
				go func() {
					<-started
					_, _ = f.rt.Cancel(f.parent, "test_cancel")
				}()
			}
			_, env := f.call(t, context.Background(), `{"query":"q"}`)
			if env == nil || env.Status != c.status || env.Error == nil || env.Error.Kind != c.kind || env.Usage.Calls != 2 {
				t.Fatalf("want %s/%s with the usage spent, got %+v", c.status, c.kind, env)
			}
			if len(env.ToolCalls) != 1 || env.ToolCalls[0] != made[0] {
				t.Fatalf("tool_calls %+v, want the child's %+v", env.ToolCalls, made)
			}
		})
	}
}

// A child cancelled while one of its tool calls runs reports that call in
// its envelope's tool_calls (the call had started: an effectful one may
// have acted), not only the calls that returned without error.
func TestCancelledChildReportsInFlightToolCall(t *testing.T) {
	slow := steps(map[string]any{"op": "tool", "name": "slow", "args": map[string]any{}, "bind": "a"},
		map[string]any{"op": "final", "value": map[string]any{"ref": "var", "name": "a"}})
	f := newFixture(t, func(s *setup) {
		s.parentCaps = capability.MustSet(append([]string{"tool:rlm_subagent", "tool:slow"}, contextCaps...)...)
		s.noRegister = true
	}, reply("", slow, 0))
	started := make(chan struct{})
	if err := f.reg.Register(tool.Spec{Name: "slow", Effect: authority.EffectRead, Args: json.RawMessage(`{"type":"object"}`), Result: json.RawMessage(`{}`),
		Handler: func(ctx context.Context, req tool.Request) (any, error) {
			close(started)
			<-ctx.Done()
			return nil, ctx.Err()
		}}); err != nil {
		t.Fatal(err)
	}
	ec := f.completer
	ec.Registry, ec.Invoker = f.reg, f.tools
	childCaps := capability.MustSet(append([]string{"tool:slow"}, contextCaps...)...)
	if err := Register(f.reg, Config{Runtime: f.rt, Parent: f.parent, ChildCapabilities: childCaps, Completer: ec,
		Timeout: TimeoutPolicy{Default: 5e9, Max: 10e9, Grace: 1e9}}); err != nil {
		t.Fatal(err)
	}
	go func() {
		<-started
		_, _ = f.rt.Cancel(f.parent, "test_cancel")
	}()
	_, env := f.call(t, context.Background(), `{"query":"use slow"}`)
	if env == nil || env.Status != EnvelopeCancelled || env.Error == nil || env.Error.Kind != fault.KindCancelled {
		t.Fatalf("want a cancelled envelope, got %+v", env)
	}
	if len(env.ToolCalls) != 1 || env.ToolCalls[0].Tool != "slow" || env.ToolCalls[0].Owner != f.rt.AgentAuthorityContext(*env.Correlation.Child) {
		t.Fatalf("tool_calls %+v, want the in-flight call to slow", env.ToolCalls)
	}
}

// A host completer that reports more tool calls than an envelope holds
// still gives an envelope (the first ToolCallTraceLimit), never a tool
// error for a result outside the schema.
func TestToolCallTracesBounded(t *testing.T) {
	many := make([]tool.Trace, ToolCallTraceLimit+8)
	for i := range many {
		many[i] = tool.Trace{Tool: "probe", Status: "ok"}
	}
	f := newFixture(t, func(s *setup) {
		s.cfg.Completer = CompleterFunc(func(ctx context.Context, req Request) (Completion, error) {
			return Completion{Status: StatusCompleted, Answer: "ok", ToolCalls: many}, nil
		})
	})
	res, env := f.call(t, context.Background(), `{"query":"q"}`)
	if env == nil || env.Status != EnvelopeCompleted || len(env.ToolCalls) != ToolCallTraceLimit {
		t.Fatalf("want a completed envelope with %d tool calls, got %+v (%+v)", ToolCallTraceLimit, env, res.Error)
	}
}

// A delegation may not both give and forbid a skill; forbidden skills are
// validated like skills.
func TestForbiddenSkillsNormalize(t *testing.T) {
	for _, d := range []Delegation{
		{Skills: []string{"style"}, ForbiddenSkills: []string{"style"}},
		{ForbiddenSkills: []string{"Bad Skill"}},
	} {
		if _, err := d.Normalize(); fault.KindOf(err) != KindInvalidSkills {
			t.Fatalf("%+v: want %s, got %v", d, KindInvalidSkills, err)
		}
	}
	d, err := Delegation{Skills: []string{"a"}, ForbiddenSkills: []string{"c", "b", "c"}}.Normalize()
	if err != nil || len(d.ForbiddenSkills) != 2 || d.ForbiddenSkills[0] != "b" {
		t.Fatalf("%+v %v", d, err)
	}
}
