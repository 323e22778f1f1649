package command

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/prompt"
	"github.com/rlm-go/rlm/subagent"
)

const forbidCatalog = `{"units": [
 {"unit": "skill:rlm-facts", "content": "FACTS-BODY"},
 {"unit": "skill:helper", "content": "HELPER-BODY", "requires": ["skill:shell"]},
 {"unit": "skill:shell", "activation": "always", "content": "SHELL-BODY"},
 {"unit": "skill:net", "content": "NET-BODY", "triggers": [{"keyword": "needle"}]}
]}`

// A skill the prompt forbids never reaches the child, however the skill
// compiler would otherwise include it: an always skill, or one the query
// text activates.
func TestForbiddenSkillsNeverReachTheChild(t *testing.T) {
	cat, err := prompt.DecodeSkillCatalog([]byte(forbidCatalog))
	if err != nil {
		t.Fatal(err)
	}
	kb, err := DecodeKB([]byte(`{"prompts":[{"id":"p","text":"find the needle","skills":["helper","rlm-facts"],"forbidden_skills":["net","shell"]}],
		"triggers":[{"id":"p","trigger":"x"}],"actions":[{"id":"p","action":"delegate_subagent"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	h := newHost(t, defaultParentCaps())
	var got subagent.Request
	h.base.Skills = cat
	h.base.Completer = subagent.CompleterFunc(func(ctx context.Context, req subagent.Request) (subagent.Completion, error) {
		got = req
		return subagent.Completion{Status: subagent.StatusCompleted, Answer: "ok"}, nil
	})
	res, err := Resume(context.Background(), kb, "x", Host{Runtime: h.rt, Parent: h.parent, Subagent: h.base},
		func(ctx context.Context, in ResumeInput) (json.RawMessage, error) { return nil, nil })
	if err != nil {
		t.Fatal(err)
	}
	env, err := subagent.Decode(res.ChildResult)
	if err != nil || env.Skills == nil {
		t.Fatalf("%v %+v", err, env)
	}
	if !strings.Contains(got.SkillText, "FACTS-BODY") {
		t.Fatalf("the delegated skill is missing: %q", got.SkillText)
	}
	for _, body := range []string{"SHELL-BODY", "NET-BODY", "HELPER-BODY"} {
		if strings.Contains(got.SkillText, body) {
			t.Errorf("a forbidden skill reached the child: %s in %q", body, got.SkillText)
		}
	}
	for _, u := range []prompt.UnitID{"skill:shell", "skill:net", "skill:helper"} {
		if slices.Contains(env.Skills.ActiveUnits, u) {
			t.Errorf("forbidden %s is active: %v", u, env.Skills.ActiveUnits)
		}
	}
	if env.Delegation == nil || !slices.Equal(env.Delegation.ForbiddenSkills, []string{"net", "shell"}) {
		t.Errorf("delegation %+v, want the forbidden skills recorded", env.Delegation)
	}
	reasons := map[prompt.UnitID][]string{}
	for _, r := range env.Skills.Rejected {
		reasons[r.Unit] = r.Reasons
	}
	if !slices.Contains(reasons["skill:shell"], "explicit_denial") || !slices.Contains(reasons["skill:helper"], "dependency_denied(skill:shell)") {
		t.Errorf("rejected %+v", env.Skills.Rejected)
	}
}

// The host's child capabilities given to Delegate are the child's, never
// only a provenance record over a wider set: a base registration with
// other child capabilities conflicts, one without takes the host's, and
// a set the parent was not granted is capability_widening before any
// tool call.
func TestDelegateHostCapabilitiesAreTheChilds(t *testing.T) {
	c, err := Compile(loadKB(t), "unknown")
	if err != nil {
		t.Fatal(err)
	}
	peek := capability.MustSet("context:peek")
	h := newHost(t, defaultParentCaps())

	wide := h.base
	wide.ChildCapabilities = capability.MustSet(contextCaps...)
	if _, err := Delegate(c, wide, subagent.HostOptions{Capabilities: &peek}); fault.KindOf(err) != KindDelegationPolicyConflict {
		t.Fatalf("base child capabilities %v, host %v: want %s, got %v", wide.ChildCapabilities, peek, KindDelegationPolicyConflict, err)
	}

	unset := h.base
	unset.ChildCapabilities = capability.Set{}
	cfg, err := Delegate(c, unset, subagent.HostOptions{Capabilities: &peek})
	if err != nil || !slices.Equal(cfg.ChildCapabilities.Strings(), peek.Strings()) {
		t.Fatalf("want the host's child capabilities %v, got %v (%v)", peek, cfg.ChildCapabilities, err)
	}

	extra := capability.MustSet("context:peek", "tool:fs_write")
	if _, err := Delegate(c, unset, subagent.HostOptions{Capabilities: &extra}); fault.KindOf(err) != subagent.KindCapabilityWidening {
		t.Fatalf("want %s, got %v", subagent.KindCapabilityWidening, err)
	}
	if len(h.children(t)) != 0 {
		t.Fatal("a child was spawned")
	}
}

// A continuation that ends because the resume's context was cancelled
// gives a typed error (Kind cancelled), never the continuation's bare
// error.
func TestResumeCancelledContinuationIsTyped(t *testing.T) {
	h := newHost(t, defaultParentCaps(), reply("", `{"answer":"42"}`, 0))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := Resume(ctx, loadKB(t), "unknown", Host{Runtime: h.rt, Parent: h.parent, Subagent: h.base},
		func(ctx context.Context, in ResumeInput) (json.RawMessage, error) {
			cancel()
			<-ctx.Done()
			return nil, errors.New("stopped")
		})
	if !errors.Is(err, fault.KindCancelled) {
		t.Fatalf("want Kind cancelled, got %v (kind %q)", err, fault.KindOf(err))
	}
}
