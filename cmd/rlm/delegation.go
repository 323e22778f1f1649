package main

import (
	"context"
	"sync"

	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm/agent"
	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/prompt"
	"github.com/rlm-go/rlm/subagent"
	"github.com/rlm-go/rlm/tool"
)

// delegationFlags are the host's delegation options (the child's role,
// skills, model and capabilities; never the model's or the KB's to
// widen) and the subagent runtime's limits.
type delegationFlags struct {
	policy     subagent.TimeoutPolicy
	role       string
	skills     []string
	allow      []string
	model      string
	skillsFile string
	maxAgents  int
}

func (f *delegationFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.DurationVar(&f.policy.Default, "subagent-timeout", subagent.DefaultTimeout, "the child's time limit when none is requested (replaces --time-limit for the child)")
	fl.DurationVar(&f.policy.Max, "subagent-timeout-max", subagent.DefaultMaxTimeout, "largest time limit a caller may request with timeout_seconds (above it the call is refused)")
	fl.DurationVar(&f.policy.Grace, "subagent-grace", subagent.DefaultGrace, "grace added to the child's time limit for the supervised call")
	fl.StringVar(&f.role, "child-role", "", "the child's role (a name of [a-z0-9-]); must agree with a role the knowledge base sets")
	fl.StringArrayVar(&f.skills, "child-skill", nil, "a skill of --skills given to the child; repeatable")
	fl.StringSliceVar(&f.allow, "child-allow", nil, "the child's capabilities, a subset of the parent's (default: the parent's without tools)")
	fl.StringVar(&f.model, "child-model", "", "the child's model (default: --model)")
	fl.StringVar(&f.skillsFile, "skills", "", `skill catalog: {"units": [{"unit": "skill:NAME", "content": BODY, ...}]}, compiled by the prompt compiler for each child`)
	fl.IntVar(&f.maxAgents, "max-agents", agent.DefaultMaxAgents, "live agents at once, the parent included (1 allows no child)")
}

// delegation is the resolved host configuration of children.
type delegation struct {
	host      subagent.HostOptions
	childCaps capability.Set
	skills    *prompt.Catalog
}

// resolve checks the host's options against the parent's grant before
// anything runs: --child-allow must be a subset of it
// (capability_widening), host skills need a skill catalog that holds
// them and in which no two of them conflict.
func (f *delegationFlags) resolve(cmd *cobra.Command, parent capability.Set) (delegation, error) {
	d := delegation{host: subagent.HostOptions{Role: f.role, Skills: f.skills, Model: f.model}}
	if cmd.Flags().Changed("child-allow") {
		set, err := capability.NewSet(splitCaps(f.allow)...)
		if err != nil {
			return d, err
		}
		d.host.Capabilities = &set
	}
	caps, err := subagent.ChildCapabilities(parent, d.host.Capabilities)
	if err != nil {
		return d, err
	}
	d.childCaps = caps
	if f.skillsFile != "" {
		b, err := readPromptFile(f.skillsFile)
		if err != nil {
			return d, err
		}
		if d.skills, err = prompt.DecodeSkillCatalog(b); err != nil {
			return d, err
		}
	}
	if err := subagent.RequireSkillCatalog(d.skills, f.skills); err != nil {
		return d, err
	}
	return d, subagent.CheckSkills(d.skills, f.skills)
}

// subagentHost is the agent runtime behind rlm_subagent in the CLI: one
// parent agent holding the caller's grant, whose children the tool
// spawns. Signal SIGUSR1 (where it exists) cancels the parent agent
// only: its children are cancelled and their cancelled envelopes are
// delivered to the parent's mailbox.
type subagentHost struct {
	rt     *agent.Runtime
	parent agent.ID
	stop   func()
	lazy   *lazyCompleter
}

func newSubagentHost(parentCaps capability.Set, maxAgents int, auth *authority.Store) (*subagentHost, error) {
	rt, err := agent.New(agent.Options{RootCapabilities: parentCaps, MaxAgents: maxAgents, Authority: auth})
	if err != nil {
		return nil, err
	}
	parent, err := rt.Spawn("", agent.Spec{Name: "cli"}, parentCaps)
	if err != nil {
		rt.Close()
		return nil, err
	}
	h := &subagentHost{rt: rt, parent: parent}
	stop := onParentCancel(func() { _, _ = rt.Cancel(parent, "host_cancelled_parent") })
	var once sync.Once
	h.stop = func() { once.Do(stop) }
	return h, nil
}

