package command

import (
	"slices"

	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/fingerprint"
	"github.com/rlm-go/rlm/subagent"
)

// ActionDelegateSubagent is the only action of the closed vocabulary.
const ActionDelegateSubagent = "delegate_subagent"

// TargetSubagent is the compiled target of delegate_subagent and the only
// target Execute accepts.
var TargetSubagent = string(capability.Tool(subagent.Name))

// actions is the closed action vocabulary: action name to target.
var actions = map[string]string{ActionDelegateSubagent: TargetSubagent}

// Policy is the delegation policy compiled from a prompt's role and skills.
type Policy struct {
	Role       string   `json:"role,omitempty"`
	Skills     []string `json:"skills,omitempty"`
	Provenance string   `json:"provenance"`
}

// Command is a compiled prompt command. Fingerprint covers every other
// field; Execute recomputes it.
type Command struct {
	PromptID         string  `json:"prompt_id"`
	Text             string  `json:"text"`
	Trigger          string  `json:"trigger"`
	Target           string  `json:"target"`
	Provenance       string  `json:"provenance"`
	DelegationPolicy *Policy `json:"delegation_policy,omitempty"`
	Fingerprint      string  `json:"fingerprint"`
}

// ComputeFingerprint returns the fingerprint of c's fields other than
// Fingerprint: SHA-256 over their canonical JSON.
func (c Command) ComputeFingerprint() (string, error) {
	c.Fingerprint = ""
	type unsigned struct {
		PromptID         string  `json:"prompt_id"`
		Text             string  `json:"text"`
		Trigger          string  `json:"trigger"`
		Target           string  `json:"target"`
		Provenance       string  `json:"provenance"`
		DelegationPolicy *Policy `json:"delegation_policy,omitempty"`
	}
	return fingerprint.Of(unsigned{c.PromptID, c.Text, c.Trigger, c.Target, c.Provenance, c.DelegationPolicy})
}

func provenance(id string) string { return "kb:" + id }

