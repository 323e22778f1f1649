package prompt

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/fingerprint"
	"github.com/rlm-go/rlm/internal/jsonstrict"
	"github.com/rlm-go/rlm/internal/textcut"
	"github.com/rlm-go/rlm/tool"
)

// Limits applied by normalization, in characters (runes) unless noted.
const (
	MaxDescription     = 2048
	MaxContent         = 32768
	MaxAliases         = 32
	MaxAlias           = 128
	MaxTriggers        = 64
	MaxTriggerText     = 256
	MaxTriggerWeight   = 100000
	MaxRelations       = 64
	MaxRepresentations = 16
	MaxUtility         = 1_000_000_000
	MaxPriority        = 1_000_000
	MaxProvenance      = 512   // longer provenance is truncated, not rejected
	MaxCapability      = 256   // bytes
	MaxSchemaBytes     = 65536 // canonical JSON of the parameters
)

// Defaults filled by normalization.
const (
	DefaultPriority      = 100
	DefaultTriggerWeight = 10
	DefaultProvenance    = "host"
)

// Activation is a unit's selection policy.
type Activation string

// Activation values.
const (
	// Relevant units need evidence (selection, triggers, lexical overlap,
	// needs) and compete for the candidate limit. The default.
	Relevant Activation = "relevant"
	// Always units are seeded into every compile in which they are eligible,
	// outside the candidate limit; untrusted negation and relevance-ranked
	// conflicts cannot remove them. Trusted denial, availability, discovery
	// scope, capability and dependency checks still apply.
	Always Activation = "always"
)

// Trigger is one piece of declared activation evidence. Exactly one of
// Phrase, Keyword or Signal is set.
//
// A phrase matches when its tokens occur contiguously in the text's tokens;
// a keyword matches when all its tokens occur anywhere in the text; a
// signal matches an input signal exactly (needs arrive as signals
// "need:NAME"). Tokens come from the same tokenizer as lexical evidence, so
// the keyword "git_diff" matches "git diff".
type Trigger struct {
	Phrase  string `json:"phrase,omitempty"`
	Keyword string `json:"keyword,omitempty"`
	Signal  string `json:"signal,omitempty"`
	// Weight is added to the score once when the trigger matches (0..100000;
	// 10 when absent from JSON).
	Weight int `json:"weight"`
}

// UnmarshalJSON decodes a trigger strictly; a missing weight becomes
// DefaultTriggerWeight.
func (t *Trigger) UnmarshalJSON(b []byte) error {
	var raw triggerJSON
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return fault.Wrap(err, PhaseCatalog, KindInvalidTrigger, "a trigger is {\"phrase\"|\"keyword\"|\"signal\": TEXT, \"weight\": N}")
	}
	*t = Trigger{Phrase: valueOr(raw.Phrase, ""), Keyword: valueOr(raw.Keyword, ""), Signal: valueOr(raw.Signal, ""),
		Weight: valueOr(raw.Weight, DefaultTriggerWeight)}
	return nil
}

// valueOr returns *p, or def when p is nil (a field absent from JSON).
func valueOr[T any](p *T, def T) T {
	if p != nil {
		return *p
	}
	return def
}

// kind returns "phrase", "keyword" or "signal" and the text.
func (t Trigger) kind() (string, string) {
	switch {
	case t.Phrase != "":
		return "phrase", t.Phrase
	case t.Keyword != "":
		return "keyword", t.Keyword
	default:
		return "signal", t.Signal
	}
}

// Representation is one way of rendering a unit into the context.
type Representation struct {
	// Kind names it ("full", "compact", ...); "omitted" is reserved for the
	// packer.
	Kind string `json:"kind"`
	// Text is rendered into the instruction text when chosen.
	Text string `json:"text"`
	// Utility is what the packer maximizes (plus the unit's score).
	Utility int64 `json:"utility"`
}

