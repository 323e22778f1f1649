package prompt

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/fingerprint"
	"github.com/rlm-go/rlm/internal/textcut"
	"github.com/rlm-go/rlm/pack"
)

// Evidence weights.
const (
	// ExplicitSelectionWeight is the evidence of a host selection.
	ExplicitSelectionWeight = 100000
	// NeedWeight is the evidence of a need naming a unit or an alias.
	NeedWeight = 50
	// allToolsScore is the base score of every unit in all_tools mode.
	allToolsScore = 1000
)

// Selection is one selected unit.
type Selection struct {
	Unit       UnitID     `json:"unit"`
	Activation Activation `json:"activation"`
	Score      int64      `json:"score"`
	Reasons    []string   `json:"reasons"`
}

// Rejection is one unit removed by policy, dependency failure, conflict or
// supersession.
type Rejection struct {
	Unit    UnitID   `json:"unit"`
	Reasons []string `json:"reasons"`
}

// Edge is a dependency edge: Kind "requires" or "suggests".
type Edge struct {
	From UnitID `json:"from"`
	To   UnitID `json:"to"`
	Kind string `json:"kind"`
}

// Compiled is one provider-visible projection of a catalog.
type Compiled struct {
	// Selected units, by score descending then unit id.
	Selected []Selection `json:"selected"`
	// Rejected units, by unit id.
	Rejected []Rejection `json:"rejected"`
	// Dependencies lists requires and suggests edges met during
	// resolution, sorted.
	Dependencies []Edge `json:"dependencies"`
	// ActiveUnits are the selected, provider-visible units the packer kept,
	// sorted.
	ActiveUnits []UnitID `json:"active_units"`
	// ToolSchemas are the function tools of the active tool units, by unit
	// id.
	ToolSchemas []FunctionTool `json:"tool_schemas"`
	// Text is the rendered instruction text: the chosen variants of the
	// active units (always units first, then by priority descending and
	// unit id), separated by blank lines.
	Text string `json:"text"`
	// Ledger records the packer's charges; nil when packing was off.
	Ledger *pack.Ledger `json:"ledger"`
	// Fingerprint identifies the material inputs of this compile.
	Fingerprint string `json:"fingerprint"`
	// CatalogFingerprint is the catalog's fingerprint.
	CatalogFingerprint string `json:"catalog_fingerprint"`

	catalog  *Catalog
	input    Input
	opts     Options
	eval     *evaluated
	selected map[UnitID]int
	rejected map[UnitID]int
	active   map[UnitID]bool
	lexFloor int64 // lexical score below which lexical-only units were hidden
}

// Input returns the normalized input of the compile.
func (r *Compiled) Input() Input { return r.input }

// Recompile compiles ev applied to r's input against the same catalog with
// opts (options are not inherited).
func (r *Compiled) Recompile(ctx context.Context, ev Event, opts Options) (*Compiled, error) {
	return r.catalog.Compile(ctx, r.input.Apply(ev), opts)
}

// rank orders relevant candidates: higher score first, then lower index
// (unit id).
type rank struct {
	score int64
	miss  int64 // weight of the unit's name tokens the text did not match
	unit  int32
}

// better orders by score, then by fewer unmatched name tokens (so among
// equally scored units the one the text names most completely comes
// first: a base tool before its variants with an extra product word),
// then by id.
func (a rank) better(b rank) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	if a.miss != b.miss {
		return a.miss < b.miss
	}
	return a.unit < b.unit
}

// cmp is better as a sort comparison.
func (a rank) cmp(b rank) int {
	switch {
	case a.better(b):
		return -1
	case b.better(a):
		return 1
	}
	return 0
}

// unitSlots is one compile's working memory with one slot per catalog
// unit (scores, marks, flags), reused through the catalog's pool; only
// touched slots are reset.
type unitSlots struct {
	score   []int64
	lex     []int64
	mark    []bool
	touched []int32
	flags   []uint8
	flagged []int32
	tokStr  []int32 // per catalog token: the strength the text matched it with (lexTerm), 0 for none
	strToks []int32 // tokens with a tokStr set

	clauseLoc []int64 // per unit, what one clause matches (clause.go); zero between uses
	eligible  []bool  // per unit, passed the gates (multi-clause text only)
	eligList  []int32 // units marked eligible
}

