package tool

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/effect"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/fingerprint"
	"github.com/rlm-go/rlm/internal/jsonstrict"
	"github.com/rlm-go/rlm/trace"
	"github.com/rlm-go/rlm/workspace"
)

// Status is the outcome class of an invocation.
type Status string

// Invocation statuses.
const (
	StatusOK               Status = "ok"
	StatusError            Status = "error"
	StatusApprovalRequired Status = "approval_required"
)

// Authorization values in a Trace.
const (
	AuthAllowed = "allowed"
	AuthDenied  = "denied"
	AuthPending = "pending"
)

// Trace is the record every invocation leaves, whatever its outcome.
// Status is finer than Result.Status: "ok", "replayed",
// "approval_required", "malformed_args" (for any argument decoding or
// schema failure), or the Kind of the error that stopped the call.
type Trace struct {
	Tool          string `json:"tool"`
	Authorization string `json:"authorization"`
	Authority     string `json:"authority"`
	// Owner is the authority context the call was authorized against
	// (for example agent:R/C for a child agent); empty when the call was
	// refused before authority.
	Owner       string  `json:"owner,omitempty"`
	Status      string  `json:"status"`
	Fingerprint string  `json:"fingerprint,omitempty"`
	ApprovalID  string  `json:"approval_id,omitempty"`
	OutputBytes int64   `json:"output_bytes"`
	ElapsedMS   float64 `json:"elapsed_ms"`
}

// SpanAttrAuthorization is the trace span attribute holding
// Trace.Authorization. It is not "authorization" because package trace
// redacts attribute keys that look like credentials.
const SpanAttrAuthorization = "authz"

// Result is the typed outcome of one invocation.
type Result struct {
	Status      Status            `json:"status"`
	Value       json.RawMessage   `json:"value,omitempty"`
	Error       *fault.Error      `json:"error,omitempty"`
	ApprovalID  string            `json:"approval_id,omitempty"`
	Fingerprint string            `json:"fingerprint,omitempty"`
	Pending     *authority.Record `json:"pending,omitempty"`
	// Replayed marks a recorded outcome returned instead of running the
	// handler: a journal observation of the same effect (see Run) or an
	// allow-once record. Trace.Status is then "replayed".
	Replayed bool  `json:"replayed,omitempty"`
	Trace    Trace `json:"trace"`
}

// CallOptions may only tighten a tool's limits. A zero field takes the
// default, the tool's own limit; a negative one fails with invalid_limits
// (docs/budget.md, "One rule for every limit").
type CallOptions struct {
	TimeLimit      time.Duration
	MaxOutputBytes int64
	// LogicalKey optionally scopes the effect call id (see package effect).
	LogicalKey string
}

// Invocation is who is calling: the capabilities granted to the calling
// scope, its authority context (owner) and correlation ids.
type Invocation struct {
	Capabilities capability.Set
	// AuthorityContext names the owner whose tier applies, for example
	// "session:s1". Empty means DefaultAuthorityContext.
	AuthorityContext string
	// Correlation is recorded but never part of any fingerprint.
	Correlation authority.Correlation
}

// DefaultAuthorityContext is used when an Invocation names none.
const DefaultAuthorityContext = "default"

// Call is one tool call.
type Call struct {
	Name       string
	Args       json.RawMessage // JSON object; empty means {}
	Options    CallOptions
	Invocation Invocation
	// Effect, when set, is the effect class the caller classified the
	// tool with (the direct loop's binding). A tool registered under Name
	// now with another class is not the tool the caller means: the call
	// fails at lookup with unknown_tool, and nothing of it runs.
	Effect authority.Effect
}

// Invoker runs tool calls synchronously. The returned error is non-nil only
// when ctx was cancelled or its deadline passed; it is then ctx's own error.
// Every other failure is a Result with Status error.
type Invoker interface {
	Invoke(ctx context.Context, call Call) (Result, error)
}

