package tool

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/effect"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/trace"
)

// TraceStatusReplayed is the trace status of an invocation answered from a
// recorded outcome (journal observation or allow-once record).
const TraceStatusReplayed = "replayed"

// Run is the scope of effect identity: one run of a program, or one
// session of a long-lived host. An effectful call's identity is the
// operation (run id, call id, tool, canonical arguments, preflight details,
// Config.Root and authority context), never its content alone: the same
// write in another run, or later in the same run, is another effect.
//
// The call id is what the caller sets with WithCallID, or else the
// occurrence number of the identical operation within the run ("the n-th
// time this run asks for exactly this"). Occurrence numbers are
// deterministic however calls interleave: only identical operations share
// a counter, and they are interchangeable. A resumed run (ResumeRun) counts
// again from 1, so it meets the calls it recorded in the same order and
// their outcomes are replayed instead of executed.
//
// A Run is safe for concurrent use.
type Run struct {
	id       string
	resumed  bool
	mu       sync.Mutex
	seen     map[string]int64
	floors   map[*authority.Store]bool // stores whose approval ids skip the run's persisted ones (skipPersistedIDs)
	replayed atomic.Int64
}

// NewRun returns a fresh run with a random id ("run-" and 16 hex digits).
func NewRun() *Run {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return &Run{id: "run-" + hex.EncodeToString(b[:])}
}

// ResumeRun returns the run id continued: effects it recorded in the
// journal are replayed to calls with the same identity.
func ResumeRun(id string) *Run { return &Run{id: id, resumed: true} }

// ID returns the run id.
func (r *Run) ID() string { return r.id }

// Resumed reports whether the run was made by ResumeRun.
func (r *Run) Resumed() bool { return r.resumed }

// Replayed returns how many results of this run so far were recorded
// outcomes instead of executions (Result.Replayed).
func (r *Run) Replayed() int64 { return r.replayed.Load() }

// occurrence returns the next occurrence number of the operation key.
func (r *Run) occurrence(key string) int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.seen == nil {
		r.seen = make(map[string]int64)
	}
	r.seen[key]++
	return r.seen[key]
}

type runKey struct{}
type callIDKey struct{}

// WithRun returns ctx carrying r: effectful calls made with it (and with
// contexts derived from it, such as a plan's or a child agent's) belong to
// r. A call whose context carries no run belongs to the Runtime's run
// (Config.Run).
func WithRun(ctx context.Context, r *Run) context.Context {
	return context.WithValue(ctx, runKey{}, r)
}

// RunFrom returns the run ctx carries, or nil.
func RunFrom(ctx context.Context) *Run {
	r, _ := ctx.Value(runKey{}).(*Run)
	return r
}

// WithCallID returns ctx naming the call id of the effectful call made
// with it. Calls with the same id and the same operation in one run are one
// effect: the second replays the first's outcome (or reports
// reconciliation_required while its outcome is unknown). This is the
// idempotency key of a caller that retries.
func WithCallID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, callIDKey{}, id)
}

// scope fixes the run and call id of an effectful call before the journal
// sees it, and returns the operation fingerprint. It runs once per call:
// an edited approval keeps them.
func (c *call) scope(ctx context.Context) (fp string) {
	fp, _ = c.op.Fingerprint()
	r := RunFrom(ctx)
	if r == nil {
		r = c.rt.run
	}
	c.run = r
	if id, ok := ctx.Value(callIDKey{}).(string); ok && id != "" {
		c.callID = "id:" + id
		return fp
	}
	c.callID = c.occurrenceID(fp)
	return fp
}

// occurrenceID is the call id of the next occurrence, in c's run, of the
// operation with fingerprint fp (and c's root and logical key).
func (c *call) occurrenceID(fp string) string {
	key := fp + "\x00" + c.rt.root + "\x00" + c.c.Options.LogicalKey
	return "occ:" + strconv.FormatInt(c.run.occurrence(key), 10)
}

// markReplayed marks res as a recorded outcome.
func (c *call) markReplayed(res *Result) {
	res.Replayed = true
	if c.run != nil {
		c.run.replayed.Add(1)
	}
}