func (s *unitSlots) setEligible(u int32) {
	if s.eligible == nil {
		s.eligible = make([]bool, len(s.mark))
	}
	s.eligible[u] = true
	s.eligList = append(s.eligList, u)
}

const (
	flagSelected uint8 = 1 << iota
	flagDenied
	flagNegated
	flagSignalDenied
	flagScopeUnit
	flagParentScopeUnit
)

// add adds w to unit u's score, touching the slot.
func (s *unitSlots) add(u int32, w int64) {
	if !s.mark[u] {
		s.mark[u] = true
		s.touched = append(s.touched, u)
	}
	s.score[u] += w
}

func (s *unitSlots) reset() {
	for _, u := range s.touched {
		s.score[u], s.lex[u], s.mark[u] = 0, 0, false
	}
	for _, u := range s.flagged {
		s.flags[u] = 0
	}
	for _, t := range s.strToks {
		s.tokStr[t] = 0
	}
	for _, u := range s.eligList {
		s.eligible[u] = false
	}
	s.eligList = s.eligList[:0]
	s.touched, s.flagged, s.strToks = s.touched[:0], s.flagged[:0], s.strToks[:0]
}

func (c *Catalog) getSlots() *unitSlots {
	s := c.slotPool.Get().(*unitSlots)
	if s.lex == nil {
		n := len(c.units)
		s.lex, s.flags = make([]int64, n), make([]uint8, n)
		s.tokStr = make([]int32, len(c.tokens))
	}
	return s
}

func (c *Catalog) putSlots(s *unitSlots) {
	s.reset()
	c.slotPool.Put(s)
}

// evaluated is one compile's input and options evaluated against the
// catalog (tokens, signals, denials, grants, scope), with the unit slots
// the compile scores and flags units in.
type evaluated struct {
	c       *Catalog
	slots   *unitSlots
	in      Input
	seq     []int32      // text token ids in order, -1 for tokens not in the catalog
	set     []int32      // distinct known text token ids, sorted
	lex     []lexTerm    // catalog tokens the text matches lexically, sorted (lexical.go)
	clauses []clauseEval // the text's clauses when it has two or more (clause.go)
	signals []string
	needs   map[string]string // name key → need as given
	negated map[int32]string  // unit → negated name or alias
	sigDeny map[int32]string  // unit → denying signal
	catDeny map[int32]string  // category → denying signal
	capOK   []bool            // per Catalog.caps entry: granted (shared, read-only)
	grant   *grantEntry       // the capability set's cached grants (grants.go)
	scope   scopeEval
	parent  scopeEval
	limit   int
	mode    Mode
	policy  pack.Policy
	counter pack.Counter
	noPack  bool
	cutoff  int
	flagMap map[int32]uint8 // the flags after the compile, once detached
}

type scopeEval struct {
	all   bool
	kinds map[Kind]bool
	cats  []bool
	flag  uint8
}

func (e *evaluated) setFlag(u int32, f uint8) {
	if e.slots.flags[u] == 0 {
		e.slots.flagged = append(e.slots.flagged, u)
	}
	e.slots.flags[u] |= f
}

// Compile selects, resolves, packs and renders one projection of the
// catalog. It fails with a typed error on malformed input or options,
// contradictory always-unit configuration, a mandatory unit over budget
// (pack's context_budget_exceeded) or two active tools with one function
// name.
func (c *Catalog) Compile(ctx context.Context, in Input, opts Options) (*Compiled, error) {
	if err := ctx.Err(); err != nil {
		return nil, fault.FromContext(PhaseCompile, err)
	}
	in, err := in.Normalize()
	if err != nil {
		return nil, err
	}
	sl := c.getSlots()
	defer c.putSlots(sl)
	e, opts, err := c.evaluate(sl, in, opts)
	if err != nil {
		return nil, err
	}
	r := &Compiled{catalog: c, input: in, opts: opts, eval: e, CatalogFingerprint: c.fp}
	res := newResolver(e)
	if e.mode == ModeAllTools {
		c.frontierAll(e, res)
	} else {
		c.frontierCompiled(e, res, r)
	}
	if err := res.resolve(); err != nil {
		return nil, err
	}
	if err := c.finish(e, res, r); err != nil {
		return nil, err
	}
	r.eval = e.detach()
	return r, nil
}

