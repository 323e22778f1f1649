// Package engine runs Recursive Language Model completions: the iterative
// loop in which a root model inspects an external context through validated
// plans, reads bounded observations, recursively delegates sub-contexts to
// child loops, and returns an answer, all under tree-wide budgets.
//
// The model chooses the strategy; the engine owns the execution: parsing and
// validation of every plan before it runs, capabilities (children only
// narrow), budgets enforced with shared counters, cancellation through
// context.Context, and a trace of every event.
package engine

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	ansschema "github.com/rlm-go/rlm/answer"
	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/repl"
	"github.com/rlm-go/rlm/repl/pyodide"
	"github.com/rlm-go/rlm/trace"
	"github.com/rlm-go/rlm/vision"
)

// Error kinds reported by the engine.
const (
	// KindDeepRecursionRequired reports Limits.MaxDepth above
	// MaxSupportedDepth, before any model call. The kind keeps the
	// spelling of the time depth above 1 needed an opt-in (a contract).
	KindDeepRecursionRequired fault.Kind = "experimental_deep_recursion_required"
	KindRecursiveCycle        fault.Kind = "recursive_cycle"
	KindToolUnavailable       fault.Kind = "tool_unavailable"
)

// Defaults of Config fields left zero.
const (
	DefaultObservationBytes = 4 << 10
	DefaultPromptBytes      = 1 << 20
	DefaultMaxTokens        = 4096
	DefaultPrefixBytes      = 256
	DefaultMaxResults       = 1000
	DefaultMaxRepairs       = 2
	// MaxStepConcurrency caps the branches one map or parallel step runs at
	// once. The tree-wide Limits.MaxConcurrency bounds the sub-calls
	// actually in flight.
	MaxStepConcurrency = 64
)

// Tools is the narrow interface through which plans call registered tools.
// tool.ModelTools implements it over the tool runtime; authorization
// happens there, against the capabilities passed with each call. An error
// of Kind approval_required or authority_denied (declared in authority)
// ends the run; other tool errors are observations.
type Tools interface {
	// Schemas returns the tools offered to the model, sorted by name.
	Schemas() []model.Tool
	// Call invokes one tool with JSON arguments under caps.
	Call(ctx context.Context, caps capability.Set, name string, args json.RawMessage) (json.RawMessage, error)
}

