package plan

import (
	"context"
	"encoding/json"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/fanout"
	"github.com/rlm-go/rlm/trace"
)

// Limits of the language.
const (
	// DefaultConcurrency is a map step's concurrency when it sets none.
	DefaultConcurrency = 4
	// DefaultMaxConcurrency is the concurrency cap when neither the
	// Session nor the ValidateConfig sets one.
	DefaultMaxConcurrency = 16
	// MaxAttempts is the largest attempts a retry step may ask for.
	MaxAttempts = 10
	// MaxParallelBranches is the largest number of sub-plans of a parallel
	// step.
	MaxParallelBranches = 16
	// MaxNameBytes is the longest variable name.
	MaxNameBytes = 64
)

// Outcome is the result of executing a plan.
type Outcome struct {
	// HasFinal reports that a final step ran; Final is then its value.
	HasFinal bool
	// Final is the value of the final step.
	Final Value
	// Bound lists the names newly bound in the session by this execution,
	// in binding order; they stay bound even when a later step fails.
	Bound []string
	// Err is the error of the failing top-level step, or nil. It is a
	// *fault.Error with detail "path" naming the innermost failing step.
	Err error
}

// Execute runs p's steps in order in session s against env. A step's
// result is bound in s under the step's bind name; a final step evaluates
// its value and ends the plan. The first failing top-level step stops the
// plan: its error is returned and also stored in the Outcome, which is
// always non-nil so the caller can observe the bindings made before the
// failure.
//
// Execute expects a plan that passed Validate, but checks at run time
// everything it relies on, so an unvalidated plan fails with a typed error
// rather than misbehaving.
func Execute(ctx context.Context, p *Plan, env Env, s *Session) (*Outcome, error) {
	out, _, err := execute(ctx, p, env, s)
	return out, err
}

// execute is Execute that also returns its runner (nil when it did not
// start), for the fuzz watchdog's work counters.
func execute(ctx context.Context, p *Plan, env Env, s *Session) (*Outcome, *runner, error) {
	var r *runner
	out, err := executeWith(ctx, p, env, s, &r)
	return out, r, err
}

func executeWith(ctx context.Context, p *Plan, env Env, s *Session, rp **runner) (*Outcome, error) {
	out := &Outcome{}
	fail := func(err error) (*Outcome, error) {
		out.Err = err
		return out, err
	}
	if p == nil || len(p.Steps) == 0 {
		return fail(execErr(KindEmptyPlan, "steps", "the plan has no steps"))
	}
	if env == nil || s == nil {
		return fail(execErr(KindInvalidArgument, "", "Execute needs an Env and a Session").With("field", "env"))
	}
	r := &runner{env: env, maxConc: s.MaxConcurrency(), maxValue: s.MaxValueBytes()}
	*rp = r
	root := &scope{sess: s}
	for i := range p.Steps {
		st := &p.Steps[i]
		path := "steps" + idx(i)
		if err := ctx.Err(); err != nil {
			return fail(annotate(err, "path", path))
		}
		v, err := r.tracedStep(ctx, st, root, path)
		if err != nil {
			return fail(err)
		}
		if st.Op == OpFinal {
			out.HasFinal, out.Final = true, v
			return out, nil
		}
		if st.Bind != "" {
			if err := root.bind(st.Bind, v, join(path, "bind")); err != nil {
				return fail(err)
			}
			out.Bound = append(out.Bound, st.Bind)
		}
	}
	return out, nil
}

type runner struct {
	env      Env
	maxConc  int
	maxValue int
	// work counts evaluation nodes, bytes built and nodes measured: the
	// fuzz watchdog bounds it by the input's size.
	work atomic.Int64
	// stepsRun counts the steps run.
	stepsRun atomic.Int64
}

// runSub runs a sub-plan in scope sc and returns its result: the value of
// its final step, or else the value bound by its last binding step (null
// when none binds).
func (r *runner) runSub(ctx context.Context, p *Plan, sc *scope, path string) (Value, error) {
	if p == nil || len(p.Steps) == 0 {
		return nil, execErr(KindEmptyPlan, join(path, "steps"), "the plan has no steps")
	}
	var last Value
	for i := range p.Steps {
		st := &p.Steps[i]
		sp := join(path, "steps"+idx(i))
		if err := ctx.Err(); err != nil {
			return nil, annotate(err, "path", sp)
		}
		v, err := r.tracedStep(ctx, st, sc, sp)
		if st.Op == OpFinal || err != nil {
			return v, err
		}
		if st.Bind != "" {
			if err := sc.bind(st.Bind, v, join(sp, "bind")); err != nil {
				return nil, err
			}
			last = v
		}
	}
	return last, nil
}

