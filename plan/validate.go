package plan

import (
	"slices"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/fault"
)

// Limits is the remaining budget a plan's static estimate is checked
// against. It follows the rule of every Limits type (docs/budget.md, "One
// rule for every limit"): a zero field takes the default, which for a
// static estimate is "not checked" (the run's budget.Tracker still
// enforces the real limit as the plan runs); a negative field is
// unlimited, also not checked. A caller with nothing left passes 1, not 0.
type Limits struct {
	// Steps bounds Estimate.Steps.
	Steps int
	// ModelCalls bounds Estimate.ModelCalls.
	ModelCalls int
	// ToolCalls bounds Estimate.ToolCalls.
	ToolCalls int
	// ContextOps bounds Estimate.ContextOps.
	ContextOps int
}

// ValidateConfig is what Validate checks a plan against.
type ValidateConfig struct {
	// Granted is the set of capabilities the plan may use.
	Granted capability.Set
	// DefaultModel names the model of model steps that name none.
	DefaultModel string
	// Inputs are input names available besides "context" and "query".
	Inputs []string
	// Bound are the variables bound in earlier turns (Session.Names).
	Bound []string
	// IsBound, when set, also reports whether a variable is bound in
	// earlier turns (Session.HasVar). It is asked only of the names a plan
	// reads or binds, so a long session's names are not gathered anew for
	// every turn.
	IsBound func(name string) bool
	// Limits is the remaining budget.
	Limits Limits
	// DepthRemaining is how many more levels of recursion are allowed; a
	// plan with an rlm step needs at least 1.
	DepthRemaining int
	// MaxConcurrency is the largest concurrency a map step may ask for;
	// zero means DefaultMaxConcurrency.
	MaxConcurrency int
	// TextCapability is the capability a {"text":E} expression needs (the
	// engine reads a handle's text as a slice: context:slice); empty means
	// none.
	TextCapability capability.Cap
}

// Validate checks the whole plan before anything runs and returns the
// first error, or nil. Plans are walked in step order, depth first; for
// each plan (top level or sub-plan) the plan-level structure comes first
// (empty_plan, multiple_final, final_not_last), then each step: its op,
// its fields, its arguments, its expressions, its capability, its depth,
// its sub-plans and finally its bind name. After the structure, the static
// Estimate is checked against cfg.Limits (Kind budget_exceeded, detail
// "limit", "estimated", "remaining"). Every error has Phase validate, one
// of this package's Kinds and detail "path"; docs/plan.md lists the rules.
func Validate(p *Plan, cfg ValidateConfig) error {
	v := &validator{cfg: cfg, inputs: map[string]bool{InputContext: true, InputQuery: true}}
	for _, in := range cfg.Inputs {
		v.inputs[in] = true
	}
	v.maxConc = cfg.MaxConcurrency
	if v.maxConc <= 0 {
		v.maxConc = DefaultMaxConcurrency
	}
	root := &vscope{names: map[string]bool{}, bound: cfg.IsBound}
	for _, n := range cfg.Bound {
		root.names[n] = true
	}
	if p == nil {
		return validateErr(KindEmptyPlan, "steps", "the plan has no steps")
	}
	if err := v.plan(p, "", root); err != nil {
		return err
	}
	est := p.Estimate()
	checks := []struct {
		name     string
		est, lim int
	}{
		{"steps", est.Steps, cfg.Limits.Steps},
		{"model_calls", est.MinModelCalls(), cfg.Limits.ModelCalls},
		{"tool_calls", est.ToolCalls, cfg.Limits.ToolCalls},
		{"context_ops", est.ContextOps, cfg.Limits.ContextOps},
	}
	for _, c := range checks {
		if c.lim > 0 && c.est > c.lim {
			return validateErr(KindBudgetExceeded, "steps", "the plan's static estimate exceeds the remaining budget").
				With("limit", c.name).With("estimated", c.est).With("remaining", c.lim)
		}
	}
	return nil
}

type validator struct {
	cfg     ValidateConfig
	inputs  map[string]bool
	maxConc int
}

type vscope struct {
	parent *vscope
	names  map[string]bool
	bound  func(name string) bool // the root's: ValidateConfig.IsBound
}

func (s *vscope) has(name string) bool {
	for ; s != nil; s = s.parent {
		if s.names[name] || s.bound != nil && s.bound(name) {
			return true
		}
	}
	return false
}

func (s *vscope) child() *vscope { return &vscope{parent: s, names: map[string]bool{}} }

