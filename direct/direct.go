package direct

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/rlm-go/rlm/answer"
	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/meter"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/prompt"
	"github.com/rlm-go/rlm/tool"
	"github.com/rlm-go/rlm/trace"
	"github.com/rlm-go/rlm/vision"
)

// DefaultMaxNativeCallsPerBatch is the default largest tool-call batch one
// provider response may carry. Sixteen covers the parallel reads real
// models emit while keeping one turn's work and observation size bounded.
const DefaultMaxNativeCallsPerBatch = 16

// DefaultMaxTokens is the default completion cap of each request.
const DefaultMaxTokens = 1024

// DefaultContextLimits bound one context-tool operation: 16 results, 4096
// bytes, one second.
var DefaultContextLimits = corpus.Limits{MaxResults: 16, MaxBytes: 4096, TimeLimit: time.Second}

// Limits are the budgets of a direct run: the tree-wide budget limits
// plus the per-batch cardinality limit, under the rule of every Limits
// type (docs/budget.md, "One rule for every limit"). The JSON form is
// budget.Limits' with max_native_calls_per_batch added.
type Limits struct {
	budget.Limits
	// MaxNativeCallsPerBatch bounds the calls of one provider response,
	// malformed calls included. Zero means DefaultMaxNativeCallsPerBatch;
	// negative means unlimited.
	MaxNativeCallsPerBatch int `json:"max_native_calls_per_batch"`
}

// MarshalJSON encodes l as budget.Limits does, with
// max_native_calls_per_batch added (the embedded Limits' method would
// drop it).
func (l Limits) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(l.Limits)
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	m["max_native_calls_per_batch"], _ = json.Marshal(l.MaxNativeCallsPerBatch)
	return json.Marshal(m)
}

// UnmarshalJSON decodes the form MarshalJSON writes.
func (l *Limits) UnmarshalJSON(b []byte) error {
	var batch struct {
		N int `json:"max_native_calls_per_batch"`
	}
	if err := json.Unmarshal(b, &batch); err != nil {
		return err
	}
	if err := json.Unmarshal(b, &l.Limits); err != nil {
		return err
	}
	l.MaxNativeCallsPerBatch = batch.N
	return nil
}