// Config configures an Engine.
type Config struct {
	// Provider answers the root loop's requests.
	Provider model.Provider
	// Model is the root model's name (sent in requests and used for
	// capabilities "model:NAME" and cost estimates).
	Model string
	// SubProvider answers sub-calls (model steps and child loops). Default:
	// Provider.
	SubProvider model.Provider
	// SubModel is the model for sub-calls. Default: Model.
	SubModel string
	// Store holds the contexts. Required.
	Store *corpus.Store
	// Tools, when set, offers registered tools to plans.
	Tools Tools
	// Capabilities granted to the root loop. Default: DefaultCapabilities.
	Capabilities capability.Set
	// ChildCapabilities is the host-configured subset for recursive
	// children; it is narrowed against the parent (an extra capability is a
	// configuration error). Default: the root set without tools.
	ChildCapabilities capability.Set
	// Limits are the tree-wide budgets (zero fields take defaults).
	Limits budget.Limits
	// ExperimentalDeepRecursion is deprecated, accepted and ignored:
	// Limits.MaxDepth up to MaxSupportedDepth needs no opt-in, and above
	// it a run is refused with or without this field. (Not marked
	// "Deprecated:" yet: the durable run fingerprint still records it.)
	ExperimentalDeepRecursion bool
	// Mode is how loops work: ModePlan (default, JSON plans) or ModeCode
	// (the model writes code run by a sandboxed interpreter; needs
	// capability code, which the default capabilities then include).
	Mode string
	// Code bounds each code-mode interpreter (zero fields: repl defaults).
	Code repl.Config
	// Python selects code mode's interpreter: PythonEmbedded (default) or
	// PythonPyodide (CPython in WebAssembly; needs Node.js and the npm
	// package pyodide), configured by Pyodide (CellTimeout and
	// MaxOutputBytes default to Code's).
	Python  string
	Pyodide pyodide.Config
	// ObservationBytes bounds the observation fed back per turn.
	ObservationBytes int
	// PromptBytes bounds the text of one {"text":E} expression.
	PromptBytes int
	// Images are images code mode can load by name (load_image(NAME))
	// and send with llm_query(prompt, images=[...]); make them with
	// vision.Open or vision.Prepare, which bound and scale them. The
	// host may add to the set until the run starts.
	Images *vision.Set
	// MaxTokens is the completion limit of each model request.
	MaxTokens int
	// ContextWindow is the root model's context window in tokens (0: the
	// run's model table's, ModelWindows over model.Table). When set, it is
	// the host's entry for Model, above ModelWindows: the root loop's
	// prompt and MaxTokens must fit it (see Compaction), and every call to
	// Model is admitted against it.
	ContextWindow int
	// Compaction configures the root loop's history compaction (on by
	// default, at DefaultCompactAt of ContextWindow).
	Compaction Compaction
	// ModelWindows are the host's entries of the model table (context
	// window, max output, tokenizer by name prefix) over the shipped one
	// (model.Table); each run starts from them and learns smaller windows
	// from servers (model.Windows). Every model call is admitted against
	// its model's window (meter.ModelCall.Windows).
	ModelWindows []model.Info
	// NoAutoSplit turns off the automatic re-split of a sub-call prompt
	// that does not fit its model's window (docs/engine.md, "Sub-calls
	// sized to the window"): such a call fails with prompt_too_large.
	NoAutoSplit bool
	// Temperature, when set, is sent with every request.
	Temperature *float64
	// Instructions are appended to the system prompt.
	Instructions string
	// ContextLimits bound each context operation (zero fields: corpus
	// defaults, with MaxResults DefaultMaxResults).
	ContextLimits corpus.Limits
	// MaxRepairs is how many consecutive rejected replies a loop answers
	// with a repair message before the rejection fails the run. Zero means
	// DefaultMaxRepairs; a negative value allows no repair. It also bounds
	// the final answers AnswerSchema refuses, counted over the whole run.
	MaxRepairs int
	// AnswerSchema, when set, types the run's final answer: the root
	// loop's answer must match it (its JSON value: a string by
	// answer.Schema.TextValue, any other value as its JSON), else the model
	// gets a repair message naming the failing pointers and keywords, up to
	// MaxRepairs times, and then the run fails with answer.KindInvalid.
	// Result.AnswerJSON holds the accepted value. rlm.CompileAnswerSchema
	// builds one (docs/engine.md, "Typed answers").
	AnswerSchema *ansschema.Schema
	// Observer, when set, receives every Event of a run as it happens:
	// each turn's reply, outcome and observation at every depth, each
	// sub-call, and streamed deltas of root replies. Calls are serialized.
	// Events are a view of the run's trace events (see EventOf): a live
	// observer of the trace recorder (trace.WithLiveObserver) sees the
	// same steps as trace.Events, with the run's other events.
	Observer func(Event)
	// Stream requests root replies as streams (model.Request.Stream), so
	// that their text reaches the Observer (and live trace observers) as
	// EventDelta pieces (trace.KindDelta) while it arrives. Sub-calls are
	// never streamed.
	Stream bool
	// TraceContent records each reply's text (bounded by
	// TraceContentBytes, credentials redacted) as attribute "reply" on its
	// turn span, a sub-call's response on its plan step's span, and a
	// completed run's answer as attribute "answer" and its question as
	// attribute "query" on its run (or rlm_child) span. Off by
	// default: traces hold no model text unless asked (the text live
	// observers see is live-only, never kept: trace.Event.Live).
	TraceContent bool
	// ContextInPrompt gives the root loop of a code-mode run the context's
	// whole text in its first user message, above the query, instead of
	// in the REPL: the interpreter holds no context variable and the
	// system prompt says where the context is (a CodeAct agent's setting,
	// rlm bench's codeact methods). The root prompt is admitted against
	// the root model's window like any root prompt (a context too large
	// for it fails the run with prompt_too_large before any call). Code
	// mode only, and no Session (both refuse it: invalid_config); children
	// are unchanged.
	ContextInPrompt bool
	// Executor carries out the run's sub-calls (model requests, tool
	// calls, child loops). Default: InProcess. See Executor.
	Executor Executor
}