func (v *validator) plan(p *Plan, path string, sc *vscope) error {
	if len(p.Steps) == 0 {
		return validateErr(KindEmptyPlan, join(path, "steps"), "the plan has no steps")
	}
	// Plan-level structure first: at most one final, and only last.
	finals := 0
	for i := range p.Steps {
		if p.Steps[i].Op != OpFinal {
			continue
		}
		sp := join(path, "steps"+idx(i))
		if finals++; finals > 1 {
			return validateErr(KindMultipleFinal, sp, "a plan has at most one final step")
		}
	}
	for i := range p.Steps {
		if p.Steps[i].Op == OpFinal && i != len(p.Steps)-1 {
			return validateErr(KindFinalNotLast, join(path, "steps"+idx(i)), "final must be the last step")
		}
	}
	for i := range p.Steps {
		st := &p.Steps[i]
		sp := join(path, "steps"+idx(i))
		if err := v.step(st, sp, sc); err != nil {
			return err
		}
	}
	return nil
}

// setFields returns the names of st's non-zero fields in canonical order.
func setFields(st *Step) []string {
	var out []string
	add := func(set bool, name string) {
		if set {
			out = append(out, name)
		}
	}
	add(st.Handle != nil, "handle")
	add(st.Action != nil, "action")
	add(st.Prompt != nil, "prompt")
	add(st.Model != "", "model")
	add(st.Options != nil, "options")
	add(st.Images != nil, "images")
	add(st.Query != nil, "query")
	add(st.Context != nil, "context")
	add(st.Name != "", "name")
	add(st.Args != nil, "args")
	add(st.Over != nil, "over")
	add(st.As != "", "as")
	add(st.Concurrency != 0, "concurrency")
	add(st.FailFast, "fail_fast")
	add(st.Attempts != 0, "attempts")
	add(st.Plan != nil, "plan")
	add(st.Plans != nil, "plans")
	add(st.Label != "", "label")
	add(st.Value != nil, "value")
	add(st.Bind != "", "bind")
	return out
}

func missing(path, field string) error {
	return validateErr(fault.KindMissingField, join(path, field), "required field is missing").With("field", field)
}

