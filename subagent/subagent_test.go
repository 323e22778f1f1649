package subagent

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/rlm-go/rlm/agent"
	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/golden"
	"github.com/rlm-go/rlm/model/replay"
	"github.com/rlm-go/rlm/tool"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestSchemaGolden(t *testing.T) {
	f := newFixture(t, nil)
	s, ok := f.reg.Lookup(Name)
	if !ok || s.Capability != Capability || s.Effect != authority.EffectRead {
		t.Fatalf("%+v", s)
	}
	if s.Limits.TimeLimit != 12*time.Second { // max 10 s + 2 × grace 1 s
		t.Fatalf("tool limit %v", s.Limits.TimeLimit)
	}
	b, _ := json.MarshalIndent(s, "", "  ")
	golden.Check(t, "schema.json", append(b, '\n'))
}

func TestCompletedEnvelope(t *testing.T) {
	f := newFixture(t, nil, reply("Query: find the needle", `{"answer":"line 2"}`, 0))
	res, env := f.call(t, context.Background(), `{"query":"find the needle"}`)
	if env == nil {
		t.Fatalf("%+v", res)
	}
	kids := f.children(t)
	if env.Status != EnvelopeCompleted || string(env.Value) != `"line 2"` || env.Usage.Calls != 1 || env.Usage.TotalTokens != 110 || len(kids) != 1 {
		t.Fatalf("%+v kids=%v", env, kids)
	}
	child := kids[0]
	if env.Correlation.Runtime != f.rt.ID() || env.Correlation.Parent != f.parent || env.Correlation.Child == nil || *env.Correlation.Child != child {
		t.Fatalf("correlation %+v", env.Correlation)
	}
	if env.Delegation == nil || env.Delegation.Source.Kind != SourceTrustedHost || env.Timeout.Source != TimeoutDefault || env.Timeout.EffectiveSeconds != 5 || env.Timeout.RequestedSeconds != nil {
		t.Fatalf("%+v %+v", env.Delegation, env.Timeout)
	}
	var comp struct {
		Status string `json:"status"`
		Answer string `json:"answer"`
	}
	if json.Unmarshal(env.Completion, &comp) != nil || comp.Status != "completed" || comp.Answer != "line 2" || env.Error != nil {
		t.Fatalf("completion %s", env.Completion)
	}
	if len(env.Trace) == 0 || env.Trace[0].Type != agent.EventSpawn || env.Trace[0].Agent != child {
		t.Fatalf("trace %+v", env.Trace)
	}
	in, _ := f.rt.Status(child)
	if in.Status != agent.StatusCompleted || !bytes.Equal(in.LastResult.Value, res.Value) || in.Capabilities.Strings()[0] != "context:map" ||
		in.AuthorityContext != f.rt.AgentAuthorityContext(child) || in.Spec.Mode != agent.ModeRLM {
		t.Fatalf("child %+v", in)
	}
	// The parent receives the same envelope as child_result through HandleNext.
	pr, err := f.rt.HandleNext(context.Background(), f.parent, 0)
	if err != nil || pr.Status != agent.HandledProcessed || pr.Reply.Kind != agent.ReplyChildResult || pr.Reply.Child != child || !bytes.Equal(pr.Reply.Value, res.Value) {
		t.Fatalf("parent %+v %v", pr, err)
	}
	if _, live := f.rt.Len(); live != 1 {
		t.Fatalf("the completed child still holds a live slot: %d", live)
	}
}

func TestRegistrationFailsClosed(t *testing.T) {
	cases := []struct {
		name string
		mod  func(*setup)
		kind fault.Kind
	}{
		{"recursive delegation", func(s *setup) {
			s.childCaps = capability.MustSet("context:search", "tool:rlm_subagent")
		}, KindUnboundedRecursiveDelegation},
		{"default above max", func(s *setup) { s.cfg.Timeout = TimeoutPolicy{Default: 10e9, Max: 5e9} }, KindInvalidTimeoutPolicy},
		{"negative grace", func(s *setup) { s.cfg.Timeout = TimeoutPolicy{Grace: -1} }, KindInvalidTimeoutPolicy},
		{"bad role", func(s *setup) { s.cfg.Delegation = Delegation{Role: "Bad Role"} }, KindInvalidRole},
		{"bad skill", func(s *setup) { s.cfg.Delegation = Delegation{Skills: []string{"a--b"}} }, KindInvalidSkills},
		{"bad source", func(s *setup) {
			s.cfg.Delegation = Delegation{Source: Source{Kind: SourcePromptCommand, PromptID: "p"}}
		}, KindInvalidDelegationSource},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var cfg Config
			f := newFixture(t, func(s *setup) {
				s.noRegister = true
				c.mod(s)
				cfg = s.cfg
				cfg.ChildCapabilities = s.childCaps
			})
			cfg.Runtime, cfg.Parent, cfg.Completer = f.rt, f.parent, f.completer
			if err := Register(f.reg, cfg); fault.KindOf(err) != c.kind {
				t.Fatalf("want %s, got %v", c.kind, err)
			}
			if _, ok := f.reg.Lookup(Name); ok {
				t.Fatal("the tool was registered")
			}
		})
	}
}