// Config configures a Runtime. Nil fields get fresh defaults, except
// Journal: without one, effectful tools fail with effect_store_required.
type Config struct {
	Authority *authority.Store
	Journal   *effect.Journal
	Pool      *Pool
	// Run is the run of effectful calls whose context carries none
	// (WithRun). Nil means a fresh run (NewRun) for this Runtime: then
	// the Runtime is one session, and nothing it does is replayed to
	// another Runtime.
	Run *Run
	// Root is the resolved absolute target the registry's tools act on,
	// for example the workspace directory (workspace.Root.Dir). It is
	// part of every effect identity, so the same call against another
	// workspace is another effect.
	Root string
}

// Runtime runs the invocation pipeline. It is safe for concurrent use.
type Runtime struct {
	reg     *Registry
	auth    *authority.Store
	journal *effect.Journal
	pool    *Pool
	run     *Run
	root    string
}

var _ Invoker = (*Runtime)(nil)

// NewRuntime returns a runtime over reg.
func NewRuntime(reg *Registry, cfg Config) *Runtime {
	rt := &Runtime{reg: reg, auth: cfg.Authority, journal: cfg.Journal, pool: cfg.Pool, run: cfg.Run, root: cfg.Root}
	if rt.run == nil {
		rt.run = NewRun()
	}
	if rt.auth == nil {
		rt.auth = authority.NewStore()
	}
	if rt.pool == nil {
		rt.pool = NewPool(0, 0)
	}
	return rt
}

// Authority returns the runtime's authority store.
func (rt *Runtime) Authority() *authority.Store { return rt.auth }

// Pool returns the runtime's worker pool.
func (rt *Runtime) Pool() *Pool { return rt.pool }

// Invoke runs call through the pipeline and waits for its outcome.
//
// It awaits the same Future that Start returns. Because the caller would
// only block until that Future completes, a read tool's pool task runs on
// the calling goroutine when a worker slot is free: the call still holds a
// slot of the pool for its whole execution, it just saves the goroutine
// hand-off. The handler itself always runs on its own goroutine under its
// time limit.
func (rt *Runtime) Invoke(ctx context.Context, call Call) (Result, error) {
	return rt.start(ctx, call, true).Await(ctx)
}

// call carries one invocation through the pipeline.
type call struct {
	rt      *Runtime
	c       Call
	e       *entry
	start   time.Time
	span    *trace.Span
	tr      Trace
	lim     Limits
	authCtx string
	args    any             // decoded, validated, normalized
	canon   json.RawMessage // canonical JSON of args
	details map[string]any
	op      authority.Operation
	run     *Run   // effectful calls: the run the call belongs to
	callID  string // effectful calls: the call id within the run
	// dispatched: runEffect wrote the dispatch record (the handler may run)
	dispatched bool
}

func stepErr(kind fault.Kind, msg string) *fault.Error { return fault.New(fault.PhaseTool, kind, msg) }

// fail ends the call with a tool error.
func (c *call) fail(fe *fault.Error, authz string) (Result, error) {
	c.tr.Authorization = authz
	c.tr.Status = string(fe.Kind)
	if fe.Kind == KindSchemaValidation || fe.Kind == jsonstrict.KindDuplicateKey || fe.Kind == KindMalformedArgs {
		c.tr.Status = string(KindMalformedArgs)
	}
	return c.finish(Result{Status: StatusError, Error: fe}, nil)
}

// control ends the call because ctx ended; err is returned unchanged.
func (c *call) control(err error) (Result, error) {
	c.tr.Status = string(fault.KindOf(fault.FromContext(fault.PhaseTool, err)))
	return c.finish(Result{Status: StatusError, Error: fault.As(fault.FromContext(fault.PhaseTool, err))}, err)
}