// Schema is a tool unit's provider-facing function schema.
type Schema struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// Spec is a unit as written by a host or in a catalog file, before
// normalization. Pointer fields distinguish "absent" (default) from false or
// zero. Kind and Name are optional and, if present, must agree with Unit.
type Spec struct {
	Unit               string           `json:"unit"`
	Kind               string           `json:"kind,omitempty"`
	Name               string           `json:"name,omitempty"`
	Category           string           `json:"category,omitempty"`
	Description        string           `json:"description,omitempty"`
	Available          *bool            `json:"available,omitempty"`
	Activation         Activation       `json:"activation,omitempty"`
	Aliases            []string         `json:"aliases,omitempty"`
	Triggers           []Trigger        `json:"triggers,omitempty"`
	Requires           []string         `json:"requires,omitempty"`
	Suggests           []string         `json:"suggests,omitempty"`
	Conflicts          []string         `json:"conflicts,omitempty"`
	Supersedes         []string         `json:"supersedes,omitempty"`
	RequiresCapability string           `json:"requires_capability,omitempty"`
	Priority           *int             `json:"priority,omitempty"`
	ProviderVisible    *bool            `json:"provider_visible,omitempty"`
	MandatoryContext   *bool            `json:"mandatory_context,omitempty"`
	Schema             *Schema          `json:"schema,omitempty"`
	Content            string           `json:"content,omitempty"`
	Representations    []Representation `json:"representations,omitempty"`
	Provenance         json.RawMessage  `json:"provenance,omitempty"`
}

// Unit is a normalized unit: every field validated and defaulted. Its JSON
// form is material to the catalog fingerprint, field by field.
type Unit struct {
	ID                 UnitID           `json:"unit"`
	Kind               Kind             `json:"kind"`
	Name               string           `json:"name"`
	Category           string           `json:"category"`
	Description        string           `json:"description"`
	Available          bool             `json:"available"`
	Activation         Activation       `json:"activation"`
	Aliases            []string         `json:"aliases"`
	Triggers           []Trigger        `json:"triggers"`
	Requires           []UnitID         `json:"requires"`
	Suggests           []UnitID         `json:"suggests"`
	Conflicts          []UnitID         `json:"conflicts"`
	Supersedes         []UnitID         `json:"supersedes"`
	RequiresCapability string           `json:"requires_capability"` // "" means none
	Priority           int              `json:"priority"`
	ProviderVisible    bool             `json:"provider_visible"`
	MandatoryContext   bool             `json:"mandatory_context"`
	Schema             *Schema          `json:"schema"`
	Content            string           `json:"content"`
	Representations    []Representation `json:"representations"`
	Provenance         string           `json:"provenance"`
}

// Spec returns a Spec that normalizes back to u.
func (u Unit) Spec() Spec {
	ids := func(in []UnitID) []string {
		out := make([]string, len(in))
		for i, id := range in {
			out[i] = string(id)
		}
		return out
	}
	prov, _ := json.Marshal(u.Provenance)
	var schema *Schema
	if u.Schema != nil {
		s := *u.Schema
		schema = &s
	}
	return Spec{
		Unit: string(u.ID), Kind: string(u.Kind), Name: u.Name, Category: u.Category,
		Description: u.Description, Available: &u.Available, Activation: u.Activation,
		Aliases: slices.Clone(u.Aliases), Triggers: slices.Clone(u.Triggers),
		Requires: ids(u.Requires), Suggests: ids(u.Suggests), Conflicts: ids(u.Conflicts), Supersedes: ids(u.Supersedes),
		RequiresCapability: u.RequiresCapability, Priority: &u.Priority,
		ProviderVisible: &u.ProviderVisible, MandatoryContext: &u.MandatoryContext,
		Schema: schema, Content: u.Content, Representations: slices.Clone(u.Representations),
		Provenance: prov,
	}
}

// DecodeSpec decodes one unit spec from JSON strictly: duplicate keys,
// unknown fields and wrongly typed fields fail with a typed error.
func DecodeSpec(data []byte) (Spec, error) {
	var s Spec
	if err := decodeStrict(data, &s, PhaseCatalog, KindInvalidUnitSpec); err != nil {
		return Spec{}, err
	}
	return s, nil
}

// decodeStrict rejects duplicate keys, unknown fields (including known
// ones spelled in another case), trailing data and type mismatches,
// reporting them as kind.
func decodeStrict(data []byte, v any, phase fault.Phase, kind fault.Kind) error {
	generic, err := jsonstrict.Decode(data)
	if err != nil {
		return fault.Wrap(err, phase, kind, "malformed JSON")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if fault.As(err) != nil {
			return err // a typed error from a nested decoder (trigger)
		}
		e := fault.Wrap(err, phase, kind, "JSON does not match the expected shape")
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			e = e.With("field", te.Field).With("expected", te.Type.String())
		}
		return e
	}
	return exactFields(generic, reflect.TypeOf(v), phase, kind)
}

