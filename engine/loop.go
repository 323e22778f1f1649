package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/fingerprint"
	"github.com/rlm-go/rlm/internal/textcut"
	"github.com/rlm-go/rlm/meter"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/plan"
	"github.com/rlm-go/rlm/trace"
)

// node is one completion loop in the run tree.
type node struct {
	depth     int
	query     string
	input     corpus.Handle
	caps      capability.Set // what this loop's plans may do
	childCaps capability.Set // what its rlm children get
	ancestors []string       // (query, context) fingerprints of the path from the root
}

// answer is what a loop produced.
type answer struct {
	value   any
	meta    map[string]any // the answer object's other keys
	partial any
	turns   int
	vars    map[string]any
	json    json.RawMessage // value's JSON, checked against Config.AnswerSchema
}

func (r *run) provider(depth int) (model.Provider, string) {
	if depth == 0 {
		return r.e.cfg.Provider, r.e.cfg.Model
	}
	return r.e.cfg.SubProvider, r.e.cfg.SubModel
}

// complete makes one admitted, traced, charged model call through the
// run's meter (package meter, which also admits the direct loop's calls):
// the response cache first (a hit charges only its savings), then, for a
// call below the root, one of the run's MaxConcurrency slots while the
// request is in flight (only leaf calls hold slots, so nested children
// cannot deadlock), the worst case reserved against what is left of the
// token and cost budgets (max_tokens shrunk to what is left when that
// still leaves budget.MinReplyTokens, else the call is refused before
// sending), one model call counted, the request sent through the
// executor, and its usage settled. A provider that reports more than the
// admitted worst case, taking the run over a limit, fails the call with
// that limit's budget error after its usage is charged. The engine counts
// its turns itself (loop, codeLoop), so a call counts only
// max_model_calls. prompt is req's prompt when the caller counted it
// (a root turn: fitRoot's count), else 0 (the meter counts it).
func (r *run) complete(ctx context.Context, depth int, p model.Provider, req model.Request, prompt int64) (*model.Response, error) {
	if req.MaxTokens == 0 {
		req.MaxTokens = r.e.cfg.MaxTokens
	}
	if req.Temperature == nil {
		req.Temperature = r.e.cfg.Temperature
	}
	resp, err := meter.New(r.tracker).Model(ctx, meter.ModelCall{
		Provider: p, Request: req, Depth: depth, Slot: depth > 0, Windows: r.windows, PromptTokens: prompt,
		Send: func(ctx context.Context, p model.Provider, req model.Request) (*model.Response, error) {
			return r.send(ctx, depth, p, req)
		},
	})
	if err != nil {
		return nil, err
	}
	return resp, nil
}

