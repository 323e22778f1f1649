package subagent

import (
	"context"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rlm-go/rlm/agent"
	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model/replay"
	"github.com/rlm-go/rlm/prompt"
	"github.com/rlm-go/rlm/tool"
)

// Cancelling only the parent agent cancels every running child; each
// child's cancelled envelope is the caller's tool result and reaches the
// (cancelled) parent's mailbox as its child_result.
func TestParentOnlyCancellationDeliversEnvelopes(t *testing.T) {
	f := newFixture(t, nil, reply("", `{"answer":"never"}`, 5000), reply("", `{"answer":"never"}`, 5000))
	const n = 2
	var wg sync.WaitGroup
	results := make(chan *Envelope, n)
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := f.tools.Invoke(context.Background(), tool.Call{Name: Name, Args: json.RawMessage(`{"query":"slow"}`), Invocation: tool.Invocation{Capabilities: f.parentCaps}})
			env, derr := Decode(res.Value)
			if err != nil || derr != nil {
				t.Errorf("%+v %v %v", res, err, derr)
			}
			results <- env
		}()
	}
	f.waitRequests(t, n)
	if _, err := f.rt.Cancel(f.parent, "host_cancelled_parent"); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	close(results)
	children := map[agent.ID]bool{}
	for env := range results {
		if env == nil || env.Status != EnvelopeCancelled || env.Error.Kind != fault.KindCancelled || env.Correlation.Child == nil {
			t.Fatalf("%+v", env)
		}
		children[*env.Correlation.Child] = true
	}
	got := map[agent.ID]bool{}
	for range 4 * n {
		pr, err := f.rt.HandleNext(context.Background(), f.parent, 0)
		if err != nil {
			t.Fatal(err)
		}
		if pr.Status == agent.HandledNothing {
			break
		}
		if pr.Reply != nil && pr.Reply.Kind == agent.ReplyChildResult {
			env, err := Decode(pr.Reply.Value)
			if err != nil || env.Status != EnvelopeCancelled {
				t.Fatalf("%+v %v", env, err)
			}
			got[*env.Correlation.Child] = true
		}
	}
	if len(got) != n || len(children) != n {
		t.Fatalf("parent received %v, callers %v", got, children)
	}
	for c := range children {
		if !got[c] {
			t.Fatalf("child %s's envelope did not reach the parent", c)
		}
		in, _ := f.rt.Status(c)
		if in.Status != agent.StatusCancelled || in.Reason != "host_cancelled_parent" {
			t.Fatalf("%+v", in)
		}
	}
}

func TestChildCapabilities(t *testing.T) {
	parent := capability.MustSet("tool:rlm_subagent", "tool:fs_read", "context:peek")
	def, err := ChildCapabilities(parent, nil)
	if err != nil || !slices.Equal(def.Strings(), []string{"context:peek"}) {
		t.Fatalf("default %v %v", def, err)
	}
	sub := capability.MustSet("tool:fs_read")
	got, err := ChildCapabilities(parent, &sub)
	if err != nil || !slices.Equal(got.Strings(), []string{"tool:fs_read"}) {
		t.Fatalf("subset %v %v", got, err)
	}
	wide := capability.MustSet("tool:fs_write", "context:peek")
	if _, err := ChildCapabilities(parent, &wide); fault.KindOf(err) != KindCapabilityWidening {
		t.Fatalf("want capability_widening, got %v", err)
	}
}

func TestHostOptionsProvenance(t *testing.T) {
	caps := capability.MustSet("context:peek")
	f := newFixture(t, func(s *setup) {
		s.cfg.Delegation = HostOptions{Role: "reviewer", Skills: []string{"b-skill", "a-skill"}, Model: "child-model", Capabilities: &caps}.Delegation()
	}, onlyModel("child-model", reply("", `{"answer":"ok"}`, 0)))
	// The cassette answers only requests for the host's child model.
	_, env := f.call(t, context.Background(), `{"query":"q"}`)
	if env == nil || env.Status != EnvelopeCompleted {
		t.Fatalf("%+v", env)
	}
	d := env.Delegation
	want := []Provenance{
		{OptionCapabilities, "context:peek", ProvenanceHost}, {OptionModel, "child-model", ProvenanceHost},
		{OptionRole, "reviewer", ProvenanceHost}, {OptionSkill, "a-skill", ProvenanceHost}, {OptionSkill, "b-skill", ProvenanceHost},
	}
	if d.Model != "child-model" || !slices.Equal(d.Provenance, want) {
		t.Fatalf("%+v", d)
	}
	for _, bad := range [][]Provenance{{{OptionRole, "x", "model"}}, {{"handler", "x", ProvenanceHost}}, {{OptionCapabilities, "tool:x", ProvenanceKB}}} {
		if _, err := (Delegation{Provenance: bad}).Normalize(); fault.KindOf(err) != KindInvalidDelegationSource {
			t.Fatalf("%v: %v", bad, err)
		}
	}
}