// evaluate evaluates the input and options once per compile: options,
// grants, trusted marks, text, signals, untrusted denials, in that order
// (the first failing check is the error).
func (c *Catalog) evaluate(sl *unitSlots, in Input, opts Options) (*evaluated, Options, error) {
	e := &evaluated{c: c, slots: sl, in: in}
	opts, err := e.evalOptions(opts)
	if err != nil {
		return nil, opts, err
	}
	if err := e.evalGrants(opts); err != nil {
		return nil, opts, err
	}
	e.markTrusted(in)
	words := e.evalText(in.Text)
	if opts.Mode != ModeAllTools {
		e.evalClauses(in.Text)
	}
	e.evalSignals(in)
	e.markUntrustedDenials(in.Signals, words)
	return e, opts, nil
}

// evalOptions checks the options and fills in their defaults: candidate
// limit, mode, lexical cutoff, packing policy and token counter. It returns
// opts with the effective limit and mode.
func (e *evaluated) evalOptions(opts Options) (Options, error) {
	e.limit, e.mode, e.noPack, e.cutoff = opts.CandidateLimit, opts.Mode, opts.NoPack, opts.LexicalCutoff
	switch {
	case e.limit < 0:
		return opts, fault.New(PhaseCompile, KindInvalidCandidateLimit, "candidate_limit must not be negative").With("candidate_limit", e.limit)
	case e.limit == 0:
		e.limit = DefaultCandidateLimit
	case e.limit > MaxCandidateLimit:
		e.limit = MaxCandidateLimit
	}
	opts.CandidateLimit = e.limit
	switch e.mode {
	case "":
		e.mode = ModeCompiled
	case ModeCompiled, ModeAllTools:
	default:
		return opts, fault.New(PhaseCompile, KindInvalidMode, "mode must be compiled or all_tools").With("mode", textcut.Prefix(string(e.mode), 64))
	}
	opts.Mode = e.mode
	if e.cutoff < 0 || e.cutoff > 100 {
		return opts, fault.New(PhaseCompile, KindInvalidOptions, "lexical_cutoff must be 0..100").With("lexical_cutoff", e.cutoff)
	}
	e.policy = pack.DefaultPolicy()
	if opts.Policy != nil {
		e.policy = *opts.Policy
	}
	if _, err := e.policy.Available(); err != nil {
		return opts, err
	}
	e.counter = opts.Counter
	if e.counter == nil {
		e.counter = pack.CounterFor(opts.Model)
	}
	return opts, nil
}

// evalGrants evaluates what the caller may see: the granted capabilities
// (one grammar and one Has, capability.Set's) and the discovery scope,
// which may only narrow its parent's.
func (e *evaluated) evalGrants(opts Options) error {
	c := e.c
	g, err := c.grants(opts.Capabilities)
	if err != nil {
		return err
	}
	e.grant, e.capOK = g, g.capOK
	if err := c.checkNarrowing(opts.ParentDiscoveryScope, opts.DiscoveryScope); err != nil {
		return err
	}
	e.scope = c.evalScope(e, opts.DiscoveryScope, flagScopeUnit)
	e.parent = c.evalScope(e, opts.ParentDiscoveryScope, flagParentScopeUnit)
	return nil
}

// markTrusted flags the units the host selected or denied (trusted input).
func (e *evaluated) markTrusted(in Input) {
	for _, id := range in.Selected {
		if u, ok := e.c.index[id]; ok {
			e.setFlag(u, flagSelected)
		}
	}
	for _, id := range in.Denied {
		if u, ok := e.c.index[id]; ok {
			e.setFlag(u, flagDenied)
		}
	}
}