// Compile binds trigger to the one prompt id that has a trigger record for
// it, a prompt and an action, and compiles that reference. No such id
// fails with missing_binding, several with ambiguous_binding (detail
// candidates). Compile is deterministic and changes no state.
func Compile(kb *KB, trigger string) (Command, error) {
	if kb == nil {
		return Command{}, fault.New(PhaseCompile, KindMissingBinding, "no knowledge base").With("trigger", trigger)
	}
	hasPrompt := map[string]bool{}
	for _, p := range kb.Prompts {
		hasPrompt[p.ID] = true
	}
	hasAction := map[string]bool{}
	for _, a := range kb.Actions {
		hasAction[a.ID] = true
	}
	var ids []string
	for _, t := range kb.Triggers {
		if t.Trigger == trigger && hasPrompt[t.ID] && hasAction[t.ID] {
			ids = append(ids, t.ID)
		}
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	switch len(ids) {
	case 0:
		return Command{}, fault.New(PhaseCompile, KindMissingBinding, "no prompt is bound to the trigger").With("trigger", trigger)
	case 1:
		return CompileRef(kb, ids[0])
	}
	return Command{}, fault.New(PhaseCompile, KindAmbiguousBinding, "several prompts are bound to the trigger").
		With("trigger", trigger).With("candidates", ids)
}

// CompileRef compiles the prompt id: it needs exactly one distinct text,
// trigger and action (ambiguous_or_incomplete_reference otherwise), a
// non-empty text (invalid_prompt), an action of the closed vocabulary
// (invalid_action), at most one role and at most 64 valid skills.
func CompileRef(kb *KB, id string) (Command, error) {
	var texts, triggers, acts, roles, skills []string
	for _, p := range kb.Prompts {
		if p.ID != id {
			continue
		}
		texts = append(texts, p.Text)
		if p.Role != "" {
			roles = append(roles, p.Role)
		}
		skills = append(skills, p.Skills...)
	}
	for _, t := range kb.Triggers {
		if t.ID == id {
			triggers = append(triggers, t.Trigger)
		}
	}
	for _, a := range kb.Actions {
		if a.ID == id {
			acts = append(acts, a.Action)
		}
	}
	texts, triggers, acts, roles, skills = distinct(texts), distinct(triggers), distinct(acts), distinct(roles), distinct(skills)
	if len(texts) != 1 || len(triggers) != 1 || len(acts) != 1 {
		return Command{}, fault.New(PhaseCompile, KindIncompleteReference, "the prompt needs exactly one text, trigger and action").
			With("prompt_id", id).With("texts", len(texts)).With("triggers", len(triggers)).With("actions", len(acts))
	}
	if texts[0] == "" {
		return Command{}, fault.New(PhaseCompile, KindInvalidPrompt, "the prompt text is empty").With("prompt_id", id)
	}
	target, ok := actions[acts[0]]
	if !ok {
		return Command{}, fault.New(PhaseCompile, KindInvalidAction, "the action is not in the closed vocabulary").
			With("prompt_id", id).With("action", acts[0])
	}
	pol, err := compilePolicy(id, roles, skills)
	if err != nil {
		return Command{}, err
	}
	c := Command{PromptID: id, Text: texts[0], Trigger: triggers[0], Target: target, Provenance: provenance(id), DelegationPolicy: pol}
	c.Fingerprint, err = c.ComputeFingerprint()
	if err != nil {
		return Command{}, fault.Wrap(err, PhaseCompile, fault.KindInternal, "the command does not encode")
	}
	return c, nil
}

func compilePolicy(id string, roles, skills []string) (*Policy, error) {
	if len(roles) > 1 {
		return nil, fault.New(PhaseCompile, KindAmbiguousRole, "the prompt has several roles").With("prompt_id", id).With("roles", roles)
	}
	if len(skills) > subagent.MaxSkills {
		return nil, fault.New(PhaseCompile, KindTooManySkills, "the prompt has too many skills").With("prompt_id", id).
			With("skills", len(skills)).With("max", subagent.MaxSkills)
	}
	for _, r := range roles {
		if !subagent.ValidName(r) {
			return nil, fault.New(PhaseCompile, KindInvalidRole, "invalid delegation role").With("prompt_id", id).With("role", r)
		}
	}
	for _, s := range skills {
		if !subagent.ValidName(s) {
			return nil, fault.New(PhaseCompile, KindInvalidSkill, "invalid delegation skill").With("prompt_id", id).With("skill", s)
		}
	}
	if len(roles) == 0 && len(skills) == 0 {
		return nil, nil
	}
	p := &Policy{Skills: skills, Provenance: provenance(id)}
	if len(roles) == 1 {
		p.Role = roles[0]
	}
	return p, nil
}

func distinct(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return slices.Compact(s)
}

// Verify checks c as Execute does, before any tool call: a complete
// command (invalid_command), the target exactly tool:rlm_subagent
// (unsupported_command), then the fingerprint (invalid_fingerprint).
func Verify(c Command) error {
	if c.PromptID == "" || c.Target == "" || c.Fingerprint == "" {
		return fault.New(PhaseExecute, KindInvalidCommand, "the command lacks a prompt id, target or fingerprint")
	}
	if c.Target != TargetSubagent {
		return fault.New(PhaseExecute, KindUnsupportedCommand, "the only supported command target is tool:rlm_subagent").
			With("target", c.Target)
	}
	fp, err := c.ComputeFingerprint()
	if err != nil || fp != c.Fingerprint {
		return fault.New(PhaseExecute, KindInvalidFingerprint, "the command does not match its fingerprint").With("prompt_id", c.PromptID)
	}
	if c.Text == "" {
		return fault.New(PhaseExecute, KindInvalidCommand, "the command text is empty")
	}
	if p := c.DelegationPolicy; p != nil && p.Provenance != provenance(c.PromptID) {
		return fault.New(PhaseExecute, KindInvalidDelegationPolicy, "the delegation policy's provenance is not the command's prompt")
	}
	return nil
}

// SubagentConfig returns base with the delegation derived from c: source
// prompt_command with c's prompt id and fingerprint, and c's role and
// skills. c is verified first. A base that already sets a role, skills or
// a source fails with delegation_policy_conflict: there is no second host
// policy.
func SubagentConfig(c Command, base subagent.Config) (subagent.Config, error) {
	if err := Verify(c); err != nil {
		return base, err
	}
	d := base.Delegation
	if d.Role != "" || len(d.Skills) > 0 || d.Source != (subagent.Source{}) {
		return base, fault.New(PhaseExecute, KindDelegationPolicyConflict, "the host already set a delegation role, skills or source")
	}
	d.Source = subagent.Source{Kind: subagent.SourcePromptCommand, PromptID: c.PromptID, Fingerprint: c.Fingerprint}
	if p := c.DelegationPolicy; p != nil {
		d.Role, d.Skills = p.Role, slices.Clone(p.Skills)
	}
	if _, err := d.Normalize(); err != nil {
		return base, fault.Wrap(err, PhaseExecute, KindInvalidDelegationPolicy, "the compiled delegation policy is invalid")
	}
	base.Delegation = d
	return base, nil
}