const skillCatalog = `{"units": [
 {"unit": "skill:rlm-facts", "content": "FACTS-BODY: cite the line numbers.", "requires": ["skill:style"]},
 {"unit": "skill:style", "content": "STYLE-BODY: answer in one word."},
 {"unit": "skill:safety", "activation": "always", "content": "ALWAYS-BODY: never guess."},
 {"unit": "skill:web", "content": "WEB-BODY", "requires_capability": "tool:web_fetch", "triggers": [{"keyword": "needle"}]},
 {"unit": "skill:terse", "content": "TERSE-BODY", "conflicts": ["skill:verbose"]},
 {"unit": "skill:verbose", "content": "VERBOSE-BODY"}
]}`

func loadSkills(t testing.TB) *prompt.Catalog {
	t.Helper()
	cat, err := prompt.DecodeSkillCatalog([]byte(skillCatalog))
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// The child's instructions are compiled by the prompt compiler from the
// skill catalog: the delegated skill and its dependency, the always
// skill; a skill whose capability the child lacks is rejected.
func TestSkillsCompiledForChild(t *testing.T) {
	var got Request
	f := newFixture(t, func(s *setup) {
		s.cfg.Skills = loadSkills(t)
		s.cfg.Delegation = Delegation{Skills: []string{"rlm-facts"}}
		s.cfg.Completer = CompleterFunc(func(ctx context.Context, req Request) (Completion, error) {
			got = req
			return Completion{Status: StatusCompleted, Answer: "ok"}, nil
		})
	})
	_, env := f.call(t, context.Background(), `{"query":"find the needle"}`)
	if env == nil || env.Status != EnvelopeCompleted || env.Skills == nil {
		t.Fatalf("%+v", env)
	}
	want := []prompt.UnitID{"skill:rlm-facts", "skill:safety", "skill:style"}
	if !slices.Equal(env.Skills.ActiveUnits, want) {
		t.Fatalf("active %v", env.Skills.ActiveUnits)
	}
	for _, s := range []string{"FACTS-BODY", "STYLE-BODY", "ALWAYS-BODY"} {
		if !strings.Contains(got.SkillText, s) {
			t.Fatalf("skill text lacks %s: %q", s, got.SkillText)
		}
	}
	if strings.Contains(got.SkillText, "WEB-BODY") {
		t.Fatal("a capability-gated skill reached the child")
	}
	rejected := false
	for _, r := range env.Skills.Rejected {
		if r.Unit == "skill:web" && slices.ContainsFunc(r.Reasons, func(s string) bool { return strings.HasPrefix(s, "capability_denied") }) {
			rejected = true
		}
	}
	if !rejected {
		t.Fatalf("rejected %+v", env.Skills.Rejected)
	}
	// The same compile, reproduced from the envelope, explains each unit.
	comp, err := CompileSkills(context.Background(), loadSkills(t), "find the needle", []string{"rlm-facts"}, capability.MustSet(contextCaps...))
	if err != nil || comp.Fingerprint != env.Skills.Fingerprint {
		t.Fatalf("%v %s %s", err, comp.Fingerprint, env.Skills.Fingerprint)
	}
	ex, err := comp.Explain("skill:safety")
	if err != nil || ex.State != prompt.StateActive || !slices.Contains(ex.Reasons, "activation(always)") {
		t.Fatalf("%+v %v", ex, err)
	}
	// The instructions the engine gets are the compiled text, not a list
	// of names.
	text := childInstructions("", got)
	if strings.Contains(text, "Skills:") || !strings.Contains(text, "FACTS-BODY") {
		t.Fatalf("%q", text)
	}
}

func TestSkillChecksBeforeAnyChild(t *testing.T) {
	cat := loadSkills(t)
	for _, c := range []struct {
		skills []string
		kind   fault.Kind
	}{
		{[]string{"nope"}, KindUnknownSkill},
		{[]string{"terse", "verbose"}, KindConflictingSkills},
	} {
		if err := CheckSkills(cat, c.skills); fault.KindOf(err) != c.kind {
			t.Fatalf("%v: want %s, got %v", c.skills, c.kind, err)
		}
		f := newFixture(t, func(s *setup) { s.noRegister = true })
		err := Register(f.reg, Config{Runtime: f.rt, Parent: f.parent, ChildCapabilities: capability.MustSet(contextCaps...),
			Completer: f.completer, Skills: cat, Delegation: Delegation{Skills: c.skills}})
		if fault.KindOf(err) != c.kind || len(f.children(t)) != 0 {
			t.Fatalf("register: want %s, got %v", c.kind, err)
		}
	}
	if err := RequireSkillCatalog(nil, []string{"a"}); fault.KindOf(err) != KindSkillCatalogRequired {
		t.Fatal(err)
	}
	if _, err := prompt.DecodeSkillCatalog([]byte(`{"units":[{"unit":"tool:x"}]}`)); fault.KindOf(err) != prompt.KindInvalidSkillUnit {
		t.Fatal(err)
	}
	if _, err := prompt.DecodeSkillCatalog([]byte(`{"units":[{"unit":"skill:x"}]}`)); fault.KindOf(err) != prompt.KindInvalidSkillUnit {
		t.Fatal(err)
	}
}

// A child is shown only the tools its capabilities grant, its tool calls
// carry its own authority context, and a tool its parent granted but the
// child was not given is denied.
func TestChildToolViewAndAuthority(t *testing.T) {
	probe := steps(map[string]any{"op": "tool", "name": "probe", "args": map[string]any{}, "bind": "a"},
		map[string]any{"op": "final", "value": map[string]any{"ref": "var", "name": "a"}})
	secret := steps(map[string]any{"op": "tool", "name": "secret", "args": map[string]any{}, "bind": "a"},
		map[string]any{"op": "final", "value": map[string]any{"ref": "var", "name": "a"}})
	f := newFixture(t, func(s *setup) {
		s.parentCaps = capability.MustSet(append([]string{"tool:rlm_subagent", "tool:probe", "tool:secret"}, contextCaps...)...)
		s.noRegister = true
	}, reply("use probe", probe, 0), reply("use secret", secret, 0))
	for _, name := range []string{"probe", "secret"} {
		if err := f.reg.Register(tool.Spec{Name: name, Effect: authority.EffectRead, Args: json.RawMessage(`{"type":"object"}`), Result: json.RawMessage(`{}`),
			Handler: func(ctx context.Context, req tool.Request) (any, error) { return name + "-ran", nil }}); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	var calls []tool.Call
	ec := f.completer
	ec.Registry, ec.Invoker = f.reg, invokerFunc(func(ctx context.Context, c tool.Call) (tool.Result, error) {
		mu.Lock()
		calls = append(calls, c)
		mu.Unlock()
		return f.tools.Invoke(ctx, c)
	})
	childCaps := capability.MustSet(append([]string{"tool:probe"}, contextCaps...)...)
	if err := Register(f.reg, Config{Runtime: f.rt, Parent: f.parent, ChildCapabilities: childCaps, Completer: ec,
		Timeout: TimeoutPolicy{Default: 5e9, Max: 10e9, Grace: 1e9}}); err != nil {
		t.Fatal(err)
	}
	if v := f.reg.View(childCaps).Schemas(); len(v) != 1 || v[0].Name != "probe" {
		t.Fatalf("view %v", v)
	}
	_, env := f.call(t, context.Background(), `{"query":"use probe"}`)
	if env == nil || env.Status != EnvelopeCompleted || string(env.Value) != `"probe-ran"` {
		t.Fatalf("%+v", env)
	}
	want := f.rt.AgentAuthorityContext(*env.Correlation.Child)
	if len(calls) != 1 || calls[0].Invocation.AuthorityContext != want || calls[0].Invocation.Capabilities.Has("tool:secret") {
		t.Fatalf("calls %+v, want authority context %s", calls, want)
	}
	if len(env.ToolCalls) != 1 || env.ToolCalls[0].Owner != want || env.ToolCalls[0].Tool != "probe" || env.ToolCalls[0].Authority == "" {
		t.Fatalf("tool call traces %+v", env.ToolCalls)
	}
	// The parent holds tool:secret; the child does not, and never reaches it.
	_, env = f.call(t, context.Background(), `{"query":"use secret"}`)
	if env == nil || env.Status != EnvelopeFailed || env.Error.Kind != capability.KindDenied && env.Error.Kind != tool.KindUnknownTool {
		t.Fatalf("%+v", env)
	}
}

func onlyModel(m string, in replay.Interaction) replay.Interaction {
	in.Match = &replay.Match{Model: m}
	return in
}

type invokerFunc func(ctx context.Context, c tool.Call) (tool.Result, error)

func (f invokerFunc) Invoke(ctx context.Context, c tool.Call) (tool.Result, error) { return f(ctx, c) }

// A completed child whose answer does not encode as JSON (a NaN) ends
// failed with completion_failed, never "completed" with a null value.
func TestUnencodableAnswerFailsEnvelope(t *testing.T) {
	f := newFixture(t, func(s *setup) {
		s.cfg.Completer = CompleterFunc(func(ctx context.Context, req Request) (Completion, error) {
			return Completion{Status: StatusCompleted, Answer: math.NaN()}, nil
		})
	})
	_, env := f.call(t, context.Background(), `{"query":"q"}`)
	if env == nil || env.Status != EnvelopeFailed || env.Error == nil || env.Error.Kind != KindCompletionFailed || env.Completion != nil {
		t.Fatalf("want a failed envelope with completion_failed, got %+v", env)
	}
}

// A child that overruns its own time limit and the grace is failed by the
// supervised call's timeout; the envelope still reports what it spent.
func TestSupervisedTimeoutReportsUsage(t *testing.T) {
	f := newFixture(t, func(s *setup) {
		s.cfg.Timeout = TimeoutPolicy{Default: 50 * time.Millisecond, Max: time.Second, Grace: 100 * time.Millisecond}
		s.cfg.Completer = CompleterFunc(func(ctx context.Context, req Request) (Completion, error) {
			<-ctx.Done() // ignores its own time limit until the supervisor cancels it
			return Completion{Status: "cancelled", Usage: budget.Usage{Calls: 3, TotalTokens: 300}}, ctx.Err()
		})
	})
	_, env := f.call(t, context.Background(), `{"query":"q"}`)
	if env == nil || env.Status != EnvelopeFailed || env.Error == nil || env.Error.Kind != fault.KindTimeout {
		t.Fatalf("want a failed envelope with timeout, got %+v", env)
	}
	if env.Usage.Calls != 3 || env.Usage.TotalTokens != 300 {
		t.Fatalf("usage %+v, want what the child spent", env.Usage)
	}
}

// A caller granted less than the host's parent (a child agent, an MCP
// client) delegates no capability it lacks itself: the child holds the
// configured capabilities the caller holds. Before, the child was narrowed
// against the host's parent only, so a caller granted context:peek alone
// spawned a child that could search and slice the whole context.
func TestChildNarrowedToTheCaller(t *testing.T) {
	var seen Request
	f := newFixture(t, func(s *setup) { s.noRegister = true }, reply("", `{"answer":"x"}`, 0))
	if err := Register(f.reg, Config{Runtime: f.rt, Parent: f.parent, ChildCapabilities: capability.MustSet(contextCaps...),
		Completer: CompleterFunc(func(ctx context.Context, req Request) (Completion, error) {
			seen = req
			return f.completer.Complete(ctx, req)
		})}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		caller []string
		want   []string
	}{
		{append([]string{"tool:rlm_subagent"}, contextCaps...), contextCaps},
		{[]string{"tool:rlm_subagent", "context:peek"}, []string{"context:peek"}},
		{[]string{"tool:rlm_subagent"}, nil},
	} {
		seen = Request{}
		res, err := f.tools.Invoke(context.Background(), tool.Call{Name: Name, Args: json.RawMessage(`{"query":"q"}`),
			Invocation: tool.Invocation{Capabilities: capability.MustSet(tc.caller...)}})
		if err != nil || res.Status != tool.StatusOK {
			t.Fatalf("caller %v: %+v %v", tc.caller, res.Error, err)
		}
		if want := capability.MustSet(tc.want...); !slices.Equal(seen.Capabilities.Strings(), want.Strings()) {
			t.Errorf("caller %v: the child holds %v, want %v", tc.caller, seen.Capabilities.Strings(), want.Strings())
		}
	}
}