// Normalize validates s and fills defaults. Every failure is a typed
// *fault.Error of phase catalog.
func Normalize(s Spec) (Unit, error) {
	id, err := ParseUnitID(strings.TrimSpace(s.Unit))
	if err != nil {
		if s.Unit == "" {
			return Unit{}, fault.New(PhaseCatalog, KindInvalidUnitSpec, "a unit spec needs a unit id")
		}
		return Unit{}, err
	}
	fail := func(kind fault.Kind, msg string) *fault.Error {
		return fault.New(PhaseCatalog, kind, msg).With("unit", string(id))
	}
	u := Unit{ID: id, Kind: id.Kind(), Name: id.Name()}
	if s.Kind != "" && Kind(s.Kind) != u.Kind {
		return Unit{}, fail(KindUnitKindMismatch, "kind disagrees with the unit id").With("kind", textcut.Prefix(s.Kind, 64))
	}
	if s.Name != "" && s.Name != u.Name {
		return Unit{}, fail(KindUnitKindMismatch, "name disagrees with the unit id").With("name", textcut.Prefix(s.Name, 200))
	}
	u.Category = strings.TrimSpace(s.Category)
	if u.Category == "" {
		u.Category = string(u.Kind)
	}
	if !validName(u.Category) {
		return Unit{}, fail(KindInvalidName, "category must be 1-128 letters, digits or _-.@+~").With("category", textcut.Prefix(u.Category, 200))
	}
	u.Description = cleanText(s.Description)
	if n := utf8.RuneCountInString(u.Description); n > MaxDescription {
		return Unit{}, fail(KindDescriptionTooLarge, "description exceeds 2048 characters").With("length", n)
	}
	u.Available = s.Available == nil || *s.Available
	switch s.Activation {
	case "", Relevant:
		u.Activation = Relevant
	case Always:
		u.Activation = Always
	default:
		return Unit{}, fail(KindInvalidActivation, "activation must be relevant or always").With("activation", textcut.Prefix(string(s.Activation), 64))
	}
	if u.Aliases, err = normalizeAliases(s.Aliases, fail); err != nil {
		return Unit{}, err
	}
	if u.Triggers, err = normalizeTriggers(s.Triggers, fail); err != nil {
		return Unit{}, err
	}
	for _, rel := range []struct {
		name string
		in   []string
		out  *[]UnitID
	}{{"requires", s.Requires, &u.Requires}, {"suggests", s.Suggests, &u.Suggests}, {"conflicts", s.Conflicts, &u.Conflicts}, {"supersedes", s.Supersedes, &u.Supersedes}} {
		if *rel.out, err = normalizeRelation(id, rel.name, rel.in); err != nil {
			return Unit{}, err
		}
	}
	capStr := strings.TrimSpace(s.RequiresCapability)
	if capStr == "none" {
		capStr = ""
	}
	if capStr != "" {
		if _, err := capability.Parse(capStr); err != nil || len(capStr) > MaxCapability {
			return Unit{}, fail(capability.KindInvalidCapability, "requires_capability must be a capability of the closed vocabulary (package capability)").With("capability", textcut.Prefix(capStr, 200))
		}
	}
	u.RequiresCapability = capStr
	u.Priority = valueOr(s.Priority, DefaultPriority)
	if u.Priority < 0 || u.Priority > MaxPriority {
		return Unit{}, fail(KindInvalidPriority, "priority must be 0..1000000").With("priority", u.Priority)
	}
	u.ProviderVisible = valueOr(s.ProviderVisible, u.Kind != KindMCPServer)
	u.MandatoryContext = s.MandatoryContext == nil || *s.MandatoryContext
	if s.Schema != nil {
		if u.Kind != KindTool && u.Kind != KindMCPTool {
			return Unit{}, fail(KindSchemaOnlyValidForTools, "only tool and mcp_tool units carry a schema")
		}
		sch, err := normalizeSchema(*s.Schema, u, fail)
		if err != nil {
			return Unit{}, err
		}
		u.Schema = &sch
		if u.Description == "" {
			u.Description = sch.Description
		}
	}
	u.Content = cleanText(s.Content)
	if n := utf8.RuneCountInString(u.Content); n > MaxContent {
		return Unit{}, fail(KindContentTooLarge, "content exceeds 32768 characters").With("length", n)
	}
	if u.Representations, err = normalizeRepresentations(s.Representations, fail); err != nil {
		return Unit{}, err
	}
	u.Provenance = normalizeProvenance(s.Provenance)
	return u, nil
}

