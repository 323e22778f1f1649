// Package agent runs logical agents: state plus a bounded mailbox, with
// work executed on the runtime's bounded worker pool.
//
// An agent holds no goroutine at rest. Messages are closed data (Message);
// HandleNext processes at most one of them per call. A request dispatches work to
// the pool; the worker's outcome comes back through the agent's own mailbox
// as a result message. Supervision forwards a child's results and failures
// to its parent as child_result messages. Capabilities and authority tiers
// only narrow from parent to child, the number of live agents is bounded,
// a full mailbox fails with mailbox_full instead of blocking, and
// cancelling an agent cancels its children, its pending approvals and its
// in-flight work. Every runtime keeps a bounded event trace.
package agent

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/tool"
)

// PhaseAgent is the phase of every error reported by this package.
const PhaseAgent fault.Phase = "agent"

// Error kinds reported by this package.
const (
	KindInvalidOptions           fault.Kind = "invalid_agent_options"
	KindInvalidSpec              fault.Kind = "invalid_agent_spec"
	KindUnknownAgent             fault.Kind = "unknown_agent"
	KindAuthorityWideningDenied  fault.Kind = "authority_widening_denied"
	KindAgentLimitReached        fault.Kind = "agent_limit_reached"
	KindMailboxFull              fault.Kind = "mailbox_full"
	KindAgentInactive            fault.Kind = "agent_inactive"
	KindWorkerPoolSaturated      fault.Kind = "worker_pool_saturated"
	KindNoWorkerHandler          fault.Kind = "no_worker_handler"
	KindWorkerFailed             fault.Kind = "worker_failed"
	KindWorkerPanic              fault.Kind = "worker_panic"
	KindWorkerResultBackpressure fault.Kind = "worker_result_backpressure"
)

// Defaults of Options fields left zero.
const (
	DefaultMaxAgents     = 64
	DefaultMailboxSize   = 16
	DefaultWorkers       = 2
	DefaultWorkerBacklog = 8
	DefaultTraceLimit    = 256
	DefaultRetain        = 256
	maxCheckpoints       = 64
)

// ID names an agent within its runtime, for example "a1".
type ID string

// Status is the lifecycle state of an agent.
type Status string

// Agent statuses. Every status except StatusActive is terminal.
const (
	StatusActive    Status = "active"
	StatusCompleted Status = "completed"
	StatusFailed    Status = "failed"
	StatusCancelled Status = "cancelled"
)

// Terminal reports whether s is a final status.
func (s Status) Terminal() bool { return s != StatusActive }

// Work is the closed description of one unit of work: a type and a JSON
// payload. It never carries code.
type Work struct {
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload,omitempty"`
}

// Handler is trusted host code that performs work for an agent. It must
// honour ctx, which is cancelled when the agent (or an ancestor) is
// cancelled.
type Handler func(ctx context.Context, agent ID, w Work) (json.RawMessage, error)

// Options configure a Runtime. Zero fields take the defaults.
type Options struct {
	// ID names the runtime; default "rtN" from a process-wide counter.
	ID string
	// MaxAgents bounds the live (non-terminal) agents. Default 64.
	MaxAgents int
	// MailboxSize is the capacity of each mailbox. Default 16.
	MailboxSize int
	// Workers and WorkerBacklog size the runtime's worker pool (defaults 2
	// and 8). Pool, when set, is used instead.
	Workers       int
	WorkerBacklog int
	Pool          *tool.Pool
	// SendTimeout is how long Send waits for room in a full mailbox.
	// Zero fails at once with mailbox_full.
	SendTimeout time.Duration
	// TraceLimit bounds the runtime's event trace. Default 256.
	TraceLimit int
	// Retain bounds how many terminal agents are kept for inspection;
	// the oldest are forgotten first. Default 256.
	Retain int
	// RootCapabilities bound the capabilities of agents spawned without a
	// parent.
	RootCapabilities capability.Set
	// RootAuthority is the tier of the runtime's authority context.
	// Default approve_diff.
	RootAuthority authority.Tier
	// Authority is the store holding the tiers and pending approvals of
	// the runtime and its agents; share it with the tool runtime. Default:
	// a new store.
	Authority *authority.Store
	// Handler runs request messages that carry no per-call handler.
	Handler Handler
}