// Config configures a Runner.
type Config struct {
	// Provider answers the chat requests (required).
	Provider model.Provider
	// Model overrides the provider's default model when set.
	Model string
	// MaxTokens caps each completion; zero means DefaultMaxTokens. A
	// request is admitted only if its worst case (prompt plus MaxTokens)
	// fits the token and cost budgets; MaxTokens is shrunk to what is left
	// when that leaves at least budget.MinReplyTokens.
	MaxTokens int
	// Temperature is sent when non-nil.
	Temperature *float64
	// Windows is the model table each request is admitted against (its
	// prompt plus reserved output must fit the model's window; nil: the
	// shipped table, model.NewWindows()).
	Windows *model.Windows
	// ImageLimits bound the images tool results carry (MCP image
	// content, sent with the tool message: toolImages); zero fields take
	// vision's defaults.
	ImageLimits vision.Limits

	// Capabilities granted to the run: tool:NAME for registered tools and
	// context:search, context:slice, context:peek for the context tools.
	Capabilities capability.Set
	// Registry holds the registered tools; nil means none. Tools is the
	// canonical tool runtime that runs them and is required with Registry.
	Registry *tool.Registry
	Tools    tool.Invoker
	// AuthorityContext is the authority owner of the run's tool calls.
	AuthorityContext string

	// Store and Input are the context store and the input handle the
	// context tools read; without them no context tool is offered.
	Store *corpus.Store
	Input corpus.Handle
	// ContextLimits bound each context operation; zero fields take
	// DefaultContextLimits.
	ContextLimits corpus.Limits

	// Mode is the prompt compiler mode for registry tools: compiled (the
	// default) or all_tools (a stable prompt-cache prefix).
	Mode prompt.Mode
	// AlwaysVisibleTools names registry tools the host declares as
	// interface (the CLI: tools granted by exact name): they are imported
	// with activation always, so compiled mode offers them whatever the
	// query says. Visibility only: each still needs its tool:NAME
	// capability. A name that is not registered fails with unknown_tool;
	// one that leaves the registry during the run is no longer offered.
	AlwaysVisibleTools []string
	// Limits are the run's budgets; zero fields take the defaults.
	Limits Limits
	// Tracker, when set, is a shared tree-wide tracker to charge instead of
	// a fresh one built from Limits.Limits.
	Tracker *budget.Tracker

	// Deadline and SynthesisReserve enable the synthesis turn: once the
	// time left until Deadline is at most SynthesisReserve, the next
	// request is sent without tools and asks for the final answer. Zero
	// values disable it.
	Deadline         time.Time
	SynthesisReserve time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time

	// AnswerSchema, when set, types the final answer: the final text's
	// JSON value (answer.Schema.TextValue) must match it, else the model
	// gets a repair message (event answer_rejected) naming the failing
	// pointers and keywords, at most MaxRepairs times in the run, and
	// then the run fails with answer.KindInvalid. Result.AnswerJSON holds
	// the accepted value.
	AnswerSchema *answer.Schema
	// MaxRepairs bounds the repairs of answers AnswerSchema refuses (0:
	// DefaultMaxRepairs; negative: none).
	MaxRepairs int

	// TraceContent records model text in the trace, as the engine's
	// Config.TraceContent does and under the same attribute names, each
	// bounded by trace.ContentBytes with credentials redacted (trace.Content):
	// the question ("query") and a completed run's answer ("answer") on
	// the run span, each reply's text ("reply") on its turn span,
	// thumbnails of the images a model call sent ("thumbnails" on its
	// model_call span: the images tool results carried), and for each
	// tool or context call of a batch a note trace.NoteToolContent in the
	// turn with the call's "call_id", "name", "status", its argument text
	// as the model sent it ("arguments") and the observation the model got
	// back ("observation"). Off by default: traces hold no model text
	// unless asked (rlm direct --trace-content).
	TraceContent bool
}

// DefaultMaxRepairs is how many refused final answers get a repair
// message when Config.MaxRepairs is zero (the engine's default too).
const DefaultMaxRepairs = 2

// Runner runs direct sessions. It is safe for concurrent use; each Run is
// one session.
type Runner struct {
	cfg Config
}