// startEffect runs the effectful tail of the pipeline: journal prepare,
// authority, then (on a worker) journal begin/dispatch, handler and
// observation.
//
// nested reports a call made by a handler on this runtime's pool and
// awaited by it: its worker side then runs on the calling goroutine (see
// submit).
func (rt *Runtime) startEffect(ctx context.Context, c *call, nested bool) *Future {
	// The tier the call's effects run under, as Authorize decides it, also
	// for answers given before it (a replay).
	c.tr.Authority = string(rt.auth.Tier(c.op))
	if rt.journal == nil {
		return resolved(c.fail(stepErr(effect.KindStoreRequired, "effectful tools need an effect journal").
			With("cause", "store_not_open"), AuthDenied))
	}
	fp := c.scope(ctx)
	ticket, fut := c.prepareEffect(ctx)
	if fut != nil {
		return fut
	}
	c.tr.Fingerprint = fp
	if c.run.Resumed() {
		a, found, err := rt.journal.DecisionFor(ctx, ticket)
		if err != nil {
			return resolved(c.fail(journalErr(err), AuthDenied))
		}
		if found {
			return rt.applyDecision(ctx, c, ticket, a, nested)
		}
	}
	if fe := rt.skipPersistedIDs(ctx, c.run); fe != nil {
		return resolved(c.fail(fe, AuthDenied))
	}
	d, err := rt.auth.Authorize(c.op, c.continuation(ticket), c.editor())
	if err != nil {
		return resolved(c.fail(authorityErr(err), AuthDenied))
	}
	c.tr.Authority = string(d.Tier)
	switch d.Action {
	case authority.ActionReplay:
		res, _ := d.Outcome.(Result)
		c.tr.Authorization, c.tr.Status = AuthAllowed, TraceStatusReplayed
		c.tr.OutputBytes = res.Trace.OutputBytes
		res.Pending = nil
		if fe := c.oversized(res.Value); res.Status == StatusOK && fe != nil {
			res = Result{Status: StatusError, Error: fe}
		}
		c.markReplayed(&res)
		return resolved(c.finish(res, nil))
	case authority.ActionPending:
		rec := d.Record
		if fe := rt.persistPending(ctx, ticket, rec); fe != nil {
			return resolved(c.fail(fe, AuthDenied))
		}
		c.tr.Authorization, c.tr.Status, c.tr.ApprovalID = AuthPending, string(StatusApprovalRequired), rec.ID
		return resolved(c.finish(Result{Status: StatusApprovalRequired, ApprovalID: rec.ID, Fingerprint: rec.Fingerprint, Pending: &rec}, nil))
	}
	return rt.execute(ctx, c, ticket, nested, d.Permit == string(authority.AllowOnce), d.Fingerprint)
}

// execute runs the worker side of an authorized call on the pool. once
// is an allow-once grant (for the operation fingerprint fp) to complete or
// give back.
func (rt *Runtime) execute(ctx context.Context, c *call, ticket effect.Ticket, nested, once bool, fp string) *Future {
	f := rt.submit(ctx, func(wctx context.Context) (Result, error) {
		res, err := c.runEffect(wctx, ticket)
		switch {
		case once && c.dispatched:
			rt.auth.CompleteOnce(c.authCtx, fp, res)
		case once: // never dispatched (cancelled while queued, say): the grant is not spent
			rt.auth.AbortOnce(c.authCtx, fp)
		}
		return res, err
	}, nested)
	if f == nil {
		if once {
			rt.auth.AbortOnce(c.authCtx, fp)
		}
		return resolved(c.fail(backpressure(rt.pool), AuthDenied))
	}
	return f
}

func (c *call) effectRequest() effect.Request {
	return effect.Request{
		Kind:      "tool",
		RunID:     c.run.ID(),
		RunCallID: c.callID,
		// The authority context is part of the identity: an observation
		// recorded for one caller is never replayed to another, who must
		// pass their own authority check. The root is the resolved target
		// the runtime's tools act on (the details hold the resolved path
		// under it).
		Payload:    map[string]any{"authority_context": c.authCtx, "tool": c.e.schema.Name, "args": c.canon, "details": c.details, "root": c.rt.root},
		Semantics:  map[string]any{"effect": string(c.e.schema.Effect), "limits": c.e.schema.Limits},
		LogicalKey: c.c.Options.LogicalKey,
	}
}

// prepareEffect asks the journal about the call. It returns a ticket to
// execute, or a completed Future (replay, in progress, reconciliation
// required, terminal, journal error).
func (c *call) prepareEffect(ctx context.Context) (effect.Ticket, *Future) {
	d, err := c.rt.journal.Prepare(ctx, c.effectRequest())
	if err != nil {
		return effect.Ticket{}, resolved(c.fail(journalErr(err), AuthDenied))
	}
	if d.Action == effect.ActionExecute {
		return d.Ticket, nil
	}
	return effect.Ticket{}, resolved(c.journalDecision(d))
}

