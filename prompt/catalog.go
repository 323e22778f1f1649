package prompt

import (
	"bytes"
	"encoding/json"
	"maps"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/fingerprint"
	"github.com/rlm-go/rlm/pack"
)

// Catalog is an immutable, indexed set of normalized units. Build it once
// with NewCatalog; it is safe for concurrent Compile and Search calls. A
// changed unit set is a new Catalog: compiles are projections of a catalog,
// never mutations of it, so deactivating a unit on one turn never
// unregisters it.
type Catalog struct {
	units []Unit           // sorted by ID; the index of a unit is its rank
	index map[UnitID]int32 // ID → index
	fp    string

	// Lexical index. Token ids index dict/tokens; postings hold, per token,
	// the units whose searchable text contains it with the token's weight
	// for that unit.
	dict     map[string]int32
	tokens   []string
	postings [][]posting
	unitToks [][]tokWeight // per unit, sorted by token id
	nameToks []int32       // per unit, number of distinct name and alias tokens

	// Trigger index: keyword and phrase triggers by their first token id,
	// signal triggers by their exact text. trigToks holds each phrase or
	// keyword trigger's token ids.
	kwIdx    [][]trigRef
	phIdx    [][]trigRef
	sigIdx   map[string][]trigRef
	trigToks [][][]int32 // per unit, per trigger

	// Name keys (names and aliases, see nameKey) → units, for needs and
	// negation.
	names       map[string][]nameRef
	maxNameToks int

	match *matcher // stems, typo neighbourhoods and synonyms (lexical.go)

	always []int32 // units with activation always, in ID order

	hot     []unitHot // per unit, what the frontier reads of every unit with evidence
	caps    []string  // distinct capabilities, sorted
	unitCap []int32   // per unit, index into caps or -1
	cats    []string  // distinct categories, sorted
	unitCat []int32   // per unit, index into cats

	// Rendering: each unit's variants and, for units with a schema, the
	// provider function tool.
	variants  []variant
	unitVars  [][2]int32 // per unit, [start, end) into variants
	functions []*FunctionTool

	cacheMu sync.Mutex
	cache   map[counterKey][]atomic.Int32 // counter → per variant token count + 1 (0 = unknown)

	slotPool sync.Pool

	grantCache grantCache // per capability set: grants and fingerprint prefix (grants.go)
}

// unitHot is the part of a unit the frontier reads for each of the
// thousands of units a text may touch, packed so those reads stay in
// cache (a Unit is hundreds of bytes).
type unitHot struct {
	priority    int32
	always      bool
	unavailable bool
}

type posting struct {
	unit   int32
	weight int32
}

type tokWeight struct {
	tok    int32
	weight int32
	inName bool
}

type trigRef struct {
	unit int32
	trig int32
}

type nameRef struct {
	unit  int32
	alias string // the name or alias as declared
}

// variant is one representation of a unit, prepared for packing.
type variant struct {
	kind    string
	text    string
	utility int64 // representation utility, before the entry score
}

// FunctionTool is an OpenAI function-tool object, the provider form of a
// tool unit's schema.
type FunctionTool struct {
	Type     string         `json:"type"` // always "function"
	Function FunctionSchema `json:"function"`
}

// FunctionSchema is the "function" member of a FunctionTool.
type FunctionSchema struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// NewCatalog normalizes specs and builds a catalog. Two identical specs for
// one unit collapse into one; two different ones fail with duplicate_unit.
func NewCatalog(specs []Spec) (*Catalog, error) {
	return NewCatalogWith(specs, CatalogOptions{})
}

// CatalogOptions are catalog-wide settings.
type CatalogOptions struct {
	// Synonyms are groups of interchangeable words or phrases in the
	// host's vocabulary (["deploy", "ship", "roll out"]), used with the
	// built-in groups for lexical evidence (3/4 of a term's weight). At
	// most MaxSynonymGroups groups of 2..MaxSynonymGroupSize entries of
	// 1..MaxAlias characters, each with a letter or digit.
	Synonyms [][]string `json:"synonyms,omitempty"`
}

// Synonym limits.
const (
	MaxSynonymGroups    = 1024
	MaxSynonymGroupSize = 32
)

// NewCatalogWith is NewCatalog with options.
func NewCatalogWith(specs []Spec, opts CatalogOptions) (*Catalog, error) {
	units := make([]Unit, 0, len(specs))
	for _, s := range specs {
		u, err := Normalize(s)
		if err != nil {
			return nil, err
		}
		units = append(units, u)
	}
	return newCatalog(units, opts)
}