// New validates cfg and returns a Runner.
func New(cfg Config) (*Runner, error) {
	bad := func(msg string) error { return fault.New(PhaseSetup, fault.KindInvalidConfig, msg) }
	switch {
	case cfg.Provider == nil:
		return nil, bad("a provider is required")
	case cfg.Registry != nil && cfg.Tools == nil:
		return nil, bad("a tool runtime is required with a registry")
	case cfg.Store != nil && cfg.Input.IsZero():
		return nil, bad("an input handle is required with a context store")
	case cfg.MaxTokens < 0:
		return nil, bad("max tokens must not be negative")
	case cfg.SynthesisReserve < 0:
		return nil, bad("the synthesis reserve must not be negative")
	}
	switch cfg.Mode {
	case "", prompt.ModeCompiled, prompt.ModeAllTools:
	default:
		return nil, fault.New(PhaseSetup, fault.KindInvalidConfig, "mode must be compiled or all_tools").With("mode", string(cfg.Mode))
	}
	lim, err := cfg.Limits.Limits.Resolve()
	if err != nil {
		return nil, err
	}
	cfg.Limits.Limits = lim
	cfg.Limits.MaxNativeCallsPerBatch = cmp.Or(cfg.Limits.MaxNativeCallsPerBatch, DefaultMaxNativeCallsPerBatch)
	cfg.MaxTokens = cmp.Or(cfg.MaxTokens, DefaultMaxTokens)
	cl := cfg.ContextLimits
	cl.MaxResults = cmp.Or(cl.MaxResults, DefaultContextLimits.MaxResults)
	cl.MaxBytes = cmp.Or(cl.MaxBytes, DefaultContextLimits.MaxBytes)
	cl.TimeLimit = cmp.Or(cl.TimeLimit, DefaultContextLimits.TimeLimit)
	if cfg.ContextLimits, err = cl.Resolve(); err != nil {
		return nil, err
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.MaxRepairs == 0 {
		cfg.MaxRepairs = DefaultMaxRepairs
	}
	return &Runner{cfg: cfg}, nil
}

// Event types of the trajectory.
const (
	EventModel          = "model"                // one provider response
	EventNativeTool     = "native_tool"          // a registered tool call ran (or asked for approval)
	EventRejected       = "native_call_rejected" // a call got a repair observation
	EventContext        = "native_context"       // a context tool call ran
	EventSynthesis      = "synthesis"            // the tool-free synthesis turn began
	EventBatchRefused   = "native_batch_refused" // a batch was fatal; nothing in it ran
	EventAnswerRejected = "answer_rejected"      // a final answer did not match the answer schema; a repair message follows
)

// Event is one trajectory record.
type Event struct {
	Type      string        `json:"type"`
	Turn      int           `json:"turn"`
	CallID    string        `json:"call_id,omitempty"`
	Name      string        `json:"name,omitempty"`
	Status    string        `json:"status,omitempty"`
	Phase     string        `json:"phase,omitempty"`
	Kind      string        `json:"kind,omitempty"`
	Truncated bool          `json:"truncated,omitempty"`
	Bytes     int           `json:"bytes,omitempty"`
	Calls     int           `json:"calls,omitempty"`
	Usage     *budget.Usage `json:"usage,omitempty"`
}

// Run statuses.
const (
	StatusOK    = "ok"
	StatusError = "error"
)

// Result is the outcome of a run. It is returned on failure too, with
// Status error and the same counters as the *Error.
type Result struct {
	Status string `json:"status"`
	Answer string `json:"answer"`
	// AnswerJSON is the answer's JSON value when the run had an answer
	// schema (Config.AnswerSchema), which it matches.
	AnswerJSON   json.RawMessage `json:"answer_json,omitempty"`
	Turns        int             `json:"turns"`
	ToolCalls    int             `json:"tool_calls"`
	ContextCalls int             `json:"context_calls"`
	Usage        budget.Usage    `json:"usage"`
	Error        *fault.Error    `json:"error"`
	Events       []Event         `json:"events"`
	// ObservationBytes counts tool-message bytes; OutputBytes adds the
	// final text.
	ObservationBytes int `json:"observation_bytes"`
	OutputBytes      int `json:"output_bytes"`
	// Tools are the function names offered to the model, in order.
	Tools []string `json:"tools"`
}

// Synthesis directive sent on the tool-free final turn.
const synthesisDirective = "FINAL SYNTHESIS: the time budget is nearly spent. Do not call tools. Using only the observations above, give your final answer now."

const basePrompt = `You are a bounded agent answering the user's task. Answer directly when you can. Call the offered tools only when they add information or execution, read their observations, then reply with the final answer as plain text.
Each tool result is a JSON object with call_id, name, status and a value or an error. When a call is rejected, fix its arguments or use an offered tool. An effectful tool (one that changes files or the world) must be the only call of its turn.`

const contextPrompt = `The task's input context is not shown to you: read it with the context tools, which return bounded excerpts.`

const noContextPrompt = `No context operations are granted: do not attempt context reads.`

// run is the state of one session.
type run struct {
	cfg     *Config
	cat     *session
	tracker *budget.Tracker
	msgs    []model.Message
	seen    map[string]struct{}
	res     Result
	synth   bool
	query   string
	repairs int // answers AnswerSchema refused
	// thumbs makes the trace thumbnails of the images the run's requests
	// send (Config.TraceContent), each image's once.
	thumbs vision.Thumbs
}

// Run runs one session answering query and returns its result. On failure
// the error is an *Error carrying the usage, trajectory and counters spent,
// and the Result has Status error.
func (r *Runner) Run(ctx context.Context, query string) (res *Result, err error) {
	ctx, span := trace.Start(ctx, trace.KindRun, "direct")
	if r.cfg.TraceContent {
		span.Set("query", trace.Content(query, trace.ContentBytes))
	}
	defer func() {
		if span != nil {
			span.Set("turns", res.Turns)
			span.Set("tool_calls", res.ToolCalls)
			span.Set("context_calls", res.ContextCalls)
			if err == nil && r.cfg.TraceContent {
				span.Set("answer", trace.Content(res.Answer, trace.ContentBytes))
			}
			span.End(err)
		}
	}()
	cfg := r.cfg
	st := &run{cfg: &cfg, seen: map[string]struct{}{}, tracker: cfg.Tracker, res: Result{Events: []Event{}, Tools: []string{}}}
	if st.tracker == nil {
		st.tracker = budget.NewTracker(cfg.Limits.Limits)
		if caller, depth := budget.FromContext(ctx); caller != nil {
			// Started by a tool call of another run: spend from its
			// budget as well.
			st.tracker = caller.Child(cfg.Limits.Limits, depth+1)
		}
	}
	// The run's time limit bounds every call in flight, not only the
	// admission checks; its cause is the typed budget error.
	lim := st.tracker.Limits()
	if deadline, ok := st.tracker.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadlineCause(ctx, deadline,
			fault.New(fault.PhaseBudget, budget.KindTimeLimit, "budget exhausted: time_limit").
				With("limit", "time_limit").With("max", lim.TimeLimit.String()))
		defer cancel()
	}
	if err := st.setup(ctx, query); err != nil {
		return st.fail(err)
	}
	answer, err := st.loop(ctx)
	if err != nil {
		return st.fail(err)
	}
	st.res.Status, st.res.Answer = StatusOK, answer
	out := st.res
	return &out, nil
}