// evalText tokenizes the text into the catalog's token ids (seq, set) and
// its lexical matches, and returns the words in order.
func (e *evaluated) evalText(text string) []string {
	c := e.c
	var words []string
	tokenize(text, func(t string) {
		words = append(words, t)
		id, ok := c.dict[t]
		if !ok {
			e.seq = append(e.seq, -1)
			return
		}
		e.seq = append(e.seq, id)
		e.set = append(e.set, id)
	})
	slices.Sort(e.set)
	e.set = slices.Compact(e.set)
	e.lex = c.lexTerms(words)
	for _, lt := range e.lex {
		e.slots.tokStr[lt.tok] = lt.strength
		e.slots.strToks = append(e.slots.strToks, lt.tok)
	}
	return words
}

// evalSignals collects the signals, each need as signal need:NAME (sorted,
// distinct), and the needs by name key (the first spelling of each).
func (e *evaluated) evalSignals(in Input) {
	e.signals = slices.Clone(in.Signals)
	for _, n := range in.Needs {
		e.signals = append(e.signals, "need:"+n)
	}
	slices.Sort(e.signals)
	e.signals = slices.Compact(e.signals)
	if len(in.Needs) > 0 {
		e.needs = make(map[string]string, len(in.Needs))
		for _, n := range in.Needs {
			if k := nameKey(n); k != "" {
				if _, dup := e.needs[k]; !dup {
					e.needs[k] = n
				}
			}
		}
	}
}

// markUntrustedDenials records the untrusted denials: deny: and negated:
// signals naming a unit or a category, and natural-language negation of a
// unit's name or alias in the text's words.
func (e *evaluated) markUntrustedDenials(signals, words []string) {
	c := e.c
	for _, s := range signals {
		for _, prefix := range []string{"deny:", "negated:"} {
			rest, ok := strings.CutPrefix(s, prefix)
			if !ok {
				continue
			}
			if cat, ok := strings.CutPrefix(rest, "category:"); ok {
				if j, found := slices.BinarySearch(c.cats, cat); found {
					putFirst(&e.catDeny, int32(j), s)
				}
				continue
			}
			if u, ok := c.index[UnitID(rest)]; ok && putFirst(&e.sigDeny, u, s) {
				e.setFlag(u, flagSignalDenied)
			}
		}
	}
	for i := range words {
		for _, m := range negationMarkers {
			if i+len(m) > len(words) || !slices.Equal(words[i:i+len(m)], m) {
				continue
			}
			rest := words[i+len(m):]
			for k := 1; k <= min(len(rest), c.maxNameToks); k++ {
				for _, nr := range c.names[strings.Join(rest[:k], " ")] {
					if putFirst(&e.negated, nr.unit, nr.alias) {
						e.setFlag(nr.unit, flagNegated)
					}
				}
			}
		}
	}
}

// putFirst stores v under k unless k is present, allocating *m on first
// use, and reports whether it stored: the first denial of a unit is the one
// its reasons name.
func putFirst(m *map[int32]string, k int32, v string) bool {
	if _, dup := (*m)[k]; dup {
		return false
	}
	if *m == nil {
		*m = map[int32]string{}
	}
	(*m)[k] = v
	return true
}

// checkNarrowing fails when a restricted request names items a restricted
// parent does not cover. An item is covered when the parent holds it, or,
// for a unit item, when the parent holds the unit's kind or category.
func (c *Catalog) checkNarrowing(parent, req Scope) error {
	if parent.All() || req.All() {
		return nil
	}
	has := map[ScopeItem]bool{}
	for _, it := range parent.items {
		has[it] = true
	}
	var extra []string
	for _, it := range req.items {
		if has[it] {
			continue
		}
		if it.Unit != "" {
			if has[ScopeItem{Kind: it.Unit.Kind()}] {
				continue
			}
			if u, ok := c.Lookup(it.Unit); ok && has[ScopeItem{Category: u.Category}] {
				continue
			}
		}
		extra = append(extra, it.String())
	}
	if len(extra) > 0 {
		slices.Sort(extra)
		return fault.New(PhaseCompile, KindScopeWideningDenied, "a discovery scope may only narrow its parent").With("items", slices.Compact(extra))
	}
	return nil
}