// normalizeSynonyms validates the groups and returns them lowercased,
// whitespace-collapsed, each sorted and deduplicated, groups sorted.
func normalizeSynonyms(in [][]string) ([][]string, error) {
	if len(in) > MaxSynonymGroups {
		return nil, fault.New(PhaseCatalog, KindInvalidSynonyms, "too many synonym groups").With("count", len(in)).With("max", MaxSynonymGroups)
	}
	out := make([][]string, 0, len(in))
	for i, g := range in {
		if len(g) < 2 || len(g) > MaxSynonymGroupSize {
			return nil, fault.New(PhaseCatalog, KindInvalidSynonyms, "a synonym group has 2..32 entries").With("group", i).With("count", len(g))
		}
		var ng []string
		for _, w := range g {
			w = strings.Join(strings.Fields(strings.ToLower(cleanText(w))), " ")
			if utf8.RuneCountInString(w) > MaxAlias || phraseKey(w) == "" {
				return nil, fault.New(PhaseCatalog, KindInvalidSynonyms, "a synonym is 1..128 characters with a letter or digit").With("group", i)
			}
			ng = append(ng, w)
		}
		slices.Sort(ng)
		out = append(out, slices.Compact(ng))
	}
	slices.SortFunc(out, func(a, b []string) int { return slices.Compare(a, b) })
	return out, nil
}

func newCatalog(units []Unit, opts CatalogOptions) (*Catalog, error) {
	synonyms, err := normalizeSynonyms(opts.Synonyms)
	if err != nil {
		return nil, err
	}
	// Sort by ID, stably: an index permutation is sorted rather than the
	// units themselves, which are large to move.
	perm := make([]int32, len(units))
	for i := range perm {
		perm[i] = int32(i)
	}
	slices.SortStableFunc(perm, func(a, b int32) int { return strings.Compare(string(units[a].ID), string(units[b].ID)) })
	sorted := make([]Unit, len(units))
	for i, j := range perm {
		sorted[i] = units[j]
	}
	units = sorted
	// The catalog fingerprint is fingerprint.Bytes of the canonical JSON
	// array of the units, hashed piece by piece from each unit's canonical
	// form (the same bytes fingerprint.Of(units) would hash).
	out := units[:0]
	h := fingerprint.NewHasher()
	if len(synonyms) > 0 {
		// With synonyms the fingerprint covers them too: the canonical
		// JSON of {"synonyms": GROUPS, "units": UNITS}.
		sj, err := fingerprint.Canonical(synonyms)
		if err != nil {
			return nil, fault.Wrap(err, PhaseCatalog, fault.KindInternal, "synonyms do not encode")
		}
		h.Write([]byte(`{"synonyms":`))
		h.Write(sj)
		h.Write([]byte(`,"units":`))
	}
	h.Write([]byte{'['})
	var prev, cur []byte
	for i := range units {
		u := &units[i]
		cur = u.appendCanonical(cur[:0])
		if i > 0 && u.ID == out[len(out)-1].ID {
			if string(prev) != string(cur) {
				return nil, fault.New(PhaseCatalog, KindDuplicateUnit, "two different specs for one unit").With("unit", string(u.ID))
			}
			continue
		}
		if len(out) > 0 {
			h.Write([]byte{','})
		}
		h.Write(cur)
		out = append(out, *u)
		prev, cur = cur, prev
	}
	h.Write([]byte{']'})
	if len(synonyms) > 0 {
		h.Write([]byte{'}'})
	}
	units = out
	fp := h.Sum()
	c := &Catalog{
		units:     units,
		index:     make(map[UnitID]int32, len(units)),
		fp:        fp,
		dict:      make(map[string]int32),
		sigIdx:    make(map[string][]trigRef),
		names:     make(map[string][]nameRef),
		unitToks:  make([][]tokWeight, len(units)),
		nameToks:  make([]int32, len(units)),
		trigToks:  make([][][]int32, len(units)),
		unitCap:   make([]int32, len(units)),
		unitCat:   make([]int32, len(units)),
		unitVars:  make([][2]int32, len(units)),
		functions: make([]*FunctionTool, len(units)),
		cache:     make(map[counterKey][]atomic.Int32),
	}
	for i, u := range units {
		c.index[u.ID] = int32(i)
	}
	c.buildLexical()
	c.buildTriggers()
	c.buildMatcher(synonyms)
	c.buildNames()
	c.buildPolicyTables()
	c.buildVariants()
	n := len(units)
	c.slotPool.New = func() any {
		return &unitSlots{score: make([]int64, n), mark: make([]bool, n)}
	}
	return c, nil
}

func (c *Catalog) tokenID(t string) int32 {
	if id, ok := c.dict[t]; ok {
		return id
	}
	id := int32(len(c.tokens))
	c.dict[t] = id
	c.tokens = append(c.tokens, t)
	return id
}