func (st *run) fail(err error) (*Result, error) {
	fe := asFault(err)
	st.res.Status, st.res.Error = StatusError, fe
	out := st.res
	return &out, &Error{Fault: fe, Usage: out.Usage, Turns: out.Turns, ToolCalls: out.ToolCalls,
		ContextCalls: out.ContextCalls, OutputBytes: out.OutputBytes, Events: out.Events}
}

func (st *run) setup(ctx context.Context, query string) error {
	st.query = query
	if err := st.compile(ctx); err != nil {
		return err
	}
	sys, user := basePrompt+"\n"+noContextPrompt, "TASK:\n"+query
	if st.cat.hasContext {
		sys = basePrompt + "\n" + contextPrompt
		md, err := st.cfg.Store.Metadata(ctx, st.cfg.Input)
		if err != nil {
			return err
		}
		user += fmt.Sprintf("\n\nInput context: %d bytes, %d lines (descriptor only; read it with the context tools).", md.Bytes, md.Lines)
	}
	if st.cfg.AnswerSchema != nil {
		user += st.cfg.AnswerSchema.Instructions()
	}
	st.msgs = []model.Message{{Role: model.RoleSystem, Content: sys}, {Role: model.RoleUser, Content: user}}
	return nil
}

// compile builds the session's catalog from the configuration and the
// registry as it is now, and lists its tools in the result.
func (st *run) compile(ctx context.Context) error {
	cat, err := buildSession(ctx, st.cfg, st.query, st.cat != nil)
	if err != nil {
		return err
	}
	st.cat = cat
	st.res.Tools = st.res.Tools[:0]
	for _, t := range cat.tools {
		st.res.Tools = append(st.res.Tools, t.Name)
	}
	return nil
}

// recompiled compiles the catalog again when the registry changed since
// it was compiled (an MCP server's tools/list_changed re-imported its
// tools), so the next request offers the tools as they are now; without a
// change the schemas stay byte-identical across turns.
func (st *run) recompiled(ctx context.Context) (bool, error) {
	if st.cfg.Registry == nil || st.cfg.Registry.Version() == st.cat.version {
		return false, nil
	}
	return true, st.compile(ctx)
}

func cancelled(ctx context.Context) error {
	return fault.FromContext(fault.PhaseExecute, context.Cause(ctx))
}