func (c *call) finish(res Result, err error) (Result, error) {
	c.tr.ElapsedMS = float64(time.Since(c.start).Microseconds()) / 1000
	if c.tr.Fingerprint == "" {
		c.tr.Fingerprint = res.Fingerprint
	}
	if res.Fingerprint == "" {
		res.Fingerprint = c.tr.Fingerprint
	}
	if c.tr.ApprovalID == "" {
		c.tr.ApprovalID = res.ApprovalID
	}
	res.Trace = c.tr
	if c.span != nil {
		c.span.Set("tool", c.tr.Tool)
		// "authorization" would be redacted by trace as a secret-like key.
		c.span.Set(SpanAttrAuthorization, c.tr.Authorization)
		c.span.Set("authority", c.tr.Authority)
		c.span.Set("owner", c.tr.Owner)
		c.span.Set("status", c.tr.Status)
		c.span.Set("fingerprint", c.tr.Fingerprint)
		c.span.Set("approval_id", c.tr.ApprovalID)
		c.span.Set("output_bytes", c.tr.OutputBytes)
		c.span.Set("elapsed_ms", c.tr.ElapsedMS)
		c.span.SetBytes(c.tr.OutputBytes)
		end := err
		if end == nil && res.Error != nil { // a nil *fault.Error is not a nil error
			end = res.Error
		}
		c.span.End(end)
	}
	return res, err
}

// Start runs the pipeline up to the authority decision on the caller's
// goroutine and returns a Future. Handlers run on the worker pool; calls
// that stop earlier (errors, pending approvals, replays) return an
// already-completed Future and never occupy a worker.
func (rt *Runtime) Start(ctx context.Context, cl Call) *Future {
	return rt.start(ctx, cl, false)
}

// start is Start; inline lets a read tool's pool task run on the calling
// goroutine (see Invoke).
func (rt *Runtime) start(ctx context.Context, cl Call, inline bool) *Future {
	c := &call{rt: rt, c: cl, start: time.Now()}
	ctx, c.span = trace.Start(ctx, trace.KindToolCall, cl.Name)
	if id := cl.Invocation.Correlation.CallID; id != "" {
		c.span.Set("call_id", id) // the model's id of the call (OTLP gen_ai.tool.call.id)
	}
	c.tr = Trace{Tool: cl.Name, Authorization: AuthDenied, Authority: "unknown"}
	if err := ctx.Err(); err != nil {
		return resolved(c.control(err))
	}
	if fe := c.validate(ctx); fe != nil {
		if fe.Kind == "" { // control: the caller's context ended
			return resolved(c.control(ctx.Err()))
		}
		return resolved(c.fail(fe, AuthDenied))
	}
	if c.e.schema.Effect == authority.EffectRead {
		return rt.startRead(ctx, c, inline)
	}
	return rt.startEffect(ctx, c, inline && onPool(ctx, rt.pool))
}

// validate runs lookup, argument schema, capability, limits and preflight.
// A returned error with an empty Kind means ctx ended.
func (c *call) validate(ctx context.Context) *fault.Error {
	rt := c.rt
	c.e = rt.reg.get(c.c.Name)
	if c.e == nil || (c.c.Effect != "" && c.c.Effect != c.e.schema.Effect) {
		return stepErr(KindUnknownTool, "no tool with this name").With("tool", c.c.Name)
	}
	if fe := c.decodeArgs(c.c.Args); fe != nil {
		return fe
	}
	if cp := c.e.schema.Capability; !c.c.Invocation.Capabilities.Has(cp) {
		return stepErr(capability.KindDenied, "the caller does not hold the tool capability").With("capability", string(cp))
	}
	lim, fe := effectiveLimits(c.e.schema.Limits, c.c.Options)
	if fe != nil {
		return fe
	}
	c.lim = lim
	if fe := c.preflight(ctx); fe != nil {
		return fe
	}
	c.authCtx = cmp.Or(c.c.Invocation.AuthorityContext, DefaultAuthorityContext)
	c.tr.Owner = c.authCtx
	c.op = authority.Operation{
		Context: c.authCtx, Tool: c.e.schema.Name, Effect: c.e.schema.Effect,
		Capability: string(c.e.schema.Capability), Args: c.args, Details: c.details,
		Correlation: c.c.Invocation.Correlation, Ceiling: c.e.schema.AuthorityCeiling,
	}
	return nil
}

