package budget

import (
	"context"
	"encoding/json"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rlm-go/rlm/fault"
)

// Limits are the hard budgets of one run. They are tree-wide: a run and all
// its recursive children share one Tracker. They follow the rule of every
// Limits type (docs/budget.md, "One rule for every limit"): a zero field
// takes the default (DefaultLimits); a negative field means "unlimited",
// except MaxDepth, where a negative value is invalid (to forbid recursion,
// do not grant the "rlm" capability).
//
// Its JSON form has the fields' json names, the time limit in whole
// milliseconds as time_limit_ms (see Millis); UnmarshalJSON also reads the
// nanoseconds time_limit earlier versions wrote.
type Limits struct {
	MaxIterations  int           `json:"max_iterations"`   // completion-loop turns, summed over the tree
	MaxDepth       int           `json:"max_depth"`        // deepest recursion level allowed (root is 0)
	MaxModelCalls  int           `json:"max_model_calls"`  // provider requests, root and sub-calls
	MaxToolCalls   int           `json:"max_tool_calls"`   // tool invocations
	MaxContextOps  int           `json:"max_context_ops"`  // context-store operations
	MaxTotalTokens int64         `json:"max_total_tokens"` // prompt + completion tokens
	MaxCostUSD     float64       `json:"max_cost_usd"`     // reported or estimated cost
	MaxOutputBytes int           `json:"max_output_bytes"` // bytes of the final answer
	MaxConcurrency int           `json:"max_concurrency"`  // leaf sub-calls (model requests below the root, tool calls) in flight
	TimeLimit      time.Duration `json:"-"`                // wall clock for the whole run (JSON: time_limit_ms)
}

// plainLimits is Limits without its JSON methods.
type plainLimits Limits

// MarshalJSON encodes l with the time limit as time_limit_ms.
func (l Limits) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		plainLimits
		TimeLimitMS int64 `json:"time_limit_ms"`
	}{plainLimits(l), Millis(l.TimeLimit)})
}