// synthesisDue reports whether the next request must be the tool-free
// synthesis turn.
func (st *run) synthesisDue() bool {
	c := st.cfg
	if c.Deadline.IsZero() || c.SynthesisReserve <= 0 {
		return false
	}
	return c.Deadline.Sub(c.Now()) <= c.SynthesisReserve
}

func (st *run) loop(ctx context.Context) (string, error) {
	for {
		if ctx.Err() != nil {
			return "", cancelled(ctx)
		}
		if answer, done, err := st.turn(ctx); err != nil || done {
			return answer, err
		}
	}
}

// turn runs one model request and, when it asks for tools, its batch,
// under a trace span "turn N" (the model call and the tool calls are its
// children). done reports the final answer.
func (st *run) turn(ctx context.Context) (answer string, done bool, err error) {
	n := st.res.Turns + 1
	ctx, span := trace.Start(ctx, trace.KindTurn, fmt.Sprintf("turn %d", n))
	defer func() { span.End(err) }()
	if again, err := st.recompiled(ctx); err != nil {
		return "", false, err
	} else if again {
		span.Set("catalog_recompiled", true)
	}
	synth := st.synthesisDue()
	if synth && !st.synth {
		st.synth = true
		st.res.Events = append(st.res.Events, Event{Type: EventSynthesis, Turn: n})
	}
	req := model.Request{Model: st.cfg.Model, Messages: st.msgs, MaxTokens: st.cfg.MaxTokens, Temperature: st.cfg.Temperature}
	if synth {
		req.Messages = append(append([]model.Message(nil), st.msgs...), model.Message{Role: model.RoleUser, Content: synthesisDirective})
	} else if len(st.cat.tools) > 0 {
		req.Tools = st.cat.tools
		req.ToolChoice = model.ToolChoice{Mode: "auto"}
	}
	cctx := ctx
	if st.cfg.TraceContent {
		// The model_call span keeps thumbnails of the images sent.
		cctx = model.WithThumbnails(ctx, st.thumbs.Of)
	}
	resp, err := st.complete(cctx, req)
	if ctx.Err() != nil {
		return "", false, cancelled(ctx)
	}
	if resp != nil && resp.Text != "" && st.cfg.TraceContent {
		span.Set("reply", trace.Content(resp.Text, trace.ContentBytes))
	}
	if err != nil {
		if fault.KindOf(err) == model.KindTooManyToolCalls {
			// The provider's cap on a response's tool calls is the batch
			// cap (rlm direct sets it from --max-native-calls-per-batch):
			// the same batch-fatal refusal, whoever counted first.
			return "", false, st.refuse(fault.Wrap(err, PhaseNativeCall, KindBatchTooLarge, "the batch has more calls than allowed").
				With("limit", st.cfg.Limits.MaxNativeCallsPerBatch))
		}
		return "", false, err
	}
	span.Set("tool_calls", len(resp.ToolCalls))
	if len(resp.ToolCalls) == 0 {
		answer, err := st.finish(resp)
		if err == nil && st.cfg.AnswerSchema != nil {
			return st.typed(resp.Text, span)
		}
		return answer, err == nil, err
	}
	if synth {
		return "", false, st.refuse(batchFatal(KindSynthesisToolCalls, "the synthesis turn answered with tool calls").With("calls", len(resp.ToolCalls)))
	}
	return "", false, st.batch(ctx, resp)
}

// complete admits, sends and charges one model request through the run's
// meter (package meter, which admits the engine's calls too): the
// response cache first (a hit is a turn that charges nothing but its
// savings), then the request's worst case (prompt tokens counted with the
// model's tokenizer plus max_tokens, priced with the price table)
// reserved against what is left of the token and cost budgets, shrinking
// max_tokens to what is left when that still leaves
// budget.MinReplyTokens and refusing the request before sending otherwise
// (see docs/budget.md). A direct turn is its model call: the call and the
// turn are counted together (meter.ModelCall.Turn). A provider reporting
// more than the admitted worst case, taking the run over a limit, fails
// the turn with that limit's budget error; its usage is charged. Every
// response that came back (with a failure too) is recorded in the result.
func (st *run) complete(ctx context.Context, req model.Request) (*model.Response, error) {
	resp, err := meter.New(st.tracker).Model(ctx, meter.ModelCall{Provider: st.cfg.Provider, Request: req, Turn: true, Windows: st.cfg.Windows})
	if resp != nil {
		st.record(resp)
	}
	if err != nil {
		return nil, err
	}
	return resp, nil
}