func (v *validator) step(st *Step, path string, sc *vscope) error {
	fields, ok := stepFields[st.Op]
	if !ok {
		return validateErr(KindUnknownOp, join(path, "op"), "op is not in the plan language").With("op", string(st.Op))
	}
	for _, f := range setFields(st) {
		if !slices.Contains(fields, f) {
			return validateErr(KindUnknownField, join(path, f), "field is not allowed for this op").With("field", f)
		}
	}
	var want capability.Cap
	switch st.Op {
	case OpContext:
		if st.Handle == nil {
			return missing(path, "handle")
		}
		if st.Action == nil {
			return missing(path, "action")
		}
		if err := validateAction(st.Action, join(path, "action")); err != nil {
			return err
		}
		if err := v.expr(st.Handle, join(path, "handle"), sc); err != nil {
			return err
		}
		want = capability.Context(st.Action.Type)
		if st.Action.Type == corpus.ActionImage {
			// A page's image shows its text: reading it is a slice.
			want = capability.Context(corpus.ActionSlice)
		}
	case OpModel:
		if st.Prompt == nil {
			return missing(path, "prompt")
		}
		name := st.Model
		if name == "" {
			name = v.cfg.DefaultModel
		}
		if name == "" {
			return badArg(join(path, "model"), "model", "the step names no model and there is no default model")
		}
		c, err := capability.Parse(string(capability.Model(name)))
		if err != nil {
			return badArg(join(path, "model"), "model", "invalid model name")
		}
		if st.Options != nil {
			if _, err := EncodeJSON(st.Options); err != nil {
				return badArg(join(path, "options"), "options", "options must be JSON")
			}
		}
		if err := v.expr(st.Prompt, join(path, "prompt"), sc); err != nil {
			return err
		}
		if st.Images != nil {
			if err := v.expr(st.Images, join(path, "images"), sc); err != nil {
				return err
			}
		}
		want = c
	case OpRLM:
		if st.Query == nil {
			return missing(path, "query")
		}
		if st.Context == nil {
			return missing(path, "context")
		}
		if err := v.expr(st.Query, join(path, "query"), sc); err != nil {
			return err
		}
		if err := v.expr(st.Context, join(path, "context"), sc); err != nil {
			return err
		}
		want = capability.RLM
	case OpTool:
		if st.Name == "" {
			return missing(path, "name")
		}
		c, err := capability.Parse(string(capability.Tool(st.Name)))
		if err != nil {
			return badArg(join(path, "name"), "name", "invalid tool name")
		}
		if st.Args != nil {
			if err := v.expr(st.Args, join(path, "args"), sc); err != nil {
				return err
			}
		}
		want = c
	case OpMap:
		switch {
		case st.Over == nil:
			return missing(path, "over")
		case st.As == "":
			return missing(path, "as")
		case st.Plan == nil:
			return missing(path, "plan")
		}
		if st.Concurrency < 0 || st.Concurrency > v.maxConc {
			return badArg(join(path, "concurrency"), "concurrency", "concurrency is out of range").With("max", v.maxConc)
		}
		if err := v.name(st.As, join(path, "as"), "as", sc); err != nil {
			return err
		}
		if err := v.expr(st.Over, join(path, "over"), sc); err != nil {
			return err
		}
		want = capability.Map
	case OpParallel:
		if len(st.Plans) == 0 {
			return missing(path, "plans")
		}
		if len(st.Plans) > MaxParallelBranches {
			return badArg(join(path, "plans"), "plans", "too many parallel branches").With("max", MaxParallelBranches)
		}
		want = capability.Parallel
	case OpRetry:
		if st.Plan == nil {
			return missing(path, "plan")
		}
		if st.Attempts < 1 || st.Attempts > MaxAttempts {
			return badArg(join(path, "attempts"), "attempts", "attempts must be between 1 and 10").With("max", MaxAttempts)
		}
		want = capability.Retry
	case OpCheckpoint:
		if st.Label == "" {
			return missing(path, "label")
		}
		want = capability.Checkpoint
	case OpFinal:
		if st.Value == nil {
			return missing(path, "value")
		}
		if err := v.expr(st.Value, join(path, "value"), sc); err != nil {
			return err
		}
	}
	if st.Op != OpFinal && st.Op != OpCheckpoint && st.Bind == "" {
		return missing(path, "bind")
	}
	if want != "" && !v.cfg.Granted.Has(want) {
		return validateErr(capability.KindDenied, path, "the step needs a capability that is not granted").With("capability", string(want))
	}
	if st.Op == OpRLM && v.cfg.DepthRemaining <= 0 {
		return validateErr(budget.KindMaxDepth, path, "no recursion depth remains")
	}
	switch st.Op {
	case OpMap:
		child := sc.child()
		child.names[st.As] = true
		if err := v.plan(st.Plan, join(path, "plan"), child); err != nil {
			return err
		}
	case OpRetry:
		if err := v.plan(st.Plan, join(path, "plan"), sc.child()); err != nil {
			return err
		}
	case OpParallel:
		for i := range st.Plans {
			if err := v.plan(&st.Plans[i], join(path, "plans")+idx(i), sc.child()); err != nil {
				return err
			}
		}
	}
	if st.Bind != "" {
		if err := v.name(st.Bind, join(path, "bind"), "bind", sc); err != nil {
			return err
		}
		sc.names[st.Bind] = true
	}
	return nil
}

// name checks a name about to be bound in sc.
func (v *validator) name(name, path, field string, sc *vscope) error {
	if !validIdent(name) {
		return badArg(path, field, "a variable name is [A-Za-z_][A-Za-z0-9_]*, at most 64 bytes").With("name", name)
	}
	if sc.has(name) {
		return validateErr(KindReboundVariable, path, "variable is already bound").With("name", name)
	}
	return nil
}

func (v *validator) expr(e *Expr, path string, sc *vscope) error {
	if e == nil {
		return validateErr(fault.KindMissingField, path, "expression is missing")
	}
	switch e.Kind {
	case ExprLiteral:
		if _, err := EncodeJSON(e.Literal); err != nil {
			return badArg(path, "literal", "literal is not JSON")
		}
	case ExprInput:
		if !v.inputs[e.Name] {
			return validateErr(KindUnknownInput, path, "no such input").With("name", e.Name)
		}
	case ExprVar:
		if !sc.has(e.Name) {
			return validateErr(KindUnboundVariable, path, "variable is not bound before this use").With("name", e.Name)
		}
	case ExprField, ExprIndex:
		return v.expr(e.Operand, join(path, "value"), sc)
	case ExprJSON, ExprText:
		if err := v.expr(e.Operand, join(path, e.Kind.String()), sc); err != nil {
			return err
		}
		if c := v.cfg.TextCapability; e.Kind == ExprText && c != "" && !v.cfg.Granted.Has(c) {
			return validateErr(capability.KindDenied, path, "reading text needs a capability that is not granted").With("capability", string(c))
		}
	case ExprJoin:
		for i, it := range e.Items {
			if err := v.expr(it, join(path, "join")+idx(i), sc); err != nil {
				return err
			}
		}
	case ExprList:
		for i, it := range e.Items {
			if err := v.expr(it, path+idx(i), sc); err != nil {
				return err
			}
		}
	case ExprObject:
		for _, k := range sortedKeys(e.Fields) {
			if err := v.expr(e.Fields[k], join(path, k), sc); err != nil {
				return err
			}
		}
	default:
		return badArg(path, "kind", "invalid expression kind")
	}
	return nil
}

