package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/rlm-go/rlm/tool"
)

// NamePrefix starts the registered name of every imported tool.
const NamePrefix = "mcp."

// MaxServerName bounds a server name (the key in mcpServers).
const MaxServerName = 24

// ValidServerName reports whether name can be a server name: 1-24 bytes of
// [A-Za-z0-9_-]. The dot separates server from tool, so it is refused.
func ValidServerName(name string) bool {
	if len(name) == 0 || len(name) > MaxServerName {
		return false
	}
	for i := 0; i < len(name); i++ {
		if !plainByte(name[i]) {
			return false
		}
	}
	return true
}

func plainByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// ToolName returns the registered name of the server's tool:
// "mcp.<server>.<tool>", a valid tool.ValidName (at most 64 bytes).
//
// The tool part keeps [A-Za-z0-9_-] as they are. When the server's name for
// the tool has any other byte (a dot, a space, non-ASCII, ...) or the whole
// name would exceed 64 bytes, every such byte becomes "_", the part is cut
// to fit, and "_" plus the first 8 hex digits of SHA-256 of the server's
// original tool name is appended, so distinct originals stay distinct and
// the mapping is deterministic. Names that need no change are kept
// exactly, so "mcp.fs.read_file" calls the server's "read_file".
func ToolName(server, name string) string {
	head := NamePrefix + server + "."
	room := 64 - len(head)
	plain := name != ""
	for i := 0; i < len(name) && plain; i++ {
		plain = plainByte(name[i])
	}
	if plain && len(name) <= room {
		return head + name
	}
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		if plainByte(name[i]) {
			b.WriteByte(name[i])
		} else {
			b.WriteByte('_')
		}
	}
	sum := sha256.Sum256([]byte(name))
	suffix := "_" + hex.EncodeToString(sum[:4])
	part := b.String()
	if len(part) > room-len(suffix) {
		part = part[:room-len(suffix)]
	}
	out := head + part + suffix
	if !tool.ValidName(out) { // unreachable for valid server names
		return head + suffix[1:]
	}
	return out
}

// ServerOf returns the server part of a registered MCP tool name, or ""
// when name does not start with "mcp.<server>.".
func ServerOf(name string) string {
	rest, ok := strings.CutPrefix(name, NamePrefix)
	if !ok {
		return ""
	}
	srv, _, ok := strings.Cut(rest, ".")
	if !ok || !ValidServerName(srv) {
		return ""
	}
	return srv
}
