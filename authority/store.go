package authority

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/trace"
)

// State is the state of a pending operation.
type State string

// Pending-operation states. Terminal: resolved, denied, superseded,
// cancelled.
const (
	StatePending    State = "pending"
	StateApproved   State = "approved"
	StateScheduled  State = "scheduled"
	StateExecuting  State = "executing"
	StateCancelling State = "cancelling"
	StateResolved   State = "resolved"
	StateDenied     State = "denied"
	StateSuperseded State = "superseded"
	StateCancelled  State = "cancelled"
)

// Terminal reports whether s is a final state.
func (s State) Terminal() bool {
	switch s {
	case StateResolved, StateDenied, StateSuperseded, StateCancelled:
		return true
	}
	return false
}

// HistoryLimit is the number of terminal records kept per context.
const HistoryLimit = 64

// Continuation runs an approved operation. Its outcome is opaque to this
// package and returned by Await.
type Continuation func(ctx context.Context) (any, error)

// Editor re-validates edited arguments for a pending operation and returns
// the new operation with its continuation and editor.
type Editor func(edited json.RawMessage) (Operation, Continuation, Editor, error)

// Scheduler runs fn asynchronously, for example on a bounded worker pool.
// It must not block; a full pool returns an error (backpressure).
type Scheduler func(fn func(ctx context.Context)) error

// Action is the kind of an authorization decision.
type Action string

// Decision actions.
const (
	ActionExecute Action = "execute" // run it now
	ActionReplay  Action = "replay"  // an allow-once outcome for the same operation exists
	ActionPending Action = "pending" // a pending operation was created
)

// Decision is the outcome of Authorize.
type Decision struct {
	Action      Action
	Permit      string // read, allow_once, allow_session or dangerous (execute)
	Tier        Tier   // the tier the decision was made under: the context's, capped by the operation's Ceiling
	Fingerprint string
	Outcome     any    // replay
	Record      Record // pending
}

// Record is the public, redacted view of a pending operation.
type Record struct {
	ID                 string         `json:"id"`
	Context            string         `json:"context"`
	Tool               string         `json:"tool"`
	Effect             Effect         `json:"effect"`
	Capability         string         `json:"capability"`
	Args               any            `json:"args"`
	Details            map[string]any `json:"details,omitempty"`
	Correlation        Correlation    `json:"correlation"`
	Authority          Tier           `json:"authority"`
	Fingerprint        string         `json:"fingerprint"`
	State              State          `json:"state"`
	CreatedAt          time.Time      `json:"created_at"`
	ResolvedAt         *time.Time     `json:"resolved_at,omitempty"`
	EditedFrom         string         `json:"edited_from,omitempty"`
	SupersededBy       string         `json:"superseded_by,omitempty"`
	DenialReason       string         `json:"denial_reason,omitempty"`
	CancellationReason string         `json:"cancellation_reason,omitempty"`
}

// Resolution is how a pending operation ended.
type Resolution struct {
	State   State // resolved, denied, superseded or cancelled
	Outcome any   // the continuation's outcome (resolved)
	Err     error // the continuation's error, or why nothing ran
}

type entry struct {
	op          Operation
	fp          string
	id          string
	state       State
	created     time.Time
	resolved    *time.Time
	editedFrom  string
	supersededB string
	denial      string
	cancelR     string
	cont        Continuation
	edit        Editor
	cancel      context.CancelFunc
	done        chan struct{}
	res         Resolution
	forget      bool // cleared while running: not kept when it ends
}

type onceKey struct{ ctx, fp string }

type onceRec struct {
	done    bool
	outcome any
}

// Store holds authority state: the tier of each context, allow-once
// records and pending operations. It is safe for concurrent use.
type Store struct {
	mu        sync.Mutex
	modes     map[string]Tier
	once      map[onceKey]*onceRec
	onceOrder map[string][]string // completed allow-once fingerprints per context, oldest first
	entries   map[string]*entry
	open      map[onceKey]string  // the pending record of each (context, fingerprint)
	terminal  map[string][]string // terminal ids per context, oldest first
	closed    map[string]string   // contexts whose owner has ended, with the reason (Close)
	seq       uint64
	now       func() time.Time
}

// NewStore returns an empty store.
func NewStore() *Store {
	return &Store{
		modes: map[string]Tier{}, once: map[onceKey]*onceRec{}, onceOrder: map[string][]string{},
		entries: map[string]*entry{}, open: map[onceKey]string{}, terminal: map[string][]string{}, closed: map[string]string{},
		now: time.Now,
	}
}

