package prompt

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/textcut"
	"github.com/rlm-go/rlm/pack"
)

// Input limits.
const (
	MaxInputText    = 32768 // characters
	MaxInputEntries = 256   // per list
	MaxSignal       = 256   // characters per signal or need
)

// Input is what one compile looks at. Text, Signals and Needs are
// untrusted evidence; Selected and Denied are trusted host decisions.
type Input struct {
	// Text is the current user message (or task text).
	Text string `json:"text"`
	// Signals are structured evidence. "deny:UNIT", "negated:UNIT",
	// "deny:category:C" and "negated:category:C" are untrusted denials that
	// reject relevant units only.
	Signals []string `json:"signals"`
	// Needs name capabilities the model asked for ("source_search"). Each
	// need N is also the signal "need:N" and matches units whose name or an
	// alias is N. Needs never widen capabilities.
	Needs []string `json:"needs"`
	// Selected units are explicitly chosen by the host.
	Selected []UnitID `json:"selected"`
	// Denied units are rejected by trusted host policy, always units
	// included.
	Denied []UnitID `json:"denied"`
}

// DecodeInput decodes a compile input from JSON strictly and normalizes it.
// A bare JSON string is accepted as {"text": STRING}.
func DecodeInput(data []byte) (Input, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) > 0 && trimmed[0] == '"' {
		var s string
		if err := decodeStrict(trimmed, &s, PhaseInput, KindInvalidInput); err != nil {
			return Input{}, err
		}
		return Input{Text: s}.Normalize()
	}
	var raw struct {
		Text     string   `json:"text"`
		Signals  []string `json:"signals"`
		Needs    []string `json:"needs"`
		Selected []string `json:"selected"`
		Denied   []string `json:"denied"`
	}
	if err := decodeStrict(trimmed, &raw, PhaseInput, KindInvalidInput); err != nil {
		return Input{}, err
	}
	in := Input{Text: raw.Text, Signals: raw.Signals, Needs: raw.Needs}
	for _, list := range []struct {
		src []string
		dst *[]UnitID
	}{{raw.Selected, &in.Selected}, {raw.Denied, &in.Denied}} {
		for _, s := range list.src {
			id, err := ParseUnitID(strings.TrimSpace(s))
			if err != nil {
				fe := fault.As(err)
				return Input{}, fault.New(PhaseInput, KindInvalidInput, "selected and denied entries must be unit ids").With("unit", fe.Detail["unit"])
			}
			*list.dst = append(*list.dst, id)
		}
	}
	return in.Normalize()
}

// Normalize validates the input and returns it with every list sorted and
// deduplicated (never nil) and invalid UTF-8 replaced.
func (in Input) Normalize() (Input, error) {
	out := Input{Text: cleanText(in.Text)}
	if n := utf8.RuneCountInString(out.Text); n > MaxInputText {
		return Input{}, fault.New(PhaseInput, KindInputTooLarge, "input text exceeds 32768 characters").With("length", n)
	}
	var err error
	if out.Signals, err = normStrings("signals", in.Signals); err != nil {
		return Input{}, err
	}
	if out.Needs, err = normStrings("needs", in.Needs); err != nil {
		return Input{}, err
	}
	for _, list := range []struct {
		name string
		src  []UnitID
		dst  *[]UnitID
	}{{"selected", in.Selected, &out.Selected}, {"denied", in.Denied, &out.Denied}} {
		if len(list.src) > MaxInputEntries {
			return Input{}, fault.New(PhaseInput, KindInputTooLarge, "too many entries").With("field", list.name).With("count", len(list.src))
		}
		ids := make([]UnitID, 0, len(list.src))
		for _, id := range list.src {
			if _, err := ParseUnitID(string(id)); err != nil {
				return Input{}, fault.New(PhaseInput, KindInvalidInput, "selected and denied entries must be unit ids").With("field", list.name).With("unit", textcut.Prefix(string(id), 200))
			}
			ids = append(ids, id)
		}
		slices.Sort(ids)
		*list.dst = slices.Compact(ids)
	}
	return out, nil
}

