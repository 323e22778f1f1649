package prompt

import (
	"slices"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/textcut"
)

// Explanation states of a unit in one projection.
const (
	StateActive             = "active"               // selected and kept by the packer: the model sees it
	StateSelectedNotVisible = "selected_not_visible" // selected, but packed out or not provider-visible
	StateRejected           = "rejected"             // removed by policy, dependency, conflict or supersession
	StateHidden             = "hidden"               // no evidence, or outside the candidate limit or lexical cutoff
)

// Capability authority values: activation never grants authority.
const (
	AuthorityRecheck    = "runtime_recheck_required"
	AuthorityNotGranted = "not_granted"
)

// Explanation says why one unit is, or is not, in a projection.
type Explanation struct {
	Unit       UnitID     `json:"unit"`
	State      string     `json:"state"`
	Activation Activation `json:"activation"`
	Score      int64      `json:"score"`
	Reasons    []string   `json:"reasons"`
	// CapabilityAuthority is runtime_recheck_required for selected units:
	// the tool runtime still checks capability and authority on every
	// invocation. It is not_granted otherwise.
	CapabilityAuthority string `json:"capability_authority"`
}

// Explain reports the state of id in this projection and the actual
// reasons. A unit rejected by policy reports that policy, never
// no_matching_evidence. Hidden units report no_matching_evidence,
// outside_candidate_limit or below_lexical_cutoff, followed by any policy
// reason that would also have rejected them. An id that is not in the
// catalog fails with unknown_unit.
func (r *Compiled) Explain(id UnitID) (Explanation, error) {
	c := r.catalog
	u, ok := c.index[id]
	if !ok {
		return Explanation{}, fault.New(PhaseExplain, KindUnknownUnit, "the unit is not registered in the catalog").With("unit", textcut.Prefix(string(id), 200))
	}
	unit := c.units[u]
	ex := Explanation{Unit: id, Activation: unit.Activation, CapabilityAuthority: AuthorityNotGranted}
	if i, ok := r.selected[id]; ok {
		s := r.Selected[i]
		ex.Score, ex.Reasons, ex.CapabilityAuthority = s.Score, slices.Clone(s.Reasons), AuthorityRecheck
		ex.State = StateSelectedNotVisible
		if r.active[id] {
			ex.State = StateActive
		}
		return ex, nil
	}
	if i, ok := r.rejected[id]; ok {
		ex.State, ex.Reasons = StateRejected, slices.Clone(r.Rejected[i].Reasons)
		return ex, nil
	}
	ex.State = StateHidden
	base, lex, _ := r.eval.evidence(u)
	policy := r.eval.gate(u, unit.Activation == Always)
	switch {
	case base <= 0:
		ex.Reasons = []string{"no_matching_evidence"}
	case r.eval.cutoff > 0 && base == lex && lex < r.lexFloor:
		ex.Score = base + int64(unit.Priority)
		ex.Reasons = []string{"below_lexical_cutoff"}
	default:
		ex.Score = base + int64(unit.Priority)
		ex.Reasons = []string{"outside_candidate_limit"}
	}
	ex.Reasons = append(ex.Reasons, policy...)
	return ex, nil
}