// tracedStep runs one step (final steps evaluate their value) inside a
// plan_step span on the trace recorder carried by ctx.
func (r *runner) tracedStep(ctx context.Context, st *Step, sc *scope, path string) (Value, error) {
	r.stepsRun.Add(1)
	ctx, span := trace.Start(ctx, trace.KindPlanStep, string(st.Op))
	span.Set("path", path)
	if st.Bind != "" {
		span.Set("bind", st.Bind)
	}
	var v Value
	var err error
	if st.Op == OpFinal {
		v, err = r.eval(ctx, st.Value, sc, join(path, "value"))
	} else {
		v, err = r.step(ctx, st, sc, path)
	}
	span.End(err)
	return v, err
}

// step runs one non-final step and returns its result.
func (r *runner) step(ctx context.Context, st *Step, sc *scope, path string) (Value, error) {
	envErr := func(err error) error { return annotate(err, "path", path) }
	switch st.Op {
	case OpContext:
		hv, err := r.eval(ctx, st.Handle, sc, join(path, "handle"))
		if err != nil {
			return nil, err
		}
		h, ok := asHandle(hv)
		if !ok {
			return nil, execErr(KindTypeError, join(path, "handle"), "handle must evaluate to a context handle").With("type", typeName(hv))
		}
		if st.Action == nil {
			return nil, execErr(fault.KindMissingField, join(path, "action"), "context step has no action").With("field", "action")
		}
		v, err := r.env.ContextOp(ctx, h, *st.Action)
		if err != nil {
			return nil, envErr(err)
		}
		return r.normalizeResult(ctx, v, path)
	case OpModel:
		prompt, err := r.evalString(ctx, st.Prompt, sc, join(path, "prompt"))
		if err != nil {
			return nil, err
		}
		var opts map[string]any
		if st.Options != nil {
			opts = copyValue(st.Options).(map[string]any)
		}
		var refs []Value
		if st.Images != nil {
			v, err := r.eval(ctx, st.Images, sc, join(path, "images"))
			if err != nil {
				return nil, err
			}
			list, ok := v.([]any)
			if !ok {
				return nil, execErr(KindTypeError, join(path, "images"), "images must be a list")
			}
			refs = list
		}
		text, err := r.env.Model(ctx, ModelCall{Prompt: prompt, Model: st.Model, Options: opts, ImageRefs: refs})
		if err != nil {
			return nil, envErr(err)
		}
		if len(text) > r.maxValue {
			return nil, tooLarge(path, len(text), r.maxValue)
		}
		return text, nil
	case OpRLM:
		query, err := r.evalString(ctx, st.Query, sc, join(path, "query"))
		if err != nil {
			return nil, err
		}
		cv, err := r.eval(ctx, st.Context, sc, join(path, "context"))
		if err != nil {
			return nil, err
		}
		if h, ok := asHandle(cv); ok {
			cv = h
		} else if _, ok := cv.(string); !ok {
			return nil, execErr(KindTypeError, join(path, "context"), "context must evaluate to a handle or a string").With("type", typeName(cv))
		}
		v, err := r.env.RLM(ctx, query, cv)
		if err != nil {
			return nil, envErr(err)
		}
		return r.normalizeResult(ctx, v, path)
	case OpTool:
		var args Value = map[string]any{}
		if st.Args != nil {
			var err error
			if args, err = r.eval(ctx, st.Args, sc, join(path, "args")); err != nil {
				return nil, err
			}
		}
		v, err := r.env.Tool(ctx, st.Name, args)
		if err != nil {
			return nil, envErr(err)
		}
		return r.normalizeResult(ctx, v, path)
	case OpMap:
		return r.mapStep(ctx, st, sc, path)
	case OpParallel:
		if len(st.Plans) == 0 {
			return nil, execErr(fault.KindMissingField, join(path, "plans"), "parallel step has no plans").With("field", "plans")
		}
		conc := min(len(st.Plans), r.maxConc)
		return r.fanout(ctx, path, len(st.Plans), conc, true, func(ctx context.Context, i int) (Value, error) {
			return r.runSub(ctx, &st.Plans[i], sc.child(), join(path, "plans")+idx(i))
		})
	case OpRetry:
		attempts := max(st.Attempts, 1)
		var last error
		for a := 1; a <= attempts; a++ {
			v, err := r.runSub(ctx, st.Plan, sc.child(), join(path, "plan"))
			if err == nil {
				return v, nil
			}
			last = annotate(err, "attempt", a)
			if r.stopsFanout(err) || ctx.Err() != nil || outcomeUnknown(err) {
				return nil, last
			}
		}
		return nil, last
	case OpCheckpoint:
		if err := r.env.Checkpoint(ctx, st.Label, sc.visible()); err != nil {
			return nil, envErr(err)
		}
		return nil, nil
	}
	return nil, execErr(KindUnknownOp, join(path, "op"), "op is not in the plan language").With("op", string(st.Op))
}

// asHandle returns the handle v stands for: v itself when it is a
// corpus.Handle, or the "handle" member of an object such as a partition
// chunk {"index","start","length","handle"}.
func asHandle(v Value) (corpus.Handle, bool) {
	switch x := v.(type) {
	case corpus.Handle:
		return x, true
	case map[string]any:
		h, ok := x["handle"].(corpus.Handle)
		return h, ok
	}
	return corpus.Handle{}, false
}