// DefaultCapabilities returns the root capabilities used when none are
// configured: every context operation, the root and sub models, rlm, map,
// parallel, retry and checkpoint.
func DefaultCapabilities(rootModel, subModel string) capability.Set {
	caps := []capability.Cap{capability.RLM, capability.Map, capability.Parallel, capability.Retry, capability.Checkpoint,
		capability.Model(rootModel), capability.Model(subModel)}
	for _, op := range []string{"peek", "slice", "search", "partition", "map", "reduce"} {
		caps = append(caps, capability.Context(op))
	}
	return capability.Of(caps...)
}

// Engine runs completions. It is safe for concurrent use; each Run has its
// own budget tracker.
type Engine struct {
	cfg Config
}

// New validates cfg and returns an Engine.
func New(cfg Config) (*Engine, error) {
	if cfg.Provider == nil || cfg.Store == nil {
		return nil, fault.New(fault.PhaseConfig, fault.KindInvalidConfig, "engine needs a provider and a context store")
	}
	if cfg.Model == "" {
		cfg.Model = "default"
	}
	if cfg.SubProvider == nil {
		cfg.SubProvider = cfg.Provider
	}
	if cfg.SubModel == "" {
		cfg.SubModel = cfg.Model
	}
	switch cfg.Python {
	case "":
		cfg.Python = PythonEmbedded
	case PythonEmbedded, PythonPyodide:
	default:
		return nil, fault.New(fault.PhaseConfig, fault.KindInvalidConfig, "unknown interpreter").With("python", cfg.Python).WithHint("use embedded or pyodide")
	}
	switch cfg.Mode {
	case "":
		cfg.Mode = ModePlan
	case ModePlan, ModeCode:
	default:
		return nil, fault.New(fault.PhaseConfig, fault.KindInvalidConfig, "unknown mode").With("mode", cfg.Mode).WithHint("use plan or code")
	}
	if cfg.Capabilities.Len() == 0 {
		// The defaults grant the tools the program gave (it gave them to
		// be used); Capabilities narrows.
		cfg.Capabilities = DefaultCapabilities(cfg.Model, cfg.SubModel)
		if cfg.Tools != nil {
			var tools []capability.Cap
			for _, t := range cfg.Tools.Schemas() {
				tools = append(tools, capability.Tool(t.Name))
			}
			cfg.Capabilities = cfg.Capabilities.Union(capability.Of(tools...))
		}
	}
	if cfg.ContextInPrompt && cfg.Mode != ModeCode {
		return nil, fault.New(fault.PhaseConfig, fault.KindInvalidConfig, "the context in the prompt needs code mode").With("mode", cfg.Mode).WithHint("use mode code")
	}
	if cfg.Mode == ModeCode {
		// Code mode is the model writing code: it needs capability code.
		cfg.Capabilities = cfg.Capabilities.Union(capability.Of(capability.Code))
	}
	// An effectful tool that cannot record its effects is refused now,
	// not when the model calls it.
	if c, ok := cfg.Tools.(interface{ Check(capability.Set) error }); ok {
		if err := c.Check(cfg.Capabilities); err != nil {
			return nil, err
		}
	}
	if cfg.ChildCapabilities.Len() == 0 {
		var child []capability.Cap
		for _, c := range cfg.Capabilities.List() {
			if c.Prefix() != capability.PrefixTool {
				child = append(child, c)
			}
		}
		cfg.ChildCapabilities = capability.Of(child...)
	}
	if _, err := cfg.Capabilities.Narrow(cfg.ChildCapabilities); err != nil {
		return nil, err
	}
	if err := cfg.Compaction.check(cfg.ContextWindow); err != nil {
		return nil, err
	}
	lim, err := cfg.Limits.Resolve()
	if err != nil {
		return nil, err
	}
	cfg.Limits = lim
	if cfg.ObservationBytes <= 0 {
		cfg.ObservationBytes = DefaultObservationBytes
	}
	if cfg.PromptBytes <= 0 {
		cfg.PromptBytes = DefaultPromptBytes
	}
	if cfg.MaxTokens <= 0 {
		cfg.MaxTokens = DefaultMaxTokens
	}
	if cfg.MaxRepairs == 0 {
		cfg.MaxRepairs = DefaultMaxRepairs
	}
	if cfg.Executor == nil {
		cfg.Executor = InProcess{}
	}
	if cfg.ContextLimits.MaxResults == 0 {
		cfg.ContextLimits.MaxResults = DefaultMaxResults
	}
	return &Engine{cfg: cfg}, nil
}