// record adds a response's usage to the result at once, before anything
// else looks at it, and returns it for the tracker.
func (st *run) record(resp *model.Response) budget.Usage {
	u := resp.Usage
	if u.Calls == 0 && resp.Meta.Cache == "" {
		u.Calls = 1
	}
	st.res.Usage = st.res.Usage.Add(u)
	st.res.Turns++
	uc := u
	st.res.Events = append(st.res.Events, Event{Type: EventModel, Turn: st.res.Turns, Calls: len(resp.ToolCalls), Usage: &uc})
	return u
}

// finish accepts a response without tool calls as the final answer.
func (st *run) finish(resp *model.Response) (string, error) {
	if err := model.Refused(resp); err != nil {
		return "", err
	}
	if resp.Text == "" {
		return "", fault.New(fault.PhaseProvider, model.KindMissingFinalOutput, "the response has neither tool calls nor text")
	}
	if err := st.addOutput(len(resp.Text), "final"); err != nil {
		return "", err
	}
	return resp.Text, nil
}

// typed checks a final text against the answer schema: the answer, or a
// repair message appended to the conversation (the turn is not done), or
// past MaxRepairs the answer_invalid error. The text's bytes are already
// charged (finish): a refused answer is output the run paid for.
func (st *run) typed(text string, span *trace.Span) (string, bool, error) {
	s := st.cfg.AnswerSchema
	raw := s.TextValue(text)
	vs, fe := s.Check(raw)
	if fe == nil {
		st.res.AnswerJSON = raw
		return text, true, nil
	}
	repair, err := s.Repair(vs, fe, &st.repairs, st.cfg.MaxRepairs, "Reply with the final answer again, as JSON matching the schema.")
	if err != nil {
		return "", false, err
	}
	span.Set("answer_rejected", true)
	st.res.Events = append(st.res.Events, Event{Type: EventAnswerRejected, Turn: st.res.Turns, Phase: string(fe.Phase), Kind: string(fe.Kind)})
	st.msgs = append(st.msgs, model.Message{Role: model.RoleAssistant, Content: text}, model.Message{Role: model.RoleUser, Content: repair})
	return "", false, nil
}

func (st *run) addOutput(n int, what string) error {
	lim := st.tracker.Limits().MaxOutputBytes
	if lim >= 0 && st.res.OutputBytes+n > lim {
		return fault.New(fault.PhaseBudget, budget.KindMaxOutputBytes, "output bytes exceed the budget").
			With("limit", "max_output_bytes").With("max", lim).With("used", st.res.OutputBytes).With("adding", n).With("source", what)
	}
	st.res.OutputBytes += n
	if what == "observation" {
		st.res.ObservationBytes += n
	}
	return nil
}

// refuse records a batch-fatal rejection in the trajectory and returns it.
func (st *run) refuse(fe *fault.Error) error {
	st.res.Events = append(st.res.Events, Event{Type: EventBatchRefused, Turn: st.res.Turns, Phase: string(fe.Phase), Kind: string(fe.Kind)})
	return fe
}

