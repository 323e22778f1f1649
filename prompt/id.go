package prompt

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/textcut"
)

// Kind is the kind of a unit, the part of its UnitID before the colon.
type Kind string

// Unit kinds.
const (
	KindTool        Kind = "tool"
	KindSkill       Kind = "skill"
	KindInstruction Kind = "instruction"
	KindResource    Kind = "resource"
	KindMCPServer   Kind = "mcp_server"
	KindMCPTool     Kind = "mcp_tool"
	KindMCPPrompt   Kind = "mcp_prompt"
)

// Kinds lists every unit kind in canonical order.
var Kinds = []Kind{KindInstruction, KindMCPPrompt, KindMCPServer, KindMCPTool, KindResource, KindSkill, KindTool}

func (k Kind) valid() bool {
	switch k {
	case KindTool, KindSkill, KindInstruction, KindResource, KindMCPServer, KindMCPTool, KindMCPPrompt:
		return true
	}
	return false
}

// namespaced reports whether ids of kind k have the form SERVER/NAME.
func (k Kind) namespaced() bool { return k == KindMCPTool || k == KindMCPPrompt }

// UnitID is the canonical identity of a unit: "tool:NAME", "skill:NAME",
// "instruction:NAME", "resource:NAME", "mcp_server:NAME",
// "mcp_tool:SERVER/NAME" or "mcp_prompt:SERVER/NAME". Every ordering and
// tie-break uses its string form.
type UnitID string

// maxNameLen bounds each name component, in bytes.
const maxNameLen = 128

// ParseUnitID validates s and returns it as a UnitID. Names are 1-128 bytes
// of Unicode letters and digits and the characters "_ - . @ + ~"; the
// namespaced kinds take exactly one "/" between server and name.
func ParseUnitID(s string) (UnitID, error) {
	kind, rest, ok := strings.Cut(s, ":")
	k := Kind(kind)
	if !ok || !k.valid() {
		return "", invalidID(s, "unknown kind")
	}
	if k.namespaced() {
		server, name, ok := strings.Cut(rest, "/")
		if !ok || !validName(server) || !validName(name) {
			return "", invalidID(s, "want SERVER/NAME")
		}
		return UnitID(s), nil
	}
	if !validName(rest) {
		return "", invalidID(s, "invalid name")
	}
	return UnitID(s), nil
}

func invalidID(s, why string) error {
	return fault.New(PhaseCatalog, KindInvalidUnitID, "invalid unit id: "+why).With("unit", textcut.Prefix(s, 200))
}

func validName(s string) bool {
	if s == "" || len(s) > maxNameLen || !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("_-.@+~", r) {
			return false
		}
	}
	return true
}

// Kind returns the kind part of id.
func (id UnitID) Kind() Kind {
	k, _, _ := strings.Cut(string(id), ":")
	return Kind(k)
}

// Name returns the name part of id: the last component ("git_diff" for
// "tool:git_diff", "repo_search" for "mcp_tool:github/repo_search").
func (id UnitID) Name() string {
	_, rest, _ := strings.Cut(string(id), ":")
	if i := strings.LastIndexByte(rest, '/'); i >= 0 && id.Kind().namespaced() {
		return rest[i+1:]
	}
	return rest
}

// Server returns the server part of a namespaced id, or "".
func (id UnitID) Server() string {
	if !id.Kind().namespaced() {
		return ""
	}
	_, rest, _ := strings.Cut(string(id), ":")
	s, _, _ := strings.Cut(rest, "/")
	return s
}

// String returns the canonical form.
func (id UnitID) String() string { return string(id) }