// config is the base registration of rlm_subagent for d.
func (h *subagentHost) config(d delegation, policy subagent.TimeoutPolicy, comp subagent.Completer) subagent.Config {
	return subagent.Config{Runtime: h.rt, Parent: h.parent, ChildCapabilities: d.childCaps, Completer: comp,
		Timeout: policy, Skills: d.skills}
}

func (h *subagentHost) close() error {
	h.stop()
	h.rt.Close()
	if h.lazy != nil {
		return h.lazy.close()
	}
	return nil
}

// childEngine opens the child's engine: the completer and what closing it
// must do (save a recorded cassette, release the store).
type childEngine func() (*subagent.EngineCompleter, func() error, error)

// lazyCompleter opens the child's engine on the first call, so listing
// or registering rlm_subagent needs no API key.
type lazyCompleter struct {
	once   sync.Once
	open   childEngine
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

// registerSubagent registers rlm_subagent, a trusted_host delegation with
// the host's options, into reg for a tool session's caller. The tool
// session's authority store is shared, so the child's own authority
// context (agent:R/C) is what its tool calls are authorized against.
func registerSubagent(cmd *cobra.Command, df *delegationFlags, reg *tool.Registry, caps capability.Set, auth *authority.Store,
	open childEngine) (*subagentHost, error) {
	d, err := df.resolve(cmd, caps)
	if err != nil {
		return nil, err
	}
	h, err := newSubagentHost(caps, df.maxAgents, auth)
	if err != nil {
		return nil, err
	}
	h.lazy = &lazyCompleter{open: open}
	cfg := h.config(d, df.policy, h.lazy)
	cfg.Delegation = d.host.Delegation()
	if err := subagent.Register(reg, cfg); err != nil {
		h.close()
		return nil, err
	}
	return h, nil
}

// noChildEngine is the engine of a registration that is only listed.
func noChildEngine() (*subagent.EngineCompleter, func() error, error) {
	return nil, nil, fault.New(fault.PhaseConfig, fault.KindInvalid, "rlm tools list runs no subagent")
}

// sharedContext is a context the command registered itself (rlm direct's
// --context), which its children answer over: stdin is read once, and an
// mcp:// resource lives in the command's temporary file.
type sharedContext struct {
	store *corpus.Store
	h     corpus.Handle
}

// openChildEngine opens the child's engine from the same model and budget
// flags as rlm run: the provider (shared when the command has one open,
// else its own, whose cassette is recorded on close), and the context the
// child answers over (the command's own when sc holds one, else
// --context, or an empty one). Tool calls of the child go through ts,
// narrowed to the child's capabilities.
func openChildEngine(cmd *cobra.Command, pf *providerFlags, bf *budgetFlags, ctxPaths []string, ts *toolSession, shared *session, sc *sharedContext) childEngine {
	return func() (*subagent.EngineCompleter, func() error, error) {
		sess := shared
		if sess == nil {
			var err error
			if sess, err = pf.open(newStatus(cmd.ErrOrStderr(), false)); err != nil {
				return nil, nil, err
			}
		}
		if sc != nil && sc.store != nil {
			ec := &subagent.EngineCompleter{Context: sc.h, Config: engine.Config{Provider: sess.provider, Model: pf.model, SubModel: pf.subModel,
				Store: sc.store, Limits: bf.lim, ExperimentalDeepRecursion: bf.deep}}
			if ts != nil {
				ec.Registry, ec.Invoker = ts.Registry, ts.Runtime
			}
			return ec, func() error { return nil }, nil // the store and session are the command's
		}
		store := corpus.NewStore()
		closer := func() error {
			store.Close()
			if shared == nil {
				return sess.finish(pf.record)
			}
			return nil
		}
		var h corpus.Handle
		var err error
		if len(ctxPaths) > 0 {
			h, err = addContexts(cmd.Context(), store, ctxPaths, cmd.InOrStdin())
		} else {
			h, err = store.AddString("context", "")
		}
		if err != nil {
			_ = closer()
			return nil, nil, err
		}
		ec := &subagent.EngineCompleter{Context: h, Config: engine.Config{Provider: sess.provider, Model: pf.model, SubModel: pf.subModel,
			Store: store, Limits: bf.lim, ExperimentalDeepRecursion: bf.deep}}
		if ts != nil {
			ec.Registry, ec.Invoker = ts.Registry, ts.Runtime
		}
		return ec, closer, nil
	}
}