// Spec describes an agent to spawn.
type Spec struct {
	// Name is a label, 1-64 bytes.
	Name string `json:"name"`
	// Mode is "worker" (default) or "rlm".
	Mode string `json:"mode"`
	// Authority is the requested tier; empty inherits the parent's.
	Authority authority.Tier `json:"authority,omitempty"`
	// Metadata is closed JSON (an object), recorded with the agent.
	Metadata json.RawMessage `json:"metadata,omitempty"`
}

// Agent modes.
const (
	ModeWorker = "worker"
	ModeRLM    = "rlm"
)

// Info is a snapshot of one agent.
type Info struct {
	ID               ID             `json:"id"`
	Runtime          string         `json:"runtime"`
	Parent           ID             `json:"parent,omitempty"`
	Status           Status         `json:"status"`
	Error            *fault.Error   `json:"error,omitempty"`
	Reason           string         `json:"reason,omitempty"`
	Pending          []string       `json:"pending"`
	Checkpoints      []string       `json:"checkpoints"`
	LastResult       *Reply         `json:"last_result,omitempty"`
	Processed        int            `json:"processed"`
	Capabilities     capability.Set `json:"capabilities"`
	Authority        authority.Tier `json:"authority"`
	AuthorityContext string         `json:"authority_context"`
	Spec             Spec           `json:"spec"`
	MailboxSize      int            `json:"mailbox_size"`
	Queued           int            `json:"queued"`
	Children         []ID           `json:"children"`
}

// call is the host-side state of one pending request.
type call struct {
	handler Handler
	ctx     context.Context // caller's context for a supervised call, or nil
	cancel  context.CancelFunc
}

type agentState struct {
	id       ID
	parent   ID
	spec     Spec
	caps     capability.Set
	tier     authority.Tier
	authCtx  string
	status   Status
	err      *fault.Error
	reason   string
	pending  map[string]*call
	checks   []string
	last     *Reply
	done     int
	children []ID
	// adopted are live descendants whose parent record was forgotten
	// (Retain): Cancel reaches them through this agent, the nearest
	// ancestor still held. keeper is the agent listing this one.
	adopted []ID
	keeper  ID

	mailbox  *mailbox
	handleMu sync.Mutex
	ctx      context.Context // cancelled when the agent ends
	cancel   context.CancelFunc
	end      chan struct{} // closed when the status becomes terminal
}

// Runtime holds agents. It is safe for concurrent use.
type Runtime struct {
	id   string
	opts Options
	pool *tool.Pool
	auth *authority.Store

	mu      sync.Mutex
	agents  map[ID]*agentState
	live    int
	nextID  uint64
	calls   uint64
	retired []ID
	tr      traceRing

	ctx    context.Context
	cancel context.CancelFunc
}

var runtimeSeq atomic.Uint64

// New returns a runtime with the given options.
func New(opts Options) (*Runtime, error) {
	if opts.MaxAgents < 0 || opts.MailboxSize < 0 || opts.Workers < 0 || opts.WorkerBacklog < 0 ||
		opts.SendTimeout < 0 || opts.TraceLimit < 0 || opts.Retain < 0 {
		return nil, fault.New(PhaseAgent, KindInvalidOptions, "agent runtime options must not be negative")
	}
	if opts.ID == "" {
		opts.ID = fmt.Sprintf("rt%d", runtimeSeq.Add(1))
	}
	opts.MaxAgents = cmp.Or(opts.MaxAgents, DefaultMaxAgents)
	opts.MailboxSize = cmp.Or(opts.MailboxSize, DefaultMailboxSize)
	opts.Workers = cmp.Or(opts.Workers, DefaultWorkers)
	opts.WorkerBacklog = cmp.Or(opts.WorkerBacklog, DefaultWorkerBacklog)
	opts.TraceLimit = cmp.Or(opts.TraceLimit, DefaultTraceLimit)
	opts.Retain = cmp.Or(opts.Retain, DefaultRetain)
	opts.RootAuthority = cmp.Or(opts.RootAuthority, authority.DefaultTier)
	if !opts.RootAuthority.Valid() {
		return nil, fault.New(PhaseAgent, KindInvalidOptions, "unknown root authority tier").With("tier", string(opts.RootAuthority))
	}
	rt := &Runtime{id: opts.ID, opts: opts, pool: opts.Pool, auth: opts.Authority, agents: map[ID]*agentState{}}
	if rt.pool == nil {
		rt.pool = tool.NewPool(opts.Workers, opts.WorkerBacklog)
	}
	if rt.auth == nil {
		rt.auth = authority.NewStore()
	}
	if err := rt.auth.Set(rt.AuthorityContext(), opts.RootAuthority); err != nil {
		return nil, err
	}
	rt.tr.limit = opts.TraceLimit
	rt.ctx, rt.cancel = context.WithCancel(context.Background())
	rt.record(Event{Type: EventRuntimeCreated})
	return rt, nil
}