// buildLexical indexes each unit's searchable text (name, aliases, category,
// description) without stop tokens, by stem (see stem). A token's weight for a unit is its IDF,
// round(5·log2(1 + N/df)) clamped to 1..100, doubled when the token is part
// of the unit's name or an alias, so rare words outrank common ones and
// names outrank descriptions.
func (c *Catalog) buildLexical() {
	type occ struct {
		tok    int32
		inName bool
	}
	per := make([][]occ, len(c.units))
	seen := make(map[int32]int)
	stems := map[string]int32{} // token → id of its stem, memoized
	termID := func(t string) int32 {
		if id, ok := stems[t]; ok {
			return id
		}
		id := c.tokenID(stem(t))
		stems[t] = id
		return id
	}
	for i, u := range c.units {
		clear(seen)
		list := make([]occ, 0, 16)
		add := func(s string, inName bool) {
			tokenize(s, func(t string) {
				if stopTokens[t] {
					return
				}
				// Lexical postings are keyed by stem, so "issues" in a
				// description and "issue" in a name are one term.
				id := termID(t)
				if j, ok := seen[id]; ok {
					list[j].inName = list[j].inName || inName
					return
				}
				seen[id] = len(list)
				list = append(list, occ{id, inName})
			})
		}
		add(u.Name, true)
		for _, a := range u.Aliases {
			add(a, true)
		}
		add(u.Category, false)
		add(u.Description, false)
		per[i] = list
	}
	df := make([]int32, len(c.tokens))
	for _, list := range per {
		for _, o := range list {
			df[o.tok]++
		}
	}
	idf := make([]int32, len(c.tokens))
	n := float64(len(c.units))
	for t, d := range df {
		if d == 0 {
			continue
		}
		w := int32(math.Round(5 * math.Log2(1+n/float64(d))))
		idf[t] = min(max(w, 1), 100)
	}
	c.postings = make([][]posting, len(c.tokens))
	for i, list := range per {
		tw := make([]tokWeight, len(list))
		names := int32(0)
		for j, o := range list {
			w := idf[o.tok]
			if o.inName {
				w *= 2
				names++
			}
			tw[j] = tokWeight{o.tok, w, o.inName}
			c.postings[o.tok] = append(c.postings[o.tok], posting{int32(i), w})
		}
		slices.SortFunc(tw, func(a, b tokWeight) int { return int(a.tok - b.tok) })
		c.unitToks[i] = tw
		c.nameToks[i] = names
	}
}

func (c *Catalog) buildTriggers() {
	for i, u := range c.units {
		toks := make([][]int32, len(u.Triggers))
		for j, t := range u.Triggers {
			ref := trigRef{int32(i), int32(j)}
			kind, text := t.kind()
			if kind == "signal" {
				c.sigIdx[text] = append(c.sigIdx[text], ref)
				continue
			}
			var ids []int32
			tokenize(text, func(s string) { ids = append(ids, c.tokenID(s)) })
			toks[j] = ids
		}
		c.trigToks[i] = toks
	}
	c.kwIdx = make([][]trigRef, len(c.tokens))
	c.phIdx = make([][]trigRef, len(c.tokens))
	for i, u := range c.units {
		for j, t := range u.Triggers {
			ids := c.trigToks[i][j]
			if len(ids) == 0 {
				continue
			}
			ref := trigRef{int32(i), int32(j)}
			if t.Keyword != "" {
				c.kwIdx[ids[0]] = append(c.kwIdx[ids[0]], ref)
			} else {
				c.phIdx[ids[0]] = append(c.phIdx[ids[0]], ref)
			}
		}
	}
	// postings may need to grow for tokens first seen in triggers.
	c.postings = append(c.postings, make([][]posting, len(c.tokens)-len(c.postings))...)
}

func (c *Catalog) buildNames() {
	for i, u := range c.units {
		seen := map[string]bool{}
		add := func(alias string) {
			key := nameKey(alias)
			if key == "" || seen[key] {
				return
			}
			seen[key] = true
			c.names[key] = append(c.names[key], nameRef{int32(i), alias})
			c.maxNameToks = max(c.maxNameToks, strings.Count(key, " ")+1)
		}
		add(u.Name)
		for _, a := range u.Aliases {
			add(a)
		}
	}
}

func (c *Catalog) buildPolicyTables() {
	capSet := map[string]bool{}
	catSet := map[string]bool{}
	for i, u := range c.units {
		if u.RequiresCapability != "" {
			capSet[u.RequiresCapability] = true
		}
		catSet[u.Category] = true
		if u.Activation == Always {
			c.always = append(c.always, int32(i))
		}
	}
	c.caps = slices.Sorted(maps.Keys(capSet))
	c.cats = slices.Sorted(maps.Keys(catSet))
	c.hot = make([]unitHot, len(c.units))
	for i, u := range c.units {
		c.hot[i] = unitHot{priority: int32(u.Priority), always: u.Activation == Always, unavailable: !u.Available}
		c.unitCap[i] = -1
		if u.RequiresCapability != "" {
			j, _ := slices.BinarySearch(c.caps, u.RequiresCapability)
			c.unitCap[i] = int32(j)
		}
		j, _ := slices.BinarySearch(c.cats, u.Category)
		c.unitCat[i] = int32(j)
	}
}

