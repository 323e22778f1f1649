package prompt

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/rlm-go/rlm/fault"
)

// entry is one unit in the resolved set.
type entry struct {
	u       int32
	score   int64
	pinned  bool // always, or required by a pinned unit
	own     bool // a root (activation, evidence, selection)
	reasons []string
	parents []int32 // units that required or suggested it
	alive   bool
}

// resolver runs dependency closure, suggestions, always-unit consistency,
// supersession, conflicts and the closure re-check.
type resolver struct {
	e       *evaluated
	entries map[int32]*entry
	order   []*entry // insertion order
	rejects map[int32][]string
	rejOrd  []int32
	edges   map[Edge]bool
}

func newResolver(e *evaluated) *resolver {
	return &resolver{e: e, entries: map[int32]*entry{}, rejects: map[int32][]string{}, edges: map[Edge]bool{}}
}

func (r *resolver) reject(u int32, reasons ...string) {
	if len(reasons) == 0 {
		return
	}
	if _, ok := r.rejects[u]; !ok {
		r.rejOrd = append(r.rejOrd, u)
	}
	for _, s := range reasons {
		if !slices.Contains(r.rejects[u], s) {
			r.rejects[u] = append(r.rejects[u], s)
		}
	}
}

func (r *resolver) edge(from, to UnitID, kind string) {
	r.edges[Edge{From: from, To: to, Kind: kind}] = true
}

// add merges a unit into the resolved set.
func (r *resolver) add(u int32, score int64, pinned, own bool, parent int32, reasons ...string) {
	en, ok := r.entries[u]
	if !ok {
		en = &entry{u: u, alive: true}
		r.entries[u] = en
		r.order = append(r.order, en)
	}
	en.score = max(en.score, score)
	en.pinned = en.pinned || pinned
	en.own = en.own || own
	if parent >= 0 && !slices.Contains(en.parents, parent) {
		en.parents = append(en.parents, parent)
	}
	en.reasons = append(en.reasons, reasons...)
}

// closure resolves the transitive requires of root. On failure it returns
// the reason naming the first unresolvable requirement; edges are recorded
// either way.
func (r *resolver) closure(root int32, pinned bool) ([][2]int32, string) {
	c := r.e.c
	visited := map[int32]bool{root: true}
	var deps [][2]int32 // (unit, parent)
	var walk func(u int32) string
	walk = func(u int32) string {
		for _, req := range c.units[u].Requires {
			r.edge(c.units[u].ID, req, "requires")
			ri, ok := c.index[req]
			if !ok {
				return "missing_dependency(" + string(req) + ")"
			}
			if why := r.e.depCheck(ri, pinned); why != "" {
				return why
			}
			if visited[ri] {
				continue
			}
			visited[ri] = true
			deps = append(deps, [2]int32{ri, u})
			if why := walk(ri); why != "" {
				return why
			}
		}
		return ""
	}
	return deps, walk(root)
}

// root adds an eligible candidate and its required closure, or rejects the
// candidate with the closure's failure.
func (r *resolver) root(u int32, score int64, pinned bool, reasons []string) {
	deps, why := r.closure(u, pinned)
	if why != "" {
		r.reject(u, why)
		return
	}
	r.add(u, score, pinned, true, -1, reasons...)
	r.addDeps(deps, score, pinned)
}

// addDeps adds a closure's (unit, parent) pairs as dependencies.
func (r *resolver) addDeps(deps [][2]int32, score int64, pinned bool) {
	for _, d := range deps {
		r.add(d[0], score, pinned, false, d[1], "dependency_of("+string(r.e.c.units[d[1]].ID)+")")
	}
}

// suggest resolves the one-level optional suggestions of the resolved set.
// A suggestion that is ineligible (including untrusted negation of a
// relevant unit) or whose closure fails is dropped silently; the edge is
// still recorded.
func (r *resolver) suggest() {
	c := r.e.c
	type req struct {
		unit   UnitID
		parent int32
		score  int64
	}
	var reqs []req
	for _, en := range r.order {
		for _, s := range c.units[en.u].Suggests {
			reqs = append(reqs, req{s, en.u, max(1, en.score/4)})
		}
	}
	slices.SortFunc(reqs, func(a, b req) int {
		return cmp.Or(cmp.Compare(b.score, a.score), strings.Compare(string(a.unit), string(b.unit)), int(a.parent-b.parent))
	})
	for _, q := range reqs {
		parentID := c.units[q.parent].ID
		r.edge(parentID, q.unit, "suggests")
		su, ok := c.index[q.unit]
		if !ok {
			continue
		}
		reason := "suggested_by(" + string(parentID) + ")"
		if _, in := r.entries[su]; in {
			r.add(su, 0, false, false, q.parent, reason)
			continue
		}
		if len(r.e.gate(su, c.units[su].Activation == Always)) > 0 {
			continue
		}
		deps, why := r.closure(su, false)
		if why != "" {
			continue
		}
		r.add(su, q.score, false, false, q.parent, reason)
		r.addDeps(deps, q.score, false)
	}
}

// ranked returns the alive entries: pinned first, then score descending,
// then unit id.
func (r *resolver) ranked() []*entry {
	out := r.alive()
	slices.SortFunc(out, func(a, b *entry) int {
		return cmp.Or(pinnedFirst(a, b), cmp.Compare(b.score, a.score), int(a.u-b.u))
	})
	return out
}