func journalErr(err error) *fault.Error {
	if fe := fault.As(err); fe != nil {
		return fe
	}
	return fault.Wrap(err, effect.PhaseEffect, effect.KindJournalIO, "effect journal failure")
}

// journalDecision turns a non-executing journal decision into a result.
func (c *call) journalDecision(d effect.Decision) (Result, error) {
	switch d.Action {
	case effect.ActionReplay:
		return c.replay(d.Observation)
	case effect.ActionTerminal:
		return c.fail(fault.As(d.Err()), AuthDenied)
	default: // in progress, reconciliation required
		return c.fail(fault.As(d.Err()), AuthPending)
	}
}

// oversized is the caller's output limit applied to a recorded value: a
// replay is held to the limit of the call it answers, as a fresh run is.
func (c *call) oversized(v json.RawMessage) *fault.Error {
	if int64(len(v)) <= c.lim.MaxOutputBytes {
		return nil
	}
	return stepErr(KindOversizedOutput, "the result exceeds the output limit").
		With("output_bytes", int64(len(v))).With("max_output_bytes", c.lim.MaxOutputBytes)
}

func (c *call) replay(obs *effect.Observation) (Result, error) {
	c.tr.Authorization, c.tr.Status, c.tr.Fingerprint = AuthAllowed, TraceStatusReplayed, ""
	if obs == nil {
		return c.fail(stepErr(fault.KindInternal, "observation missing"), AuthDenied)
	}
	c.tr.OutputBytes = obs.OutputBytes
	res := Result{Status: StatusOK, Value: obs.Value}
	if obs.Status != effect.ObservedSucceeded {
		res = Result{Status: StatusError, Error: obs.Error}
	} else if fe := c.oversized(obs.Value); fe != nil {
		res = Result{Status: StatusError, Error: fe}
	}
	c.markReplayed(&res)
	return c.finish(res, nil)
}

// runEffect is the worker side of an effectful call: claim the attempt,
// write the synced dispatch record, run the handler, record the
// observation.
func (c *call) runEffect(ctx context.Context, ticket effect.Ticket) (Result, error) {
	j := c.rt.journal
	if err := ctx.Err(); err != nil {
		return c.control(err) // never claimed: the attempt stays prepared
	}
	d, err := j.Begin(ctx, ticket)
	if err != nil {
		return c.fail(journalErr(err), AuthDenied)
	}
	if d.Action != effect.ActionExecute {
		return c.journalDecision(d)
	}
	if err := ctx.Err(); err != nil {
		j.Cancel(ctx, ticket, "cancelled_before_dispatch")
		return c.control(err)
	}
	if err := j.Dispatch(ctx, ticket); err != nil {
		return c.fail(journalErr(err), AuthDenied)
	}
	c.dispatched = true
	if c.tr.Authorization != AuthApproved { // approved by a journal decision (applyDecision)
		c.tr.Authorization = AuthAllowed
	}
	res, ctrl, abandoned := c.executeHandler(ctx, ticket.IdempotencyKey)
	if ctrl != nil {
		j.Cancel(ctx, ticket, "cancelled_while_dispatching") // → indeterminate
		return c.control(ctrl)
	}
	if abandoned {
		j.MarkIndeterminate(ctx, ticket, "handler_time_limit")
		fe := fault.Wrap(res.Error, fault.PhaseTool, KindIndeterminate, "the effect outcome is unknown").
			With("attempt_id", ticket.AttemptID).With(fault.DetailOutcomeUnknown, true)
		return c.fail(fe, AuthAllowed)
	}
	obs := effect.Observation{Status: effect.ObservedSucceeded, Value: res.Value, OutputBytes: c.tr.OutputBytes, Provenance: "tool:" + c.e.schema.Name}
	if res.Status != StatusOK {
		obs.Status, obs.Value, obs.Error = effect.ObservedFailed, nil, res.Error
	}
	if err := j.Observe(ctx, ticket, obs); err != nil {
		return c.fail(journalErr(err), AuthAllowed)
	}
	return c.finish(c.withStatus(res), nil)
}

// continuation is what an approval runs: the same worker-side steps, with
// a fresh trace record.
func (c *call) continuation(ticket effect.Ticket) authority.Continuation {
	return func(ctx context.Context) (any, error) { return c.fork(ctx).runEffect(ctx, ticket) }
}