// batch normalizes, classifies and checks a batch, then executes it in
// provider order.
func (st *run) batch(ctx context.Context, resp *model.Response) error {
	entries, err := Normalize(resp.ToolCalls)
	if err != nil {
		return st.refuse(fault.As(err))
	}
	// What is left of this run's budgets and of every caller's it
	// spends from.
	_, toolsLeft, ctxLeft := st.tracker.Left()
	statuses, err := Classify(entries, st.cat, BatchState{
		Seen:             func(id string) bool { _, ok := st.seen[id]; return ok },
		MaxCalls:         st.cfg.Limits.MaxNativeCallsPerBatch,
		ToolCallsLeft:    toolsLeft,
		ContextCallsLeft: ctxLeft,
	})
	if err != nil {
		return st.refuse(fault.As(err))
	}
	assistant := model.Message{Role: model.RoleAssistant, Content: resp.Text, ToolCalls: resp.ToolCalls}
	if !sameBatch(assistant.ToolCalls, entries) {
		return st.refuse(fault.New(fault.PhaseProvider, KindAssistantMismatch, "the assistant message does not match the normalized batch"))
	}
	st.msgs = append(st.msgs, assistant)
	for _, e := range entries {
		st.seen[e.Call.ID] = struct{}{}
	}
	for _, s := range statuses {
		if ctx.Err() != nil {
			return cancelled(ctx)
		}
		var obs observation
		if s.Kind == StatusPreflight {
			obs = repairObservation(s)
			st.res.Events = append(st.res.Events, Event{Type: EventRejected, Turn: st.res.Turns, CallID: s.Call.ID, Name: s.Call.Name,
				Status: ObsRejected, Phase: string(s.Cause.Phase), Kind: string(s.Cause.Kind)})
		} else if obs, err = st.execute(ctx, s); err != nil {
			return err
		}
		content := obs.encode()
		st.traceCall(ctx, s, obs.Status, content)
		if err := st.addOutput(len(content), "observation"); err != nil {
			return err
		}
		st.msgs = append(st.msgs, model.Message{Role: model.RoleTool, ToolCallID: s.Call.ID, Content: content, Images: obs.images})
	}
	return nil
}

// traceCall records a call of the batch and the observation it gave, as
// the note trace.NoteToolContent in the turn, under Config.TraceContent.
func (st *run) traceCall(ctx context.Context, s Status, status, observation string) {
	if !st.cfg.TraceContent {
		return
	}
	trace.Emit(ctx, trace.KindNote, trace.NoteToolContent, map[string]any{
		"call_id":     s.Call.ID,
		"name":        s.Call.Name,
		"status":      status,
		"arguments":   trace.Content(s.Call.Raw, trace.ContentBytes),
		"observation": trace.Content(observation, trace.ContentBytes),
	}, nil)
}

// execute charges and dispatches one resolved call.
func (st *run) execute(ctx context.Context, s Status) (observation, error) {
	if s.Binding.Kind == BindContext {
		ctx, span, err := meter.New(st.tracker).Context(ctx, st.cfg.Capabilities, meter.ContextOp{Op: s.Binding.Op, Name: s.Binding.Name})
		if err != nil {
			return observation{}, err
		}
		span.Set("call_id", s.Call.ID) // the model's id of the call, as on a tool_call span
		st.res.ContextCalls++
		obs, err := st.contextCall(ctx, s, span)
		span.End(err) // when the call failed before its store operation
		return obs, err
	}
	if err := st.tracker.ToolCall(); err != nil {
		return observation{}, err
	}
	st.res.ToolCalls++
	return st.toolCall(ctx, s)
}

// ev appends a call event.
func (st *run) ev(typ string, s Status, status string, kind fault.Kind, truncated bool) {
	st.res.Events = append(st.res.Events, Event{Type: typ, Turn: st.res.Turns, CallID: s.Call.ID, Name: s.Call.Name,
		Status: status, Kind: string(kind), Truncated: truncated})
}

// resumedRun reports whether ctx carries a resumed tool run.
func resumedRun(ctx context.Context) bool {
	r := tool.RunFrom(ctx)
	return r != nil && r.Resumed()
}

// Tool-runtime kinds that end the run: the caller was not allowed.
var fatalToolKinds = map[fault.Kind]bool{
	capability.KindDenied: true,
	authority.KindDenied:  true,
}

