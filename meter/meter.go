// Package meter admits and records the metered acts of a run: model calls
// and context operations. It is the one place where they are checked
// against the run's budget (budget.Tracker) and capabilities
// (capability.Set) and recorded in the trace (package trace), for the
// engine's plans and code mode and for the direct loop alike; the callers
// differ only in the options of a call (ModelCall), never in a copy of the
// steps.
//
// A request carrying images for a model the table knows to take none is
// refused with no_vision before anything else (model.Windows.CheckVision),
// and a server's refusal of the images (model.IsNoImageInput) is reported
// as no_vision too: an image is never dropped silently. A model call is
// then admitted in this order (docs/budget.md, "One meter admits every
// call"); its images are prompt tokens (model.PromptTokens):
//
//  0. the prompt plus its reserved output must fit the model's context
//     window (model.Windows.Check: the run's table, ModelCall.Windows),
//     else the call is refused with prompt_too_large before anything is
//     counted (a trace event of kind error records the refusal); max_tokens is shrunk to what the window leaves, with a
//     trace note (NoteWindowShrunk). The prompt is counted once: with
//     the caller's count when it has one (ModelCall.PromptTokens, the
//     engine's root turns), which also prices the worst case (step 3);
//  1. a response cache (model.Share) is asked first: a hit charges only its
//     savings (Tracker.Save), no call, token, cost or slot;
//  2. a concurrency slot is taken when the call asks for one
//     (ModelCall.Slot, the engine's sub-calls);
//  3. the worst case (prompt tokens plus max_tokens, priced) is reserved
//     (Tracker.Reserve), which refuses the call before sending when it
//     cannot fit;
//  4. the call is counted against max_model_calls (and, for a loop whose
//     turns are its model calls, max_iterations: ModelCall.Turn);
//  5. max_tokens is shrunk to the admitted bound, with a trace note when
//     it changed;
//  6. the request is sent; a provider answering neither a response nor an
//     error fails the call with malformed_response;
//  7. the reported usage is settled (Reservation.Settle), also when it came
//     with a failure, with a trace note when it is above the admitted worst
//     case; a call that failed without a response is charged as one call.
//
// A context operation is checked against its capability
// (ContextCapability: one map from operation to capability, shared by
// plans, code mode's builtins and the direct loop's context tools),
// counted against max_context_ops, and traced as a context_op span.
package meter

import (
	"context"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/trace"
)

// Meter admits and records the model calls and context operations of one
// run against its budget tracker. It is safe for concurrent use (the
// tracker's counters are), and cheap: a Meter holds only its tracker.
type Meter struct {
	t *budget.Tracker
}

// New returns a Meter charging t.
func New(t *budget.Tracker) *Meter { return &Meter{t: t} }

// Tracker returns the budget tracker the meter charges.
func (m *Meter) Tracker() *budget.Tracker { return m.t }

// ModelCall is one model call to admit, send and record.
type ModelCall struct {
	// Provider answers the request (a model.Sharer is asked first).
	Provider model.Provider
	// Request is the request as the caller built it; its MaxTokens may
	// be shrunk to what the budget leaves. Request.Model names the model
	// for the response cache, the trace and the price of the worst case.
	Request model.Request
	// Depth is the recursion depth the usage is charged to (0: a root
	// loop).
	Depth int
	// Slot holds one of the run's MaxConcurrency slots while the request
	// is in flight (Tracker.Acquire), taken after a cache miss and before
	// admission, so a call cancelled while waiting is never counted. The
	// engine's sub-calls (depth > 0) hold one; root turns do not.
	Slot bool
	// Turn counts the call as one more completion-loop turn as well as
	// one more model call (Tracker.ModelTurn: both or neither), and a
	// cache hit as one more turn (Tracker.Iteration): the direct loop,
	// whose turns are its model calls. Without it only max_model_calls
	// counts the call (the engine counts its turns itself, before the
	// call), and a hit counts nothing.
	Turn bool
	// Send sends the admitted request through p (the provider after the
	// response cache). Nil means model.Traced(p, req.Model).Complete; the
	// engine passes its executor's seam.
	Send func(ctx context.Context, p model.Provider, req model.Request) (*model.Response, error)
	// Windows is the run's model table the prompt is admitted against
	// (nil: the shipped table, model.NewWindows()).
	Windows *model.Windows
	// PromptTokens, when not 0, is the request's prompt as the caller
	// counted it already: model.PromptTokens(Request, Request.Model),
	// nothing else (the engine counts each root turn's prompt to fit its
	// conversation to the window). The meter admits the call with it
	// instead of counting the prompt again; 0: the meter counts it.
	PromptTokens int64
}

