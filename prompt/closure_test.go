package prompt

import "testing"

// TestOrphanedDependencyCycleIsRemoved pins the closure re-check for
// dependencies that require each other: when every root that pulled them
// in is removed, the cycle is removed too, although each member still has
// a live parent (the other member).
func TestOrphanedDependencyCycleIsRemoved(t *testing.T) {
	c := catalog(t, `[
		{"unit": "instruction:policy", "activation": "always", "content": "policy", "conflicts": ["skill:one", "skill:two"]},
		{"unit": "skill:one", "triggers": [{"keyword": "zebra"}], "requires": ["skill:a"], "content": "one"},
		{"unit": "skill:two", "triggers": [{"keyword": "zebra"}], "requires": ["skill:b"], "content": "two"},
		{"unit": "skill:a", "requires": ["skill:b"], "content": "a"},
		{"unit": "skill:b", "requires": ["skill:a"], "content": "b"}
	]`)
	r := compile(t, c, text("zebra"), Options{})
	mustSelected(t, r, "instruction:policy", "activation(always)")
	mustRejected(t, r, "skill:one", "conflict_with(instruction:policy)")
	mustRejected(t, r, "skill:two", "conflict_with(instruction:policy)")
	for _, id := range []UnitID{"skill:a", "skill:b"} {
		if _, ok := r.selection(id); ok {
			t.Errorf("%s selected although every root that required it was removed; active=%v", id, r.ActiveUnits)
		}
	}
	mustRejected(t, r, "skill:a", "parent_removed(skill:one)")
	mustRejected(t, r, "skill:b", "dependency_removed(skill:a)")

	// With one root alive the cycle stays.
	c2 := catalog(t, `[
		{"unit": "skill:one", "triggers": [{"keyword": "zebra"}], "requires": ["skill:a"], "content": "one"},
		{"unit": "skill:a", "requires": ["skill:b"], "content": "a"},
		{"unit": "skill:b", "requires": ["skill:a"], "content": "b"}
	]`)
	r2 := compile(t, c2, text("zebra"), Options{})
	for _, id := range []UnitID{"skill:one", "skill:a", "skill:b"} {
		mustSelected(t, r2, id, "")
	}
}