func (c *call) fork(ctx context.Context) *call {
	cc := *c
	cc.start = time.Now()
	_, cc.span = trace.Start(ctx, trace.KindToolCall, c.c.Name)
	if id := c.c.Invocation.Correlation.CallID; id != "" {
		cc.span.Set("call_id", id)
	}
	cc.tr = Trace{Tool: c.tr.Tool, Authorization: AuthDenied, Authority: string(authority.ApproveDiff), Owner: c.tr.Owner, Fingerprint: c.tr.Fingerprint}
	return &cc
}

// editor re-validates edited arguments exactly like a new call from the
// same caller: schema, preflight, journal.
func (c *call) editor() authority.Editor {
	return func(edited json.RawMessage) (authority.Operation, authority.Continuation, authority.Editor, error) {
		cc := &call{rt: c.rt, c: c.c, e: c.e, start: time.Now(), lim: c.lim, authCtx: c.authCtx, tr: c.tr, run: c.run, callID: c.callID}
		cc.c.Args = edited
		ctx := context.Background()
		if fe := cc.decodeArgs(edited); fe != nil {
			return authority.Operation{}, nil, nil, fe
		}
		if fe := cc.preflight(ctx); fe != nil {
			return authority.Operation{}, nil, nil, fe
		}
		cc.op = c.op
		cc.op.Args, cc.op.Details = cc.args, cc.details
		if strings.HasPrefix(c.callID, "occ:") {
			// The edited operation is another operation: it takes its own
			// occurrence number, never the original's.
			fp, _ := cc.op.Fingerprint()
			cc.callID = c.occurrenceID(fp)
		}
		d, err := c.rt.journal.Prepare(ctx, cc.effectRequest())
		if err != nil {
			return authority.Operation{}, nil, nil, journalErr(err)
		}
		if d.Action != effect.ActionExecute {
			if e := d.Err(); e != nil {
				return authority.Operation{}, nil, nil, e
			}
			return authority.Operation{}, nil, nil, fault.New(fault.PhaseTool, authority.KindDenied, "the edited operation was already executed").
				With("attempt_id", d.Ticket.AttemptID)
		}
		cc.tr.Fingerprint, _ = cc.op.Fingerprint()
		return cc.op, cc.continuation(d.Ticket), cc.editor(), nil
	}
}

// Approve approves a pending operation; it runs once, asynchronously, on
// the worker pool. Use AwaitApproval for its result.
func (rt *Runtime) Approve(ctx context.Context, id string) (authority.Record, error) {
	base := context.WithoutCancel(ctx)
	return rt.auth.Approve(id, func(fn func(context.Context)) error {
		return rt.pool.Go(func() { fn(base) })
	})
}

// Deny denies a pending operation; nothing runs.
func (rt *Runtime) Deny(id, reason string) (authority.Record, error) { return rt.auth.Deny(id, reason) }

// Edit replaces the arguments of a pending operation after re-validating
// them; the returned record has a new id and fingerprint.
func (rt *Runtime) Edit(id string, args json.RawMessage) (authority.Record, error) {
	return rt.auth.Edit(id, args)
}

// AwaitApproval waits for a pending operation to end and returns its
// result: the tool result when it ran, otherwise an error result with Kind
// approval_denied, approval_superseded or approval_cancelled. A cancelled
// or expired ctx returns ctx.Err() and leaves the operation alone.
func (rt *Runtime) AwaitApproval(ctx context.Context, id string) (Result, error) {
	res, err := rt.auth.Await(ctx, id)
	if err != nil {
		if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		return Result{Status: StatusError, Error: fault.As(err), ApprovalID: id}, nil
	}
	out, ok := res.Outcome.(Result)
	switch {
	case res.State == authority.StateResolved && ok:
	case res.State == authority.StateCancelled:
		out.Status = StatusError
		out.Error = fault.Wrap(res.Err, fault.PhaseTool, authority.KindApprovalCancelled, "the approved operation was cancelled")
		if fe := fault.As(res.Err); fe != nil && fe.Kind == authority.KindApprovalCancelled {
			out.Error = fe
		}
		out.Trace.Status = string(authority.KindApprovalCancelled)
	default:
		out = Result{Status: StatusError, Error: fault.As(res.Err)}
		if out.Error == nil {
			out.Error = fault.New(fault.PhaseTool, fault.KindInternal, "approval ended without a result")
		}
		out.Trace.Status = string(out.Error.Kind)
		out.Trace.Authorization = AuthDenied
	}
	out.ApprovalID = id
	out.Trace.ApprovalID = id
	return out, nil
}
