package rlm

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"sync"
	"time"

	"github.com/rlm-go/rlm/agent"
	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/prompt"
	"github.com/rlm-go/rlm/subagent"
	"github.com/rlm-go/rlm/tool"
)

// DelegationSpec is the host's configuration of the children rlm_subagent
// spawns (granted by capability subagent): the child's role, skills, model
// and capabilities — never the model's to widen — and the subagent
// runtime's limits.
type DelegationSpec struct {
	// Role is the child's role (a name of [a-z0-9-]).
	Role string `json:"role,omitempty"`
	// Skills are skills of SkillsFile given to the child.
	Skills []string `json:"skills,omitempty"`
	// Allow are the child's capabilities, a subset of the parent's; nil
	// means the parent's without tools (an empty list grants nothing).
	Allow []string `json:"allow,omitzero"`
	// Model is the child's model (default: Spec.Model).
	Model string `json:"model,omitempty"`
	// SkillsFile is a skill catalog ({"units": [...]}) compiled for each
	// child.
	SkillsFile string `json:"skills_file,omitempty"`
	// MaxAgents bounds the live agents, the parent included (0: the
	// default; 1 allows no child).
	MaxAgents int `json:"max_agents,omitempty"`
	// Timeout is the child's time limit policy (zero fields: defaults).
	// JSON: timeout_ms, max_timeout_ms, grace_ms.
	Timeout subagent.TimeoutPolicy `json:"-"`
}

type delegationJSON struct {
	plainDelegation
	TimeoutMS    int64 `json:"timeout_ms,omitempty"`
	MaxTimeoutMS int64 `json:"max_timeout_ms,omitempty"`
	GraceMS      int64 `json:"grace_ms,omitempty"`
}

type plainDelegation DelegationSpec

