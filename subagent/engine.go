package subagent

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"

	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/tool"
)

// EngineCompleter runs a child's completion with the RLM engine over a
// host-configured context. Per call it overwrites the engine
// configuration's capabilities (the child's own; the child's recursive
// children get the same set without tools), its time limit (the effective
// timeout) and, when Registry is set, its tools: a tool.ModelTools over the
// registry's view narrowed to the child's capabilities (tool.Registry.View),
// bound to the child's authority context, so the child sees only its own
// tools and its calls are authorized against the child's capabilities
// and tier.
type EngineCompleter struct {
	// Config is the base engine configuration (provider, models, store,
	// limits). Its Capabilities, ChildCapabilities and Tools are replaced.
	Config engine.Config
	// Context is the handle of the context the child answers over.
	Context corpus.Handle
	// Registry and Invoker, when set, offer registered tools to the child.
	// The Invoker may be the tool.Runtime running the rlm_subagent call
	// itself: the child's awaited tool calls carry the handler's context
	// and run on the caller's goroutine rather than queueing for a slot
	// of the pool their parent call holds.
	Registry *tool.Registry
	Invoker  tool.Invoker
}

var _ Completer = (*EngineCompleter)(nil)

// Complete runs one engine completion for req.
func (c *EngineCompleter) Complete(ctx context.Context, req Request) (Completion, error) {
	if req.Capabilities.Len() == 0 {
		// The engine substitutes its defaults for an empty set; a child
		// must never gain them.
		fe := fault.New(fault.PhaseConfig, fault.KindInvalidConfig, "a child needs at least one capability")
		return Completion{Status: StatusFailed, Error: fe}, fe
	}
	cfg := c.Config
	cfg.Capabilities = req.Capabilities
	cfg.ChildCapabilities = withoutTools(req.Capabilities)
	if cfg.ChildCapabilities.Len() == 0 {
		cfg.ChildCapabilities = req.Capabilities
	}
	cfg.Tools = nil
	rec := &toolRecorder{next: c.Invoker}
	if c.Registry != nil && c.Invoker != nil {
		// The child is shown only the tools its own capabilities grant,
		// and its calls are authorized against its own authority context.
		cfg.Tools = &tool.ModelTools{Registry: c.Registry.View(req.Capabilities), Invoker: rec, AuthorityContext: req.AuthorityContext}
	}
	if req.TimeLimit > 0 {
		cfg.Limits.TimeLimit = req.TimeLimit
	}
	if d := req.Delegation; d.Model != "" {
		// The host chose the child's model; the model never does.
		cfg.Model = d.Model
	}
	cfg.Instructions = childInstructions(cfg.Instructions, req)
	eng, err := engine.New(cfg)
	if err != nil {
		fe := fault.As(err)
		return Completion{Status: StatusFailed, Error: fe}, err
	}
	res, err := eng.Run(ctx, req.Query, c.Context)
	comp := Completion{Status: res.Status, Answer: res.Answer, Usage: res.Usage, Error: res.Error, ToolCalls: rec.list()}
	// The envelope carries the result without its trajectory and variable
	// previews, which go to the caller's trace recorder instead.
	r := *res
	r.Trajectory, r.Vars = nil, nil
	comp.Result, _ = json.Marshal(r)
	return comp, err
}

// childInstructions adds the delegation to the base instructions: the
// role line, then the skill instructions the prompt compiler chose from
// the host's skill catalog. Without a skill catalog, skills are names
// only and are listed on the role line. Role and skill names are
// validated tokens ([a-z0-9-]), never free text.
func childInstructions(base string, req Request) string {
	d := req.Delegation
	compiled := req.SkillText != ""
	if d.Role == "" && len(d.Skills) == 0 && !compiled {
		return base
	}
	var parts []string
	if base != "" {
		parts = append(parts, base)
	}
	line := "You are a delegated child agent."
	if d.Role != "" {
		line += " Role: " + d.Role + "."
	}
	if len(d.Skills) > 0 && !compiled {
		line += " Skills: " + strings.Join(d.Skills, ", ") + "."
	}
	parts = append(parts, line)
	if compiled {
		parts = append(parts, req.SkillText)
	}
	return strings.Join(parts, "\n")
}

// toolRecorder keeps the runtime traces of a child's tool calls (at most
// ToolCallTraceLimit), each with the child's own authority context.
type toolRecorder struct {
	next tool.Invoker
	mu   sync.Mutex
	tr   []tool.Trace
}

func (r *toolRecorder) Invoke(ctx context.Context, call tool.Call) (tool.Result, error) {
	res, err := r.next.Invoke(ctx, call)
	// A call that ended with an error (cancelled while it ran) is
	// recorded too when the runtime traced it: it had started.
	if err == nil || res.Trace.Tool != "" {
		r.mu.Lock()
		if len(r.tr) < ToolCallTraceLimit {
			r.tr = append(r.tr, res.Trace)
		}
		r.mu.Unlock()
	}
	return res, err
}

func (r *toolRecorder) list() []tool.Trace {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.tr)
}