// Config returns the resolved configuration.
func (e *Engine) Config() Config { return e.cfg }

// Status of a run.
const (
	StatusCompleted = "completed"
	StatusFailed    = "failed"
	StatusCancelled = "cancelled"
)

// Recursion summarizes recursive children.
type Recursion struct {
	// RecursiveCalls counts the rlm children started in the whole tree.
	RecursiveCalls int `json:"recursive_calls"`
	// MaxDepth is the deepest child's depth.
	MaxDepth int `json:"max_depth"`
	// Fingerprints are the children's (query, context) fingerprints,
	// sorted.
	Fingerprints []string `json:"fingerprints,omitempty"`
}

// AutoSplit counts the re-split sub-calls of a run (docs/engine.md,
// "Sub-calls sized to the window").
type AutoSplit struct {
	// Calls counts the prompts re-split (a piece or merge re-split again
	// counts once more).
	Calls int `json:"calls"`
	// Pieces counts the pieces asked; Merges the reduce calls made.
	Pieces int `json:"pieces"`
	Merges int `json:"merges"`
	// WindowCorrections counts the windows a server's context-length
	// error corrected.
	WindowCorrections int `json:"window_corrections,omitempty"`
}

// Result is the outcome of a Run. On failure it still carries the usage
// spent so far, the trajectory and the partial answer if any.
type Result struct {
	Status string `json:"status"`
	Answer any    `json:"answer"`
	// AnswerJSON is the answer's JSON value when the run had an answer
	// schema (Config.AnswerSchema), which it matches: a string answer
	// holding JSON text is that value (answer.Schema.TextValue).
	AnswerJSON json.RawMessage `json:"answer_json,omitempty"`
	// AnswerMeta holds the other keys of the model's answer object
	// ({"answer": V, "confidence": 0.9}), as plain JSON, never evaluated.
	AnswerMeta   map[string]any       `json:"answer_meta,omitempty"`
	Partial      any                  `json:"partial,omitempty"`
	Usage        budget.Usage         `json:"usage"`
	UsageByDepth map[int]budget.Usage `json:"usage_by_depth"`
	Counters     budget.Counters      `json:"counters"`
	Recursion    Recursion            `json:"recursion"`
	AutoSplit    AutoSplit            `json:"auto_split,omitzero"` // sub-calls re-split to fit their window
	Turns        int                  `json:"turns"`
	Vars         map[string]any       `json:"vars,omitempty"`
	Trajectory   []trace.Event        `json:"trajectory"`
	Error        *fault.Error         `json:"error,omitempty"`
	// PendingApprovals lists, sorted, the ids of the pending operations
	// (approval_required) the run tree's tool calls created or joined
	// before the run ended; a host approves them through its tool runtime.
	PendingApprovals []string `json:"pending_approvals,omitempty"`
	ElapsedMS        float64  `json:"elapsed_ms"`
}

// run is the shared state of one run tree.
type run struct {
	e       *Engine
	tracker *budget.Tracker
	rec     *trace.Recorder
	exec    Executor

	mu      sync.Mutex
	created []corpus.Handle // sub-contexts registered during the run
	rstats  Recursion
	splits  AutoSplit
	pending map[string]bool // approval ids of pending operations (PendingApprovals)
	// thumbs makes the trace thumbnails of the images the run's calls
	// send (Config.TraceContent): an image sent again by another sub-call
	// is not decoded again.
	thumbs vision.Thumbs
	// pageImages are the page images a plan rendered (image action), by
	// SHA256, for its model steps' "images".
	pageImages map[string]model.Image
	// session is the interpreter the root loop uses (Session.Ask,
	// RunInputs); nil for a new one. It is taken out of the context, so a
	// run that a tool call starts (an rlm_subagent child) gets its own.
	session *codeState

	windows *model.Windows // the run's model table (Config.ModelWindows, learned windows)

	obsMu sync.Mutex // serializes Config.Observer calls
	live  bool       // live events are recorded (liveContext)
}