func (c *Catalog) evalScope(e *evaluated, s Scope, flag uint8) scopeEval {
	if s.All() {
		return scopeEval{all: true}
	}
	ev := scopeEval{kinds: map[Kind]bool{}, cats: make([]bool, len(c.cats)), flag: flag}
	for _, it := range s.items {
		switch {
		case it.Kind != "":
			ev.kinds[it.Kind] = true
		case it.Category != "":
			if j, ok := slices.BinarySearch(c.cats, it.Category); ok {
				ev.cats[j] = true
			}
		default:
			if u, ok := c.index[it.Unit]; ok {
				e.setFlag(u, flag)
			}
		}
	}
	return ev
}

// detach drops the unit slots so the evaluation can outlive the compile
// (Explain re-evaluates single units with it).
func (e *evaluated) detach() *evaluated {
	d := *e
	d.slots = nil
	d.flagMap = map[int32]uint8{}
	for _, u := range e.slots.flagged {
		d.flagMap[u] = e.slots.flags[u]
	}
	return &d
}

func (e *evaluated) flagsOf(u int32) uint8 {
	if e.slots != nil {
		return e.slots.flags[u]
	}
	return e.flagMap[u]
}

func (e *evaluated) allowed(u int32) bool {
	f := e.flagsOf(u)
	okScope := func(s *scopeEval) bool {
		if s.all {
			return true
		}
		return s.kinds[e.c.units[u].Kind] || s.cats[e.c.unitCat[u]] || f&s.flag != 0
	}
	return okScope(&e.scope) && okScope(&e.parent)
}

// gate returns the policy reasons rejecting unit u, in a fixed order:
// trusted denial, untrusted denials (relevant units that the host did not
// select only), availability, discovery scope, capability.
func (e *evaluated) gate(u int32, always bool) []string {
	c := e.c
	f := e.flagsOf(u)
	var out []string
	if f&flagDenied != 0 {
		out = append(out, "explicit_denial")
	}
	if !always && f&flagSelected == 0 {
		if f&flagSignalDenied != 0 {
			out = append(out, "signal_denial("+e.sigDeny[u]+")")
		} else if s, ok := e.catDeny[c.unitCat[u]]; ok {
			out = append(out, "signal_denial("+s+")")
		}
		if f&flagNegated != 0 {
			out = append(out, "text_negation("+e.negated[u]+")")
		}
	}
	if c.hot[u].unavailable {
		out = append(out, "unavailable")
	}
	if !e.allowed(u) {
		out = append(out, "discovery_scope_denied")
	}
	if j := c.unitCap[u]; j >= 0 && !e.capOK[j] {
		out = append(out, "capability_denied("+c.caps[j]+")")
	}
	return out
}

// depCheck returns why required unit u cannot be resolved for a root, or
// "". Discovery scope applies only to provider-visible units, so host-only
// units such as MCP servers may sit outside it. Untrusted negation of a
// dependency fails relevant roots only (dependency_negated); pinned roots
// ignore it like they ignore negation of themselves.
func (e *evaluated) depCheck(u int32, pinned bool) string {
	c := e.c
	id := string(c.units[u].ID)
	f := e.flagsOf(u)
	switch {
	case f&flagDenied != 0:
		return "dependency_denied(" + id + ")"
	case !pinned && f&flagSelected == 0 && (f&(flagNegated|flagSignalDenied) != 0 || e.catDeny[c.unitCat[u]] != ""):
		return "dependency_negated(" + id + ")"
	case !c.units[u].Available:
		return "dependency_unavailable(" + id + ")"
	case c.unitCap[u] >= 0 && !e.capOK[c.unitCap[u]]:
		return "dependency_capability_denied(" + id + "," + c.caps[c.unitCap[u]] + ")"
	case c.units[u].ProviderVisible && !e.allowed(u):
		return "dependency_scope_denied(" + id + ")"
	}
	return ""
}

// hasAll reports whether every token of ids is in the text.
func (e *evaluated) hasAll(ids []int32) bool {
	for _, t := range ids {
		if _, ok := slices.BinarySearch(e.set, t); !ok {
			return false
		}
	}
	return true
}

// hasPhrase reports whether ids occur contiguously in the text.
func (e *evaluated) hasPhrase(ids []int32) bool {
	for p := 0; p+len(ids) <= len(e.seq); p++ {
		if e.seq[p] == ids[0] && slices.Equal(e.seq[p:p+len(ids)], ids) {
			return true
		}
	}
	return false
}

