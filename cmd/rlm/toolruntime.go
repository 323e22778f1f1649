package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/effect"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/tool"
)

// toolSession is a tool runtime opened from toolFlags: the built-in
// workspace tools, the granted capabilities and authority tier, the run its
// effects belong to and (when an effectful tool is granted) the durable
// effect journal.
//
// Every CLI invocation is a new run with a fresh run id, unless --resume
// names an earlier run: then the effects that run recorded are replayed to
// the calls with the same identity instead of running again.
type toolSession struct {
	Registry *tool.Registry
	Runtime  *tool.Runtime
	Caps     capability.Set
	Run      *tool.Run
	journal  *effect.Journal
	closers  []func()
}

// open builds the tool runtime for a command that runs tools. The journal is
// opened only when the granted capabilities include an effectful tool.
// open opens the tool runtime; ctx bounds the import of MCP tools (Ctrl-C
// stops a server that does not answer).
func (f *toolFlags) open(ctx context.Context) (*toolSession, error) {
	return f.openWith(ctx, authority.NewStore())
}

// openWith is open with the given authority store, shared with an agent
// runtime whose children call the session's tools.
func (f *toolFlags) openWith(ctx context.Context, auth *authority.Store) (*toolSession, error) {
	caps, err := capability.NewSet(splitCaps(f.allow)...)
	if err != nil {
		return nil, err
	}
	tier, err := authority.ParseTier(f.authority)
	if err != nil {
		return nil, err
	}
	reg, ws, err := openRegistry(f.workspace)
	if err != nil {
		return nil, err
	}
	s := &toolSession{Registry: reg, Caps: caps, closers: []func(){func() { ws.Close() }, f.closeMCP}}
	if err := f.importMCP(ctx, reg, &caps, os.Stderr); err != nil {
		s.Close()
		return nil, err
	}
	// The workspace's resolved directory is part of every effect identity:
	// the same call against another --workspace is another effect.
	cfg := tool.Config{Authority: auth, Root: ws.Dir()}
	for _, sc := range reg.Schemas() {
		if sc.Effect == authority.EffectRead || !caps.Has(capability.Tool(sc.Name)) {
			continue
		}
		dir := f.stateDir
		if dir == "" {
			if dir, err = effect.DefaultStateDir(); err != nil {
				s.Close()
				return nil, err
			}
		}
		j, err := effect.OpenDir(dir)
		if err != nil {
			s.Close()
			return nil, err
		}
		s.closers = append(s.closers, func() { j.Close() })
		cfg.Journal, s.journal = j, j
		break
	}
	if err := s.startRun(f.resume); err != nil {
		s.Close()
		return nil, err
	}
	cfg.Run = s.Run
	if err := cfg.Authority.Set(cliAuthorityContext, tier); err != nil {
		s.Close()
		return nil, err
	}
	s.Runtime = tool.NewRuntime(reg, cfg)
	return s, nil
}

// startRun makes the session's run: a new one recorded in the journal, or
// the run resume names, which the journal must know.
func (s *toolSession) startRun(resume string) error {
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

// WithRun returns ctx carrying the session's run, for the engine and the
// direct runtime (their tool calls reach the runtime with derived contexts).
func (s *toolSession) WithRun(ctx context.Context) context.Context {
	return tool.WithRun(ctx, s.Run)
}

// engineTools gives the engine the session's tools: the granted ones join
// the default root capabilities (children get the defaults without tools).
func (s *toolSession) engineTools(cfg *engine.Config, model, subModel string) {
	if subModel == "" {
		subModel = model
	}
	cfg.Capabilities = engine.DefaultCapabilities(model, subModel).Union(s.Caps)
	cfg.Tools = &tool.ModelTools{Registry: s.Registry, Invoker: s.Runtime, AuthorityContext: cliAuthorityContext}
}

// runID returns the id of the run of s, or "" for a nil session.
func (s *toolSession) runID() string {
	if s == nil || s.Run == nil {
		return ""
	}
	return s.Run.ID()
}

// replayed reports whether any result of the session's run was a replayed
// effect.
func (s *toolSession) replayed() bool { return s != nil && s.Run != nil && s.Run.Replayed() > 0 }

// report prints, in text mode, the run id of a run that recorded effects
// (what --resume needs) and how many results were replayed.
func (s *toolSession) report(w io.Writer) {
	if s == nil || s.journal == nil {
		return
	}
	if n := s.Run.Replayed(); n > 0 {
		fmt.Fprintf(w, "rlm: run %s: %d effect result(s) replayed from the journal, not executed again\n", s.Run.ID(), n)
		return
	}
	fmt.Fprintf(w, "rlm: run %s (resume it with --resume %s)\n", s.Run.ID(), s.Run.ID())
}

// Close releases the workspace and the journal.
func (s *toolSession) Close() {
	for i := len(s.closers) - 1; i >= 0; i-- {
		s.closers[i]()
	}
	s.closers = nil
}