// DefaultUtility is the utility of the default representation, plus the
// unit's priority.
const DefaultUtility = 1_000_000

// buildVariants prepares each unit's representations. Declared
// representations are used as given; otherwise there is one "full"
// variant: empty text for a unit with a schema (the schema travels as a
// provider tool), the content when there is some, and otherwise the line
// "Active capability ID (CATEGORY): DESCRIPTION".
func (c *Catalog) buildVariants() {
	c.variants = make([]variant, 0, len(c.units))
	for i, u := range c.units {
		start := int32(len(c.variants))
		if len(u.Representations) > 0 {
			for _, r := range u.Representations {
				c.variants = append(c.variants, variant{kind: r.Kind, text: r.Text, utility: r.Utility})
			}
		} else {
			text := ""
			switch {
			case u.Schema != nil:
			case u.Content != "":
				text = u.Content
			default:
				text = "Active capability " + string(u.ID) + " (" + u.Category + "): " + u.Description
			}
			c.variants = append(c.variants, variant{kind: "full", text: text, utility: DefaultUtility + int64(u.Priority)})
		}
		c.unitVars[i] = [2]int32{start, int32(len(c.variants))}
		if u.Schema != nil {
			c.functions[i] = &FunctionTool{Type: "function", Function: FunctionSchema{Name: u.Schema.Name, Description: u.Schema.Description, Parameters: u.Schema.Parameters}}
		}
	}
}

// appendFunctionJSON appends the JSON of a schema's provider function tool
// as encoding/json writes it (keys in sorted order, HTML characters
// escaped), which is what token counting reads: parameters are canonical
// already, so the bytes are assembled directly. Only a token-count cache
// miss needs them, so they are built then, not with the catalog.
func appendFunctionJSON(b []byte, s *Schema) []byte {
	start := len(b)
	b = fingerprint.AppendString(append(b, `{"function":{"description":`...), s.Description)
	b = fingerprint.AppendString(append(b, `,"name":`...), s.Name)
	b = append(append(b, `,"parameters":`...), s.Parameters...)
	b = append(b, `},"type":"function"}`...)
	if bytes.ContainsAny(b[start:], "<>&") {
		var esc bytes.Buffer
		json.HTMLEscape(&esc, b[start:])
		b = append(b[:start], esc.Bytes()...)
	}
	return b
}

// counterKey identifies a counter for the token cache: its Go type, method
// and encoding name. An exact cl100k_base counter, the estimator and a
// caller's own counter that also calls itself "estimate" never share
// counts.
type counterKey struct {
	typ              reflect.Type
	method, encoding string
}

// variantTokens returns the token charge of variant v of unit u under the
// counter: its text plus, for units with a schema, the canonical JSON of
// the provider function tool (sent with every non-omitted variant). Counts
// are cached per counter (counterKey), so the catalog is never
// re-tokenized.
func (c *Catalog) variantTokens(u int32, v int32, counter pack.Counter) int {
	enc := counterKey{reflect.TypeOf(counter), counter.Method(), counter.Encoding()}
	c.cacheMu.Lock()
	slots, ok := c.cache[enc]
	if !ok {
		slots = make([]atomic.Int32, len(c.variants))
		c.cache[enc] = slots
	}
	c.cacheMu.Unlock()
	if n := slots[v].Load(); n > 0 {
		return int(n - 1)
	}
	n := counter.Count(c.variants[v].text)
	if c.variants[v].text != "" {
		n += counter.Count(textSeparator) // the blank line joining it to the rendered text
	}
	if s := c.units[u].Schema; s != nil {
		n += counter.Count(string(appendFunctionJSON(nil, s)))
	}
	slots[v].Store(int32(n + 1))
	return n
}

// Fingerprint returns the catalog fingerprint: SHA-256 over the canonical
// JSON of all normalized units in ID order. Every field is material.
func (c *Catalog) Fingerprint() string { return c.fp }

// Len returns the number of units.
func (c *Catalog) Len() int { return len(c.units) }

// Units returns the normalized units in ID order. The slice is a copy; the
// units share their inner slices with the catalog and must not be modified.
func (c *Catalog) Units() []Unit { return slices.Clone(c.units) }

// Lookup returns the unit with the given id.
func (c *Catalog) Lookup(id UnitID) (Unit, bool) {
	i, ok := c.index[id]
	if !ok {
		return Unit{}, false
	}
	return c.units[i], true
}