func normStrings(field string, in []string) ([]string, error) {
	if len(in) > MaxInputEntries {
		return nil, fault.New(PhaseInput, KindInputTooLarge, "too many entries").With("field", field).With("count", len(in))
	}
	out := make([]string, 0, len(in))
	for _, s := range in {
		s = cleanText(strings.TrimSpace(s))
		if s == "" {
			continue
		}
		if utf8.RuneCountInString(s) > MaxSignal {
			return nil, fault.New(PhaseInput, KindInputTooLarge, "an entry exceeds 256 characters").With("field", field)
		}
		out = append(out, s)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// Event is what changed since a previous compile.
type Event struct {
	// Message, when non-nil, replaces the text (a new user message).
	Message *string
	// Needs are added to the previous needs.
	Needs []string
	// Signals are added to the previous signals.
	Signals []string
}

// Apply returns the input after ev.
func (in Input) Apply(ev Event) Input {
	out := Input{
		Text:     in.Text,
		Signals:  append(slices.Clone(in.Signals), ev.Signals...),
		Needs:    append(slices.Clone(in.Needs), ev.Needs...),
		Selected: slices.Clone(in.Selected),
		Denied:   slices.Clone(in.Denied),
	}
	if ev.Message != nil {
		out.Text = *ev.Message
	}
	return out
}

// Mode selects between compiled projection and compatibility mode.
type Mode string

// Modes.
const (
	// ModeCompiled selects units by activation and evidence. The default.
	ModeCompiled Mode = "compiled"
	// ModeAllTools makes every unit a candidate (score 1000 + priority,
	// reason compatibility_mode(all_tools)) with no candidate limit; every
	// eligibility gate still applies.
	ModeAllTools Mode = "all_tools"
)

// Candidate limits.
const (
	DefaultCandidateLimit = 64
	MaxCandidateLimit     = 256
)

// Options are the trusted settings of one compile.
type Options struct {
	// Capabilities granted for this compile. A unit's requires_capability
	// is eligible when the set grants it (capability.Set.Has: exactly, or
	// through "PREFIX:*"). JSON: an array of capability strings in the
	// closed vocabulary of package capability.
	Capabilities capability.Set `json:"capabilities"`
	// DiscoveryScope is the requested scope; ParentDiscoveryScope bounds it.
	// A request that names items the parent does not cover fails with
	// discovery_scope_widening_denied.
	DiscoveryScope       Scope `json:"discovery_scope"`
	ParentDiscoveryScope Scope `json:"parent_discovery_scope"`
	// CandidateLimit bounds the relevant frontier: 0 means 64, larger than
	// 256 means 256. Always units do not count against it.
	CandidateLimit int `json:"candidate_limit"`
	// Mode is compiled (default) or all_tools.
	Mode Mode `json:"mode"`
	// NoPack skips the packer: every selected provider-visible unit is
	// active and there is no ledger. JSON: "pack": false.
	NoPack bool `json:"-"`
	// Policy bounds the context; nil means pack.DefaultPolicy().
	Policy *pack.Policy `json:"policy"`
	// Model picks the token counter (pack.CounterFor); Counter, when set,
	// overrides it.
	Model   string       `json:"model"`
	Counter pack.Counter `json:"-"`
	// LexicalCutoff, 0..100, hides relevant units whose only evidence is
	// lexical and whose lexical score is below this percentage of the best
	// lexical score of the compile. 0 (the default) keeps every unit with
	// evidence.
	LexicalCutoff int `json:"lexical_cutoff"`
}

// DecodeOptions decodes compile options from JSON strictly. Absent policy
// fields take the pack defaults; absent "pack" means true.
func DecodeOptions(data []byte) (Options, error) {
	var raw struct {
		Capabilities         []string `json:"capabilities"`
		DiscoveryScope       Scope    `json:"discovery_scope"`
		ParentDiscoveryScope Scope    `json:"parent_discovery_scope"`
		CandidateLimit       int      `json:"candidate_limit"`
		Mode                 Mode     `json:"mode"`
		Pack                 *bool    `json:"pack"`
		Policy               *struct {
			MaxContextTokens    *int `json:"max_context_tokens"`
			ReserveOutputTokens *int `json:"reserve_output_tokens"`
			SafetyMarginTokens  *int `json:"safety_margin_tokens"`
		} `json:"policy"`
		Model         string `json:"model"`
		LexicalCutoff int    `json:"lexical_cutoff"`
	}
	if err := decodeStrict(data, &raw, PhaseInput, KindInvalidOptions); err != nil {
		return Options{}, err
	}
	caps, err := capability.NewSet(raw.Capabilities...)
	if err != nil {
		return Options{}, fault.Wrap(err, PhaseInput, capability.KindInvalidCapability, "capabilities must be in the closed capability vocabulary").
			With("capability", fault.As(err).Detail["capability"])
	}
	o := Options{
		Capabilities: caps, DiscoveryScope: raw.DiscoveryScope, ParentDiscoveryScope: raw.ParentDiscoveryScope,
		CandidateLimit: raw.CandidateLimit, Mode: raw.Mode, Model: raw.Model, LexicalCutoff: raw.LexicalCutoff,
		NoPack: raw.Pack != nil && !*raw.Pack,
	}
	if raw.Policy != nil {
		p := pack.DefaultPolicy()
		p.MaxContextTokens = valueOr(raw.Policy.MaxContextTokens, p.MaxContextTokens)
		p.ReserveOutputTokens = valueOr(raw.Policy.ReserveOutputTokens, p.ReserveOutputTokens)
		p.SafetyMarginTokens = valueOr(raw.Policy.SafetyMarginTokens, p.SafetyMarginTokens)
		o.Policy = &p
	}
	return o, nil
}

// ScopeItem is one discovery-scope entry; exactly one field is set.
type ScopeItem struct {
	Kind     Kind   `json:"kind,omitempty"`
	Category string `json:"category,omitempty"`
	Unit     UnitID `json:"unit,omitempty"`
}

func (it ScopeItem) String() string {
	switch {
	case it.Kind != "":
		return "kind:" + string(it.Kind)
	case it.Category != "":
		return "category:" + it.Category
	default:
		return "unit:" + string(it.Unit)
	}
}

// Scope is a discovery scope: "all" (the zero value) or a list of items; a
// list allows a unit when any item names its kind, category or id.
type Scope struct {
	restricted bool
	items      []ScopeItem
}

// AllScope returns the unrestricted scope.
func AllScope() Scope { return Scope{} }

// ScopeOf returns the restricted scope of items (possibly none).
func ScopeOf(items ...ScopeItem) Scope {
	return Scope{restricted: true, items: slices.Clone(items)}
}

// All reports whether s is unrestricted.
func (s Scope) All() bool { return !s.restricted }

// Items returns the items of a restricted scope.
func (s Scope) Items() []ScopeItem { return slices.Clone(s.items) }

// MarshalJSON encodes "all" or the sorted item list.
func (s Scope) MarshalJSON() ([]byte, error) {
	if !s.restricted {
		return []byte(`"all"`), nil
	}
	items := slices.Clone(s.items)
	slices.SortFunc(items, func(a, b ScopeItem) int { return strings.Compare(a.String(), b.String()) })
	items = slices.Compact(items)
	if items == nil {
		items = []ScopeItem{}
	}
	return json.Marshal(items)
}

// UnmarshalJSON decodes "all" or a list of {"kind"}, {"category"} or
// {"unit"} items.
func (s *Scope) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if string(b) == `"all"` || string(b) == "null" {
		*s = Scope{}
		return nil
	}
	var items []ScopeItem
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&items); err != nil {
		return fault.Wrap(err, PhaseInput, KindInvalidDiscoveryScope, `a discovery scope is "all" or a list of {"kind"}, {"category"} or {"unit"} items`)
	}
	for _, it := range items {
		if err := it.validate(); err != nil {
			return err
		}
	}
	*s = ScopeOf(items...)
	return nil
}

func (it ScopeItem) validate() error {
	n := 0
	if it.Kind != "" {
		n++
		if !it.Kind.valid() {
			return fault.New(PhaseInput, KindInvalidDiscoveryScope, "unknown kind in discovery scope").With("kind", textcut.Prefix(string(it.Kind), 64))
		}
	}
	if it.Category != "" {
		n++
	}
	if it.Unit != "" {
		n++
		if _, err := ParseUnitID(string(it.Unit)); err != nil {
			return fault.New(PhaseInput, KindInvalidDiscoveryScope, "invalid unit in discovery scope").With("unit", textcut.Prefix(string(it.Unit), 200))
		}
	}
	if n != 1 {
		return fault.New(PhaseInput, KindInvalidDiscoveryScope, "a scope item has exactly one of kind, category or unit")
	}
	return nil
}