// ID returns the runtime id.
func (rt *Runtime) ID() string { return rt.id }

// Authority returns the authority store of the runtime and its agents.
func (rt *Runtime) Authority() *authority.Store { return rt.auth }

// Pool returns the runtime's worker pool.
func (rt *Runtime) Pool() *tool.Pool { return rt.pool }

// AuthorityContext returns the runtime's own authority context,
// "runtime:R".
func (rt *Runtime) AuthorityContext() string { return "runtime:" + rt.id }

// AgentAuthorityContext returns the authority context of agent id,
// "agent:R/ID".
func (rt *Runtime) AgentAuthorityContext(id ID) string { return "agent:" + rt.id + "/" + string(id) }

// Close cancels every agent (reason "runtime_closed") and clears the
// runtime's authority contexts. In-flight work sees its context cancelled.
func (rt *Runtime) Close() {
	rt.mu.Lock()
	// Every held agent, not only the roots: finishing one agent may forget
	// (Retain) a terminal root whose live descendants no root then reaches.
	// A live agent is never forgotten, so each is cancelled here.
	for _, id := range slices.Sorted(maps.Keys(rt.agents)) {
		rt.cancelLocked(id, "runtime_closed")
	}
	for id := range rt.agents {
		rt.auth.Clear(rt.AgentAuthorityContext(id), "runtime_closed")
	}
	rt.mu.Unlock()
	rt.auth.Close(rt.AuthorityContext(), "runtime_closed")
	rt.auth.Clear(rt.AuthorityContext(), "runtime_closed")
	rt.cancel()
}

func agentErr(kind fault.Kind, msg string) *fault.Error { return fault.New(PhaseAgent, kind, msg) }

func validName(s string) bool { return len(s) > 0 && len(s) <= 64 }

