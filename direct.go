package rlm

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/direct"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/prompt"
	"github.com/rlm-go/rlm/subagent"
	"github.com/rlm-go/rlm/tool"
	"github.com/rlm-go/rlm/trace"
)

// DirectResult is the outcome of Session.Direct.
type DirectResult struct {
	// Result is the direct runtime's result: Answer, Status, Turns, Events...
	*direct.Result
	// RunID names the run whose effects Spec.Resume can replay (tools
	// granted); Replayed is true when a tool result was a replayed effect.
	RunID    string
	Replayed bool
	// OutputError reports a trace that could not be written.
	OutputError error
	// Trace is the run's trace (the direct runtime's Events are its own
	// view); TraceDropped counts the events the bounded recorder dropped.
	Trace        []trace.Event
	TraceDropped int
}

// Direct answers query with the direct runtime (rlm direct): the model
// sees native function schemas of the granted tools (Spec.Allow: tool:NAME,
// context:search|slice|peek; the program's Spec.Tools), calls them, reads
// bounded observations and answers. With capability subagent granted,
// rlm_subagent spawns children configured by Spec.Delegation, answering
// over the Spec's contexts.
func (s *Session) Direct(ctx context.Context, query string) (*DirectResult, error) {
	sp := s.spec
	cfg, err := s.directConfig(s.directCaps(), sp.Limits)
	if err != nil {
		return nil, err
	}
	// Zero is the default time limit, negative none: no deadline.
	if lim, err := sp.Limits.Resolve(); err == nil && sp.Direct.SynthesisReserve > 0 && lim.TimeLimit > 0 {
		cfg.Deadline, cfg.SynthesisReserve = time.Now().Add(lim.TimeLimit), sp.Direct.SynthesisReserve
	}
	shared := &sharedContext{} // set once the contexts are read; children answer over them
	if cfg.Tools != nil {
		if cfg.Capabilities.Has(subagent.Capability) {
			host, err := RegisterSubagent(sp.Delegation, s.tools.Registry, cfg.Capabilities, s.tools.Runtime.Authority(), s.childEngine(shared), s.opts.onParentCancel)
			if err != nil {
				return nil, err
			}
			defer func() { _ = host.Close() }()
			cfg.AlwaysVisibleTools = grantedByName(cfg.Capabilities, s.tools.Registry) // rlm_subagent now registered
		}
		ctx = s.tools.WithRun(ctx) // effect identity: this run (or the resumed one)
	}
	// The runtime's own checks are configuration: before the input.
	if _, err := direct.New(cfg); err != nil {
		return nil, err
	}
	ot, err := StartOTLP(ctx, sp.OTLP, s.opts.log)
	if err != nil {
		return nil, err
	}
	defer ot.Finish()
	if len(sp.Context) > 0 {
		store := corpus.NewStore()
		defer store.Close()
		h, err := s.addContext(ctx, store)
		if err != nil {
			return nil, err
		}
		cfg.Store, cfg.Input = store, h
		*shared = sharedContext{store: store, h: h}
	}
	rec := s.traceRecorder(nil, ot)
	out, runErr := s.runDirect(ctx, cfg, query, rec)
	ot.Finish()
	if out != nil && sp.Trace != "" {
		out.OutputError = trace.WriteFile(sp.Trace, "rlm direct", out.Trace, out.TraceDropped)
	}
	return out, runErr
}

// DirectOn answers one call with the direct runtime over a context the
// caller opened (on.Context zero: none), under the call's limits (rlm mcp
// serve's rlm_direct): the Spec's tools, and with a context the context
// tools (search, slice, peek).
func (s *Session) DirectOn(ctx context.Context, on On) (*DirectResult, error) {
	caps := s.directCaps()
	if !on.Context.IsZero() {
		caps = caps.Union(capability.Of(capability.Context("search"), capability.Context("slice"), capability.Context("peek")))
	}
	cfg, err := s.directConfig(caps, on.Limits)
	if err != nil {
		return nil, err
	}
	if !on.Context.IsZero() {
		cfg.Store, cfg.Input = on.Store, on.Context
	}
	cfg.Provider = s.providerOf(on)
	if cfg.Tools != nil {
		ctx = s.tools.WithRun(ctx)
	}
	return s.runDirect(ctx, cfg, on.Query, trace.NewRecorder(trace.WithObserver(on.Observer)))
}

// directCaps are the capabilities the Spec grants the direct runtime:
// Allow and the program's tools.
func (s *Session) directCaps() capability.Set {
	caps, _ := s.spec.grants() // Validate parsed them
	return caps
}

// directConfig is the direct runtime's configuration under caps and lim,
// with the session's tools when caps grant any (or a run is resumed).
func (s *Session) directConfig(caps capability.Set, lim budget.Limits) (direct.Config, error) {
	sp := s.spec
	cfg := direct.Config{Provider: s.provider, Model: sp.Model, MaxTokens: sp.Direct.MaxTokens, Mode: prompt.Mode(sp.Direct.Projection),
		Limits:       direct.Limits{Limits: lim, MaxNativeCallsPerBatch: sp.Direct.MaxNativeCallsPerBatch},
		Capabilities: caps, AuthorityContext: AuthorityContext, Windows: model.NewWindows(s.modelWindows()...), AnswerSchema: s.answer, MaxRepairs: sp.MaxRepairs,
		TraceContent: sp.TraceContent}
	if cfg.Mode == "" {
		cfg.Mode = prompt.ModeCompiled
	}
	if cfg.MaxTokens == 0 {
		cfg.MaxTokens = direct.DefaultMaxTokens
	}
	if cfg.Limits.MaxNativeCallsPerBatch == 0 {
		cfg.Limits.MaxNativeCallsPerBatch = direct.DefaultMaxNativeCallsPerBatch
	}
	if s.tools != nil && (grantsTools(caps) || sp.Resume != "") {
		cfg.Registry, cfg.Tools = s.tools.Registry, s.tools.Runtime
		cfg.AlwaysVisibleTools = grantedByName(caps, s.tools.Registry)
	}
	return cfg, nil
}

// runDirect runs the direct runtime configured by cfg.
func (s *Session) runDirect(ctx context.Context, cfg direct.Config, query string, rec *trace.Recorder) (*DirectResult, error) {
	r, err := direct.New(cfg)
	if err != nil {
		return nil, err
	}
	res, runErr := r.Run(trace.WithRecorder(ctx, rec), query)
	return &DirectResult{Result: res, RunID: s.tools.RunID(), Replayed: s.tools.Replayed(), Trace: rec.Events(), TraceDropped: rec.Dropped()}, runErr
}

// grantedByName returns the registered tools caps grant by exact name
// (tool:NAME, not tool:*), sorted: the user declared them as the run's
// interface, so they are shown to the model in every projection
// (docs/direct-runtime.md). Wildcard grants go through compiled selection.
func grantedByName(caps capability.Set, reg *tool.Registry) []string {
	var names []string
	for _, c := range caps.List() {
		if c.Prefix() != capability.PrefixTool || strings.Contains(c.Name(), "*") {
			continue
		}
		if _, ok := reg.Lookup(c.Name()); ok {
			names = append(names, c.Name())
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// grantsTools reports whether caps grant any tool.
func grantsTools(caps capability.Set) bool {
	for _, c := range caps.List() {
		if c.Prefix() == capability.PrefixTool {
			return true
		}
	}
	return false
}