// cleanText replaces invalid UTF-8 so that the canonical JSON, and so the
// fingerprint, is a function of the normalized value.
func cleanText(s string) string { return strings.ToValidUTF8(s, "\uFFFD") }

func normalizeAliases(in []string, fail func(fault.Kind, string) *fault.Error) ([]string, error) {
	if len(in) > MaxAliases {
		return nil, fail(KindTooManyAliases, "more than 32 aliases").With("count", len(in))
	}
	out := make([]string, 0, len(in))
	for _, a := range in {
		a = cleanText(strings.TrimSpace(a))
		if a == "" {
			return nil, fail(KindInvalidAlias, "an alias is empty")
		}
		if n := utf8.RuneCountInString(a); n > MaxAlias {
			return nil, fail(KindAliasTooLarge, "an alias exceeds 128 characters").With("length", n)
		}
		out = append(out, a)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

func normalizeTriggers(in []Trigger, fail func(fault.Kind, string) *fault.Error) ([]Trigger, error) {
	if len(in) > MaxTriggers {
		return nil, fail(KindTooManyTriggers, "more than 64 triggers").With("count", len(in))
	}
	out := make([]Trigger, 0, len(in))
	for i, t := range in {
		set := 0
		for _, s := range []string{t.Phrase, t.Keyword, t.Signal} {
			if s != "" {
				set++
			}
		}
		if set != 1 {
			return nil, fail(KindInvalidTrigger, "a trigger has exactly one of phrase, keyword or signal").With("trigger", i)
		}
		if t.Weight < 0 || t.Weight > MaxTriggerWeight {
			return nil, fail(KindInvalidTrigger, "trigger weight must be 0..100000").With("trigger", i).With("weight", t.Weight)
		}
		kind, text := t.kind()
		text = cleanText(text)
		if kind == "signal" {
			text = strings.TrimSpace(text)
		} else {
			text = strings.Join(strings.Fields(strings.ToLower(text)), " ")
			found := false
			tokenize(text, func(string) { found = true })
			if !found {
				return nil, fail(KindInvalidTrigger, "a phrase or keyword needs at least one letter or digit").With("trigger", i)
			}
		}
		if text == "" || utf8.RuneCountInString(text) > MaxTriggerText {
			return nil, fail(KindInvalidTrigger, "trigger text must be 1..256 characters").With("trigger", i)
		}
		n := Trigger{Weight: t.Weight}
		switch kind {
		case "phrase":
			n.Phrase = text
		case "keyword":
			n.Keyword = text
		default:
			n.Signal = text
		}
		out = append(out, n)
	}
	slices.SortFunc(out, func(a, b Trigger) int {
		ak, at := a.kind()
		bk, bt := b.kind()
		// Heaviest first, kept by the dedup below.
		return cmp.Or(strings.Compare(ak, bk), strings.Compare(at, bt), b.Weight-a.Weight)
	})
	return slices.CompactFunc(out, func(a, b Trigger) bool {
		ak, at := a.kind()
		bk, bt := b.kind()
		return ak == bk && at == bt
	}), nil
}

func normalizeRelation(self UnitID, field string, in []string) ([]UnitID, error) {
	if len(in) > MaxRelations {
		return nil, fault.New(PhaseCatalog, KindTooManyRelations, "more than 64 related units").With("unit", string(self)).With("field", field).With("count", len(in))
	}
	out := make([]UnitID, 0, len(in))
	for _, s := range in {
		id, err := ParseUnitID(strings.TrimSpace(s))
		if err != nil {
			return nil, fault.As(err).With("field", field).With("in_unit", string(self))
		}
		if id == self {
			return nil, fault.New(PhaseCatalog, KindSelfReference, "a unit cannot relate to itself").With("unit", string(self)).With("field", field)
		}
		out = append(out, id)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// validToken accepts 1..max bytes of printable, non-space characters other
// than parentheses and commas (which would make reason strings ambiguous).
func validToken(s string, max int) bool {
	if s == "" || len(s) > max || !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) || r == '(' || r == ')' || r == ',' {
			return false
		}
	}
	return true
}

// defaultParameters is the schema of a tool without declared parameters.
var defaultParameters = json.RawMessage(`{"properties":{},"type":"object"}`)

func normalizeSchema(s Schema, u Unit, fail func(fault.Kind, string) *fault.Error) (Schema, error) {
	out := Schema{Name: strings.TrimSpace(s.Name), Description: cleanText(s.Description)}
	if out.Name == "" {
		out.Name = u.Name
	}
	if u.Kind == KindTool && out.Name != u.Name {
		return Schema{}, fail(tool.KindInvalidSchema, "a tool schema's name must equal the unit name").With("name", textcut.Prefix(out.Name, 200))
	}
	if !validToken(out.Name, maxNameLen) {
		return Schema{}, fail(tool.KindInvalidSchema, "schema name must be a 1-128 byte token").With("name", textcut.Prefix(out.Name, 200))
	}
	if out.Description == "" {
		out.Description = u.Description
	}
	if n := utf8.RuneCountInString(out.Description); n > MaxDescription {
		return Schema{}, fail(KindDescriptionTooLarge, "schema description exceeds 2048 characters").With("length", n)
	}
	params := bytes.TrimSpace(s.Parameters)
	if len(params) == 0 || string(params) == "null" {
		out.Parameters = slices.Clone(defaultParameters)
		return out, nil
	}
	if params[0] != '{' {
		return Schema{}, fail(tool.KindInvalidSchema, "parameters must be a JSON object")
	}
	canon, err := fingerprint.Canonical(json.RawMessage(params))
	if err != nil {
		return Schema{}, fault.Wrap(err, PhaseCatalog, tool.KindInvalidSchema, "parameters are not valid JSON").With("unit", string(u.ID))
	}
	if len(canon) > MaxSchemaBytes {
		return Schema{}, fail(tool.KindInvalidSchema, "parameters exceed 65536 bytes").With("bytes", len(canon))
	}
	out.Parameters = canon
	return out, nil
}

func normalizeRepresentations(in []Representation, fail func(fault.Kind, string) *fault.Error) ([]Representation, error) {
	if len(in) > MaxRepresentations {
		return nil, fail(KindInvalidRepresentation, "more than 16 representations").With("count", len(in))
	}
	out := make([]Representation, 0, len(in))
	for i, r := range in {
		r.Kind = strings.TrimSpace(r.Kind)
		r.Text = cleanText(r.Text)
		switch {
		case !validName(r.Kind) || r.Kind == "omitted":
			return nil, fail(KindInvalidRepresentation, "representation kind must be a name other than omitted").With("representation", i)
		case utf8.RuneCountInString(r.Text) > MaxContent:
			return nil, fail(KindInvalidRepresentation, "representation text exceeds 32768 characters").With("representation", i)
		case r.Utility < 0 || r.Utility > MaxUtility:
			return nil, fail(KindInvalidRepresentation, "representation utility must be 0..1000000000").With("representation", i)
		}
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b Representation) int {
		return cmp.Or(cmp.Compare(b.Utility, a.Utility), strings.Compare(a.Kind, b.Kind), strings.Compare(a.Text, b.Text))
	})
	return slices.Compact(out), nil
}

// plainJSONString returns the text of a JSON string of printable ASCII
// without escapes, which decodes to itself.
func plainJSONString(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	for _, c := range raw[1 : len(raw)-1] {
		if c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return "", false
		}
	}
	return string(raw[1 : len(raw)-1]), true
}

// normalizeProvenance keeps a JSON string as is and any other JSON value as
// its canonical text, truncated to MaxProvenance characters.
func normalizeProvenance(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return DefaultProvenance
	}
	var s string
	if plain, ok := plainJSONString(raw); ok {
		s = plain
	} else if err := json.Unmarshal(raw, &s); err != nil {
		c, err := fingerprint.Canonical(raw)
		if err != nil {
			return DefaultProvenance
		}
		s = string(c)
	}
	s = cleanText(s)
	if utf8.RuneCountInString(s) > MaxProvenance {
		s = string([]rune(s)[:MaxProvenance])
	}
	return s
}