// loop runs one completion loop until an answer, a final step, or an error.
func (r *run) loop(ctx context.Context, n node) (ans answer, err error) {
	if err := r.tracker.Depth(n.depth); err != nil {
		return ans, err
	}
	if code, err := r.codeMode(n); code || err != nil {
		if err != nil {
			return ans, err
		}
		return r.codeLoop(ctx, n)
	}
	var meta corpus.Metadata
	meta, err = r.e.cfg.Store.Metadata(ctx, n.input)
	if err != nil {
		return ans, err
	}
	prefix := ""
	if head, err := r.e.cfg.Store.Head(ctx, n.input, DefaultPrefixBytes, corpus.Limits{}); err == nil {
		if s, ok := head.Value.(corpus.Span); ok {
			prefix = s.Text
		}
	}
	p, modelName := r.provider(n.depth)
	var tools []model.Tool
	if r.e.cfg.Tools != nil {
		for _, t := range r.e.cfg.Tools.Schemas() {
			if n.caps.Has(capability.Tool(t.Name)) {
				tools = append(tools, t)
			}
		}
	}
	system, shared := sharedText(systemPrompt(n.depth, n.caps, tools, meta, prefix, joinNonEmpty(planImageLines(r.e.cfg.Images.Names()), r.e.cfg.Instructions)))
	defer runtime.KeepAlive(shared)
	msgs := []model.Message{
		{Role: model.RoleSystem, Content: system},
		{Role: model.RoleUser, Content: userPrompt(n.query) + r.answerInstructions(n)},
	}
	sess := plan.NewSession(map[string]plan.Value{plan.InputContext: n.input, plan.InputQuery: n.query}, plan.SessionOptions{MaxConcurrency: MaxStepConcurrency})
	env := &env{r: r, n: n}
	repairs, answerRepairs := 0, 0
	var hist history
	defer func() { ans.vars = exportVars(sess) }()
	for {
		if err := ctx.Err(); err != nil {
			return ans, fault.FromContext(fault.PhaseExecute, context.Cause(ctx))
		}
		if err := r.tracker.Iteration(); err != nil {
			return ans, err
		}
		ans.turns++
		tctx, turn := trace.Start(withTurn(ctx, ans.turns), trace.KindTurn, fmt.Sprintf("turn %d", ans.turns))
		var reply turnReply
		var done bool
		var prompt int64
		msgs, prompt, err = r.fitRoot(tctx, n, p, modelName, ans.turns, msgs, &hist, func() string { return planVarsListing(sess) })
		if err == nil {
			reply, done, err = r.turn(tctx, n, p, modelName, msgs, prompt, sess, env, &ans)
		}
		if r.e.cfg.TraceContent && reply.text != "" {
			turn.Set("reply", shown(reply.text, TraceContentBytes))
		}
		// The turn's span ends with its outcome as live attributes
		// (EventTurn) and its error as it came.
		ev := Event{Kind: EventTurn, Depth: n.depth, Turn: ans.turns, Attempt: repairs + 1, Model: modelName, ReplyBytes: len(reply.text)}
		if r.live {
			ev.Reply = shown(reply.text, EventTextBytes)
		}
		if ar := (*answerRejection)(nil); errors.As(err, &ar) {
			// A final answer the answer schema refuses: repaired with the
			// reply kept in the history, or the run's end.
			repairs = 0
			if msgs, err = r.planAnswerRejected(turn, ev, ar, &answerRepairs, reply.text, msgs); err != nil {
				return ans, err
			}
			continue
		}
		if err != nil {
			var rj rejection
			rejected := errors.As(err, &rj)
			if !rejected || !isRepairable(rj.err) || repairs >= max(r.e.cfg.MaxRepairs, 0) {
				spanErr := err
				err = unwrapRejection(err)
				ev.Outcome = OutcomeFailed
				if rejected {
					ev.Outcome = OutcomeRejected
					// The span records the rejection as it came, without
					// the attempt and excerpt added for the run's error.
					spanErr = frozen(err)
					err = rejectedReply(err, reply.text, repairs, n.depth, &ans)
				}
				ev.Error = fault.As(err)
				r.endTurn(turn, spanErr, ev)
				return ans, err
			}
			spanErr := err
			err = rj.err
			repairs++
			fe := fault.As(err)
			ev.Outcome, ev.Repair, ev.Error = OutcomeRejected, true, fe
			r.endTurn(turn, spanErr, ev)
			path, _ := fe.Detail["path"].(string)
			msgs = append(msgs, model.Message{Role: model.RoleAssistant, Content: "[rejected reply omitted]"},
				model.Message{Role: model.RoleUser, Content: repairMessage(string(fe.Phase), string(fe.Kind), plan.RedactPath(path), repairs, max(r.e.cfg.MaxRepairs, 0))})
			continue
		}
		repairs = 0
		if done {
			ev.Outcome = OutcomeAnswer
			r.endTurn(turn, nil, ev)
			return ans, nil
		}
		ev.Outcome, ev.Observation = OutcomePlan, reply.observation
		if r.e.cfg.TraceContent && reply.observation != "" {
			// What the plan's steps gave back, for the viewer's plan turn.
			turn.Set("observation", shown(reply.observation, TraceContentBytes))
		}
		r.endTurn(turn, nil, ev)
		msgs = append(msgs, model.Message{Role: model.RoleAssistant, Content: reply.text}, model.Message{Role: model.RoleUser, Content: reply.observation})
	}
}

// rejectedReply adds to the error of a rejected reply that ends its loop
// the attempt (1 + repairs) and the repairs made and, in the root loop, the
// reply's first bytes (detail "reply_excerpt", bounded by
// ReplyExcerptBytes, credentials redacted), which also become the run's
// partial result when it has none. A child's error may reach its parent's
// plan as a value (a failed map item), so a child's rejected text stays
// out of it.
func rejectedReply(err error, text string, repairs, depth int, ans *answer) error {
	fe := fault.As(err)
	if fe == nil {
		return err
	}
	fe.With("attempt", repairs+1).With("repairs", repairs)
	if depth > 0 {
		return fe
	}
	excerpt := shown(text, ReplyExcerptBytes)
	fe.With("reply_excerpt", excerpt)
	if ans.partial == nil {
		ans.partial = map[string]any{"rejected_reply": excerpt, "attempt": repairs + 1, "repairs": repairs}
	}
	return fe
}

// rejection marks an error of parsing or validating the model's reply,
// before anything ran: only such errors may earn a repair message.
type rejection struct{ err error }

