package subagent

import (
	"slices"
	"strings"

	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fault"
)

// KindCapabilityWidening: the host asked for child capabilities its
// parent was not granted. No child is created.
const KindCapabilityWidening fault.Kind = "capability_widening"

// Provenance sources: who set a delegation option.
const (
	ProvenanceHost = "host"
	ProvenanceKB   = "kb"
)

// Delegation options named in a provenance record.
const (
	OptionRole         = "role"
	OptionSkill        = "skill"
	OptionModel        = "model"
	OptionCapabilities = "capabilities"
)

// Provenance records who set one delegation option: the host (CLI flags,
// Go configuration) or the knowledge base of a prompt command. The model
// never sets one.
type Provenance struct {
	Option string `json:"option"`
	Value  string `json:"value"`
	Source string `json:"source"`
}

// HostOptions are the trusted host's delegation options: the child's
// role, skills, model and capability set. Capabilities nil means the
// default (the parent's capabilities without tools).
type HostOptions struct {
	Role         string
	Skills       []string
	Model        string
	Capabilities *capability.Set
}

// Delegation returns the trusted_host delegation of h, with a host
// provenance record for every option h sets.
func (h HostOptions) Delegation() Delegation {
	return Delegation{Role: h.Role, Skills: slices.Clone(h.Skills), Model: h.Model, Provenance: h.HostProvenance()}
}

// HostProvenance returns the host provenance records of h, for a caller
// merging h with another source (see command.Delegate).
func (h HostOptions) HostProvenance() []Provenance {
	var p []Provenance
	if h.Role != "" {
		p = append(p, Provenance{OptionRole, h.Role, ProvenanceHost})
	}
	for _, s := range h.Skills {
		p = append(p, Provenance{OptionSkill, s, ProvenanceHost})
	}
	if h.Model != "" {
		p = append(p, Provenance{OptionModel, h.Model, ProvenanceHost})
	}
	if h.Capabilities != nil {
		p = append(p, Provenance{OptionCapabilities, strings.Join(h.Capabilities.Strings(), ","), ProvenanceHost})
	}
	return p
}

// ChildCapabilities returns the child's capability set: the host's
// requested set, which must be a subset of the parent's grant (otherwise
// capability_widening, detail extra, and no child is created), or by
// default the parent's capabilities without tools.
func ChildCapabilities(parent capability.Set, requested *capability.Set) (capability.Set, error) {
	if requested == nil {
		return withoutTools(parent), nil
	}
	if extra := parent.Missing(*requested); len(extra) > 0 {
		// Missing is sorted and distinct, so Of keeps its order.
		return capability.Set{}, fault.New(PhaseSubagent, KindCapabilityWidening, "the child capabilities are not a subset of the parent's grant").
			With("extra", capability.Of(extra...).Strings()).WithHint("--child-allow may only name capabilities the parent holds (--allow)")
	}
	return *requested, nil
}

// withoutTools returns s without its tool capabilities.
func withoutTools(s capability.Set) capability.Set {
	var caps []capability.Cap
	for _, cp := range s.List() {
		if cp.Prefix() != capability.PrefixTool {
			caps = append(caps, cp)
		}
	}
	return capability.Of(caps...)
}

func normalizeProvenance(p []Provenance) ([]Provenance, error) {
	p = slices.Clone(p)
	for _, r := range p {
		switch {
		case r.Source != ProvenanceHost && r.Source != ProvenanceKB:
			return nil, fault.New(PhaseSubagent, KindInvalidDelegationSource, "a provenance source is host or kb").With("source", r.Source)
		case r.Option != OptionRole && r.Option != OptionSkill && r.Option != OptionModel && r.Option != OptionCapabilities:
			return nil, fault.New(PhaseSubagent, KindInvalidDelegationSource, "unknown delegation option").With("option", r.Option)
		case r.Option == OptionCapabilities && r.Source != ProvenanceHost:
			return nil, fault.New(PhaseSubagent, KindInvalidDelegationSource, "only the host sets child capabilities")
		}
	}
	slices.SortFunc(p, func(a, b Provenance) int {
		return strings.Compare(a.Option+"\x00"+a.Value+"\x00"+a.Source, b.Option+"\x00"+b.Value+"\x00"+b.Source)
	})
	return orEmpty(slices.Compact(p)), nil
}
