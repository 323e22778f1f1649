package rlm

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/effect"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/mcp"
	"github.com/rlm-go/rlm/tool"
	"github.com/rlm-go/rlm/tool/builtin"
	"github.com/rlm-go/rlm/workspace"
)

// AuthorityContext is the authority context of the calls a session makes
// (the CLI's included): the tier of Spec.Authority applies to it.
const AuthorityContext = "cli"

// Tools is a tool runtime opened from a Spec: the built-in workspace
// tools, the program's tools, the MCP servers' tools, the granted
// capabilities and authority tier, the run its effects belong to and
// (when an effectful tool is granted) the durable effect journal.
//
// Every session is a new run with a fresh run id, unless Spec.Resume
// names an earlier run: then the effects that run recorded are replayed
// to the calls with the same identity instead of running again.
type Tools struct {
	Registry *tool.Registry
	Runtime  *tool.Runtime
	// Caps are the granted capabilities: Spec.Allow and the program's
	// tools.
	Caps    capability.Set
	Run     *tool.Run
	journal *effect.Journal
	mcp     *mcpServers
	closers []func()
}

// OpenTools opens the tool runtime of spec; auth (nil: a new store) is
// shared with an agent runtime whose children call the tools, log gets
// the notes (an MCP tool that could not be imported). ctx bounds the
// import of MCP tools.
func OpenTools(ctx context.Context, spec Spec, auth *authority.Store, log io.Writer) (*Tools, error) {
	return openTools(ctx, spec.withDefaults(), auth, &mcpServers{file: spec.MCP}, log)
}

func openTools(ctx context.Context, spec Spec, auth *authority.Store, servers *mcpServers, log io.Writer) (*Tools, error) {
	if auth == nil {
		auth = authority.NewStore()
	}
	caps, err := spec.grants()
	if err != nil {
		return nil, err
	}
	tier, err := authority.ParseTier(spec.Authority)
	if err != nil {
		return nil, err
	}
	reg, ws, err := spec.OpenRegistry()
	if err != nil {
		return nil, err
	}
	s := &Tools{Registry: reg, Caps: caps, mcp: servers, closers: []func(){func() { ws.Close() }}}
	if err := servers.importTools(ctx, reg, &caps, log); err != nil {
		s.Close()
		return nil, err
	}
	// The workspace's resolved directory is part of every effect identity:
	// the same call against another workspace is another effect.
	cfg := tool.Config{Authority: auth, Root: ws.Dir()}
	if s.effectful() {
		if cfg.Journal, err = s.openJournal(spec.StateDir); err != nil {
			s.Close()
			return nil, err
		}
	}
	if err := s.startRun(spec.Resume); err != nil {
		s.Close()
		return nil, err
	}
	cfg.Run = s.Run
	if err := cfg.Authority.Set(AuthorityContext, tier); err != nil {
		s.Close()
		return nil, err
	}
	s.Runtime = tool.NewRuntime(reg, cfg)
	return s, nil
}

// effectful reports whether a granted tool has effects.
func (s *Tools) effectful() bool {
	for _, sc := range s.Registry.Schemas() {
		if sc.Effect != authority.EffectRead && s.Caps.Has(capability.Tool(sc.Name)) {
			return true
		}
	}
	return false
}

// openJournal opens the effect journal in dir (default: the state dir).
func (s *Tools) openJournal(dir string) (*effect.Journal, error) {
	if dir == "" {
		var err error
		if dir, err = effect.DefaultStateDir(); err != nil {
			return nil, err
		}
	}
	j, err := effect.OpenDir(dir)
	if err != nil {
		return nil, err
	}
	s.closers = append(s.closers, func() { j.Close() })
	s.journal = j
	return j, nil
}

// OpenRegistry returns a registry of the built-in workspace tools confined
// to dir, and the workspace (close it when done): Spec{Workspace:
// dir}.OpenRegistry().
func OpenRegistry(dir string) (*tool.Registry, *workspace.Root, error) {
	return Spec{Workspace: dir}.OpenRegistry()
}