func TestTimeoutPolicy(t *testing.T) {
	cases := []struct {
		name      string
		args      string
		status    tool.Status
		kind      fault.Kind // envelope or tool error kind
		source    string
		effective float64
		child     bool
	}{
		{"default", `{"query":"q"}`, tool.StatusOK, "", TimeoutDefault, 5, true},
		{"model request", `{"query":"q","timeout_seconds":0.4}`, tool.StatusOK, "", TimeoutModelRequest, 0.4, true},
		{"at maximum", `{"query":"q","timeout_seconds":10}`, tool.StatusOK, "", TimeoutModelRequest, 10, true},
		{"above maximum", `{"query":"q","timeout_seconds":10.5}`, tool.StatusOK, KindTimeoutExceedsMaximum, "", 0, false},
		{"zero", `{"query":"q","timeout_seconds":0}`, tool.StatusError, tool.KindSchemaValidation, "", 0, false},
		{"negative", `{"query":"q","timeout_seconds":-1}`, tool.StatusError, tool.KindSchemaValidation, "", 0, false},
		{"not a number", `{"query":"q","timeout_seconds":"5"}`, tool.StatusError, tool.KindSchemaValidation, "", 0, false},
		{"host policy is not model input", `{"query":"q","subagent_timeout_max":900}`, tool.StatusError, tool.KindSchemaValidation, "", 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, nil, reply("", `{"answer":"ok"}`, 0))
			res, env := f.call(t, context.Background(), c.args)
			if res.Status != c.status {
				t.Fatalf("status %s: %+v", res.Status, res.Error)
			}
			if got := len(f.children(t)) == 1; got != c.child {
				t.Fatalf("child created: %v", got)
			}
			if res.Status == tool.StatusError {
				if res.Error.Kind != c.kind || res.Trace.Status != "malformed_args" {
					t.Fatalf("%+v", res)
				}
				return
			}
			if c.kind != "" {
				if env.Status != EnvelopeFailed || env.Error.Kind != c.kind || env.Correlation.Child != nil || env.Delegation != nil || f.srv.Stats().Requests != 0 {
					t.Fatalf("%+v", env)
				}
				return
			}
			if env.Status != EnvelopeCompleted || env.Timeout.Source != c.source || env.Timeout.EffectiveSeconds != c.effective {
				t.Fatalf("%+v %+v", env, env.Timeout)
			}
		})
	}
}

func TestChildBudgetsFailEnvelopes(t *testing.T) {
	search := steps(map[string]any{"op": "context", "handle": map[string]any{"ref": "input", "name": "context"},
		"action": map[string]any{"type": "search", "pattern": "needle"}, "bind": "hits"})
	cases := []struct {
		name   string
		mod    func(*setup)
		args   string
		replay []replay.Interaction
		kind   fault.Kind
	}{
		{"depth", func(s *setup) {
			s.parentCaps = s.parentCaps.Union(capability.MustSet("rlm"))
			s.childCaps = s.childCaps.Union(capability.MustSet("rlm"))
		}, `{"query":"level0"}`, []replay.Interaction{
			reply("Query: level0", rlmPlan("level1"), 0), reply("Query: level1", rlmPlan("level2"), 0),
		}, budget.KindMaxDepth},
		{"tokens", func(s *setup) { s.limits.MaxTotalTokens = 100 }, `{"query":"q"}`, []replay.Interaction{
			reply("", search, 0), reply("", `{"answer":"late"}`, 0),
		}, budget.KindMaxTotalTokens},
		{"time", nil, `{"query":"q","timeout_seconds":0.05}`, []replay.Interaction{
			reply("", `{"answer":"late"}`, 3000),
		}, budget.KindTimeLimit},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, c.mod, c.replay...)
			start := time.Now()
			_, env := f.call(t, context.Background(), c.args)
			if env == nil || env.Status != EnvelopeFailed || env.Error == nil || env.Error.Kind != c.kind || env.Correlation.Child == nil {
				t.Fatalf("want failed envelope %s, got %+v", c.kind, env)
			}
			// The child's first call cannot fit its worst case in 100
			// tokens: refused before sending.
			if c.name == "tokens" && (env.Usage.Calls != 0 || f.srv.Stats().Requests != 0) {
				t.Fatalf("a call was sent: %+v", env.Usage)
			}
			if time.Since(start) > 2*time.Second {
				t.Fatal("the budget was not enforced promptly")
			}
			child, _ := f.rt.Status(*env.Correlation.Child)
			if child.Status != agent.StatusCompleted {
				t.Fatalf("child %+v", child)
			}
		})
	}
}