// accumulate adds every piece of evidence to the unit slots' scores through
// the indexes, touching only units that have some.
func (c *Catalog) accumulate(e *evaluated) {
	sl := e.slots
	trig := func(r trigRef) { sl.add(r.unit, int64(c.units[r.unit].Triggers[r.trig].Weight)) }
	for _, lt := range e.lex {
		for _, p := range c.postings[lt.tok] {
			w := int64(p.weight) * int64(lt.strength) / matchExact
			sl.add(p.unit, w)
			sl.lex[p.unit] += w
		}
	}
	for _, t := range e.set {
		for _, r := range c.kwIdx[t] {
			if e.hasAll(c.trigToks[r.unit][r.trig]) {
				trig(r)
			}
		}
		for _, r := range c.phIdx[t] {
			if e.hasPhrase(c.trigToks[r.unit][r.trig]) {
				trig(r)
			}
		}
	}
	for _, s := range e.signals {
		for _, r := range c.sigIdx[s] {
			trig(r)
		}
	}
	for k := range e.needs {
		for _, nr := range c.names[k] {
			sl.add(nr.unit, NeedWeight)
		}
	}
	for _, id := range e.in.Selected {
		if u, ok := c.index[id]; ok {
			sl.add(u, ExplicitSelectionWeight)
		}
	}
}

// evidence recomputes the evidence of one unit with its reasons. It agrees
// with accumulate: base equals the accumulated score.
func (e *evaluated) evidence(u int32) (base, lex int64, reasons []string) {
	c := e.c
	unit := &c.units[u]
	if e.flagsOf(u)&flagSelected != 0 {
		base += ExplicitSelectionWeight
		reasons = append(reasons, "explicit_selection")
	}
	for j, t := range unit.Triggers {
		kind, text := t.kind()
		var ok bool
		switch kind {
		case "signal":
			_, ok = slices.BinarySearch(e.signals, text)
		case "keyword":
			ok = e.hasAll(c.trigToks[u][j])
		default:
			ok = e.hasPhrase(c.trigToks[u][j])
		}
		if ok {
			base += int64(t.Weight)
			reasons = append(reasons, "trigger("+kind+":"+text+")")
		}
	}
	if e.needs != nil {
		keys := []string{nameKey(unit.Name)}
		for _, a := range unit.Aliases {
			keys = append(keys, nameKey(a))
		}
		slices.Sort(keys)
		keys = slices.Compact(keys)
		for _, k := range keys {
			if n, ok := e.needs[k]; ok {
				base += NeedWeight
				reasons = append(reasons, "need("+n+")")
			}
		}
	}
	var matched []string
	for _, tw := range c.unitToks[u] {
		if s := e.strength(tw.tok); s > 0 {
			lex += int64(tw.weight) * int64(s) / matchExact
			matched = append(matched, c.tokens[tw.tok])
		}
	}
	if len(matched) > 0 {
		slices.Sort(matched)
		base += lex
		reasons = append(reasons, "lexical("+strings.Join(matched, ",")+")")
	}
	return base, lex, reasons
}

// frontierCompiled seeds eligible always units and the best relevant units
// with evidence, up to the candidate limit.
func (c *Catalog) frontierCompiled(e *evaluated, res *resolver, r *Compiled) {
	sl := e.slots
	c.seedAlways(e, res, 0)
	c.accumulate(e)
	var lexMax int64
	if e.cutoff > 0 {
		for _, u := range sl.touched {
			lexMax = max(lexMax, sl.lex[u])
		}
		r.lexFloor = (lexMax*int64(e.cutoff) + 99) / 100
	}
	h := make(topK, 0, e.limit)
	for _, u := range sl.touched {
		base := sl.score[u]
		if base <= 0 || c.hot[u].always {
			continue
		}
		if reasons := e.gate(u, false); len(reasons) > 0 {
			res.reject(u, reasons...)
			continue
		}
		if e.cutoff > 0 && base == sl.lex[u] && sl.lex[u] < r.lexFloor {
			continue
		}
		rk := rank{score: base + int64(c.hot[u].priority), unit: u}
		if e.clauses != nil {
			sl.setEligible(u)
		}
		if len(h) < e.limit || rk.score >= h[0].score {
			rk.miss = e.nameMiss(u) // only a tie with the worst kept needs it
		}
		h.push(rk, e.limit)
	}
	// Denied units without evidence are still reported.
	for _, id := range e.in.Denied {
		if u, ok := c.index[id]; ok && !sl.mark[u] && c.units[u].Activation != Always {
			res.reject(u, e.gate(u, false)...)
		}
	}
	roots := h.sorted()
	if e.clauses != nil {
		roots = c.clauseFrontier(e, roots)
	}
	for _, rk := range roots {
		_, _, reasons := e.evidence(rk.unit)
		res.root(rk.unit, rk.score, false, reasons)
	}
}