// MarshalJSON writes the timeouts as milliseconds.
func (d DelegationSpec) MarshalJSON() ([]byte, error) {
	t := d.Timeout
	return json.Marshal(delegationJSON{plainDelegation(d), budget.Millis(t.Default), budget.Millis(t.Max), budget.Millis(t.Grace)})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (d *DelegationSpec) UnmarshalJSON(b []byte) error {
	var w delegationJSON
	if err := decodeStrict(b, &w); err != nil {
		return err
	}
	*d = DelegationSpec(w.plainDelegation)
	ms := func(v int64) time.Duration { return time.Duration(v) * time.Millisecond }
	d.Timeout = subagent.TimeoutPolicy{Default: ms(w.TimeoutMS), Max: ms(w.MaxTimeoutMS), Grace: ms(w.GraceMS)}
	return nil
}

// withDefaults fills the zero limits.
func (d DelegationSpec) withDefaults() DelegationSpec {
	if d.MaxAgents == 0 {
		d.MaxAgents = agent.DefaultMaxAgents
	}
	if d.Timeout.Default == 0 {
		d.Timeout.Default = subagent.DefaultTimeout
	}
	if d.Timeout.Max == 0 {
		d.Timeout.Max = subagent.DefaultMaxTimeout
	}
	if d.Timeout.Grace == 0 {
		d.Timeout.Grace = subagent.DefaultGrace
	}
	return d
}

// Delegation is a DelegationSpec checked against the parent's grant.
type Delegation struct {
	Host      subagent.HostOptions
	ChildCaps capability.Set
	Skills    *prompt.Catalog
}

// Resolve checks the host's options against the parent's grant before
// anything runs: Allow must be a subset of it (capability_widening), host
// skills need a skill catalog that holds them and in which no two of them
// conflict.
func (d DelegationSpec) Resolve(parent capability.Set) (Delegation, error) {
	r := Delegation{Host: subagent.HostOptions{Role: d.Role, Skills: d.Skills, Model: d.Model}}
	if d.Allow != nil {
		set, err := capability.NewSet(capability.SplitList(d.Allow)...)
		if err != nil {
			return r, err
		}
		r.Host.Capabilities = &set
	}
	caps, err := subagent.ChildCapabilities(parent, r.Host.Capabilities)
	if err != nil {
		return r, err
	}
	r.ChildCaps = caps
	if d.SkillsFile != "" {
		b, err := os.ReadFile(d.SkillsFile)
		if err != nil {
			return r, fault.Wrap(err, fault.PhaseConfig, fault.KindIO, "cannot read file").With("path", d.SkillsFile)
		}
		if r.Skills, err = prompt.DecodeSkillCatalog(b); err != nil {
			return r, err
		}
	}
	if err := subagent.RequireSkillCatalog(r.Skills, d.Skills); err != nil {
		return r, err
	}
	return r, subagent.CheckSkills(r.Skills, d.Skills)
}

// SubagentHost is the agent runtime behind rlm_subagent: one parent agent
// holding the caller's grant, whose children the tool spawns.
type SubagentHost struct {
	Runtime *agent.Runtime
	Parent  agent.ID
	stop    func()
	lazy    *lazyCompleter
}

// newSubagentHost starts the agent runtime and its parent agent. onCancel,
// when set, is given what cancels the parent agent only (its children are
// cancelled and their envelopes reach its mailbox) and returns what stops
// listening (the CLI: SIGUSR1).
func newSubagentHost(parentCaps capability.Set, maxAgents int, auth *authority.Store, onCancel func(cancel func()) (stop func())) (*SubagentHost, error) {
	rt, err := agent.New(agent.Options{RootCapabilities: parentCaps, MaxAgents: maxAgents, Authority: auth})
	if err != nil {
		return nil, err
	}
	parent, err := rt.Spawn("", agent.Spec{Name: "cli"}, parentCaps)
	if err != nil {
		rt.Close()
		return nil, err
	}
	h := &SubagentHost{Runtime: rt, Parent: parent, stop: func() {}}
	if onCancel != nil {
		stop := onCancel(func() { _, _ = rt.Cancel(parent, "host_cancelled_parent") })
		var once sync.Once
		h.stop = func() { once.Do(stop) }
	}
	return h, nil
}

// Config is the base registration of rlm_subagent for d.
func (h *SubagentHost) Config(d Delegation, policy subagent.TimeoutPolicy, comp subagent.Completer) subagent.Config {
	return subagent.Config{Runtime: h.Runtime, Parent: h.Parent, ChildCapabilities: d.ChildCaps, Completer: comp,
		Timeout: policy, Skills: d.Skills}
}

// Close stops the runtime and the child engine it opened.
func (h *SubagentHost) Close() error {
	h.stop()
	h.Runtime.Close()
	if h.lazy != nil {
		return h.lazy.close()
	}
	return nil
}

// ChildEngine opens the child's engine: the completer and what closing it
// must do (save a recorded cassette, release the store).
type ChildEngine func() (*subagent.EngineCompleter, func() error, error)

// lazyCompleter opens the child's engine on the first call, so listing
// or registering rlm_subagent needs no API key.
type lazyCompleter struct {
	once   sync.Once
	open   ChildEngine
	c      *subagent.EngineCompleter
	closer func() error
	err    error
}

func (l *lazyCompleter) close() error {
	var err error
	l.once.Do(func() { l.err = errNotOpened })
	if l.closer != nil {
		err = l.closer()
	}
	return err
}

var errNotOpened = fault.New(fault.PhaseConfig, fault.KindInvalid, "the subagent runtime is closed")

func (l *lazyCompleter) Complete(ctx context.Context, req subagent.Request) (subagent.Completion, error) {
	l.once.Do(func() { l.c, l.closer, l.err = l.open() })
	if l.err != nil {
		fe := fault.As(l.err)
		return subagent.Completion{Status: subagent.StatusFailed, Error: fe}, l.err
	}
	return l.c.Complete(ctx, req)
}

// RegisterSubagent registers rlm_subagent, a trusted_host delegation with
// the host's options d, into reg for a caller granted caps. The authority
// store auth is shared, so the child's own authority context (agent:R/C)
// is what its tool calls are authorized against. open builds the child's
// engine on the first call.
func RegisterSubagent(d DelegationSpec, reg *tool.Registry, caps capability.Set, auth *authority.Store, open ChildEngine,
	onCancel func(cancel func()) (stop func())) (*SubagentHost, error) {
	d = d.withDefaults()
	r, err := d.Resolve(caps)
	if err != nil {
		return nil, err
	}
	h, err := newSubagentHost(caps, d.MaxAgents, auth, onCancel)
	if err != nil {
		return nil, err
	}
	h.lazy = &lazyCompleter{open: open}
	cfg := h.Config(r, d.Timeout, h.lazy)
	cfg.Delegation = r.Host.Delegation()
	if err := subagent.Register(reg, cfg); err != nil {
		h.Close()
		return nil, err
	}
	return h, nil
}

// sharedContext is a context a session registered itself (Direct's
// contexts), which its children answer over: stdin is read once, and an
// mcp:// resource lives in the session's temporary file.
type sharedContext struct {
	store *corpus.Store
	h     corpus.Handle
}

// ChildEngineFor is the child engine of spec for a caller outside a
// session (rlm tools call): on the first call it opens spec's provider
// (recorded on close with Spec.Record) and its contexts (or an empty one);
// the child's tool calls go through tools (nil: none), narrowed to its
// capabilities.
func ChildEngineFor(spec Spec, tools *Tools, stdin io.Reader, opts ...Option) ChildEngine {
	return func() (*subagent.EngineCompleter, func() error, error) {
		sp := spec
		sp.Allow, sp.Tools, sp.Resume, sp.Trace = nil, nil, "", ""
		s, err := Open(context.Background(), sp, append(opts, WithStdin(stdin))...)
		if err != nil {
			return nil, nil, err
		}
		s.tools = tools
		open := s.childEngine(nil)
		ec, closer, err := open()
		if err != nil {
			s.Close()
			return nil, nil, err
		}
		return ec, func() error { return errors.Join(closer(), s.Close()) }, nil
	}
}

// childEngine opens the child's engine from the session: its provider, and
// the context the child answers over (sc's when it holds one, else the
// Spec's contexts, or an empty one). Tool calls of the child go through
// the session's tools, narrowed to the child's capabilities.
func (s *Session) childEngine(sc *sharedContext) ChildEngine {
	return func() (*subagent.EngineCompleter, func() error, error) {
		ec := &subagent.EngineCompleter{Config: s.childConfig(nil)}
		if s.tools != nil {
			ec.Registry, ec.Invoker = s.tools.Registry, s.tools.Runtime
		}
		if sc != nil && sc.store != nil {
			ec.Config.Store, ec.Context = sc.store, sc.h
			return ec, func() error { return nil }, nil // the store is the session's
		}
		store := corpus.NewStore()
		var err error
		if len(s.spec.Context) > 0 {
			ec.Context, err = s.addContext(context.Background(), store)
		} else {
			ec.Context, err = store.AddString("context", "")
		}
		if err != nil {
			store.Close()
			return nil, nil, err
		}
		ec.Config.Store = store
		return ec, func() error { store.Close(); return nil }, nil
	}
}

// childConfig is the engine configuration of a child over store: the
// session's provider, models, limits and compaction (plan mode, no tools:
// the completer adds the child's; the window is its model's, since
// Delegation.Model may change the model).
func (s *Session) childConfig(store *corpus.Store) engine.Config {
	sp := s.spec
	return engine.Config{Provider: s.provider, Model: sp.Model, SubModel: sp.SubModel, Store: store,
		Limits: sp.Limits, ExperimentalDeepRecursion: sp.DeepRecursion, Compaction: sp.compaction(),
		ModelWindows: s.modelWindows(), NoAutoSplit: sp.NoAutoSplit}
}