func TestSpawnFailuresAreEnvelopes(t *testing.T) {
	t.Run("agent limit", func(t *testing.T) {
		f := newFixture(t, func(s *setup) { s.agent.MaxAgents = 1 }, reply("", `{"answer":"x"}`, 0))
		_, env := f.call(t, context.Background(), `{"query":"q"}`)
		if env.Status != EnvelopeFailed || env.Error.Kind != agent.KindAgentLimitReached || env.Correlation.Child != nil || f.srv.Stats().Requests != 0 {
			t.Fatalf("%+v", env)
		}
	})
	t.Run("child capability widening", func(t *testing.T) {
		f := newFixture(t, func(s *setup) { s.childCaps = capability.MustSet("context:search", "network:any") }, reply("", `{"answer":"x"}`, 0))
		_, env := f.call(t, context.Background(), `{"query":"q"}`)
		if env.Status != EnvelopeFailed || env.Error.Kind != capability.KindDenied || env.Correlation.Child != nil || len(f.children(t)) != 0 {
			t.Fatalf("%+v", env)
		}
	})
	t.Run("caller lacks the capability", func(t *testing.T) {
		f := newFixture(t, nil, reply("", `{"answer":"x"}`, 0))
		res, err := f.tools.Invoke(context.Background(), tool.Call{Name: Name, Args: json.RawMessage(`{"query":"q"}`),
			Invocation: tool.Invocation{Capabilities: capability.MustSet(contextCaps...)}})
		if err != nil || res.Status != tool.StatusError || res.Error.Kind != capability.KindDenied || len(f.children(t)) != 0 {
			t.Fatalf("%+v %v", res, err)
		}
	})
}

// The child's identity comes from the runtime, and its tool calls are
// authorized against its own capabilities.
func TestChildOwnsIdentityAndCapabilities(t *testing.T) {
	var secretCalls atomic.Int64
	var seen Request
	f := newFixture(t, func(s *setup) {
		s.parentCaps = s.parentCaps.Union(capability.MustSet("tool:secret"))
		s.agent.RootAuthority = authority.AllowSession
		s.noRegister = true
	}, reply("", steps(map[string]any{"op": "tool", "name": "secret", "args": map[string]any{}, "bind": "s"}), 0))
	if err := f.reg.Register(tool.Spec{Name: "secret", Effect: authority.EffectRead, Args: json.RawMessage(`{"type":"object"}`), Result: json.RawMessage(`{}`),
		Handler: func(ctx context.Context, req tool.Request) (any, error) { secretCalls.Add(1); return "s", nil }}); err != nil {
		t.Fatal(err)
	}
	f.completer.Registry, f.completer.Invoker = f.reg, tool.NewRuntime(f.reg, tool.Config{Authority: f.rt.Authority()})
	err := Register(f.reg, Config{Runtime: f.rt, Parent: f.parent, ChildCapabilities: capability.MustSet(contextCaps...),
		Completer: CompleterFunc(func(ctx context.Context, req Request) (Completion, error) {
			seen = req
			return f.completer.Complete(ctx, req)
		})})
	if err != nil {
		t.Fatal(err)
	}
	_, env := f.call(t, context.Background(), `{"query":"use the secret"}`)
	if env.Status != EnvelopeFailed || env.Error.Kind != "capability_denied" || secretCalls.Load() != 0 {
		t.Fatalf("%+v calls=%d", env, secretCalls.Load())
	}
	child := *env.Correlation.Child
	if seen.Agent != child || seen.Parent != f.parent || seen.RuntimeID != f.rt.ID() || seen.AuthorityContext != f.rt.AgentAuthorityContext(child) ||
		seen.Capabilities.Has("tool:secret") || seen.Capabilities.Len() != len(contextCaps) {
		t.Fatalf("%+v", seen)
	}
	if f.rt.Authority().Mode(seen.AuthorityContext) != authority.AllowSession {
		t.Fatal("the child does not inherit the parent's tier")
	}
}

