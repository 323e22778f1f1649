package mcp

import (
	"bytes"
	"encoding/json"
	"io"
	"maps"
	"math"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fault"
)

// Defaults of a server's limits (docs/mcp.md).
const (
	DefaultCallTimeout     = 30 * time.Second
	DefaultStartTimeout    = 30 * time.Second
	DefaultMaxOutputBytes  = 64 << 10
	DefaultMaxMessageBytes = 4 << 20
	// MaxDescription bounds the description of an imported tool, in runes.
	MaxDescription = 1024
	// MaxTools bounds how many tools one server may contribute.
	MaxTools = 1000
	// MaxConfigBytes bounds the configuration file.
	MaxConfigBytes = 1 << 20
	// MaxTimeoutMS is the largest timeout_ms and start_timeout_ms: the
	// largest time.Duration in milliseconds. A larger value is
	// invalid_config (it would wrap when converted).
	MaxTimeoutMS = math.MaxInt64 / int64(time.Millisecond)
)

// Config is an MCP client configuration: the mcpServers file format other
// MCP hosts use, with optional rlm policy fields per server.
type Config struct {
	Servers map[string]ServerConfig `json:"mcpServers"`
}

// ServerConfig is one entry of mcpServers. Exactly one of Command (stdio)
// and URL (streamable HTTP) is set.
type ServerConfig struct {
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	Cwd     string            `json:"cwd,omitempty"`
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	// Type is accepted for compatibility: "", "stdio", "http" or
	// "streamable-http"; it must agree with Command/URL.
	Type string `json:"type,omitempty"`

	// Host policy. The server's annotations never decide these.

	// Effect is the effect class of the server's tools: one of the tool
	// effect classes; "" means the default, process for a stdio server and
	// network_write for an HTTP one (effectful: authority and the effect
	// journal). "read" marks the server read-only.
	Effect authority.Effect `json:"effect,omitempty"`
	// Authority is the authority ceiling of the server's tools: the
	// broadest tier their effects run under, whatever the run's tier
	// (--authority); the stricter of the two wins. approve_diff (every
	// effect waits for approval), allow_session or dangerous; "" means no
	// ceiling (the run's tier decides). Annotations never raise it.
	Authority authority.Tier `json:"authority,omitempty"`
	// Tools overrides the effect and narrows the ceiling per tool (by the
	// server's tool name).
	Tools map[string]ToolPolicy `json:"tools,omitempty"`
	// TimeoutMS is each call's time limit (default 30000).
	TimeoutMS int64 `json:"timeout_ms,omitempty"`
	// StartTimeoutMS bounds start and initialize (default 30000).
	StartTimeoutMS int64 `json:"start_timeout_ms,omitempty"`
	// MaxOutputBytes bounds a tool result as rlm encodes it (default 64 KiB).
	MaxOutputBytes int64 `json:"max_output_bytes,omitempty"`
	// MaxMessageBytes bounds one message from the server (default 4 MiB).
	MaxMessageBytes int64 `json:"max_message_bytes,omitempty"`
}

// ToolPolicy is the host's decision about one tool.
type ToolPolicy struct {
	Effect authority.Effect `json:"effect,omitempty"`
	// Authority narrows the server's ceiling for this tool; it may not be
	// broader than the server's.
	Authority authority.Tier `json:"authority,omitempty"`
}

func configErr(msg string) *fault.Error {
	return newErr(fault.KindInvalidConfig, msg).WithHint(`the file must be {"mcpServers": {NAME: {"command", "args", "env"} | {"url", "headers"}}}; see docs/mcp.md`)
}

// LoadConfig reads and checks an mcpServers file.
func LoadConfig(path string) (Config, error) {
	f, err := os.Open(path)
	if err != nil {
		return Config{}, fault.Wrap(err, Phase, fault.KindInvalidConfig, "cannot read the MCP configuration").With("path", path).
			WithHint("pass --mcp FILE with an mcpServers JSON file")
	}
	defer f.Close()
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(io.LimitReader(f, MaxConfigBytes+1)); err != nil {
		return Config{}, fault.Wrap(err, Phase, fault.KindInvalidConfig, "cannot read the MCP configuration").With("path", path)
	}
	if buf.Len() > MaxConfigBytes {
		return Config{}, configErr("the MCP configuration is larger than 1 MiB").With("path", path)
	}
	cfg, err := ParseConfig(buf.Bytes())
	if fe := fault.As(err); fe != nil {
		fe.With("path", path)
	}
	return cfg, err
}

// ParseConfig decodes and checks an mcpServers document. Unknown fields of a
// server entry (other hosts' options such as "disabled") are ignored.
func ParseConfig(data []byte) (Config, error) {
	var cfg Config
	if err := json.Unmarshal(data, &cfg); err != nil {
		return Config{}, fault.Wrap(err, Phase, fault.KindInvalidConfig, "the MCP configuration is not valid JSON of the mcpServers form").
			WithHint(`the file must be {"mcpServers": {NAME: {"command", "args", "env"} | {"url", "headers"}}}; see docs/mcp.md`)
	}
	if cfg.Servers == nil {
		return Config{}, configErr(`the MCP configuration has no "mcpServers" object`)
	}
	for _, name := range cfg.Names() {
		if err := cfg.Servers[name].check(name); err != nil {
			return Config{}, err
		}
	}
	return cfg, nil
}