// Run answers query over the context input. The returned Result is never
// nil; err is the typed error of a failed run (also in Result.Error).
func (e *Engine) Run(ctx context.Context, query string, input corpus.Handle) (*Result, error) {
	start := time.Now()
	rec := trace.FromContext(ctx)
	if rec == nil {
		rec = trace.NewRecorder()
		ctx = trace.WithRecorder(ctx, rec)
	}
	r := &run{e: e, tracker: budget.NewTracker(e.cfg.Limits), rec: rec, exec: e.cfg.Executor, session: sessionState(ctx), windows: model.NewWindows(e.cfg.windowEntries()...)}
	if r.session != nil {
		ctx = withSessionState(ctx, nil)
	}
	if caller, depth := budget.FromContext(ctx); caller != nil {
		// A run started by a tool call of another run (an rlm_subagent
		// child) spends from that run's budget as well as its own.
		r.tracker = caller.Child(e.cfg.Limits, depth+1)
	}
	ctx = r.liveContext(ctx)
	res := &Result{Status: StatusFailed}
	defer r.cleanup()

	if deadline, ok := r.tracker.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, deadline)
		defer cancel()
	}
	ctx, span := trace.Start(trace.WithDepth(ctx, 0), trace.KindRun, "rlm")
	span.Set("query_bytes", len(query))
	if e.cfg.TraceContent {
		span.Set("query", shown(query, TraceContentBytes))
	}
	var ans answer
	err := e.gate()
	if err == nil {
		root := node{depth: 0, query: query, input: input, caps: e.cfg.Capabilities, childCaps: e.cfg.ChildCapabilities}
		root.ancestors = []string{r.fingerprintOf(ctx, query, input)}
		ans, err = r.loop(ctx, root)
		err = r.normalize(ctx, err)
	}
	span.Set("turns", ans.turns)
	if err == nil && e.cfg.TraceContent {
		span.Set("answer", traceAnswer(ans.value))
	}
	span.End(err)
	res.Turns = ans.turns
	res.Vars = ans.vars
	if err == nil {
		res.Status = StatusCompleted
		res.Answer = ans.value
		res.AnswerJSON = ans.json
		res.AnswerMeta = ans.meta
	} else {
		res.Error = fault.As(err)
		if res.Error == nil {
			res.Error = fault.Wrap(err, fault.PhaseExecute, fault.KindInternal, err.Error())
			err = res.Error
		}
		if res.Error.Kind == fault.KindCancelled {
			res.Status = StatusCancelled
		}
		res.Partial = ans.partial
	}
	res.Usage = r.tracker.Usage()
	res.UsageByDepth = r.tracker.UsageByDepth()
	res.Counters = r.tracker.Counters()
	r.mu.Lock()
	res.Recursion = r.rstats
	res.AutoSplit = r.splits
	for id := range r.pending {
		res.PendingApprovals = append(res.PendingApprovals, id)
	}
	r.mu.Unlock()
	slices.SortFunc(res.PendingApprovals, compareApprovalIDs)
	// Children of a fan-out start in any order; the result does not.
	slices.Sort(res.Recursion.Fingerprints)
	res.Trajectory = rec.Events()
	res.ElapsedMS = float64(time.Since(start).Microseconds()) / 1000
	return res, err
}

// traceAnswer is a run's answer as its span records it under
// TraceContent (attribute "answer"): a string as it is, another value as
// JSON; bounded and redacted like replies.
func traceAnswer(v any) string {
	s, ok := v.(string)
	if !ok {
		b, _ := json.Marshal(v)
		s = string(b)
	}
	return shown(s, TraceContentBytes)
}

// gate refuses a max depth above MaxSupportedDepth before any model call.
func (e *Engine) gate() error { return CheckDepth(e.cfg.Limits.MaxDepth) }

// MaxSupportedDepth is the deepest Limits.MaxDepth a run accepts. Every
// budget is tree-wide, so each level of recursion divides the same
// budget among more loops (a fan-out of f at each level runs f^depth
// loops at the deepest one); the paper's v3 measured its gains at depths
// 2 and 3, and depth 3 is the deepest the engine's tests run.
const MaxSupportedDepth = 3