func TestDelegationProvenance(t *testing.T) {
	var seen Request
	f := newFixture(t, func(s *setup) {
		s.cfg.Delegation = Delegation{Role: "reviewer", Skills: []string{"rlm-facts", "rlm-facts"}}
	}, reply("Role: reviewer. Skills: rlm-facts.", `{"answer":"reviewed"}`, 0))
	_, env := f.call(t, context.Background(), `{"query":"review"}`)
	if env.Status != EnvelopeCompleted || env.Delegation.Role != "reviewer" || len(env.Delegation.Skills) != 1 || env.Delegation.Source.Kind != SourceTrustedHost {
		t.Fatalf("%+v", env)
	}
	in, _ := f.rt.Status(*env.Correlation.Child)
	var meta struct {
		Purpose    string     `json:"purpose"`
		Delegation Delegation `json:"delegation"`
	}
	if json.Unmarshal(in.Spec.Metadata, &meta) != nil || meta.Purpose != "delegation" || meta.Delegation.Role != "reviewer" {
		t.Fatalf("%s", in.Spec.Metadata)
	}
	_ = seen
}

func TestParentCancellationInterruptsChild(t *testing.T) {
	f := newFixture(t, nil, reply("", `{"answer":"never"}`, 5000))
	done := make(chan *Envelope, 1)
	go func() {
		res, err := f.tools.Invoke(context.Background(), tool.Call{Name: Name, Args: json.RawMessage(`{"query":"slow"}`), Invocation: tool.Invocation{Capabilities: f.parentCaps}})
		env, derr := Decode(res.Value)
		if err != nil || derr != nil {
			t.Errorf("%+v %v %v", res, err, derr)
		}
		done <- env
	}()
	f.waitRequests(t, 1)
	start := time.Now()
	if _, err := f.rt.Cancel(f.parent, "test_cancel"); err != nil {
		t.Fatal(err)
	}
	env := <-done
	if time.Since(start) > time.Second {
		t.Fatal("cancellation was not prompt")
	}
	if env.Status != EnvelopeCancelled || env.Error.Kind != fault.KindCancelled || env.Correlation.Child == nil || env.Usage.Calls != 1 {
		t.Fatalf("%+v", env)
	}
	in, _ := f.rt.Status(*env.Correlation.Child)
	if in.Status != agent.StatusCancelled || in.Reason != "test_cancel" {
		t.Fatalf("%+v", in)
	}
}

func TestCallerCancellationCancelsChild(t *testing.T) {
	f := newFixture(t, nil, reply("", `{"answer":"never"}`, 5000))
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for f.srv.Stats().Requests == 0 {
			time.Sleep(2 * time.Millisecond)
		}
		cancel()
	}()
	_, err := f.tools.Invoke(ctx, tool.Call{Name: Name, Args: json.RawMessage(`{"query":"q"}`), Invocation: tool.Invocation{Capabilities: f.parentCaps}})
	if err == nil {
		t.Fatal("want the caller's cancellation")
	}
	// The child is cancelled asynchronously after the call returned: wait
	// for it (a minute guards against a hang only).
	deadline := time.Now().Add(time.Minute)
	for {
		in, _ := f.rt.Status(f.children(t)[0])
		if in.Status == agent.StatusCancelled {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("child %+v", in)
		}
		time.Sleep(time.Millisecond)
	}
	// The parent receives the cancelled envelope as its child_result.
	for range 100 {
		pr, err := f.rt.HandleNext(context.Background(), f.parent, 100*time.Millisecond)
		if err != nil {
			t.Fatal(err)
		}
		if pr.Reply != nil && pr.Reply.Kind == agent.ReplyChildResult {
			env, err := Decode(pr.Reply.Value)
			if err != nil || env.Status != EnvelopeCancelled || env.Error.Kind != fault.KindCancelled || env.Usage.Calls != 1 {
				t.Fatalf("%+v %v", env, err)
			}
			return
		}
	}
	t.Fatal("the parent received no child_result")
}

