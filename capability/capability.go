// Package capability defines the closed vocabulary of capability strings and
// normalized capability sets.
//
// A capability names something a scope may do: "rlm", "parallel", "map",
// "retry", "checkpoint", "code", or a prefixed name "tool:NAME", "context:OP",
// "model:NAME", "mcp:NAME", "network:NAME", "filesystem:NAME",
// "process:NAME". A Set is sorted and deduplicated. Child scopes only narrow:
// Narrow fails with Kind widening_denied when the child asks for anything the
// parent does not hold.
package capability

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/rlm-go/rlm/fault"
)

// Cap is one capability in canonical string form, for example "tool:fs_read".
type Cap string

// Bare capabilities (no name part).
const (
	RLM        Cap = "rlm"
	Parallel   Cap = "parallel"
	Map        Cap = "map"
	Retry      Cap = "retry"
	Checkpoint Cap = "checkpoint"
	// Code lets a loop run in code mode: the model writes code that a
	// sandboxed interpreter executes (engine.Config.Mode "code").
	Code Cap = "code"
)

// Prefixes of named capabilities.
const (
	PrefixTool       = "tool"
	PrefixContext    = "context"
	PrefixModel      = "model"
	PrefixMCP        = "mcp"
	PrefixNetwork    = "network"
	PrefixFilesystem = "filesystem"
	PrefixProcess    = "process"
)

// Error kinds reported by this package.
const (
	KindInvalidCapability fault.Kind = "invalid_capability"
	KindWideningDenied    fault.Kind = "widening_denied"
	// KindDenied: a capability the operation needs is not granted; detail
	// "capability" names it. Declared here because every package that
	// checks a grant (plan, engine, tool, agent) reports it.
	KindDenied fault.Kind = "capability_denied"
)

// PhaseCapability is the phase of errors from this package.
const PhaseCapability fault.Phase = "capability"

var bare = map[Cap]bool{RLM: true, Parallel: true, Map: true, Retry: true, Checkpoint: true, Code: true}

var prefixes = map[string]bool{
	PrefixTool: true, PrefixContext: true, PrefixModel: true, PrefixMCP: true,
	PrefixNetwork: true, PrefixFilesystem: true, PrefixProcess: true,
}

// Tool returns the capability "tool:NAME".
func Tool(name string) Cap { return Cap(PrefixTool + ":" + name) }

// Context returns the capability "context:OP".
func Context(op string) Cap { return Cap(PrefixContext + ":" + op) }

// Model returns the capability "model:NAME".
func Model(name string) Cap { return Cap(PrefixModel + ":" + name) }

// Parse validates s against the closed vocabulary and returns it as a Cap.
// Names after the prefix are 1-128 bytes of [A-Za-z0-9_.:/*-]; "*" as the
// whole name (for example "model:*") grants every name under that prefix,
// and a name ending in ".*" (for example "tool:mcp.github.*") grants every
// name that starts with the part before the "*". No other "*" is allowed.
func Parse(s string) (Cap, error) {
	c := Cap(s)
	if bare[c] {
		return c, nil
	}
	prefix, name, ok := strings.Cut(s, ":")
	if !ok || !prefixes[prefix] || !validName(name) {
		return "", fault.New(PhaseCapability, KindInvalidCapability, "capability is not in the closed vocabulary").With("capability", s)
	}
	return c, nil
}

func validName(name string) bool {
	if len(name) == 0 || len(name) > 128 {
		return false
	}
	for i := 0; i < len(name); i++ {
		ch := name[i]
		switch {
		case ch >= 'a' && ch <= 'z', ch >= 'A' && ch <= 'Z', ch >= '0' && ch <= '9':
		case ch == '_' || ch == '.' || ch == '-' || ch == ':' || ch == '/' || ch == '*':
		default:
			return false
		}
	}
	star := strings.Index(name, "*")
	return star < 0 || name == "*" || (star == len(name)-1 && strings.HasSuffix(name, ".*"))
}

// Prefix returns the part of c before the first colon, or c itself when it is
// a bare capability.
func (c Cap) Prefix() string {
	p, _, _ := strings.Cut(string(c), ":")
	return p
}

// Name returns the part of c after the first colon, or "".
func (c Cap) Name() string {
	_, n, _ := strings.Cut(string(c), ":")
	return n
}

// String returns the canonical form.
func (c Cap) String() string { return string(c) }

// Set is an immutable, normalized (sorted, deduplicated) set of capabilities.
// The zero value is the empty set.
type Set struct {
	caps []Cap
}