// SkipIDs makes the id of every later pending operation greater than
// approval_n. A host that persisted the ids of a run (package effect) and
// continues that run with a new store (a resumed run in a new process)
// calls it with the largest persisted n, so the run's ids stay unique.
func (s *Store) SkipIDs(n uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq = max(s.seq, n)
}

// Mode returns the tier of ctx; an unset context is approve_diff.
func (s *Store) Mode(ctx string) Tier {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mode(ctx)
}

// Tier is the tier op runs under, as Authorize decides it: its context's,
// capped by its Ceiling. Callers that answer without Authorize (a read
// tool's fast path, a journal replay) record this one.
func (s *Store) Tier(op Operation) Tier {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tier(op)
}

func (s *Store) tier(op Operation) Tier { return Capped(s.mode(op.Context), op.Ceiling) }

func (s *Store) mode(ctx string) Tier {
	if t, ok := s.modes[ctx]; ok {
		return t
	}
	return DefaultTier
}

// Set sets the tier of ctx and forgets its allow-once records. A closed
// context (Close) is open again: Set gives it a new owner.
func (s *Store) Set(ctx string, t Tier) error {
	if !t.Valid() {
		return unknownTier(string(t))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.modes[ctx] = t
	delete(s.closed, ctx)
	s.forgetOnce(ctx)
	return nil
}

// forgetOnce drops the allow-once records of ctx. s.mu must be held.
func (s *Store) forgetOnce(ctx string) {
	delete(s.onceOrder, ctx)
	for k := range s.once {
		if k.ctx == ctx {
			delete(s.once, k)
		}
	}
}

// SetIfUnset sets the tier of ctx only if nobody has; it reports whether it
// did. It is atomic.
func (s *Store) SetIfUnset(ctx string, t Tier) (bool, error) {
	if !t.Valid() {
		return false, unknownTier(string(t))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.modes[ctx]; ok {
		return false, nil
	}
	s.modes[ctx] = t
	return true, nil
}

// Child sets the tier of child to requested, which must be no broader than
// the tier of parent. allow_once is a grant of one operation to its
// context: a child of an allow_once context may not hold another (the one
// grant would become two), so requesting it there is widening_denied.
func (s *Store) Child(parent, child string, requested Tier) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	pt := s.mode(parent)
	t, err := NarrowTier(pt, requested)
	if err != nil {
		return err
	}
	if pt == AllowOnce && t == AllowOnce {
		return fault.New(PhaseAuthority, capability.KindWideningDenied, "a child context may not copy its parent's allow_once grant").
			With("parent", string(pt)).With("requested", string(t)).WithHint("give the child approve_diff, or the parent allow_session")
	}
	s.modes[child] = t
	delete(s.closed, child)
	return nil
}

// Authorize decides op. Read effects always execute. For other effects,
// the tier is the context's capped by op.Ceiling (a ceiling of
// approve_diff makes a pending operation even in an allow_once context,
// which keeps its one grant), and the first matching rule wins: a completed allow-once record for the same
// context and fingerprint replays its outcome; a started one fails with
// allow_once_in_progress; tier allow_once is consumed (the context becomes
// approve_diff) and executes; allow_session and dangerous execute;
// approve_diff creates a pending operation holding cont and edit, or, when
// the same operation (context and fingerprint) is already pending, returns
// that record: one operation has one pending record however often it is
// asked for (a retry, a map over equal items, a model repeating a call),
// and approving it runs it once.
//
// An effectful operation in a closed context (Close) is refused with
// authority_denied: nothing pends or runs for an owner that has ended.
//
// After an allow-once execution the caller must call CompleteOnce (or
// AbortOnce if it never ran the operation).
func (s *Store) Authorize(op Operation, cont Continuation, edit Editor) (Decision, error) {
	fp, err := op.Fingerprint()
	if err != nil {
		return Decision{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !ValidCeiling(op.Ceiling) {
		return Decision{}, fault.New(PhaseAuthority, KindInvalidTier, "an operation's ceiling must be approve_diff, allow_session or dangerous").
			With("ceiling", string(op.Ceiling))
	}
	tier := s.tier(op)
	d := Decision{Tier: tier, Fingerprint: fp}
	if op.Effect == EffectRead {
		d.Action, d.Permit = ActionExecute, string(EffectRead)
		return d, nil
	}
	if cont == nil {
		return Decision{}, fault.New(PhaseAuthority, KindInvalidOperation, "an effectful operation needs a continuation")
	}
	if reason, ok := s.closed[op.Context]; ok {
		return Decision{}, fault.New(PhaseAuthority, KindDenied, "the owner of the authority context has ended").
			With("context", op.Context).With("reason", reason)
	}
	key := onceKey{op.Context, fp}
	if r, ok := s.once[key]; ok {
		if r.done {
			d.Action, d.Permit, d.Outcome = ActionReplay, string(AllowOnce), r.outcome
			return d, nil
		}
		return Decision{}, fault.New(PhaseAuthority, KindAllowOnceInFlight, "the allowed-once operation is already running").With("fingerprint", fp)
	}
	switch tier {
	case AllowOnce:
		s.modes[op.Context] = ApproveDiff
		s.once[key] = &onceRec{}
		d.Action, d.Permit = ActionExecute, string(AllowOnce)
	case AllowSession, Dangerous:
		d.Action, d.Permit = ActionExecute, string(tier)
	default:
		e := s.entries[s.open[key]]
		if e == nil || e.state != StatePending {
			e = s.newEntry(op, fp, cont, edit)
		}
		d.Action, d.Record = ActionPending, e.record()
	}
	return d, nil
}

// CompleteOnce stores the outcome of an allow-once execution so an exact
// retry replays it.
func (s *Store) CompleteOnce(ctx, fp string, outcome any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.once[onceKey{ctx, fp}]
	if !ok || r.done {
		return
	}
	r.done, r.outcome = true, outcome
	order := append(s.onceOrder[ctx], fp)
	for len(order) > HistoryLimit {
		delete(s.once, onceKey{ctx, order[0]})
		order = order[1:]
	}
	s.onceOrder[ctx] = order
}

// AbortOnce undoes an allow-once decision whose operation never started
// (for example the worker pool was full): the record is dropped and the
// context is allow_once again if nothing else changed it.
func (s *Store) AbortOnce(ctx, fp string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.once[onceKey{ctx, fp}]
	if !ok || r.done {
		return
	}
	delete(s.once, onceKey{ctx, fp})
	if s.mode(ctx) == ApproveDiff {
		s.modes[ctx] = AllowOnce
	}
}

func (s *Store) newEntry(op Operation, fp string, cont Continuation, edit Editor) *entry {
	s.seq++
	e := &entry{op: op, fp: fp, id: approvalID(s.seq), state: StatePending, created: s.now(), cont: cont, edit: edit, done: make(chan struct{})}
	s.entries[e.id] = e
	s.open[onceKey{op.Context, fp}] = e.id
	return e
}

func (e *entry) record() Record {
	var details map[string]any
	if e.op.Details != nil {
		details, _ = trace.RedactValue(e.op.Details).(map[string]any)
	}
	return Record{
		ID: e.id, Context: e.op.Context, Tool: e.op.Tool, Effect: e.op.Effect, Capability: e.op.Capability,
		Args: trace.RedactValue(e.op.Args), Details: details, Correlation: e.op.Correlation, Authority: ApproveDiff,
		Fingerprint: e.fp, State: e.state, CreatedAt: e.created, ResolvedAt: e.resolved,
		EditedFrom: e.editedFrom, SupersededBy: e.supersededB, DenialReason: e.denial, CancellationReason: e.cancelR,
	}
}

// finish moves e to a terminal state, wakes waiters, drops its private
// controls and prunes the context's history. s.mu must be held.
func (s *Store) finish(e *entry, st State, res Resolution) {
	e.state = st
	res.State = st
	e.res = res
	t := s.now()
	e.resolved = &t
	e.cont, e.edit, e.cancel = nil, nil, nil
	close(e.done)
	ctx := e.op.Context
	if k := (onceKey{ctx, e.fp}); s.open[k] == e.id {
		delete(s.open, k)
	}
	if e.forget {
		return
	}
	ids := append(s.terminal[ctx], e.id)
	for len(ids) > HistoryLimit {
		delete(s.entries, ids[0])
		ids = ids[1:]
	}
	s.terminal[ctx] = ids
}

// Get returns the record of a pending operation.
func (s *Store) Get(id string) (Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.entries[id]
	if !ok {
		return Record{}, notFound(id)
	}
	return e.record(), nil
}

// List returns the records of ctx (active and retained terminal ones),
// oldest first.
func (s *Store) List(ctx string) []Record {
	s.mu.Lock()
	defer s.mu.Unlock()
	var es []*entry
	for _, e := range s.entries {
		if e.op.Context == ctx {
			es = append(es, e)
		}
	}
	// Ids are "approval_N": order by length, then text, is order by N.
	slices.SortFunc(es, func(a, b *entry) int {
		return cmp.Or(cmp.Compare(len(a.id), len(b.id)), strings.Compare(a.id, b.id))
	})
	out := make([]Record, len(es))
	for i, e := range es {
		out[i] = e.record()
	}
	return out
}

// pending returns the entry of id if it is pending, otherwise
// approval_not_found or approval_not_pending. s.mu must be held.
func (s *Store) pending(id string) (*entry, error) {
	e, ok := s.entries[id]
	if !ok {
		return nil, notFound(id)
	}
	if e.state != StatePending {
		return nil, notPending(id, e.state)
	}
	return e, nil
}

// Approve approves a pending operation and schedules it, once, with
// sched (nil runs it on a new goroutine). The operation runs only if it is
// still approved when a worker claims it; a concurrent CancelOwner before
// the claim means it never runs. If sched fails the scheduler's error is
// returned and the record is pending again, unless the same operation
// pended as another record meanwhile: then the record is superseded by
// that one (one operation keeps one pending record, as Edit joins them).
func (s *Store) Approve(id string, sched Scheduler) (Record, error) {
	s.mu.Lock()
	e, err := s.pending(id)
	if err != nil {
		s.mu.Unlock()
		return Record{}, err
	}
	e.state = StateApproved
	s.mu.Unlock()

	run := func(ctx context.Context) { s.execute(ctx, e) }
	if sched == nil {
		go run(context.Background())
	} else {
		err = sched(run)
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	if e.state == StateApproved {
		if err == nil {
			e.state = StateScheduled
		} else if n := s.entries[s.open[onceKey{e.op.Context, e.fp}]]; n != nil && n != e && n.state == StatePending {
			// The same operation pended anew while e was approved: one
			// operation keeps one pending record, so e joins it.
			e.supersededB = n.id
			s.finish(e, StateSuperseded, Resolution{Err: fault.New(PhaseAuthority, KindSuperseded, "the operation pends as another record").
				With("approval_id", e.id).With("new_id", n.id)})
		} else {
			e.state = StatePending
			s.open[onceKey{e.op.Context, e.fp}] = e.id
		}
	}
	return e.record(), err
}

// execute is the worker side of an approval. The claim (approved or
// scheduled → executing) is the linearization point.
func (s *Store) execute(ctx context.Context, e *entry) {
	s.mu.Lock()
	if e.state != StateApproved && e.state != StateScheduled {
		s.mu.Unlock()
		return
	}
	e.state = StateExecuting
	cctx, cancel := context.WithCancel(ctx)
	e.cancel = cancel
	cont := e.cont
	s.mu.Unlock()

	var out any
	var err error
	func() {
		defer func() {
			if p := recover(); p != nil {
				err = fault.New(PhaseAuthority, fault.KindInternal, "continuation panicked").With("panic", fmt.Sprint(p))
			}
		}()
		out, err = cont(cctx)
	}()
	cancel()

	s.mu.Lock()
	defer s.mu.Unlock()
	// A continuation that finished despite a cancellation request did its
	// work: the record says so (resolved) rather than claiming it stopped.
	st := StateResolved
	if errors.Is(err, context.Canceled) {
		st = StateCancelled
	}
	s.finish(e, st, Resolution{Outcome: out, Err: err})
}

// Deny denies a pending operation: nothing runs and the reason is kept.
func (s *Store) Deny(id, reason string) (Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, err := s.pending(id)
	if err != nil {
		return Record{}, err
	}
	e.denial = reason
	s.finish(e, StateDenied, Resolution{Err: fault.New(PhaseAuthority, KindApprovalDenied, "the operation was denied").
		With("approval_id", id).With("fingerprint", e.fp).With("reason", reason)})
	return e.record(), nil
}

// Edit replaces the arguments of a pending operation. The editor
// re-validates them; on success the old record is superseded and a new
// pending record with a new id and fingerprint is returned (or, when the
// edited operation is identical to one already pending, that record).
// Approving the old id afterwards fails with approval_not_pending.
func (s *Store) Edit(id string, edited json.RawMessage) (Record, error) {
	s.mu.Lock()
	e, err := s.pending(id)
	if err != nil {
		s.mu.Unlock()
		return Record{}, err
	}
	edit := e.edit
	s.mu.Unlock()
	if edit == nil {
		return Record{}, fault.New(PhaseAuthority, KindEditNotSupported, "this operation cannot be edited").With("approval_id", id)
	}
	op, cont, nextEdit, err := edit(edited)
	if err != nil {
		return Record{}, err
	}
	op.Context = e.op.Context
	fp, err := op.Fingerprint()
	if err != nil {
		return Record{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if e.state != StatePending {
		return Record{}, notPending(id, e.state)
	}
	// An operation identical to one already pending joins that record,
	// as a second Authorize of it does: one operation, one pending record
	// (approving two would run it twice).
	n := s.entries[s.open[onceKey{op.Context, fp}]]
	if n == nil || n == e || n.state != StatePending {
		n = s.newEntry(op, fp, cont, nextEdit)
		n.editedFrom = id
	}
	e.supersededB = n.id
	s.finish(e, StateSuperseded, Resolution{Err: fault.New(PhaseAuthority, KindSuperseded, "the operation was edited").
		With("approval_id", id).With("new_id", n.id).With("old_fingerprint", e.fp).With("fingerprint", fp)})
	return n.record(), nil
}

// CancelOwner cancels every active operation of ctx: pending ones are
// denied, approved-but-unclaimed ones are cancelled and never run, and
// running ones are asked to stop (side effects already made are not
// undone). It returns how many records it changed.
func (s *Store) CancelOwner(ctx, reason string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cancelOwner(ctx, reason)
}

// cancelOwner is CancelOwner; s.mu must be held.
func (s *Store) cancelOwner(ctx, reason string) int {
	n := 0
	for _, e := range s.entries {
		if e.op.Context != ctx {
			continue
		}
		switch e.state {
		case StatePending:
			e.denial = "cancelled: " + reason
			s.finish(e, StateDenied, Resolution{Err: fault.New(PhaseAuthority, KindApprovalDenied, "the owner cancelled the operation").
				With("approval_id", e.id).With("reason", e.denial)})
		case StateApproved, StateScheduled:
			e.cancelR = reason
			s.finish(e, StateCancelled, Resolution{Err: fault.New(PhaseAuthority, KindApprovalCancelled, "cancelled before execution").
				With("approval_id", e.id).With("before_execution_claim", true)})
		case StateExecuting:
			e.cancelR = reason
			e.state = StateCancelling
			if e.cancel != nil {
				e.cancel()
			}
		default:
			continue
		}
		n++
	}
	return n
}

// Close ends ctx for good: its owner has ended (an agent that completed,
// failed or was cancelled), so nobody waits for its operations any more.
// Every active operation of ctx is cancelled as by CancelOwner (pending
// ones are denied, so approving one later runs nothing), and every later
// effectful operation in ctx is refused by Authorize with authority_denied
// instead of pending or running. Read operations still execute. The
// context stays closed (Clear keeps it closed) until Set or Child gives it
// a new owner. It returns how many records it changed.
func (s *Store) Close(ctx, reason string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed[ctx] = reason
	return s.cancelOwner(ctx, reason)
}

// Clear cancels everything owned by ctx and forgets its tier, allow-once
// records and operation records (a running one is forgotten when it ends).
// A closed context (Close) stays closed.
func (s *Store) Clear(ctx, reason string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cancelOwner(ctx, reason)
	delete(s.modes, ctx)
	s.forgetOnce(ctx)
	for id, e := range s.entries {
		if e.op.Context == ctx && !e.state.Terminal() {
			e.forget = true
			delete(s.entries, id)
		}
	}
	for _, id := range s.terminal[ctx] {
		delete(s.entries, id)
	}
	delete(s.terminal, ctx)
}

// Await waits until the operation id is terminal and returns its
// resolution. A cancelled or expired ctx returns ctx.Err() unchanged and
// does not affect the operation.
func (s *Store) Await(ctx context.Context, id string) (Resolution, error) {
	s.mu.Lock()
	e, ok := s.entries[id]
	s.mu.Unlock()
	if !ok {
		return Resolution{}, notFound(id)
	}
	select {
	case <-e.done:
	case <-ctx.Done():
		return Resolution{}, ctx.Err()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return e.res, nil
}