func TestParentMailboxBackpressure(t *testing.T) {
	f := newFixture(t, func(s *setup) { s.agent.MailboxSize = 1 }, reply("", `{"answer":"x"}`, 0))
	if err := f.rt.Send(context.Background(), f.parent, agent.Message{Type: agent.MsgCheckpoint, RunID: f.rt.ID(), Label: "full"}); err != nil {
		t.Fatal(err)
	}
	_, env := f.call(t, context.Background(), `{"query":"q"}`)
	if env.Status != EnvelopeCompleted {
		t.Fatalf("%+v", env)
	}
	var bp, delivered int
	for _, ev := range f.rt.Trace() {
		switch ev.Type {
		case agent.EventChildResultBackpressure:
			bp++
		case agent.EventChildResult:
			delivered++
		}
	}
	if bp != 1 || delivered != 0 {
		t.Fatalf("backpressure %d delivered %d", bp, delivered)
	}
}

func TestConcurrentSubagentCallsRace(t *testing.T) {
	const n = 24
	var ins []replay.Interaction
	for i := range n {
		ins = append(ins, reply(fmt.Sprintf("Query: task-%02d", i), fmt.Sprintf(`{"answer":"done-%02d"}`, i), 0))
	}
	f := newFixture(t, func(s *setup) {
		s.agent = agent.Options{MaxAgents: n + 1, Workers: 4, WorkerBacklog: n, MailboxSize: n}
	}, ins...)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			_, env := f.call(t, context.Background(), fmt.Sprintf(`{"query":"task-%02d"}`, i))
			if env == nil || env.Status != EnvelopeCompleted || string(env.Value) != fmt.Sprintf(`"done-%02d"`, i) {
				t.Errorf("%d: %+v", i, env)
			}
		})
	}
	wg.Wait()
	got := 0
	for {
		pr, _ := f.rt.HandleNext(context.Background(), f.parent, 0)
		if pr.Status == agent.HandledNothing {
			break
		}
		got++
	}
	if got != n || len(f.children(t)) != n {
		t.Fatalf("parent received %d, children %d", got, len(f.children(t)))
	}
}

func TestDecodeRejectsOpenEnvelopes(t *testing.T) {
	for _, raw := range []string{`{"status":"completed","extra":1}`, `{"status":"maybe"}`, `[]`} {
		if _, err := Decode(json.RawMessage(raw)); fault.KindOf(err) != fault.KindMalformed {
			t.Errorf("%s: %v", raw, err)
		}
	}
}

// TestWaitingChildGoroutines: while a child's completion runs, the call
// holds two goroutines, the caller's (which runs the handler and waits
// in the supervised call; tool.Spec.Cooperative) and the agent worker
// running the completion, not a third for the handler.
func TestWaitingChildGoroutines(t *testing.T) {
	running, release := make(chan struct{}), make(chan struct{})
	f := newFixture(t, func(s *setup) {
		s.cfg.Completer = CompleterFunc(func(ctx context.Context, req Request) (Completion, error) {
			close(running)
			<-release
			return Completion{Status: StatusCompleted, Answer: "ok"}, nil
		})
	})
	done := make(chan *Envelope, 1)
	go func() {
		res, _ := f.tools.Invoke(context.Background(), tool.Call{Name: Name, Args: json.RawMessage(`{"query":"q"}`), Invocation: tool.Invocation{Capabilities: f.parentCaps}})
		env, _ := Decode(res.Value)
		done <- env
	}()
	<-running
	buf := make([]byte, 1<<20)
	stacks := strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n")
	close(release)
	if env := <-done; env == nil || env.Status != EnvelopeCompleted {
		t.Fatalf("%+v", env)
	}
	var handlers, workers int
	for _, s := range stacks {
		if strings.Contains(s, "subagent.(*subagentTool).handle(") {
			handlers++
			if !strings.Contains(s, "tool.(*Runtime).Invoke(") {
				t.Errorf("the handler runs on a goroutine of its own:\n%s", s)
			}
		}
		if strings.Contains(s, "subagent.(*subagentTool).complete(") {
			workers++
		}
	}
	if handlers != 1 || workers != 1 {
		t.Fatalf("%d goroutines in the handler, %d in the completion, want 1 and 1", handlers, workers)
	}
}