// actionSpec lists, per action type, the fields it allows and requires.
var actionSpec = map[string]struct{ allowed, required []string }{
	corpus.ActionSearch:    {[]string{"pattern", "regex", "count_only"}, []string{"pattern"}},
	corpus.ActionSlice:     {[]string{"start", "length"}, nil},
	corpus.ActionPeek:      {[]string{"selector", "count"}, []string{"selector"}},
	corpus.ActionPartition: {[]string{"strategy", "size", "with_text", "with_handles"}, []string{"strategy", "size"}},
	corpus.ActionMap:       {[]string{"transform"}, []string{"transform"}},
	corpus.ActionReduce:    {[]string{"reducer"}, []string{"reducer"}},
	corpus.ActionImage:     {[]string{"dpi"}, nil},
}

// actionSet returns the names of a's non-zero fields, type excluded.
func actionSet(a *corpus.Action) []string {
	var out []string
	add := func(set bool, name string) {
		if set {
			out = append(out, name)
		}
	}
	add(a.Selector != "", "selector")
	add(a.Count != 0, "count")
	add(a.Start != 0, "start")
	add(a.Length != 0, "length")
	add(a.Pattern != "", "pattern")
	add(a.Regex, "regex")
	add(a.CountOnly, "count_only")
	add(a.Strategy != "", "strategy")
	add(a.Size != 0, "size")
	add(a.WithText, "with_text")
	add(a.WithHandles, "with_handles")
	add(a.Transform != "", "transform")
	add(a.Reducer != "", "reducer")
	add(a.DPI != 0, "dpi")
	return out
}

func validateAction(a *corpus.Action, path string) error {
	if a.Type == "" {
		return missing(path, "type")
	}
	spec, ok := actionSpec[a.Type]
	if !ok {
		return badArg(join(path, "type"), "type", "unknown action type").With("type", a.Type)
	}
	set := actionSet(a)
	for _, f := range set {
		if !slices.Contains(spec.allowed, f) {
			return validateErr(KindUnknownField, join(path, f), "field is not allowed for this action type").With("field", f)
		}
	}
	for _, f := range spec.required {
		if !slices.Contains(set, f) {
			return missing(path, f)
		}
	}
	oneOf := func(field, val string, allowed ...string) error {
		if !slices.Contains(allowed, val) {
			return badArg(join(path, field), field, "value is not one of the allowed values").With("allowed", allowed)
		}
		return nil
	}
	nonNeg := func(field string, n int64) error {
		if n < 0 {
			return badArg(join(path, field), field, "must not be negative")
		}
		return nil
	}
	var err error
	switch a.Type {
	case corpus.ActionPeek:
		if err = oneOf("selector", a.Selector, corpus.PeekHead, corpus.PeekTail, corpus.PeekMetadata); err == nil {
			err = nonNeg("count", a.Count)
		}
		if err == nil && a.Selector == corpus.PeekMetadata && a.Count != 0 {
			err = validateErr(KindUnknownField, join(path, "count"), "metadata takes no count").With("field", "count")
		}
	case corpus.ActionSlice:
		if err = nonNeg("start", a.Start); err == nil {
			err = nonNeg("length", a.Length)
		}
	case corpus.ActionPartition:
		if err = oneOf("strategy", a.Strategy, corpus.StrategyLines, corpus.StrategyBytes, corpus.StrategyPages); err == nil && a.Size < 1 {
			err = badArg(join(path, "size"), "size", "size must be positive")
		}
	case corpus.ActionMap:
		err = oneOf("transform", a.Transform, corpus.TransformIdentity, corpus.TransformLowercase, corpus.TransformUppercase, corpus.TransformLength)
	case corpus.ActionReduce:
		err = oneOf("reducer", a.Reducer, corpus.ReducerCount, corpus.ReducerByteCount)
	case corpus.ActionImage:
		if a.DPI != 0 && corpus.CheckImageDPI(a.DPI) != nil {
			err = badArg(join(path, "dpi"), "dpi", "dpi must be between 30 and 300").
				With("min", corpus.MinImageDPI).With("max", corpus.MaxImageDPI)
		}
	}
	return err
}