func (r *runner) normalizeResult(ctx context.Context, v Value, path string) (Value, error) {
	n, err := Normalize(v)
	if err != nil {
		return nil, annotate(err, "path", path)
	}
	if err := r.checkSize(ctx, n, path); err != nil {
		return nil, err
	}
	return n, nil
}

func (r *runner) mapStep(ctx context.Context, st *Step, sc *scope, path string) (Value, error) {
	ov, err := r.eval(ctx, st.Over, sc, join(path, "over"))
	if err != nil {
		return nil, err
	}
	items, ok := ov.([]any)
	if !ok {
		return nil, execErr(KindTypeError, join(path, "over"), "map is over a list").With("type", typeName(ov))
	}
	if st.Plan == nil {
		return nil, execErr(fault.KindMissingField, join(path, "plan"), "map step has no plan").With("field", "plan")
	}
	if len(items) == 0 {
		return []any{}, nil
	}
	if err := r.env.Admit(ctx, st.Plan.Estimate().Scale(len(items))); err != nil {
		return nil, annotate(err, "path", path)
	}
	conc := st.Concurrency
	if conc <= 0 {
		conc = DefaultConcurrency
	}
	conc = min(conc, r.maxConc, len(items))
	sub := join(path, "plan")
	return r.fanout(ctx, path, len(items), conc, st.FailFast, func(ctx context.Context, i int) (Value, error) {
		child := sc.child()
		if err := child.bind(st.As, items[i], join(path, "as")); err != nil {
			return nil, err
		}
		v, err := r.runSub(ctx, st.Plan, child, sub)
		if err != nil {
			return nil, annotate(err, "item", i)
		}
		return v, nil
	})
}

// fanout runs fn for 0..n-1 with at most conc in flight and returns the
// results in index order. With failFast, or for a Fatal, value_too_large
// or run-ending (RunEnder) error, the first error cancels the others and is returned; so does the
// results' total size passing max_value_bytes. Otherwise a failing index's
// result is its ErrorValue. No item starts once ctx is done. All
// goroutines have returned when fanout returns.
func (r *runner) fanout(ctx context.Context, path string, n, conc int, failFast bool, fn func(ctx context.Context, i int) (Value, error)) (Value, error) {
	results := make([]any, n)
	spans := make([]*trace.Span, n)
	var (
		mu    sync.Mutex
		total int
	)
	pool := fanout.Pool{Start: func(ctx context.Context, i int) (context.Context, bool) {
		if ctx.Err() != nil {
			return nil, false
		}
		// The span starts here, where the pool starts items one at a time
		// in index order, so that branch spans are numbered (and shown by
		// trace view) in index order.
		ictx, span := trace.Start(ctx, trace.KindPlanStep, "branch "+strconv.Itoa(i))
		span.Set("branch", i)
		spans[i] = span
		return ictx, true
	}}
	err := pool.Run(ctx, n, conc, func(ctx context.Context, i int) error {
		v, err := fn(ctx, i)
		spans[i].End(err)
		if err != nil && !failFast && !r.stopsFanout(err) {
			v, err = ErrorValue(err), nil
		}
		if err != nil {
			return err
		}
		n, serr := sizeOf(ctx, v, r.maxValue, &r.work)
		mu.Lock()
		total += n
		over := total
		mu.Unlock()
		if serr == nil && over > r.maxValue {
			serr = errSizeOver
		}
		if serr == errSizeOver {
			return tooLarge(path, over, r.maxValue)
		}
		if serr != nil {
			return fault.FromContext(fault.PhaseExecute, serr)
		}
		results[i] = v
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		// The parent was cancelled (an item's error would be returned
		// otherwise).
		return nil, fault.FromContext(fault.PhaseExecute, err)
	}
	return results, nil
}

// ErrorValue is the value a map binds for a failed item:
// {"error":{"phase","kind","message","detail"}} with the detail of the
// *fault.Error (including "path" and "item"), or Kind env_error for other
// errors.
func ErrorValue(err error) Value {
	fe := fault.As(annotate(err, "path", ""))
	m := map[string]any{"phase": string(fe.Phase), "kind": string(fe.Kind), "message": fe.Message}
	if len(fe.Detail) > 0 {
		if b, err := json.Marshal(fe.Detail); err == nil {
			if d, err := decodeNormalized(b); err == nil {
				m["detail"] = d
			}
		}
	}
	return map[string]any{"error": m}
}

// outcomeUnknown reports an error after which repeating the operation could
// repeat an effect whose outcome is unknown: retry does not try again.
func outcomeUnknown(err error) bool {
	for fe := fault.As(err); fe != nil; fe = fault.As(fe.Cause) {
		if b, _ := fe.Detail[fault.DetailOutcomeUnknown].(bool); b {
			return true
		}
	}
	return false
}
