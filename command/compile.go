package command

import (
	"encoding/json"
	"maps"
	"slices"

	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/fingerprint"
	"github.com/rlm-go/rlm/internal/textcut"
	"github.com/rlm-go/rlm/subagent"
)

// ActionDelegateSubagent is the only action of the closed vocabulary.
const ActionDelegateSubagent = "delegate_subagent"

// TargetSubagent is the compiled target of delegate_subagent and the only
// target Execute accepts.
var TargetSubagent = string(capability.Tool(subagent.Name))

// AdapterSubagent is the adapter of delegate_subagent: it calls the
// registered rlm_subagent tool.
const AdapterSubagent = "rlm_subagent"

// PayloadFromText is the only payload source: the compiled prompt text.
const PayloadFromText = "text"

// adapter is the fixed shape of one command adapter: the tool it calls and
// how that tool's arguments are derived from the compiled command.
type adapter struct {
	target  string
	payload map[string]string
}

// adapters is the closed adapter vocabulary. A compiled command names its
// adapter; Verify checks that its target and payload rule are exactly the
// adapter's.
var adapters = map[string]adapter{
	AdapterSubagent: {target: TargetSubagent, payload: map[string]string{"query": PayloadFromText}},
}

// actions is the closed action vocabulary: action name to adapter.
var actions = map[string]string{ActionDelegateSubagent: AdapterSubagent}

// Policy is the delegation policy compiled from a prompt's role and skills.
type Policy struct {
	Role   string   `json:"role,omitempty"`
	Skills []string `json:"skills,omitempty"`
	// ForbiddenSkills are skills the prompt's delegation excludes: a host
	// asking for one fails with delegation_skill_forbidden.
	ForbiddenSkills []string `json:"forbidden_skills,omitempty"`
	Provenance      string   `json:"provenance"`
}

// Command is a compiled prompt command. Fingerprint covers every other
// field; Execute recomputes it.
type Command struct {
	PromptID string `json:"prompt_id"`
	Text     string `json:"text"`
	Trigger  string `json:"trigger"`
	// Adapter names the closed adapter that executes the command.
	Adapter string `json:"adapter"`
	// Target is the adapter's tool capability.
	Target string `json:"target"`
	// Payload is the adapter's derivation rule: tool argument name to the
	// command field it is taken from (only "text").
	Payload          map[string]string `json:"payload"`
	Provenance       string            `json:"provenance"`
	DelegationPolicy *Policy           `json:"delegation_policy,omitempty"`
	Fingerprint      string            `json:"fingerprint"`
}

// ComputeFingerprint returns the fingerprint of c's fields other than
// Fingerprint: SHA-256 over their canonical JSON (keys sorted, so the
// object without "fingerprint" is the material).
func (c Command) ComputeFingerprint() (string, error) {
	raw, err := json.Marshal(c)
	if err != nil {
		return "", err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return "", err
	}
	delete(fields, "fingerprint")
	return fingerprint.Of(fields)
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
	ids = distinct(ids)
	switch len(ids) {
	case 0:
		return Command{}, fault.New(PhaseCompile, KindMissingBinding, "no prompt is bound to the trigger").With("trigger", trigger)
	case 1:
		return CompileRef(kb, ids[0])
	}
	return Command{}, fault.New(PhaseCompile, KindAmbiguousBinding, "several prompts are bound to the trigger").
		With("trigger", trigger).With("candidates", ids)
}

// CompileFile loads the knowledge base at path (LoadKB) and compiles
// trigger in it (Compile): what rlm command and rlm command compile do.
func CompileFile(path, trigger string) (Command, error) {
	kb, err := LoadKB(path)
	if err != nil {
		return Command{}, err
	}
	return Compile(kb, trigger)
}