// pinnedFirst orders pinned entries before the others.
func pinnedFirst(a, b *entry) int {
	switch {
	case a.pinned == b.pinned:
		return 0
	case a.pinned:
		return -1
	}
	return 1
}

func (r *resolver) alive() []*entry {
	return slices.DeleteFunc(slices.Clone(r.order), func(en *entry) bool { return !en.alive })
}

func (r *resolver) kill(en *entry, reason string) {
	en.alive = false
	r.reject(en.u, reason)
}

// resolve runs suggestions, the always-unit consistency checks,
// supersession, conflicts and the closure re-check.
func (r *resolver) resolve() error {
	c := r.e.c
	r.suggest()
	// Always consistency: pinned units may neither conflict with nor
	// supersede each other. Checked in unit-id order for a deterministic
	// error.
	byID := slices.Clone(r.order)
	slices.SortFunc(byID, func(a, b *entry) int { return int(a.u - b.u) })
	for _, a := range byID {
		if !a.pinned {
			continue
		}
		ua := &c.units[a.u]
		for _, b := range byID {
			if !b.pinned || b.u == a.u {
				continue
			}
			ub := &c.units[b.u]
			if a.u < b.u && conflict(ua, ub) {
				return fault.New(PhaseCompile, KindConflictingAlwaysUnits, "two always-visible units conflict").
					With("a", string(ua.ID)).With("b", string(ub.ID))
			}
			if slices.Contains(ua.Supersedes, ub.ID) {
				return fault.New(PhaseCompile, KindSupersedingAlwaysUnits, "an always-visible unit supersedes another").
					With("superseder", string(ua.ID)).With("superseded", string(ub.ID))
			}
		}
	}
	// Supersession, in rank order; a relevant unit never supersedes a
	// pinned one.
	for _, en := range r.ranked() {
		if !en.alive {
			continue
		}
		for _, s := range c.units[en.u].Supersedes {
			su, ok := c.index[s]
			if !ok {
				continue
			}
			target, in := r.entries[su]
			if !in || !target.alive || (target.pinned && !en.pinned) {
				continue
			}
			r.kill(target, "superseded_by("+string(c.units[en.u].ID)+")")
		}
	}
	// Conflicts, greedy in rank order: pinned units first, so they win
	// every conflict against relevant ones.
	var accepted []*entry
	for _, en := range r.ranked() {
		ue := &c.units[en.u]
		i := slices.IndexFunc(accepted, func(a *entry) bool { return conflict(ue, &c.units[a.u]) })
		if i < 0 {
			accepted = append(accepted, en)
			continue
		}
		r.kill(en, "conflict_with("+string(c.units[accepted[i].u].ID)+")")
	}
	// Re-check the closure: a unit whose requirement was removed goes too,
	// and so does a dependency or suggestion no surviving root still pulls
	// in (every parent went, or its only parents are units in a requires
	// cycle that no surviving root reaches).
	for changed := true; changed; {
		changed = false
		var live map[int32]bool // reachable from a surviving root; nil after a kill
		for _, en := range r.ranked() {
			for _, req := range c.units[en.u].Requires {
				if d, ok := r.entries[c.index[req]]; ok && !d.alive {
					r.kill(en, "dependency_removed("+string(req)+")")
					changed, live = true, nil
					break
				}
			}
			if !en.alive || en.own || len(en.parents) == 0 {
				continue
			}
			if live == nil {
				live = r.supported()
			}
			if !live[en.u] {
				r.kill(en, "parent_removed("+string(c.units[en.parents[0]].ID)+")")
				changed, live = true, nil
			}
		}
	}
	return nil
}

// supported returns the alive entries reachable from an alive root (an own
// entry) through parent links.
func (r *resolver) supported() map[int32]bool {
	live := map[int32]bool{}
	children := map[int32][]int32{}
	var queue []int32
	for _, en := range r.order {
		if !en.alive {
			continue
		}
		if en.own {
			live[en.u] = true
			queue = append(queue, en.u)
		}
		for _, p := range en.parents {
			children[p] = append(children[p], en.u)
		}
	}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, ch := range children[p] {
			if !live[ch] {
				live[ch] = true
				queue = append(queue, ch)
			}
		}
	}
	return live
}

// conflict reports whether either unit declares a conflict with the other.
func conflict(a, b *Unit) bool {
	return slices.Contains(a.Conflicts, b.ID) || slices.Contains(b.Conflicts, a.ID)
}

// rejections returns the rejected units that are not selected, by id.
func (r *resolver) rejections() []Rejection {
	c := r.e.c
	us := slices.Clone(r.rejOrd)
	slices.Sort(us)
	out := make([]Rejection, 0, len(us))
	for _, u := range us {
		if en, ok := r.entries[u]; ok && en.alive {
			continue
		}
		out = append(out, Rejection{Unit: c.units[u].ID, Reasons: slices.Clone(r.rejects[u])})
	}
	return out
}

func (r *resolver) edgeList() []Edge {
	out := slices.AppendSeq(make([]Edge, 0, len(r.edges)), maps.Keys(r.edges))
	slices.SortFunc(out, func(a, b Edge) int {
		return cmp.Or(strings.Compare(string(a.From), string(b.From)), strings.Compare(string(a.To), string(b.To)), strings.Compare(a.Kind, b.Kind))
	})
	return out
}