func (st *run) toolCall(ctx context.Context, s Status) (observation, error) {
	// The runtime gets the argument text the loop validated, not the
	// canonical re-encoding: canonical numbers may round (a 20-digit
	// integer becomes a float), and the runtime must judge the same value.
	// The binding's effect class goes with the call: a tool the registry
	// holds under this name with another class now (re-imported since the
	// batch was classified) is refused, never run outside the batch's
	// effect isolation.
	res, err := st.cfg.Tools.Invoke(budget.WithTracker(ctx, st.tracker, 0), tool.Call{Name: s.Binding.Name, Args: json.RawMessage(s.Call.Raw), Effect: s.Binding.Effect,
		Invocation: tool.Invocation{Capabilities: st.cfg.Capabilities, AuthorityContext: st.cfg.AuthorityContext,
			Correlation: authority.Correlation{CallID: s.Call.ID}}})
	if ctx.Err() != nil {
		// Whatever the runtime returned while the run was being
		// cancelled, cancellation ends the run; it is never an
		// observation.
		return observation{}, cancelled(ctx)
	}
	if err != nil {
		return observation{}, fault.FromContext(fault.PhaseExecute, err)
	}
	switch res.Status {
	case tool.StatusApprovalRequired:
		st.ev(EventNativeTool, s, string(tool.StatusApprovalRequired), authority.KindApprovalRequired, false)
		return observation{}, fault.New(PhaseAuthority, authority.KindApprovalRequired, "the call needs an approval; the run does not wait").
			With("call_id", s.Call.ID).With("tool", s.Binding.Name).With("approval_id", res.ApprovalID)
	case tool.StatusOK:
		// In a resumed run (tool.ResumeRun) a replay is the run's own
		// recorded effect, returned instead of running it again.
		if s.Binding.Effectful() && res.Trace.Status == tool.TraceStatusReplayed && !resumedRun(ctx) {
			st.ev(EventNativeTool, s, StatusError, KindEffectfulReplayDenied, false)
			return observation{}, fault.New(PhaseEffect, KindEffectfulReplayDenied, "a replayed effectful outcome is not fresh authority").
				With("call_id", s.Call.ID).With("tool", s.Binding.Name)
		}
		value, images, err := toolImages(res.Value, st.cfg.ImageLimits)
		if err != nil {
			// An image the run cannot send is the call's error, shown
			// to the model; never dropped silently.
			fe := fault.As(err)
			st.ev(EventNativeTool, s, StatusError, fe.Kind, false)
			return errorObservation(s.Call, fe), nil
		}
		st.ev(EventNativeTool, s, ObsOK, "", false)
		obs := valueObservation(s.Call, value, nil)
		obs.images = images
		return obs, nil
	}
	fe := res.Error
	if fe == nil {
		fe = fault.New(fault.PhaseTool, fault.KindInternal, "the tool failed without an error")
	}
	st.ev(EventNativeTool, s, StatusError, fe.Kind, false)
	if fatalToolKinds[fe.Kind] {
		return observation{}, fe
	}
	return errorObservation(s.Call, fe), nil
}

// metadataView is what a metadata peek shows: no handle, path or clock.
type metadataView struct {
	Kind  string `json:"kind"`
	Bytes int64  `json:"bytes"`
	Lines int64  `json:"lines"`
}

// contextCall runs one admitted context call under its context_op span
// (ended with the store operation's error).
func (st *run) contextCall(ctx context.Context, s Status, span *trace.Span) (observation, error) {
	act, err := contextAction(s.Binding.Op, s.Call.Args)
	if err != nil {
		return observation{}, err
	}
	out, err := st.cfg.Store.Do(ctx, st.cfg.Input, act, st.cfg.ContextLimits)
	span.End(err)
	if ctx.Err() != nil {
		return observation{}, cancelled(ctx)
	}
	if err != nil {
		fe := asFault(err)
		st.ev(EventContext, s, StatusError, fe.Kind, false)
		return errorObservation(s.Call, fe), nil
	}
	v := out.Value
	if md, ok := v.(corpus.Metadata); ok {
		v = metadataView{Kind: md.Kind, Bytes: md.Bytes, Lines: md.Lines}
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return observation{}, fault.Wrap(err, fault.PhaseExecute, fault.KindInternal, "context value does not encode")
	}
	st.ev(EventContext, s, ObsOK, "", out.Truncated)
	return valueObservation(s.Call, raw, &out.Truncated), nil
}