// Model admits, sends and records one model call (see the package
// documentation for the steps). It returns the provider's response, or a
// cache hit's.
//
// On failure the response is returned with the error when the provider
// sent one (usage reported with a failure, or a usage that took the run
// over a limit): its usage is charged, and a caller that keeps its own
// record (the direct loop's Result) records it. A budget error of the
// settlement takes precedence over the provider's error.
func (m *Meter) Model(ctx context.Context, c ModelCall) (*model.Response, error) {
	req := c.Request
	if err := c.Windows.CheckVision(req); err != nil {
		// Images for a model known to take none: refused before
		// anything is counted, never sent without them.
		trace.Emit(ctx, trace.KindError, string(model.KindNoVision), nil, err)
		return nil, err
	}
	fit := c.fit(req)
	if !fit.Fits() {
		// Never sent: a standalone error event says so in the trace.
		err := fit.Err()
		trace.Emit(ctx, trace.KindError, string(model.KindPromptTooLarge), nil, err)
		return nil, err
	}
	if fit.MaxTokens != req.MaxTokens {
		trace.Emit(ctx, trace.KindNote, NoteWindowShrunk, map[string]any{
			"requested": req.MaxTokens, "admitted": fit.MaxTokens, "window": fit.Window.Window, "prompt_tokens": fit.PromptTokens}, nil)
		req.MaxTokens = fit.MaxTokens
	}
	// The system prompt and the append-only history are the stable
	// prefix: marked for providers with explicit prompt caching (before
	// the response cache keys the request), without copying the
	// conversation.
	req.CachePrefix = true
	hit, p, releaseLead, err := model.Share(ctx, c.Provider, req.Model, req)
	if err != nil {
		return nil, err
	}
	if hit != nil {
		if c.Turn {
			if err := m.t.Iteration(); err != nil {
				return nil, err
			}
		}
		m.t.Save(c.Depth, hit.Usage)
		return hit, nil
	}
	defer releaseLead()
	if c.Slot {
		release, err := m.t.Acquire(ctx)
		if err != nil {
			return nil, err
		}
		defer release()
	}
	// Admission after the slot: tokens and cost are checked against the
	// latest usage.
	// The worst case of model.Worst, from the prompt the window admission
	// counted (the cache marks change nothing counted).
	res, err := m.t.Reserve(budget.Worst{Model: req.Model, Depth: c.Depth, PromptTokens: fit.PromptTokens, MaxTokens: int64(req.MaxTokens)})
	if err != nil {
		return nil, err
	}
	defer res.Release()
	count := m.t.ModelCall
	if c.Turn {
		count = m.t.ModelTurn
	}
	if err := count(); err != nil {
		return nil, err
	}
	if int64(req.MaxTokens) != res.MaxTokens() {
		trace.Emit(ctx, trace.KindNote, NoteShrunk, map[string]any{
			"requested": req.MaxTokens, "admitted": res.MaxTokens(), "worst_case_tokens": res.Tokens()}, nil)
	}
	req.MaxTokens = int(res.MaxTokens())
	send := c.Send
	if send == nil {
		send = func(ctx context.Context, p model.Provider, req model.Request) (*model.Response, error) {
			return model.Traced(p, req.Model).Complete(ctx, req)
		}
	}
	resp, err := send(ctx, p, req)
	if n := model.CountImages(req); n > 0 && model.IsNoImageInput(err) {
		err = model.NoVision(req.Model, n, err)
	}
	if resp == nil && err == nil {
		// A provider or executor outside the contract: a typed failure of
		// the call, never a nil response handed on.
		err = fault.New(fault.PhaseProvider, model.KindMalformedResponse, "the provider returned neither a response nor an error").With("model", req.Model)
	}
	if resp == nil {
		// Sent, but nothing came back to settle: the worst case is
		// returned unspent and the attempt counted as one call.
		res.Release()
		m.t.Charge(c.Depth, budget.Usage{Calls: 1})
		return nil, err
	}
	if u := resp.Usage; u.TotalTokens > res.Tokens() {
		// The admission's guarantee rests on the worst case; say when a
		// provider counted more (Settle fails the call if a limit is now
		// crossed).
		trace.Emit(ctx, trace.KindNote, NoteOverWorstCase, map[string]any{
			"admitted_tokens": res.Tokens(), "reported_tokens": u.TotalTokens}, nil)
	}
	if serr := res.Settle(resp.Usage); serr != nil {
		return resp, serr
	}
	return resp, err
}