// decodeArgs rejects malformed JSON and duplicate keys, validates the
// schema and computes the canonical form.
func (c *call) decodeArgs(raw json.RawMessage) *fault.Error {
	v, fe := c.e.args.decode(raw)
	if fe != nil {
		return fe
	}
	canon, err := fingerprint.AppendCanonicalValue(nil, v)
	if err != nil {
		return stepErr(KindMalformedArgs, "arguments contain a number outside the representable range").With("reason", "number_out_of_range")
	}
	c.args, c.canon = v, canon
	return nil
}

func effectiveLimits(reg Limits, o CallOptions) (Limits, *fault.Error) {
	if o.TimeLimit < 0 || o.MaxOutputBytes < 0 {
		return Limits{}, stepErr(budget.KindInvalidLimits, "call limits must be positive")
	}
	lim := reg
	if o.TimeLimit > 0 && o.TimeLimit < lim.TimeLimit {
		lim.TimeLimit = o.TimeLimit
	}
	if o.MaxOutputBytes > 0 && o.MaxOutputBytes < lim.MaxOutputBytes {
		lim.MaxOutputBytes = o.MaxOutputBytes
	}
	return lim, nil
}

func (c *call) preflight(ctx context.Context) *fault.Error {
	pf := c.e.preflight
	if pf == nil {
		return nil
	}
	pctx, cancel := context.WithTimeout(ctx, c.lim.TimeLimit)
	defer cancel()
	var (
		norm    json.RawMessage
		details map[string]any
		err     error
	)
	func() {
		defer func() {
			if p := recover(); p != nil {
				err = stepErr(KindPreflightFailed, "preflight panicked").With("panic", fmt.Sprint(p))
			}
		}()
		norm, details, err = pf(pctx, c.canon)
	}()
	if ctx.Err() != nil {
		return &fault.Error{}
	}
	if err != nil {
		if pctx.Err() != nil {
			return stepErr(KindPreflightTimeout, "preflight exceeded the time limit")
		}
		if fe := fault.As(err); fe != nil && fe.Kind == workspace.KindConfinementDenied {
			return fe
		}
		return fault.Wrap(err, fault.PhaseTool, KindPreflightFailed, "preflight refused the arguments")
	}
	if norm != nil {
		if fe := c.decodeArgs(norm); fe != nil {
			return stepErr(KindPreflightFailed, "preflight produced invalid arguments")
		}
	}
	if len(details) > 0 {
		// Details come from Go code: round-trip them to plain JSON values so
		// fingerprints see exactly what a record shows.
		b, err := json.Marshal(details)
		if err == nil {
			var v any
			v, err = jsonstrict.DecodeStandard(b)
			details, _ = v.(map[string]any) // a marshalled map is an object
		}
		if err != nil {
			return stepErr(KindPreflightFailed, "preflight details are not JSON")
		}
	}
	c.details = details
	return nil
}

// submit runs fn on the pool and returns its Future, or nil when the
// backlog is full. With inline, fn runs on the calling goroutine if a worker
// slot is free, holding that slot until it returns.
//
// A nested call (one made, with the handler's context, by a handler that
// already holds a slot of this pool, for example a child agent's tool call
// under rlm_subagent) runs on the calling goroutine without taking another
// slot when the caller awaits it (inline): the caller's slot is idle
// while it waits, so nested calls can never starve on a pool their own
// ancestors fill.
func (rt *Runtime) submit(ctx context.Context, fn func(ctx context.Context) (Result, error), inline bool) *Future {
	if inline && onPool(ctx, rt.pool) {
		return resolved(fn(ctx))
	}
	if inline && rt.pool.acquire() {
		return rt.runInline(ctx, fn)
	}
	wctx, cancel := context.WithCancel(ctx)
	f := newFuture(cancel)
	task := func() {
		res, err := fn(wctx)
		cancel()
		f.complete(res, err)
	}
	if err := rt.pool.Go(task); err != nil {
		cancel()
		return nil
	}
	return f
}