// CompileRef compiles the prompt id: it needs exactly one distinct text,
// trigger and action (ambiguous_or_incomplete_reference otherwise), a
// non-empty text (invalid_prompt), an action of the closed vocabulary
// (invalid_action), at most one role and at most 64 valid skills.
func CompileRef(kb *KB, id string) (Command, error) {
	var texts, triggers, acts, roles, skills, forbidden []string
	for _, p := range kb.Prompts {
		if p.ID != id {
			continue
		}
		texts = append(texts, p.Text)
		if p.Role != "" {
			roles = append(roles, p.Role)
		}
		skills = append(skills, p.Skills...)
		forbidden = append(forbidden, p.ForbiddenSkills...)
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
	texts, triggers, acts, roles = distinct(texts), distinct(triggers), distinct(acts), distinct(roles)
	skills, forbidden = distinct(skills), distinct(forbidden)
	if len(texts) != 1 || len(triggers) != 1 || len(acts) != 1 {
		return Command{}, fault.New(PhaseCompile, KindIncompleteReference, "the prompt needs exactly one text, trigger and action").
			With("prompt_id", id).With("texts", len(texts)).With("triggers", len(triggers)).With("actions", len(acts))
	}
	if texts[0] == "" {
		return Command{}, fault.New(PhaseCompile, KindInvalidPrompt, "the prompt text is empty").With("prompt_id", id)
	}
	name, ok := actions[acts[0]]
	if !ok {
		return Command{}, fault.New(PhaseCompile, corpus.KindInvalidAction, "the action is not in the closed vocabulary").
			With("prompt_id", id).With("action", acts[0])
	}
	pol, err := compilePolicy(id, roles, skills, forbidden)
	if err != nil {
		return Command{}, err
	}
	ad := adapters[name]
	c := Command{PromptID: id, Text: texts[0], Trigger: triggers[0], Adapter: name, Target: ad.target,
		Payload: maps.Clone(ad.payload), Provenance: provenance(id), DelegationPolicy: pol}
	c.Fingerprint, err = c.ComputeFingerprint()
	if err != nil {
		return Command{}, fault.Wrap(err, PhaseCompile, fault.KindInternal, "the command does not encode")
	}
	return c, nil
}

func compilePolicy(id string, roles, skills, forbidden []string) (*Policy, error) {
	if len(roles) > 1 {
		return nil, fault.New(PhaseCompile, KindAmbiguousRole, "the prompt has several roles").With("prompt_id", id).With("roles", roles)
	}
	if len(skills) > subagent.MaxSkills || len(forbidden) > subagent.MaxSkills {
		return nil, fault.New(PhaseCompile, KindTooManySkills, "the prompt has too many skills").With("prompt_id", id).
			With("skills", len(skills)).With("forbidden_skills", len(forbidden)).With("max", subagent.MaxSkills)
	}
	for _, r := range roles {
		if !subagent.ValidName(r) {
			return nil, fault.New(PhaseCompile, KindInvalidRole, "invalid delegation role").With("prompt_id", id).With("role", r)
		}
	}
	for _, s := range append(slices.Clone(skills), forbidden...) {
		if !subagent.ValidName(s) {
			return nil, fault.New(PhaseCompile, KindInvalidSkill, "invalid delegation skill").With("prompt_id", id).With("skill", s)
		}
	}
	for _, s := range skills {
		if slices.Contains(forbidden, s) {
			return nil, fault.New(PhaseCompile, KindSkillForbidden, "the prompt both gives and forbids a skill").With("prompt_id", id).With("skill", s)
		}
	}
	if len(roles) == 0 && len(skills) == 0 && len(forbidden) == 0 {
		return nil, nil
	}
	p := &Policy{Skills: skills, ForbiddenSkills: forbidden, Provenance: provenance(id)}
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

// Verify checks c as Execute does, before any tool call, structurally
// first and the fingerprint last, so that each kind of tampering has its
// own typed error: a complete command (invalid_command), a known adapter
// (unknown_adapter), the adapter's target (unsupported_command), the
// adapter's payload rule (invalid_payload_rule), a well-formed delegation
// policy of the command's own prompt (invalid_delegation_policy), then
// the fingerprint (invalid_fingerprint).
func Verify(c Command) error {
	if c.PromptID == "" || c.Target == "" || c.Fingerprint == "" {
		return fault.New(PhaseExecute, KindInvalidCommand, "the command lacks a prompt id, target or fingerprint")
	}
	ad, ok := adapters[c.Adapter]
	if !ok {
		return fault.New(PhaseExecute, KindUnknownAdapter, "the command names no known adapter").With("adapter", textcut.Prefix(c.Adapter, 128)).
			WithHint("compile the command again with rlm command compile")
	}
	if c.Target != ad.target {
		return fault.New(PhaseExecute, KindUnsupportedCommand, "the command target is not its adapter's tool").
			With("adapter", c.Adapter).With("target", textcut.Prefix(c.Target, 128)).With("want", ad.target)
	}
	if !maps.Equal(c.Payload, ad.payload) {
		return fault.New(PhaseExecute, KindInvalidPayloadRule, "the payload rule is not the adapter's").
			With("adapter", c.Adapter).With("want", ad.payload)
	}
	if err := verifyPolicy(c); err != nil {
		return err
	}
	fp, err := c.ComputeFingerprint()
	if err != nil || fp != c.Fingerprint {
		return fault.New(PhaseExecute, KindInvalidFingerprint, "the command does not match its fingerprint").With("prompt_id", textcut.Prefix(c.PromptID, 128))
	}
	if c.Text == "" {
		return fault.New(PhaseExecute, KindInvalidCommand, "the command text is empty")
	}
	return nil
}

// verifyPolicy checks the delegation policy as Compile would have built
// it: the command's own provenance, valid names, sorted and distinct.
func verifyPolicy(c Command) error {
	if c.Provenance != provenance(c.PromptID) {
		return fault.New(PhaseExecute, KindInvalidDelegationPolicy, "the command's provenance is not its prompt")
	}
	p := c.DelegationPolicy
	if p == nil {
		return nil
	}
	bad := func(msg string) error { return fault.New(PhaseExecute, KindInvalidDelegationPolicy, msg) }
	if p.Provenance != provenance(c.PromptID) {
		return bad("the delegation policy's provenance is not the command's prompt")
	}
	if p.Role != "" && !subagent.ValidName(p.Role) {
		return bad("the delegation policy's role is not a valid name")
	}
	for _, list := range [][]string{p.Skills, p.ForbiddenSkills} {
		if len(list) > subagent.MaxSkills || !slices.Equal(list, distinct(list)) {
			return bad("the delegation policy's skills are not a sorted, distinct list of at most 64")
		}
		for _, s := range list {
			if !subagent.ValidName(s) {
				return bad("the delegation policy names an invalid skill")
			}
		}
	}
	for _, s := range p.Skills {
		if slices.Contains(p.ForbiddenSkills, s) {
			return bad("the delegation policy both gives and forbids a skill")
		}
	}
	if p.Role == "" && len(p.Skills) == 0 && len(p.ForbiddenSkills) == 0 {
		return bad("the delegation policy is empty")
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
		// The prompt's forbidden skills go with the delegation, so that
		// the child's skill compile denies them.
		d.Role, d.Skills = p.Role, slices.Clone(p.Skills)
		d.ForbiddenSkills = append(slices.Clone(d.ForbiddenSkills), p.ForbiddenSkills...)
	}
	if _, err := d.Normalize(); err != nil {
		return base, fault.Wrap(err, PhaseExecute, KindInvalidDelegationPolicy, "the compiled delegation policy is invalid")
	}
	base.Delegation = d
	return base, nil
}

// Delegate returns base with the delegation of c merged with the trusted
// host's options h (see SubagentConfig): the host may set the child's
// role, add skills and choose its model; every option records whether the
// host or the knowledge base set it. A host role other than the
// prompt's fails with delegation_policy_conflict, a skill the prompt
// forbids with delegation_skill_forbidden; both before any tool call.
// h.Capabilities, when set, are the child's: a base with other child
// capabilities fails with delegation_policy_conflict, and with base's
// Runtime and Parent set, a set the parent was not granted fails with
// capability_widening (see subagent.ChildCapabilities).
func Delegate(c Command, base subagent.Config, h subagent.HostOptions) (subagent.Config, error) {
	cfg, err := SubagentConfig(c, base)
	if err != nil {
		return base, err
	}
	if h.Capabilities != nil {
		caps := *h.Capabilities
		if cfg.ChildCapabilities.Len() > 0 && !slices.Equal(cfg.ChildCapabilities.Strings(), caps.Strings()) {
			return base, fault.New(PhaseExecute, KindDelegationPolicyConflict, "the host's child capabilities differ from the registration's").
				With("option", subagent.OptionCapabilities).With("host", caps.Strings()).With("base", cfg.ChildCapabilities.Strings())
		}
		if cfg.Runtime != nil && cfg.Parent != "" {
			info, err := cfg.Runtime.Status(cfg.Parent)
			if err != nil {
				return base, err
			}
			if caps, err = subagent.ChildCapabilities(info.Capabilities, &caps); err != nil {
				return base, err
			}
		}
		cfg.ChildCapabilities = caps
	}
	d := cfg.Delegation
	var forbidden []string
	if p := c.DelegationPolicy; p != nil {
		forbidden = p.ForbiddenSkills
		if p.Role != "" {
			d.Provenance = append(d.Provenance, subagent.Provenance{Option: subagent.OptionRole, Value: p.Role, Source: subagent.ProvenanceKB})
		}
		for _, s := range p.Skills {
			d.Provenance = append(d.Provenance, subagent.Provenance{Option: subagent.OptionSkill, Value: s, Source: subagent.ProvenanceKB})
		}
	}
	if h.Role != "" && d.Role != "" && h.Role != d.Role {
		return base, fault.New(PhaseExecute, KindDelegationPolicyConflict, "the host's child role differs from the prompt's").
			With("option", subagent.OptionRole).With("host", h.Role).With("kb", d.Role)
	}
	for _, s := range h.Skills {
		if slices.Contains(forbidden, s) {
			return base, fault.New(PhaseExecute, KindSkillForbidden, "the prompt forbids the skill the host asked for").
				With("skill", s).With("prompt_id", c.PromptID)
		}
	}
	if h.Role != "" {
		d.Role = h.Role
	}
	d.Skills = append(slices.Clone(d.Skills), h.Skills...)
	d.Model = h.Model
	d.Provenance = append(d.Provenance, h.HostProvenance()...)
	if d, err = d.Normalize(); err != nil {
		return base, fault.Wrap(err, PhaseExecute, KindInvalidDelegationPolicy, "the host's delegation options are invalid")
	}
	cfg.Delegation = d
	return cfg, nil
}
