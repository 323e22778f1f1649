package subagent

import (
	"context"
	"slices"

	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/prompt"
)

// Error kinds of skill delegation, reported before any child exists.
const (
	KindUnknownSkill         fault.Kind = "unknown_skill"
	KindConflictingSkills    fault.Kind = "conflicting_delegation_skills"
	KindSkillCatalogRequired fault.Kind = "skill_catalog_required"
)

// SkillCompile summarizes the prompt compile of a child's skills: its
// input and capabilities (enough to reproduce it with rlm explain), the
// units the child sees and those rejected, and the fingerprints.
type SkillCompile struct {
	Input              prompt.Input       `json:"input"`
	Capabilities       []string           `json:"capabilities"`
	ActiveUnits        []prompt.UnitID    `json:"active_units"`
	Rejected           []prompt.Rejection `json:"rejected"`
	Fingerprint        string             `json:"fingerprint"`
	CatalogFingerprint string             `json:"catalog_fingerprint"`
}

// SkillCompileInput returns the prompt-compiler input and options of a
// child's skills: the query is untrusted evidence (the text), the
// delegated skills are the host's explicit selection, and the child's
// capabilities gate every unit's requires_capability.
func SkillCompileInput(query string, skills []string, caps capability.Set) (prompt.Input, prompt.Options) {
	in := prompt.Input{Text: query}
	for _, s := range skills {
		in.Selected = append(in.Selected, prompt.SkillID(s))
	}
	return in, prompt.Options{Capabilities: caps}
}

// CompileSkills compiles the child's skill instructions from cat.
func CompileSkills(ctx context.Context, cat *prompt.Catalog, query string, skills []string, caps capability.Set) (*prompt.Compiled, error) {
	in, opts := SkillCompileInput(query, skills, caps)
	return cat.Compile(ctx, in, opts)
}

// compileDelegation compiles the skill instructions of a child of d: as
// CompileSkills, with d's forbidden skills denied (trusted host policy,
// always units included).
func compileDelegation(ctx context.Context, cat *prompt.Catalog, query string, d Delegation, caps capability.Set) (*prompt.Compiled, error) {
	in, opts := SkillCompileInput(query, d.Skills, caps)
	for _, s := range d.ForbiddenSkills {
		in.Denied = append(in.Denied, prompt.SkillID(s))
	}
	return cat.Compile(ctx, in, opts)
}

// RequireSkillCatalog fails with skill_catalog_required when the host
// delegates skills without a skill catalog.
func RequireSkillCatalog(cat *prompt.Catalog, skills []string) error {
	if len(skills) > 0 && cat == nil {
		return fault.New(PhaseSubagent, KindSkillCatalogRequired, "delegated skills need a skill catalog").
			With("skills", skills).WithHint("load the skill units with --skills FILE")
	}
	return nil
}

// CheckSkills checks the delegated skills against the catalog before any
// child exists: each must be a skill of the catalog (unknown_skill), and
// no two may declare a conflict (conflicting_delegation_skills). Without a
// catalog (nil) skills are names only and nothing is checked.
func CheckSkills(cat *prompt.Catalog, skills []string) error {
	if len(skills) == 0 || cat == nil {
		return nil
	}
	units := make([]prompt.Unit, len(skills))
	for i, s := range skills {
		u, ok := cat.Lookup(prompt.SkillID(s))
		if !ok {
			return fault.New(PhaseSubagent, KindUnknownSkill, "the skill is not in the skill catalog").With("skill", s)
		}
		units[i] = u
	}
	for i, a := range units {
		for _, b := range units[i+1:] {
			if slices.Contains(a.Conflicts, b.ID) || slices.Contains(b.Conflicts, a.ID) {
				return fault.New(PhaseSubagent, KindConflictingSkills, "two delegated skills exclude each other").
					With("a", string(a.ID)).With("b", string(b.ID))
			}
		}
	}
	return nil
}

func summarize(c *prompt.Compiled, caps capability.Set) *SkillCompile {
	return &SkillCompile{Input: c.Input(), Capabilities: caps.Strings(), ActiveUnits: orEmpty(c.ActiveUnits),
		Rejected: orEmpty(c.Rejected), Fingerprint: c.Fingerprint, CatalogFingerprint: c.CatalogFingerprint}
}

// orEmpty returns s, or an empty slice for nil: envelopes show [] in
// JSON, never null.
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