// UnmarshalJSON decodes the form MarshalJSON writes. Without time_limit_ms
// it reads time_limit in nanoseconds, the form earlier versions wrote (in
// rlm_run's limits).
func (l *Limits) UnmarshalJSON(b []byte) error {
	var w struct {
		plainLimits
		TimeLimitMS *int64 `json:"time_limit_ms"`
		TimeLimitNS *int64 `json:"time_limit"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*l = Limits(w.plainLimits)
	switch {
	case w.TimeLimitMS != nil:
		l.TimeLimit = FromMillis(*w.TimeLimitMS)
	case w.TimeLimitNS != nil:
		l.TimeLimit = time.Duration(*w.TimeLimitNS)
	}
	return nil
}

// Millis is how every limit's duration is written in JSON: whole
// milliseconds, in a field whose name ends in _ms. A nonzero duration
// shorter than a millisecond is written as 1 or -1, never as 0, which
// would read back as "the default".
func Millis(d time.Duration) int64 {
	ms := d.Milliseconds()
	switch {
	case ms == 0 && d > 0:
		return 1
	case ms == 0 && d < 0:
		return -1
	}
	return ms
}

// FromMillis is the duration of ms milliseconds (the inverse of Millis).
// A value beyond time.Duration's range (about 292 years) saturates at
// its largest (or smallest) duration instead of wrapping: a huge limit
// stays huge rather than becoming a tiny or negative one.
func FromMillis(ms int64) time.Duration {
	const most = math.MaxInt64 / int64(time.Millisecond)
	switch {
	case ms > most:
		return math.MaxInt64
	case ms < -most:
		return math.MinInt64
	}
	return time.Duration(ms) * time.Millisecond
}

// DefaultLimits are used for zero fields of Limits.
var DefaultLimits = Limits{
	MaxIterations:  100,
	MaxDepth:       1,
	MaxModelCalls:  500,
	MaxToolCalls:   200,
	MaxContextOps:  2000,
	MaxTotalTokens: 5_000_000,
	MaxCostUSD:     5.0,
	MaxOutputBytes: 1 << 20,
	MaxConcurrency: 8,
	TimeLimit:      10 * time.Minute,
}

// Budget error kinds (Phase budget; max_depth_exceeded also Phase validate,
// for a plan that nests deeper than allowed). Each carries the limit's
// name, its maximum and what was used in detail "limit", "max", "used".
const (
	KindMaxIterations  fault.Kind = "max_iterations_exceeded"   // the run's turns of the completion loop reached max_iterations
	KindMaxDepth       fault.Kind = "max_depth_exceeded"        // a recursive call would go deeper than max_depth
	KindMaxModelCalls  fault.Kind = "max_model_calls_exceeded"  // provider requests reached max_model_calls
	KindMaxToolCalls   fault.Kind = "max_tool_calls_exceeded"   // tool calls reached max_tool_calls
	KindMaxContextOps  fault.Kind = "max_context_ops_exceeded"  // context operations (search, slice, peek, ...) reached max_context_ops
	KindMaxTotalTokens fault.Kind = "max_total_tokens_exceeded" // tokens used, or a request's worst case, would pass max_total_tokens
	KindMaxCost        fault.Kind = "max_cost_exceeded"         // spending, or a request's worst case, would pass max_cost_usd
	KindMaxOutputBytes fault.Kind = "max_output_bytes_exceeded" // the final answer is longer than max_output_bytes
	KindTimeLimit      fault.Kind = "time_limit_exceeded"       // the run's wall time reached time_limit
	KindInvalidLimits  fault.Kind = "invalid_limits"            // a limit has a value the one zero-value rule refuses (docs/budget.md)
)

// Resolve returns l with zero fields replaced by DefaultLimits, or a typed
// error for invalid values.
func (l Limits) Resolve() (Limits, error) {
	d := DefaultLimits
	if l.MaxDepth < 0 {
		return l, fault.New(fault.PhaseConfig, KindInvalidLimits, "max_depth must not be negative")
	}
	pick := func(v, def int) int {
		if v == 0 {
			return def
		}
		return v
	}
	l.MaxDepth = pick(l.MaxDepth, d.MaxDepth)
	l.MaxIterations = pick(l.MaxIterations, d.MaxIterations)
	l.MaxModelCalls = pick(l.MaxModelCalls, d.MaxModelCalls)
	l.MaxToolCalls = pick(l.MaxToolCalls, d.MaxToolCalls)
	l.MaxContextOps = pick(l.MaxContextOps, d.MaxContextOps)
	l.MaxOutputBytes = pick(l.MaxOutputBytes, d.MaxOutputBytes)
	l.MaxConcurrency = pick(l.MaxConcurrency, d.MaxConcurrency)
	if l.MaxTotalTokens == 0 {
		l.MaxTotalTokens = d.MaxTotalTokens
	}
	if l.MaxCostUSD == 0 {
		l.MaxCostUSD = d.MaxCostUSD
	}
	if l.TimeLimit == 0 {
		l.TimeLimit = d.TimeLimit
	}
	if l.MaxConcurrency < 0 {
		l.MaxConcurrency = 1 << 20
	}
	return l, nil
}

// Counters is a snapshot of what a run has spent.
type Counters struct {
	Iterations  int64 `json:"iterations"`
	ModelCalls  int64 `json:"model_calls"`
	ToolCalls   int64 `json:"tool_calls"`
	ContextOps  int64 `json:"context_ops"`
	MaxDepth    int64 `json:"max_depth_reached"`
	InFlight    int64 `json:"in_flight"`
	MaxInFlight int64 `json:"max_in_flight"`
}

// Tracker enforces Limits with counters shared by every goroutine of a run
// tree. It is safe for concurrent use.
//
// A tracker made with Child also spends from its parent: every count,
// token, cost and second is admitted against both, and charged to both.
type Tracker struct {
	limits Limits
	start  time.Time
	sem    chan struct{}
	// parent, when set, is charged everything this tracker is; depth d
	// here is depth base+d there.
	parent *Tracker
	base   int

	iterations, modelCalls, toolCalls, contextOps atomic.Int64
	maxDepth, inFlight, maxInFlight               atomic.Int64

	mu      sync.Mutex
	usage   Usage
	byDepth map[int]Usage
	// spent is what the token and cost limits are enforced against: the
	// reported usage, or a call's admitted worst case where its provider
	// reported none. held is the worst case of the calls in flight.
	spent, held spend
}

// NewTracker returns a Tracker for resolved limits (see Limits.Resolve).
func NewTracker(l Limits) *Tracker {
	return &Tracker{limits: l, start: time.Now(), sem: make(chan struct{}, max(l.MaxConcurrency, 1)), byDepth: map[int]Usage{}}
}

// Child returns a tracker for resolved limits l that also spends from t:
// a run started by one of t's tool calls (an rlm_subagent child, say) at
// depth d of t. The child is held to its own limits and to what is left
// of t's: each admission (iteration, model and tool call, context
// operation, a model call's worst-case tokens and cost) is checked
// against both and counted in both, its usage is charged to both (at
// depth base+d in t for depth d in the child), and its deadline is the
// earlier of the two. Depth, output size and concurrency are the
// child's own: its recursion starts again at 0, and it takes no slot of
// t's (the tool call that started it may hold one).
func (t *Tracker) Child(l Limits, base int) *Tracker {
	c := NewTracker(l)
	c.parent, c.base = t, base
	return c
}

// Limits returns the limits the tracker enforces (its own; a child's
// parent's limits apply too).
func (t *Tracker) Limits() Limits { return t.limits }

// Deadline returns the wall-clock deadline of the run: the earliest of its
// own and its parents'; ok is false when none has a time limit.
func (t *Tracker) Deadline() (deadline time.Time, ok bool) {
	for u := t; u != nil; u = u.parent {
		if u.limits.TimeLimit <= 0 {
			continue
		}
		if d := u.start.Add(u.limits.TimeLimit); !ok || d.Before(deadline) {
			deadline, ok = d, true
		}
	}
	return deadline, ok
}

type ctxKey struct{}

type scoped struct {
	t     *Tracker
	depth int
}

// WithTracker returns a context carrying t and the depth of the work done
// under it: a tool handler that starts a run (as rlm_subagent does) makes
// that run's tracker a Child of t, so nothing it spends escapes t.
func WithTracker(ctx context.Context, t *Tracker, depth int) context.Context {
	return context.WithValue(ctx, ctxKey{}, scoped{t, depth})
}

// FromContext returns the tracker ctx carries and its depth, or nil.
func FromContext(ctx context.Context) (*Tracker, int) {
	s, _ := ctx.Value(ctxKey{}).(scoped)
	return s.t, s.depth
}

func exceeded(kind fault.Kind, limit string, max any, used any) *fault.Error {
	return fault.New(fault.PhaseBudget, kind, "budget exhausted: "+limit).With("limit", limit).With("max", max).With("used", used)
}

// ofCaller marks a refusal by a child's parent: the limit is the caller's.
func (t *Tracker) ofCaller(u *Tracker, fe *fault.Error) error {
	if u != t {
		fe = fe.With("budget", "caller").WithHint("the limit is the calling run's, which this run spends from: raise the caller's limit")
	}
	return fe
}

// admit counts one more of a counter pick chooses, in t and each parent,
// or in none when one of them is at its limit.
func (t *Tracker) admit(pick func(*Tracker) (*atomic.Int64, int), kind fault.Kind, name string) error {
	for u := t; u != nil; u = u.parent {
		c, max := pick(u)
		n := c.Add(1)
		if max >= 0 && n > int64(max) {
			for v := t; v != u.parent; v = v.parent {
				c, _ := pick(v)
				c.Add(-1)
			}
			return t.ofCaller(u, exceeded(kind, name, max, n-1))
		}
	}
	return nil
}

// Fits reports, counting nothing, whether modelCalls, toolCalls and
// contextOps more operations fit what is left of t's limits and of every
// caller's (a fan-out refused before it starts).
func (t *Tracker) Fits(modelCalls, toolCalls, contextOps int) error {
	want := [3]int{modelCalls, toolCalls, contextOps}
	for u := t; u != nil; u = u.parent {
		for i, c := range u.counted() {
			if c.max >= 0 && int64(want[i]) > int64(c.max)-c.used {
				return t.ofCaller(u, fault.New(fault.PhaseBudget, c.kind, "a fan-out would exceed the budget").
					With("limit", c.name).With("max", c.max).With("used", c.used).With("requested", want[i]))
			}
		}
	}
	return nil
}

// countedLimit is one of the counted limits of a tracker and its use.
type countedLimit struct {
	used int64
	max  int
	kind fault.Kind
	name string
}

// counted returns t's model-call, tool-call and context-op limits, in
// that order, with what t has counted against them.
func (t *Tracker) counted() [3]countedLimit {
	return [3]countedLimit{
		{t.modelCalls.Load(), t.limits.MaxModelCalls, KindMaxModelCalls, "max_model_calls"},
		{t.toolCalls.Load(), t.limits.MaxToolCalls, KindMaxToolCalls, "max_tool_calls"},
		{t.contextOps.Load(), t.limits.MaxContextOps, KindMaxContextOps, "max_context_ops"},
	}
}

// Iteration admits one more completion-loop turn.
func (t *Tracker) Iteration() error {
	if err := t.Spendable(); err != nil {
		return err
	}
	return t.admit(func(u *Tracker) (*atomic.Int64, int) { return &u.iterations, u.limits.MaxIterations }, KindMaxIterations, "max_iterations")
}

// ModelCall admits one more provider request, after checking that tokens,
// cost and time remain.
func (t *Tracker) ModelCall() error {
	if err := t.Spendable(); err != nil {
		return err
	}
	return t.admit(func(u *Tracker) (*atomic.Int64, int) { return &u.modelCalls, u.limits.MaxModelCalls }, KindMaxModelCalls, "max_model_calls")
}

// ToolCall admits one more tool invocation.
func (t *Tracker) ToolCall() error {
	if err := t.checkTime(); err != nil {
		return err
	}
	return t.admit(func(u *Tracker) (*atomic.Int64, int) { return &u.toolCalls, u.limits.MaxToolCalls }, KindMaxToolCalls, "max_tool_calls")
}

// ContextOp admits one more context-store operation.
func (t *Tracker) ContextOp() error {
	if err := t.checkTime(); err != nil {
		return err
	}
	return t.admit(func(u *Tracker) (*atomic.Int64, int) { return &u.contextOps, u.limits.MaxContextOps }, KindMaxContextOps, "max_context_ops")
}

// Left returns how many more model calls, tool calls and context
// operations t admits: the least left in t and each parent it spends
// from; -1 means unlimited.
func (t *Tracker) Left() (modelCalls, toolCalls, contextOps int) {
	left := [3]int{-1, -1, -1}
	for u := t; u != nil; u = u.parent {
		for i, c := range u.counted() {
			if n := max(c.max-int(c.used), 0); c.max >= 0 && (left[i] < 0 || n < left[i]) {
				left[i] = n
			}
		}
	}
	return left[0], left[1], left[2]
}

// ModelTurn admits one more provider request that is also one more
// completion-loop turn: both are counted, or, when either is refused,
// neither.
func (t *Tracker) ModelTurn() error {
	if err := t.ModelCall(); err != nil {
		return err
	}
	if err := t.Iteration(); err != nil {
		for u := t; u != nil; u = u.parent {
			u.modelCalls.Add(-1)
		}
		return err
	}
	return nil
}

// Depth admits running at recursion depth d.
func (t *Tracker) Depth(d int) error {
	if d > t.limits.MaxDepth {
		return exceeded(KindMaxDepth, "max_depth", t.limits.MaxDepth, d)
	}
	for {
		cur := t.maxDepth.Load()
		if int64(d) <= cur || t.maxDepth.CompareAndSwap(cur, int64(d)) {
			return nil
		}
	}
}

// Output checks the size of a final answer.
func (t *Tracker) Output(n int) error {
	if t.limits.MaxOutputBytes >= 0 && n > t.limits.MaxOutputBytes {
		return exceeded(KindMaxOutputBytes, "max_output_bytes", t.limits.MaxOutputBytes, n)
	}
	return nil
}

// Spendable reports a typed error when tokens, cost or time are used up.
func (t *Tracker) Spendable() error {
	if err := t.checkTime(); err != nil {
		return err
	}
	for u := t; u != nil; u = u.parent {
		u.mu.Lock()
		s := u.spent
		u.mu.Unlock()
		if u.limits.MaxTotalTokens > 0 && s.tokens >= u.limits.MaxTotalTokens {
			return t.ofCaller(u, exceeded(KindMaxTotalTokens, "max_total_tokens", u.limits.MaxTotalTokens, s.tokens))
		}
		if u.limits.MaxCostUSD > 0 && s.cost >= u.limits.MaxCostUSD {
			return t.ofCaller(u, exceeded(KindMaxCost, "max_cost_usd", u.limits.MaxCostUSD, s.cost))
		}
	}
	return nil
}

func (t *Tracker) checkTime() error {
	for u := t; u != nil; u = u.parent {
		if u.limits.TimeLimit > 0 && time.Since(u.start) > u.limits.TimeLimit {
			return t.ofCaller(u, exceeded(KindTimeLimit, "time_limit", u.limits.TimeLimit.String(), time.Since(u.start).Round(time.Millisecond).String()))
		}
	}
	return nil
}

// Charge records the usage of one model call made at depth d without a
// reservation (see Reserve, which model calls should use so that a call
// cannot cross the token and cost limits). Usage is charged even for
// responses that are later rejected. An impossible usage (a negative or
// NaN count or cost) charges nothing for that part: what the tracker
// has counted never decreases.
func (t *Tracker) Charge(d int, u Usage) {
	s := charged(u, spend{})
	for v := t; v != nil; d, v = d+v.base, v.parent {
		v.mu.Lock()
		v.chargeLocked(d, u, s)
		v.mu.Unlock()
	}
}

// Save records the savings of a cache hit at depth d (u as from
// Usage.Saved): no call, token or cost is charged, and no limit is checked.
func (t *Tracker) Save(d int, u Usage) {
	u = Usage{SavedCalls: u.SavedCalls, SavedTokens: u.SavedTokens, SavedCostUSD: u.SavedCostUSD}.Clean()
	for v := t; v != nil; d, v = d+v.base, v.parent {
		v.mu.Lock()
		v.usage = v.usage.Add(u)
		v.byDepth[d] = v.byDepth[d].Add(u)
		v.mu.Unlock()
	}
}

// chargeLocked records u (cleaned: the record's sums never decrease)
// and adds s to what the limits count.
func (t *Tracker) chargeLocked(d int, u Usage, s spend) {
	u = u.Clean()
	if u.Calls == 0 {
		u.Calls = 1
	}
	t.usage = t.usage.Add(u)
	t.byDepth[d] = t.byDepth[d].Add(u)
	t.spent = t.spent.add(s)
}

// Usage returns the total usage so far.
func (t *Tracker) Usage() Usage {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.usage
}

// UsageByDepth returns the usage per recursion depth.
func (t *Tracker) UsageByDepth() map[int]Usage {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make(map[int]Usage, len(t.byDepth))
	for k, v := range t.byDepth {
		out[k] = v
	}
	return out
}

// Counters returns a snapshot of the counters.
func (t *Tracker) Counters() Counters {
	return Counters{
		Iterations: t.iterations.Load(), ModelCalls: t.modelCalls.Load(), ToolCalls: t.toolCalls.Load(),
		ContextOps: t.contextOps.Load(), MaxDepth: t.maxDepth.Load(), InFlight: t.inFlight.Load(), MaxInFlight: t.maxInFlight.Load(),
	}
}

// Acquire takes one of the MaxConcurrency slots for a sub-call, waiting
// until one is free or ctx ends. Release it with the returned function.
func (t *Tracker) Acquire(ctx context.Context) (release func(), err error) {
	select {
	case t.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, fault.FromContext(fault.PhaseExecute, context.Cause(ctx))
	}
	n := t.inFlight.Add(1)
	for {
		cur := t.maxInFlight.Load()
		if n <= cur || t.maxInFlight.CompareAndSwap(cur, n) {
			break
		}
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			t.inFlight.Add(-1)
			<-t.sem
		})
	}, nil
}