// runInline runs fn in a worker slot already acquired and releases it.
// The Future is only ever seen by the caller that awaits it once fn has
// returned, so no Cancel can reach the work: fn runs under ctx itself.
func (rt *Runtime) runInline(ctx context.Context, fn func(ctx context.Context) (Result, error)) *Future {
	defer rt.pool.release()
	return resolved(fn(ctx))
}

func (rt *Runtime) startRead(ctx context.Context, c *call, inline bool) *Future {
	if fp, ok := c.readFingerprint(); ok {
		// What Authorize decides for a read operation, without recomputing
		// the canonical arguments (registration checked the ceiling).
		c.tr.Authority = string(rt.auth.Tier(c.op))
		c.tr.Fingerprint = fp
	} else {
		d, err := rt.auth.Authorize(c.op, nil, nil)
		if err != nil {
			return resolved(c.fail(authorityErr(err), AuthDenied))
		}
		c.tr.Authority = string(d.Tier)
		c.tr.Fingerprint = d.Fingerprint
	}
	f := rt.submit(ctx, func(wctx context.Context) (Result, error) {
		if err := wctx.Err(); err != nil {
			return c.control(err)
		}
		c.tr.Authorization = AuthAllowed
		res, ctrl, _ := c.executeHandler(wctx, "")
		if ctrl != nil {
			return c.control(ctrl)
		}
		return c.finish(c.withStatus(res), nil)
	}, inline)
	if f == nil {
		return resolved(c.fail(backpressure(rt.pool), AuthDenied))
	}
	return f
}

// readFingerprint returns what c.op.Fingerprint() returns for a read
// operation, reusing the canonical arguments: the canonical JSON of the
// operation object is assembled with its keys in sorted order. ok is false
// when a part cannot be encoded; the caller then asks the authority store,
// which reports the error.
func (c *call) readFingerprint() (fp string, ok bool) {
	op := &c.op
	if op.Context == "" || op.Tool == "" || op.Effect == "" || op.Capability == "" {
		return "", false
	}
	var small [256]byte // enough for typical calls: one allocation, not a growing buffer (it escapes through AppendCanonicalValue)
	buf := append(small[:0], `{"args":`...)
	buf = append(buf, c.canon...)
	keys := [...]string{`,"capability":`, `,"context":`, `,"details":`, `,"effect":`, `,"tool":`}
	for i, v := range [...]any{op.Capability, op.Context, op.Details, string(op.Effect), op.Tool} { // nil Details encodes as {}
		var err error
		if buf, err = fingerprint.AppendCanonicalValue(append(buf, keys[i]...), v); err != nil {
			return "", false
		}
	}
	return fingerprint.Bytes(append(buf, '}')), true
}

func backpressure(p *Pool) *fault.Error {
	return stepErr(KindBackpressure, "the worker pool backlog is full").With("backlog", p.Status().Backlog)
}

func authorityErr(err error) *fault.Error {
	return fault.Wrap(err, fault.PhaseTool, authority.KindDenied, "authority refused the operation")
}

type handlerOutcome struct {
	v   any
	err error
}