// seedAlways adds every eligible always unit as a pinned root with reason
// activation(always); ineligible ones are rejected with their reasons.
func (c *Catalog) seedAlways(e *evaluated, res *resolver, bonus int64) {
	for _, u := range c.always {
		if reasons := e.gate(u, true); len(reasons) > 0 {
			res.reject(u, reasons...)
			continue
		}
		reasons := []string{"activation(always)"}
		if e.flagsOf(u)&flagSelected != 0 {
			reasons = append(reasons, "explicit_selection")
		}
		if bonus > 0 {
			reasons = append(reasons, "compatibility_mode(all_tools)")
		}
		res.root(u, 1+bonus+int64(c.units[u].Priority), true, reasons)
	}
}

// frontierAll makes every eligible unit a candidate (all_tools mode).
func (c *Catalog) frontierAll(e *evaluated, res *resolver) {
	c.seedAlways(e, res, allToolsScore-1)
	for u := range c.units {
		u := int32(u)
		if c.units[u].Activation == Always {
			continue
		}
		if reasons := e.gate(u, false); len(reasons) > 0 {
			res.reject(u, reasons...)
			continue
		}
		res.root(u, allToolsScore+int64(c.units[u].Priority), false, []string{"compatibility_mode(all_tools)"})
	}
}

// topK keeps the best k ranks in a heap whose root is the worst kept.
type topK []rank

func (h *topK) push(r rank, k int) {
	s := *h
	if len(s) < k {
		s = append(s, r)
		for i := len(s) - 1; i > 0; {
			p := (i - 1) / 2
			if !s[p].better(s[i]) {
				break
			}
			s[p], s[i] = s[i], s[p]
			i = p
		}
		*h = s
		return
	}
	if k == 0 || !r.better(s[0]) {
		return
	}
	s[0] = r
	for i := 0; ; {
		l, rt, w := 2*i+1, 2*i+2, i
		if l < len(s) && s[w].better(s[l]) {
			w = l
		}
		if rt < len(s) && s[w].better(s[rt]) {
			w = rt
		}
		if w == i {
			break
		}
		s[w], s[i] = s[i], s[w]
		i = w
	}
}

func (h topK) sorted() []rank {
	out := slices.Clone(h)
	slices.SortFunc(out, rank.cmp)
	return out
}