// OpenRegistry returns the registry of the Spec's own tools and the
// workspace they are confined to (close it when done): the built-in
// workspace tools confined to Workspace, then Tools in their order (a
// tool named like one registered before fails with duplicate_tool). It
// is the one place they are registered: OpenTools (and so Open) adds the
// granted MCP servers' tools to it, and rlm tools list lists it with
// every MCP server's tools.
func (s Spec) OpenRegistry() (*tool.Registry, *workspace.Root, error) {
	ws, err := workspace.Open(s.Workspace)
	if err != nil {
		return nil, nil, err
	}
	reg := tool.NewRegistry()
	if err := builtin.Register(reg, ws, builtin.Options{}); err != nil {
		ws.Close()
		return nil, nil, err
	}
	for _, t := range s.Tools {
		if err := reg.Register(t); err != nil {
			ws.Close()
			return nil, nil, err
		}
	}
	return reg, ws, nil
}

// startRun makes the session's run: a new one recorded in the journal, or
// the run resume names, which the journal must know.
func (s *Tools) startRun(resume string) error {
	ctx := context.Background()
	if resume == "" {
		s.Run = tool.NewRun()
		if s.journal == nil {
			return nil
		}
		return s.journal.StartRun(ctx, s.Run.ID())
	}
	if s.journal == nil {
		return fault.New(fault.PhaseConfig, fault.KindInvalid, "--resume replays the recorded effects of a run, but no effectful tool is granted").
			With("run_id", resume).
			WithHint("grant the run's effectful tools again, e.g. --allow tool:fs_write, with the same --state-dir")
	}
	if _, err := s.journal.RunEffects(ctx, resume); err != nil {
		return err
	}
	s.Run = tool.ResumeRun(resume)
	return nil
}

// Adopt makes id the tools' run (a durable run's own id): on a resume,
// the effects the journal recorded for it are replayed.
func (s *Tools) Adopt(ctx context.Context, id string) error {
	if s.Run != nil && s.Run.ID() == id {
		return nil
	}
	if s.journal != nil {
		if _, err := s.journal.RunEffects(ctx, id); err != nil {
			if err := s.journal.StartRun(ctx, id); err != nil {
				return err
			}
		}
	}
	s.Run = tool.ResumeRun(id)
	return nil
}

// WithRun returns ctx carrying the tools' run, for the engine and the
// direct runtime (their tool calls reach the runtime with derived
// contexts).
func (s *Tools) WithRun(ctx context.Context) context.Context {
	return tool.WithRun(ctx, s.Run)
}

// engineTools gives the engine the session's tools: the granted ones join
// the default root capabilities (children get the defaults without tools).
func (s *Tools) engineTools(cfg *engine.Config) {
	cfg.Capabilities = engine.DefaultCapabilities(cfg.Model, cmp.Or(cfg.SubModel, cfg.Model)).Union(s.Caps)
	cfg.Tools = &tool.ModelTools{Registry: s.Registry, Invoker: s.Runtime, AuthorityContext: AuthorityContext}
}

// RunID returns the id of the tools' run, or "" for nil Tools.
func (s *Tools) RunID() string {
	if s == nil || s.Run == nil {
		return ""
	}
	return s.Run.ID()
}

// Replayed reports whether any result of the run was a replayed effect.
func (s *Tools) Replayed() bool { return s != nil && s.Run != nil && s.Run.Replayed() > 0 }

// Journaled reports whether the run records effects (an effectful tool is
// granted): then --resume RUN_ID can continue it.
func (s *Tools) Journaled() bool { return s != nil && s.journal != nil }

// Report prints the run id of a run that recorded effects (what --resume
// needs) and how many results were replayed.
func (s *Tools) Report(w io.Writer) {
	if !s.Journaled() {
		return
	}
	if n := s.Run.Replayed(); n > 0 {
		fmt.Fprintf(w, "rlm: run %s: %d effect result(s) replayed from the journal, not executed again\n", s.Run.ID(), n)
		return
	}
	fmt.Fprintf(w, "rlm: run %s (resume it with --resume %s)\n", s.Run.ID(), s.Run.ID())
}

// Close releases the workspace, the journal and the MCP servers.
func (s *Tools) Close() {
	if s == nil {
		return
	}
	for i := len(s.closers) - 1; i >= 0; i-- {
		s.closers[i]()
	}
	s.closers = nil
	s.mcp.close()
}

// mcpServers is the MCP host of Spec.MCP, loaded on first use; its servers
// start only when used.
type mcpServers struct {
	file string
	cfg  mcp.Config
	host *mcp.Host
	dirs []string // temporary files of mcp:// contexts
}