// Names returns the server names, sorted.
func (c Config) Names() []string {
	out := make([]string, 0, len(c.Servers))
	for n := range c.Servers {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

func (s ServerConfig) check(name string) error {
	bad := func(msg string) *fault.Error { return configErr(msg).With("server", name) }
	if !ValidServerName(name) {
		return bad("a server name must be 1-24 of [A-Za-z0-9_-] (it becomes part of mcp.<server>.<tool>)")
	}
	switch {
	case s.Command != "" && s.URL != "":
		return bad("a server has either command (stdio) or url (streamable HTTP), not both")
	case s.Command == "" && s.URL == "":
		return bad("a server needs command (stdio) or url (streamable HTTP)")
	}
	switch s.Type {
	case "":
	case "stdio":
		if s.Command == "" {
			return bad(`type "stdio" needs command`)
		}
	case "http", "streamable-http", "streamableHttp":
		if s.URL == "" {
			return bad(`type "http" needs url`)
		}
	default:
		return bad(`type must be "stdio" or "http" (streamable HTTP); SSE-only servers are not supported`).With("type", s.Type)
	}
	if s.URL != "" && !strings.HasPrefix(s.URL, "http://") && !strings.HasPrefix(s.URL, "https://") {
		return bad("url must be http:// or https://")
	}
	if s.Effect != "" && !s.Effect.Valid() {
		return bad("effect must be a tool effect class (read, write, process, network_write, ...)").With("effect", string(s.Effect))
	}
	const ceilings = "authority must be approve_diff, allow_session or dangerous (a ceiling; allow_once is a grant of the run, --authority)"
	if s.Authority != "" && !validCeiling(s.Authority) {
		return bad(ceilings).With("authority", string(s.Authority))
	}
	for _, t := range slices.Sorted(maps.Keys(s.Tools)) {
		p := s.Tools[t]
		if p.Effect != "" && !p.Effect.Valid() {
			return bad("a tool's effect must be a tool effect class").With("tool", t).With("effect", string(p.Effect))
		}
		if p.Authority != "" && !validCeiling(p.Authority) {
			return bad("a tool's "+ceilings).With("tool", t).With("authority", string(p.Authority))
		}
		if p.Authority != "" && s.Authority != "" && p.Authority.Rank() > s.Authority.Rank() {
			return bad("a tool's authority may not be broader than its server's (the server's is a ceiling)").
				With("tool", t).With("authority", string(p.Authority)).With("server_authority", string(s.Authority))
		}
	}
	if s.TimeoutMS < 0 || s.StartTimeoutMS < 0 || s.MaxOutputBytes < 0 || s.MaxMessageBytes < 0 {
		return bad("limits must be positive")
	}
	if s.TimeoutMS > MaxTimeoutMS || s.StartTimeoutMS > MaxTimeoutMS {
		return bad("timeout_ms and start_timeout_ms must be at most 9223372036854 (about 292 years, the largest time limit)").
			With("timeout_ms", s.TimeoutMS).With("start_timeout_ms", s.StartTimeoutMS).With("max_ms", MaxTimeoutMS)
	}
	return nil
}

// effect returns the host's effect class for the server's tool.
func (s ServerConfig) effect(toolName string) authority.Effect {
	if p, ok := s.Tools[toolName]; ok && p.Effect != "" {
		return p.Effect
	}
	if s.Effect != "" {
		return s.Effect
	}
	if s.URL != "" {
		return authority.EffectNetworkWrite
	}
	return authority.EffectProcess
}

// validCeiling reports whether t is a tier a host may set as a ceiling.
func validCeiling(t authority.Tier) bool { return t != "" && authority.ValidCeiling(t) }

// ceiling returns the host's authority ceiling for the server's tool: the
// tool's when set (never broader than the server's, see check), else the
// server's; "" when neither is set.
func (s ServerConfig) ceiling(toolName string) authority.Tier {
	if p, ok := s.Tools[toolName]; ok && p.Authority != "" {
		return p.Authority
	}
	return s.Authority
}

func (s ServerConfig) callTimeout() time.Duration {
	if s.TimeoutMS > 0 {
		return time.Duration(s.TimeoutMS) * time.Millisecond
	}
	return DefaultCallTimeout
}

func (s ServerConfig) startTimeout() time.Duration {
	if s.StartTimeoutMS > 0 {
		return time.Duration(s.StartTimeoutMS) * time.Millisecond
	}
	return DefaultStartTimeout
}

func (s ServerConfig) maxOutput() int64 {
	if s.MaxOutputBytes > 0 {
		return s.MaxOutputBytes
	}
	return DefaultMaxOutputBytes
}

func (s ServerConfig) maxMessage() int {
	if s.MaxMessageBytes > 0 {
		return int(s.MaxMessageBytes)
	}
	return DefaultMaxMessageBytes
}

// Granted returns the configured servers some tool of which caps may
// grant (tool:*, tool:mcp.*, tool:mcp.<server>.* or tool:mcp.<server>.X),
// sorted: the servers a run may use, and so the ones it imports.
func (c Config) Granted(caps capability.Set) []string {
	var out []string
	for _, cp := range caps.List() {
		if cp.Prefix() != capability.PrefixTool {
			continue
		}
		n := cp.Name()
		if n == "*" || n == "mcp.*" {
			return c.Names()
		}
		if srv := ServerOf(n); srv != "" {
			if _, ok := c.Servers[srv]; ok {
				out = append(out, srv)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