func (r rejection) Error() string { return r.err.Error() }
func (r rejection) Unwrap() error { return r.err }

func unwrapRejection(err error) error {
	var rj rejection
	if errors.As(err, &rj) {
		return rj.err
	}
	return err
}

// turnReply is what a turn shows: the reply text (also when the turn
// failed after the model answered) and the observation of its plan.
type turnReply struct {
	text        string
	observation string
}

// turn runs one iteration: one model call, then the answer or plan it
// returns. done reports a final answer (in ans.value). prompt is msgs'
// tokens when fitRoot counted them (else 0).
func (r *run) turn(ctx context.Context, n node, p model.Provider, modelName string, msgs []model.Message, prompt int64, sess *plan.Session, env *env, ans *answer) (turnReply, bool, error) {
	req := model.Request{Model: modelName, Messages: msgs}
	deltas := r.streamRoot(ctx, &req, n, ans.turns, modelName)
	resp, err := r.complete(ctx, n.depth, p, req, prompt)
	deltas.flush()
	if err != nil {
		return turnReply{}, false, err
	}
	if err := model.Refused(resp); err != nil {
		return turnReply{}, false, err
	}
	text := resp.Text
	if strings.TrimSpace(text) == "" && resp.Reasoning != "" {
		text = resp.Reasoning
	}
	if strings.TrimSpace(text) == "" {
		return turnReply{}, false, rejection{fault.New(fault.PhaseParse, model.KindMissingFinalOutput, "the model returned no text")}
	}
	shown := turnReply{text: text}
	doc, err := plan.Parse(text)
	if err != nil {
		return shown, false, rejection{err}
	}
	if doc.Plan == nil {
		if err := r.accept(n, ans, doc.Answer); err != nil {
			return shown, false, err
		}
		ans.meta = answerMeta(doc.Meta)
		return shown, true, nil
	}
	vcfg := plan.ValidateConfig{
		Granted:        n.caps,
		IsBound:        sess.HasVar,
		DefaultModel:   r.e.cfg.SubModel,
		DepthRemaining: r.e.cfg.Limits.MaxDepth - n.depth,
		MaxConcurrency: MaxStepConcurrency,
		Limits:         r.remaining(),
		TextCapability: capability.Context(corpus.ActionSlice),
	}
	if err := plan.Validate(doc.Plan, vcfg); err != nil {
		return shown, false, rejection{err}
	}
	out, err := plan.Execute(ctx, doc.Plan, env, sess)
	if out != nil && out.HasFinal {
		if err := r.accept(n, ans, out.Final); err != nil {
			return shown, false, err
		}
		return shown, true, nil
	}
	if err != nil && isFatal(err) {
		if out != nil && len(out.Bound) > 0 {
			ans.partial = plan.Preview(sessVar(sess, out.Bound[len(out.Bound)-1]), 4096)
		}
		return shown, false, err
	}
	return turnReply{text: text, observation: r.observe(sess, out, err)}, false, nil
}

// finish checks and stores a final answer.
func (r *run) finish(ans *answer, v any) error {
	// A string answer counts its bytes; any other value the bytes of its
	// canonical JSON.
	var size int
	if s, ok := v.(string); ok {
		size = len(s)
	} else if enc, err := plan.EncodeJSON(v); err == nil {
		size = len(enc)
	} else if raw, err := json.Marshal(v); err == nil {
		// Code mode's integers beyond 64 bits (json.Number) are not plan
		// values, but they are still part of the answer's size.
		size = len(raw)
	}
	if err := r.tracker.Output(size); err != nil {
		ans.partial = plan.Preview(v, 4096)
		return err
	}
	ans.value = v
	return nil
}

// isRepairable reports whether a failed turn gets a host-written repair
// message: parse and validation rejections of the model's reply, except
// capability and budget denials, which are authoritative.
func isRepairable(err error) bool {
	fe := fault.As(err)
	if fe == nil {
		return false
	}
	switch fe.Phase {
	case fault.PhaseParse:
		return true
	case fault.PhaseValidate:
		switch fe.Kind {
		case capability.KindDenied, plan.KindBudgetExceeded, budget.KindMaxDepth:
			return false
		}
		return true
	}
	return false
}