// Spawn creates an agent under parent (empty for a root agent) holding
// caps. Capabilities narrow from the parent's recorded set (the runtime's
// RootCapabilities for a root): an extra one fails with capability_denied.
// A full runtime fails with agent_limit_reached; a tier broader than the
// parent's fails with authority_widening_denied. A failed spawn creates
// nothing.
func (rt *Runtime) Spawn(parent ID, spec Spec, caps capability.Set) (ID, error) {
	if spec.Mode == "" {
		spec.Mode = ModeWorker
	}
	if !validName(spec.Name) || (spec.Mode != ModeWorker && spec.Mode != ModeRLM) {
		return "", agentErr(KindInvalidSpec, "agent spec needs a 1-64 byte name and mode worker or rlm").With("name", spec.Name).With("mode", spec.Mode)
	}
	if spec.Authority != "" && !spec.Authority.Valid() {
		return "", agentErr(KindInvalidSpec, "unknown authority tier").With("authority", string(spec.Authority))
	}
	if len(spec.Metadata) > 0 {
		var obj map[string]any
		if err := json.Unmarshal(spec.Metadata, &obj); err != nil || obj == nil {
			return "", agentErr(KindInvalidSpec, "agent metadata must be a JSON object")
		}
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	bound, parentCtx := rt.opts.RootCapabilities, rt.AuthorityContext()
	var p *agentState
	if parent != "" {
		if p = rt.agents[parent]; p == nil {
			return "", agentErr(KindUnknownAgent, "no such parent agent").With("agent", string(parent))
		}
		if p.status.Terminal() {
			return "", agentErr(KindAgentInactive, "the parent agent is not active").With("agent", string(parent)).With("status", string(p.status))
		}
		bound, parentCtx = p.caps, p.authCtx
	}
	narrowed, err := bound.Narrow(caps)
	if err != nil {
		return "", fault.Wrap(err, PhaseAgent, capability.KindDenied, "the child asks for capabilities its parent lacks").
			With("parent", string(parent)).With("extra", fault.As(err).Detail["extra"])
	}
	if rt.live >= rt.opts.MaxAgents {
		return "", agentErr(KindAgentLimitReached, "the runtime holds its maximum of live agents").With("max_agents", rt.opts.MaxAgents)
	}
	tier := spec.Authority
	if tier == "" {
		// Inherit the parent's tier, but not an allow_once grant, which
		// belongs to the parent's context alone.
		if tier = rt.auth.Mode(parentCtx); tier == authority.AllowOnce {
			tier = authority.ApproveDiff
		}
	}
	rt.nextID++
	id := ID(fmt.Sprintf("a%d", rt.nextID))
	authCtx := rt.AgentAuthorityContext(id)
	if err := rt.auth.Child(parentCtx, authCtx, tier); err != nil {
		rt.nextID--
		return "", fault.Wrap(err, PhaseAgent, KindAuthorityWideningDenied, "the child asks for a broader authority tier than its parent").
			With("parent", string(parent)).With("requested", string(tier))
	}
	spec.Authority = tier
	a := &agentState{
		id: id, parent: parent, keeper: parent, spec: spec, caps: narrowed, tier: tier, authCtx: authCtx, status: StatusActive,
		pending: map[string]*call{}, mailbox: newMailbox(rt.opts.MailboxSize), end: make(chan struct{}),
	}
	if p != nil {
		p.children = append(p.children, id)
	}
	// Work contexts derive from the runtime, not the parent: a parent that
	// completes leaves its children running; Cancel cascades explicitly.
	a.ctx, a.cancel = context.WithCancel(rt.ctx)
	rt.agents[id] = a
	rt.live++
	rt.event(Event{Type: EventSpawn, Agent: id, Parent: parent})
	return id, nil
}

// Status returns a snapshot of agent id.
func (rt *Runtime) Status(id ID) (Info, error) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	a := rt.agents[id]
	if a == nil {
		return Info{}, unknown(id)
	}
	return Info{
		ID: a.id, Runtime: rt.id, Parent: a.parent, Status: a.status, Error: a.err, Reason: a.reason,
		Pending: orEmpty(slices.Sorted(maps.Keys(a.pending))), Checkpoints: orEmpty(slices.Clone(a.checks)),
		LastResult: a.last, Processed: a.done, Capabilities: a.caps, Authority: a.tier, AuthorityContext: a.authCtx,
		Spec: a.spec, MailboxSize: a.mailbox.capacity, Queued: a.mailbox.len(), Children: orEmpty(slices.Clone(a.children)),
	}, nil
}

// Children returns the ids of id's children in spawn order.
func (rt *Runtime) Children(id ID) ([]ID, error) {
	in, err := rt.Status(id)
	return in.Children, err
}

// Len reports how many agents the runtime holds and how many are live.
func (rt *Runtime) Len() (held, live int) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return len(rt.agents), rt.live
}

// orEmpty returns s, or an empty slice for nil: snapshots show [] in
// JSON, never null.
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func unknown(id ID) *fault.Error {
	return agentErr(KindUnknownAgent, "no such agent").With("agent", string(id))
}

// finishLocked moves a to a terminal status, releases its live slot,
// cancels its in-flight work and closes its authority context (reason is
// recorded there): its pending approvals end, since nobody waits for them
// any more, and it can make no new ones. It reports whether the status
// changed.
func (rt *Runtime) finishLocked(a *agentState, st Status, reason string) bool {
	if a.status.Terminal() {
		return false
	}
	a.status = st
	rt.live--
	a.cancel()
	rt.auth.Close(a.authCtx, reason)
	close(a.end)
	for _, c := range a.pending {
		if c.cancel != nil {
			c.cancel()
		}
	}
	rt.retired = append(rt.retired, a.id)
	for len(rt.retired) > rt.opts.Retain {
		old := rt.retired[0]
		rt.retired = rt.retired[1:]
		rt.handOverLocked(rt.agents[old])
		delete(rt.agents, old)
		rt.auth.Clear(rt.AgentAuthorityContext(old), "agent_forgotten")
	}
	return true
}

// handOverLocked gives the descendants of old, which is about to be
// forgotten, to the agent that lists old, so that cancelling an ancestor
// still reaches them.
func (rt *Runtime) handOverLocked(old *agentState) {
	if old == nil {
		return
	}
	k := rt.agents[old.keeper]
	if k == nil {
		return
	}
	for _, id := range slices.Concat(old.children, old.adopted) {
		if d := rt.agents[id]; d != nil {
			k.adopted = append(k.adopted, id)
			d.keeper = k.id
		}
	}
}