// SplitList splits entries that hold comma-separated capabilities (a
// repeated --allow flag, a Spec's Allow) and drops empty ones, trimmed.
func SplitList(in []string) []string {
	var out []string
	for _, s := range in {
		for p := range strings.SplitSeq(s, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

// NewSet parses and normalizes caps.
func NewSet(caps ...string) (Set, error) {
	out := make([]Cap, 0, len(caps))
	for _, s := range caps {
		c, err := Parse(strings.TrimSpace(s))
		if err != nil {
			return Set{}, err
		}
		out = append(out, c)
	}
	return Of(out...), nil
}

// MustSet is NewSet that panics on invalid input; for constants in tests and
// host code.
func MustSet(caps ...string) Set {
	s, err := NewSet(caps...)
	if err != nil {
		panic(err)
	}
	return s
}

// Of returns the normalized set of already-valid capabilities.
func Of(caps ...Cap) Set {
	out := slices.Clone(caps)
	slices.Sort(out)
	return Set{caps: slices.Compact(out)}
}

// List returns the capabilities in sorted order. The slice is a copy.
func (s Set) List() []Cap { return slices.Clone(s.caps) }

// Strings returns the capabilities as sorted strings.
func (s Set) Strings() []string {
	out := make([]string, len(s.caps))
	for i, c := range s.caps {
		out[i] = string(c)
	}
	return out
}

// Len returns the number of capabilities.
func (s Set) Len() int { return len(s.caps) }

// Equal reports whether s and other hold the same capabilities. Copies
// of one Set share their storage and compare in constant time, so a
// caller may key a cache of derived data (such as a per-catalog grant
// table) on a Set it is handed on every call.
func (s Set) Equal(other Set) bool {
	if len(s.caps) != len(other.caps) {
		return false
	}
	if len(s.caps) == 0 || &s.caps[0] == &other.caps[0] {
		return true
	}
	return slices.Equal(s.caps, other.caps)
}

// Has reports whether s grants c, either exactly, through a wildcard
// "PREFIX:*" entry, or through a dotted wildcard "PREFIX:A.B.*" that covers
// every name starting with "A.B." (so "tool:mcp.github.*" grants
// "tool:mcp.github.create_issue" and "tool:mcp.github.*" itself).
func (s Set) Has(c Cap) bool {
	if _, ok := slices.BinarySearch(s.caps, c); ok {
		return true
	}
	p := c.Prefix()
	if p == string(c) {
		return false
	}
	if _, ok := slices.BinarySearch(s.caps, Cap(p+":*")); ok {
		return true
	}
	name := c.Name()
	for i := len(name) - 1; i >= 0; i-- { // i == 0: "PREFIX:.*" grants names starting with "."
		if name[i] != '.' {
			continue
		}
		if _, ok := slices.BinarySearch(s.caps, Cap(p+":"+name[:i+1]+"*")); ok {
			return true
		}
	}
	return false
}

// Union returns the normalized union of s and other.
func (s Set) Union(other Set) Set {
	return Of(append(slices.Clone(s.caps), other.caps...)...)
}

// Missing returns the members of want that s does not grant, sorted.
func (s Set) Missing(want Set) []Cap { return s.filter(want, false) }

// filter returns the members of other (sorted) that s grants, or with
// granted false those it does not grant.
func (s Set) filter(other Set, granted bool) []Cap {
	var out []Cap
	for _, c := range other.caps {
		if s.Has(c) == granted {
			out = append(out, c)
		}
	}
	return out
}

// Narrow returns child if every capability in it is granted by s. Otherwise
// it fails with Kind widening_denied and detail "extra" listing the
// capabilities s does not hold.
func (s Set) Narrow(child Set) (Set, error) {
	if extra := s.Missing(child); len(extra) > 0 {
		return Set{}, fault.New(PhaseCapability, KindWideningDenied, "a child scope may not hold capabilities its parent lacks").
			With("extra", Set{caps: extra}.Strings())
	}
	return child, nil
}

// Intersect returns the capabilities of child that s grants, silently
// dropping the rest. Use Narrow where widening must be reported.
func (s Set) Intersect(child Set) Set { return Set{caps: s.filter(child, true)} }

// MarshalJSON encodes the set as a sorted JSON array of strings.
func (s Set) MarshalJSON() ([]byte, error) { return json.Marshal(s.Strings()) }

// UnmarshalJSON decodes and validates a JSON array of capability strings.
func (s *Set) UnmarshalJSON(b []byte) error {
	var raw []string
	if err := json.Unmarshal(b, &raw); err != nil {
		return fault.Wrap(err, PhaseCapability, KindInvalidCapability, "capability set must be an array of strings")
	}
	set, err := NewSet(raw...)
	if err != nil {
		return err
	}
	*s = set
	return nil
}