func (m *mcpServers) get() (*mcp.Host, error) {
	if m == nil || m.file == "" {
		return nil, nil
	}
	if m.host == nil {
		cfg, err := mcp.LoadConfig(m.file)
		if err != nil {
			return nil, err
		}
		m.cfg, m.host = cfg, mcp.NewHost(cfg, mcp.Options{Version: Version()})
	}
	return m.host, nil
}

// importTools registers the tools of the servers in reg: every server
// when caps is nil (a listing), else the servers caps may grant. A tool
// that cannot be imported is reported on log and skipped.
func (m *mcpServers) importTools(ctx context.Context, reg *tool.Registry, caps *capability.Set, log io.Writer) error {
	h, err := m.get()
	if h == nil || err != nil {
		return err
	}
	names := m.cfg.Names()
	if caps != nil {
		if names = m.cfg.Granted(*caps); len(names) == 0 {
			return nil
		}
	}
	skipped, err := h.Import(ctx, reg, names...)
	for _, s := range skipped {
		fmt.Fprintf(log, "rlm: mcp: skipped tool %q of server %s: %v\n", s.Tool, s.Server, s.Error)
	}
	return err
}

// close stops the servers and removes the context files (idempotent).
func (m *mcpServers) close() {
	if m == nil {
		return
	}
	if m.host != nil {
		m.host.Close()
		m.host = nil
	}
	for _, d := range m.dirs {
		os.RemoveAll(d)
	}
	m.dirs = nil
}

// contexts replaces each mcp://<server>/<uri> path with a file holding
// that resource, read through the host; close removes the files.
func (m *mcpServers) contexts(ctx context.Context, paths []string) ([]string, error) {
	var out []string
	var dir string
	for _, p := range paths {
		srv, uri, ok := mcp.ParseContextURI(p)
		if !ok {
			if strings.HasPrefix(p, mcp.ContextScheme) {
				return nil, fault.New(fault.PhaseConfig, fault.KindInvalid, "an MCP context is mcp://<server>/<uri>").With("context", p)
			}
			out = append(out, p)
			continue
		}
		h, err := m.get()
		if err != nil {
			return nil, err
		}
		if h == nil {
			return nil, fault.New(fault.PhaseConfig, fault.KindInvalid, "an mcp:// context needs --mcp FILE").With("context", p).
				WithHint("pass --mcp with the mcpServers file that configures the server")
		}
		data, _, err := h.ReadResource(ctx, srv, uri)
		if err != nil {
			return nil, err
		}
		if dir == "" {
			if dir, err = os.MkdirTemp("", "rlm-mcp-context-"); err != nil {
				return nil, err
			}
			m.dirs = append(m.dirs, dir)
		}
		name := filepath.Join(dir, fmt.Sprintf("%d-%s-%s", len(out), srv, safeFileName(uri)))
		if err := os.WriteFile(name, data, 0o600); err != nil {
			return nil, err
		}
		out = append(out, name)
	}
	return out, nil
}

func safeFileName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_') {
			b[i] = '_'
		}
	}
	if len(b) > 80 {
		b = b[len(b)-80:]
	}
	return string(b)
}

// EngineTools gives an engine configuration the tools: the granted ones
// join the default root capabilities (children get the defaults without
// tools).
func (s *Tools) EngineTools(cfg *engine.Config) { s.engineTools(cfg) }

// ImportMCPTools registers in reg the tools of every server of the MCP
// servers file (a listing: nothing is granted) and returns the host (nil
// without a file; close it to stop the servers).
func ImportMCPTools(ctx context.Context, file string, reg *tool.Registry, log io.Writer) (*mcp.Host, error) {
	m := &mcpServers{file: file}
	err := m.importTools(ctx, reg, nil, log)
	return m.host, err
}

// grants are the capabilities the Spec grants beyond the defaults: Allow
// and the program's tools.
func (s Spec) grants() (capability.Set, error) {
	caps, err := capability.NewSet(capability.SplitList(s.Allow)...)
	if err != nil {
		return caps, err
	}
	for _, t := range s.Tools {
		caps = caps.Union(capability.Of(capability.Tool(t.Name)))
	}
	return caps, nil
}