// finish packs and renders the resolved entries into r.
func (c *Catalog) finish(e *evaluated, res *resolver, r *Compiled) error {
	alive := res.alive()
	// Selected, by score then id.
	bySelection := slices.Clone(alive)
	slices.SortFunc(bySelection, func(a, b *entry) int { return cmp.Or(cmp.Compare(b.score, a.score), int(a.u-b.u)) })
	r.Selected = make([]Selection, len(bySelection))
	r.selected = make(map[UnitID]int, len(bySelection))
	for i, en := range bySelection {
		reasons := slices.Clone(en.reasons)
		slices.Sort(reasons)
		u := c.units[en.u]
		r.Selected[i] = Selection{Unit: u.ID, Activation: u.Activation, Score: en.score, Reasons: slices.Compact(reasons)}
		r.selected[u.ID] = i
	}
	r.Rejected = res.rejections()
	r.rejected = make(map[UnitID]int, len(r.Rejected))
	for i, rj := range r.Rejected {
		r.rejected[rj.Unit] = i
	}
	r.Dependencies = res.edgeList()

	// Render order: pinned first, then priority descending, then id.
	visible := slices.DeleteFunc(slices.Clone(alive), func(en *entry) bool { return !c.units[en.u].ProviderVisible })
	slices.SortFunc(visible, func(a, b *entry) int {
		return cmp.Or(pinnedFirst(a, b), c.units[b.u].Priority-c.units[a.u].Priority, int(a.u-b.u))
	})
	chosen := make([]int32, len(visible)) // variant index, -1 omitted
	if e.noPack {
		for i, en := range visible {
			chosen[i] = c.unitVars[en.u][0]
		}
	} else {
		items := make([]pack.Item, len(visible))
		for i, en := range visible {
			vr := c.unitVars[en.u]
			vs := make([]pack.Variant, 0, vr[1]-vr[0])
			for v := vr[0]; v < vr[1]; v++ {
				vs = append(vs, pack.Variant{Kind: c.variants[v].kind, Tokens: c.variantTokens(en.u, v, e.counter), Utility: c.variants[v].utility + en.score})
			}
			items[i] = pack.Item{ID: string(c.units[en.u].ID), Mandatory: c.units[en.u].MandatoryContext, Variants: vs}
		}
		pr, err := pack.Pack(items, e.policy, e.counter)
		if err != nil {
			return err
		}
		for i, ch := range pr.Choice {
			chosen[i] = -1
			if ch >= 0 {
				chosen[i] = c.unitVars[visible[i].u][0] + int32(ch)
			}
		}
		r.Ledger = &pr.Ledger
	}
	r.active = map[UnitID]bool{}
	r.ActiveUnits = []UnitID{}
	var texts []string
	var tools []int32
	for i, en := range visible {
		if chosen[i] < 0 {
			continue
		}
		r.active[c.units[en.u].ID] = true
		r.ActiveUnits = append(r.ActiveUnits, c.units[en.u].ID)
		if t := c.variants[chosen[i]].text; t != "" {
			texts = append(texts, t)
		}
		if c.functions[en.u] != nil {
			tools = append(tools, en.u)
		}
	}
	slices.Sort(r.ActiveUnits)
	slices.Sort(tools)
	r.ToolSchemas = make([]FunctionTool, len(tools))
	names := make(map[string]UnitID, len(tools))
	for i, u := range tools {
		ft := c.functions[u]
		if prev, dup := names[ft.Function.Name]; dup {
			return fault.New(PhaseCompile, KindDuplicateToolName, "two active tools have the same function name").
				With("name", ft.Function.Name).With("units", []string{string(prev), string(c.units[u].ID)})
		}
		names[ft.Function.Name] = c.units[u].ID
		r.ToolSchemas[i] = *ft
	}
	r.Text = strings.Join(texts, textSeparator)
	rest, err := fingerprint.Canonical(materialRest{
		Catalog: c.fp, Input: e.in,
		DiscoveryScope: r.opts.DiscoveryScope, ParentDiscoveryScope: r.opts.ParentDiscoveryScope,
		Mode: e.mode, Pack: !e.noPack, Policy: e.policy,
		Encoding: e.counter.Encoding(), LexicalCutoff: e.cutoff,
	})
	if err != nil {
		return fault.Wrap(err, PhaseCompile, fault.KindInternal, "fingerprint")
	}
	// fingerprint.Of(material{...}) without re-encoding and re-hashing the
	// capability set (grants.go).
	r.Fingerprint, err = e.grant.fingerprint(e.limit, rest)
	return err
}

// textSeparator joins the chosen variants' texts in Compiled.Text; the
// packer charges one per non-empty text.
const textSeparator = "\n\n"

// materialRest is what a compile's output depends on besides code and
// its candidate limit and capabilities, which the fingerprint hashes
// first (grants.go; the test's material is the whole).
type materialRest struct {
	Catalog              string      `json:"catalog"`
	Input                Input       `json:"input"`
	DiscoveryScope       Scope       `json:"discovery_scope"`
	ParentDiscoveryScope Scope       `json:"parent_discovery_scope"`
	Mode                 Mode        `json:"mode"`
	Pack                 bool        `json:"pack"`
	Policy               pack.Policy `json:"policy"`
	Encoding             string      `json:"encoding"`
	LexicalCutoff        int         `json:"lexical_cutoff"`
}