// fit measures req against its model's window with the caller's count of
// its prompt (PromptTokens), or a count of its own when there is none.
func (c *ModelCall) fit(req model.Request) model.Fit {
	if c.PromptTokens > 0 {
		return c.Windows.CheckCounted(req, c.PromptTokens)
	}
	return c.Windows.Check(req)
}

// Names of the trace notes a model call may emit (trace.KindNote).
const (
	// NoteShrunk: max_tokens was shrunk to what the budget leaves
	// (attributes requested, admitted, worst_case_tokens).
	NoteShrunk = "max_tokens shrunk to the budget"
	// NoteOverWorstCase: the provider reported more tokens than the
	// admitted worst case (attributes admitted_tokens, reported_tokens).
	NoteOverWorstCase = "usage above the admitted worst case"
	// NoteWindowShrunk: max_tokens was shrunk to what the model's context
	// window leaves beside the prompt (attributes requested, admitted,
	// window, prompt_tokens).
	NoteWindowShrunk = "max_tokens shrunk to the window"
)

// ContextOp is one context operation to admit.
type ContextOp struct {
	// Op is what the operation does: a corpus action type (search, slice,
	// peek, partition, ...) or a read of code mode's context text (text,
	// iterate, regex). It chooses the capability (ContextCapability).
	Op string
	// Name names the span; empty means Op. The direct loop names its
	// spans after the tool (context_search).
	Name string
	// Handle, when set, is recorded as the span's "handle" attribute.
	Handle string
}

// Context admits one context operation: its capability must be in caps
// (else capability_denied, Phase validate, detail "capability"), and it
// is counted against max_context_ops (and the time limit). It returns a
// context carrying the operation's context_op span and the span, which the
// caller completes (attributes, bytes) and ends with the operation's
// error. Nothing is counted or traced when the operation is refused.
func (m *Meter) Context(ctx context.Context, caps capability.Set, op ContextOp) (context.Context, *trace.Span, error) {
	if c := ContextCapability(op.Op); !caps.Has(c) {
		return ctx, nil, Denied(c)
	}
	if err := m.t.ContextOp(); err != nil {
		return ctx, nil, err
	}
	name := op.Name
	if name == "" {
		name = op.Op
	}
	ctx, sp := trace.Start(ctx, trace.KindContextOp, name)
	if op.Handle != "" {
		sp.Set("handle", op.Handle)
	}
	return ctx, sp, nil
}

// ContextCapability is the capability a context operation needs: reading
// text (code mode's text, iterate and str slicing, a plan's text of a
// handle) needs context:slice, and so does rendering a PDF page to an
// image ("image": it shows the same content as the page's text), searching
// it (search, or code mode's re functions, "regex") context:search, and
// any other corpus action context:ACTION (peek, partition, ...).
func ContextCapability(op string) capability.Cap {
	switch op {
	case "text", "iterate", corpus.ActionImage:
		return capability.Context(corpus.ActionSlice)
	case "regex":
		return capability.Context(corpus.ActionSearch)
	}
	return capability.Context(op)
}

// Denied is the error of an operation whose capability c is not granted:
// Phase validate, Kind capability_denied, detail "capability".
func Denied(c capability.Cap) *fault.Error {
	return fault.New(fault.PhaseValidate, capability.KindDenied, "the capability is not granted in this scope").With("capability", string(c))
}