// executeHandler runs the handler under the time limit and checks the
// result schema and output size. It returns a control error when ctx ended
// first. abandoned reports a handler that is still running after its time
// limit (or, cooperative, that returned after it).
func (c *call) executeHandler(ctx context.Context, idem string) (res Result, ctrl error, abandoned bool) {
	hctx, cancel := context.WithTimeout(withPool(ctx, c.rt.pool), c.lim.TimeLimit)
	defer cancel()
	req := Request{Tool: c.e.schema.Name, Args: c.canon, Details: c.details, IdempotencyKey: idem, Capabilities: c.c.Invocation.Capabilities}
	h := c.e.handler
	var out handlerOutcome
	if c.e.coop {
		// On this goroutine: a handler that returns once hctx ends
		// needs no goroutine to be abandoned. A return after hctx
		// ended is reported as the select below reports the end.
		out = runHandler(hctx, h, req)
		if hctx.Err() != nil {
			return c.ended(ctx)
		}
	} else {
		ch := make(chan handlerOutcome, 1)
		go func() { ch <- runHandler(hctx, h, req) }()
		select {
		case out = <-ch:
		case <-hctx.Done():
			return c.ended(ctx)
		}
	}
	if out.err != nil {
		if ctx.Err() != nil && (errors.Is(out.err, context.Canceled) || errors.Is(out.err, context.DeadlineExceeded)) {
			return Result{}, ctx.Err(), false
		}
		if hctx.Err() != nil && errors.Is(out.err, context.DeadlineExceeded) {
			return c.timedOut(), nil, false
		}
		if fe := fault.As(out.err); fe != nil && (fe.Phase == fault.PhaseTool || fe.Kind == workspace.KindConfinementDenied) {
			return Result{Status: StatusError, Error: fe}, nil, false
		}
		return Result{Status: StatusError, Error: fault.Wrap(out.err, fault.PhaseTool, KindHandlerFailed, "the handler failed")}, nil, false
	}
	return c.checkResult(out.v), nil, false
}

// runHandler calls h, a panic becoming Kind handler_panic.
func runHandler(ctx context.Context, h Handler, req Request) (out handlerOutcome) {
	defer func() {
		if p := recover(); p != nil {
			out = handlerOutcome{err: stepErr(KindHandlerPanic, "handler panicked").With("panic", fmt.Sprint(p))}
		}
	}()
	out.v, out.err = h(ctx, req)
	return out
}

// ended is executeHandler's outcome when the handler's context ended
// first: the caller's end (a control error), or the time limit.
func (c *call) ended(ctx context.Context) (Result, error, bool) {
	if ctx.Err() != nil {
		return Result{}, ctx.Err(), true
	}
	return c.timedOut(), nil, true
}

func (c *call) timedOut() Result {
	return Result{Status: StatusError, Error: stepErr(fault.KindTimeout, "the handler exceeded its time limit").
		With("time_limit_ms", budget.Millis(c.lim.TimeLimit))}
}

// checkResult encodes v, validates it against the result schema and
// enforces the output limit, in that order.
func (c *call) checkResult(v any) Result {
	var raw []byte
	var decoded any
	var err error
	if rm, ok := v.(json.RawMessage); ok {
		// Handler output is trusted Go code: standard decoding semantics
		// (as jsonschema.UnmarshalJSON) suffice.
		buf := bytes.NewBuffer(make([]byte, 0, len(rm)))
		err = json.Compact(buf, rm)
		raw = buf.Bytes()
	} else {
		raw, err = json.Marshal(v)
	}
	if err == nil {
		decoded, err = jsonstrict.DecodeStandard(raw)
	}
	if err != nil {
		return Result{Status: StatusError, Error: stepErr(KindInvalidResult, "the handler result is not JSON")}
	}
	if fe := c.e.result.check(decoded, KindInvalidResult); fe != nil {
		return Result{Status: StatusError, Error: fe}
	}
	c.tr.OutputBytes = int64(len(raw))
	if c.tr.OutputBytes > c.lim.MaxOutputBytes {
		return Result{Status: StatusError, Error: stepErr(KindOversizedOutput, "the result exceeds the output limit").
			With("output_bytes", c.tr.OutputBytes).With("max_output_bytes", c.lim.MaxOutputBytes)}
	}
	return Result{Status: StatusOK, Value: raw}
}

// withStatus fills the trace status from a finished result.
func (c *call) withStatus(res Result) Result {
	switch {
	case res.Status == StatusOK:
		c.tr.Status = string(StatusOK)
	case res.Error != nil:
		c.tr.Status = string(res.Error.Kind)
	}
	return res
}