// isFatal reports whether a step error ends the run rather than becoming an
// observation the model can react to. It decides by (phase, kind), wherever
// in the tree the error happened: budget exhaustion (any kind of Phase
// budget), cancellation, policy refusals (a capability not granted,
// recursion beyond the depth limit, a recursive cycle, an approval or
// authority refusal), and deadlines, except a tool's own time limit: a
// Phase tool timeout that does not come from the run's context (the tool
// runtime's handler limit) is an observation like any other tool failure.
// The run's own time limit stays fatal: a tool call it ends carries the
// context's deadline error, and the run's budget error takes over.
func isFatal(err error) bool {
	fe := fault.As(err)
	if fe == nil {
		return true
	}
	for e := fe; e != nil; e = fault.As(e.Cause) {
		if fatalFault(e) {
			return true
		}
		if e.Cause == nil {
			break
		}
	}
	return false
}

// fatalFault is isFatal's decision for one error of a cause chain.
func fatalFault(e *fault.Error) bool {
	if e.Phase == fault.PhaseBudget {
		return true
	}
	switch e.Kind {
	case fault.KindTimeout:
		return e.Phase != fault.PhaseTool || errors.Is(e, context.DeadlineExceeded)
	case fault.KindCancelled, KindDeepRecursionRequired, KindRecursiveCycle,
		capability.KindDenied, budget.KindMaxDepth, authority.KindApprovalRequired, authority.KindDenied,
		corpus.KindContextChanged:
		return true
	}
	return false
}

// Kinds shared with the plan validator.
const ()

// observe renders the bounded observation of one executed plan.
func (r *run) observe(sess *plan.Session, out *plan.Outcome, err error) string {
	limit := r.e.cfg.ObservationBytes
	var b strings.Builder
	b.WriteString("Observation:\n")
	if out != nil {
		for _, name := range out.Bound {
			line := fmt.Sprintf("%s = %s\n", name, plan.Preview(sessVar(sess, name), max(limit/max(len(out.Bound), 1), 64)))
			b.WriteString(line)
		}
	}
	if err != nil {
		fmt.Fprintf(&b, "error: %s\n", errText(err))
	}
	b.WriteString("No final answer yet. Continue with a plan, or reply {\"answer\": ...}.")
	return textcut.Prefix(b.String(), limit)
}

// remaining returns the static limits left for validation.
func (r *run) remaining() plan.Limits {
	// What is left of this run's budget and of every calling run's.
	model, tools, ctxOps := r.tracker.Left()
	left := func(n int) int {
		if n < 0 {
			return -1 // unlimited
		}
		return max(n, 1)
	}
	return plan.Limits{ModelCalls: left(model), ToolCalls: left(tools), ContextOps: left(ctxOps)}
}

// cycleContentBytes is the largest context whose fingerprint is taken over
// its content; larger contexts are identified by their position in a root
// context.
const cycleContentBytes = 1 << 20

// cycleTextBytes bounds the in-memory texts (a code cell's string handed to
// rlm_query) identified by their content whatever their size.
const cycleTextBytes = 256 << 20

// fingerprintOf identifies a (query, context) pair for cycle detection. A
// context up to cycleContentBytes is identified by its text, so a child
// handed its parent's context as a string (a new sub-context) still
// repeats its ancestor; a larger one by its root, offset and length.
func (r *run) fingerprintOf(ctx context.Context, query string, h corpus.Handle) string {
	meta, err := r.e.cfg.Store.Metadata(ctx, h)
	if err != nil {
		return fingerprint.MustOf(map[string]any{"query": query, "handle": h.String()})
	}
	if meta.Bytes <= cycleContentBytes || meta.Kind == corpus.TextKindText && meta.Bytes <= cycleTextBytes {
		// A text made from a string (a code cell's slice, however large)
		// is identified by its content too.
		var sum string
		if err := r.e.cfg.Store.View(h, func(b []byte) error {
			sum = fingerprint.Bytes(b)
			return nil
		}); err == nil {
			return fingerprint.MustOf(map[string]any{"query": query, "content": sum})
		}
	}
	// Metadata names the immediate parent: walk up to the root context, so
	// the same range reached through nested sub-contexts is the same loop.
	root, off, size := h, int64(0), meta.Bytes
	for m := meta; m.Parent != nil; {
		root, off = *m.Parent, off+m.Offset
		if m, err = r.e.cfg.Store.Metadata(ctx, root); err != nil {
			break
		}
	}
	return fingerprint.MustOf(map[string]any{"query": query, "root": root.String(), "offset": off, "bytes": size})
}

func exportVars(sess *plan.Session) map[string]any {
	names := sess.Names()
	if len(names) == 0 {
		return nil
	}
	out := make(map[string]any, len(names))
	for _, n := range names {
		out[n] = plan.Preview(sessVar(sess, n), 512)
	}
	return out
}

func sessVar(sess *plan.Session, name string) plan.Value {
	v, _ := sess.Var(name)
	return v
}