// CheckDepth refuses a max depth above MaxSupportedDepth (Phase validate,
// KindDeepRecursionRequired, details requested_depth and max_depth).
func CheckDepth(depth int) error {
	if depth > MaxSupportedDepth {
		return fault.New(fault.PhaseValidate, KindDeepRecursionRequired, fmt.Sprintf("max depth %d is above the supported maximum %d", depth, MaxSupportedDepth)).
			With("requested_depth", depth).With("max_depth", MaxSupportedDepth).
			WithHint(fmt.Sprintf("lower the max depth to %d or less (budgets are tree-wide: every level shares them)", MaxSupportedDepth))
	}
	return nil
}

// normalize turns the run deadline into the time-limit budget error and
// context cancellation into Kind cancelled.
func (r *run) normalize(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	if cause := context.Cause(ctx); ctx.Err() != nil && fault.As(err) == nil && cause != nil && errors.Is(err, cause) {
		// A host's cancellation cause that is not a *fault.Error
		// (context.WithCancelCause with a plain error), as the loop
		// reports it when it notices the cancellation between calls: the
		// cancellation (or deadline) it is, not an internal error.
		kind, msg := fault.KindCancelled, "the run was cancelled"
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			kind, msg = fault.KindTimeout, "deadline exceeded"
		}
		err = fault.Wrap(err, fault.PhaseExecute, kind, msg)
	}
	if fe := fault.As(err); fe != nil && fe.Phase == fault.PhaseBudget {
		return err
	}
	if errors.Is(err, context.DeadlineExceeded) || fault.KindOf(err) == fault.KindTimeout || ctx.Err() == context.DeadlineExceeded {
		if deadline, ok := r.tracker.Deadline(); ok && !time.Now().Before(deadline) {
			return fault.Wrap(err, fault.PhaseBudget, budget.KindTimeLimit, "the run's time limit passed").
				With("limit", "time_limit").With("max", r.e.cfg.Limits.TimeLimit.String())
		}
	}
	if errors.Is(err, context.Canceled) || fault.KindOf(err) == fault.KindCancelled {
		// A host that ends the run with a typed reason (the durable
		// executor, when a completed call cannot be recorded) is
		// reported with that reason, not as a cancellation.
		if cause := fault.As(context.Cause(ctx)); ctx.Err() != nil && cause != nil && cause.Kind != fault.KindCancelled {
			return cause
		}
		if fault.KindOf(err) == fault.KindCancelled {
			return err
		}
		return fault.Wrap(err, fault.PhaseExecute, fault.KindCancelled, "the run was cancelled")
	}
	return err
}

// notePending records the approval id of an approval_required error.
func (r *run) notePending(err error) {
	fe := fault.As(err)
	if fe == nil || fe.Kind != authority.KindApprovalRequired {
		return
	}
	id, _ := fe.Detail["approval_id"].(string)
	if id == "" {
		return
	}
	r.mu.Lock()
	if r.pending == nil {
		r.pending = map[string]bool{}
	}
	r.pending[id] = true
	r.mu.Unlock()
}

// compareApprovalIDs orders ids of the form approval_N by N, then by text.
func compareApprovalIDs(a, b string) int {
	na, ea := strconv.Atoi(strings.TrimPrefix(a, "approval_"))
	nb, eb := strconv.Atoi(strings.TrimPrefix(b, "approval_"))
	if ea == nil && eb == nil && na != nb {
		return cmp.Compare(na, nb)
	}
	return strings.Compare(a, b)
}

func (r *run) track(h corpus.Handle) {
	r.mu.Lock()
	r.created = append(r.created, h)
	r.mu.Unlock()
}

func (r *run) cleanup() {
	r.mu.Lock()
	hs := r.created
	r.created = nil
	r.mu.Unlock()
	for i := len(hs) - 1; i >= 0; i-- {
		_ = r.e.cfg.Store.Delete(hs[i])
	}
}

// errText returns a compact description for observations and errors.
func errText(err error) string {
	if fe := fault.As(err); fe != nil {
		s := fmt.Sprintf("%s/%s", fe.Phase, fe.Kind)
		if p, ok := fe.Detail["path"]; ok {
			s += fmt.Sprintf(" at %v", p)
		}
		return s
	}
	return err.Error()
}
