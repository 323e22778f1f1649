package rlm

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/durable"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/trace"
	"github.com/rlm-go/rlm/trace/otlp"
)

// Run answers query over the contexts spec names, with the provider and
// API key it names (the key from the environment, as the CLI reads it),
// and closes everything it opened:
//
//	res, err := rlm.Run(ctx, rlm.Spec{Model: "gpt-4o-mini", Context: []string{"big.log"}, Mode: "code"}, "Which service failed first?")
//
// res.Answer is the answer. A run that fails returns its partial Result
// with the error.
func Run(ctx context.Context, spec Spec, query string, opts ...Option) (*Result, error) {
	s, err := Open(ctx, spec, opts...)
	if err != nil {
		return nil, err
	}
	res, err := s.Run(ctx, query)
	if cerr := s.Close(); cerr != nil && res != nil {
		res.OutputError = errors.Join(res.OutputError, cerr)
	}
	return res, err
}

// Result is the outcome of one run of a Session.
type Result struct {
	// Result is the engine's result: Answer, Status, Usage, Trajectory...
	*engine.Result
	// RunID names the run whose effects Spec.Resume can replay (tools
	// granted), or the durable run.
	RunID string
	// Replayed is true when a tool result of the run was a replayed effect.
	Replayed bool
	// Durable tells how a durable run's calls were carried out (nil for
	// other runs).
	Durable *durable.Outcome
	// OutputError reports an output (Spec.Trace, Spec.Record) that could
	// not be written after the run; the rest of the result is complete.
	OutputError error
	// TraceDropped counts the trace events the recorder dropped (bounded).
	TraceDropped int
	// Auto is the choice of a ModeAuto run (nil for other modes).
	Auto *Auto
}

// On is one call over a context the caller opened and bounds (rlm mcp
// serve's calls): RunOn and DirectOn run it with the session's provider
// (or the call's own, Provider), tools and mode, under the call's own
// limits.
type On struct {
	Store *corpus.Store
	// Context is the root context (zero for DirectOn: none).
	Context corpus.Handle
	Query   string
	// Limits are the call's limits (zero fields take defaults).
	Limits budget.Limits
	// Observer, when set, sees each trace event as it is recorded.
	Observer func(trace.Event)
	// Mode, when set, is the mode of this call ("plan", "code" or
	// "auto") instead of Spec.Mode (RunOn only): one session, its
	// provider and its cache answer calls in every mode (rlm bench
	// compares them trial by trial).
	Mode string
	// NoSubCalls withholds every sub-call from the call's root loop: its
	// grant keeps no model:NAME capability and not rlm, so code mode's
	// llm_query, llm_query_batched, rlm_query and rlm_query_batched, and a
	// plan's model, map-of-model and rlm steps, end the run with
	// capability_denied (the runtime refuses them, not the prompt; code
	// mode's system prompt says they are not available). The root
	// model's own turns are unaffected. rlm bench's rlm-no-subcalls and
	// codeact methods.
	NoSubCalls bool
	// NoRecursion withholds capability rlm from the call's root loop
	// (rlm_query, rlm_query_batched and a plan's rlm step end the run
	// with capability_denied) and keeps its model grants: rlm bench's
	// codeact-subcalls, whose sub-calls are llm_query only.
	NoRecursion bool
	// Instructions, when set, are appended to the engine's system prompt
	// for this call.
	Instructions string
	// ContextInPrompt puts the context's whole text in the root loop's
	// first user message instead of in the REPL (code mode only:
	// engine.Config.ContextInPrompt). rlm bench's codeact methods.
	ContextInPrompt bool
	// Tools, when set, are tools of this call only, beside the session's:
	// each is granted to the root loop (capability tool:NAME) and to no
	// child. A name the session's tools also offer is a configuration
	// error. rlm bench's codeact retriever.
	Tools engine.Tools
	// Provider, when set, answers this call's model requests instead of
	// the session's provider (Session.Provider): rlm bench records each
	// trial through a recorder wrapping the session's provider, and
	// replays it from the trial's own cassette.
	Provider model.Provider
}

// providerOf is on's provider, else the session's.
func (s *Session) providerOf(on On) model.Provider {
	if on.Provider != nil {
		return on.Provider
	}
	return s.provider
}

// RunOn answers one call with the engine over on.Context (in ModeAuto,
// with one direct call when the context fits: Result.Auto).
func (s *Session) RunOn(ctx context.Context, on On) (*Result, error) {
	cfg := s.engineConfig(on.Store, on.Mode)
	cfg.Limits, cfg.Provider = on.Limits, s.providerOf(on)
	if on.Instructions != "" {
		cfg.Instructions = strings.TrimSpace(cfg.Instructions + "\n\n" + on.Instructions)
	}
	if on.NoSubCalls {
		cfg.Capabilities = rootGrantWithout(cfg, isSubCall)
	}
	if on.NoRecursion {
		cfg.Capabilities = rootGrantWithout(cfg, isRecursion)
	}
	cfg.ContextInPrompt = on.ContextInPrompt
	if on.Tools != nil {
		if err := withCallTools(&cfg, on.Tools); err != nil {
			return nil, err
		}
	}
	eng, err := engine.New(cfg)
	if err != nil {
		return nil, err
	}
	var auto *Auto
	if cmp.Or(on.Mode, s.spec.Mode) == ModeAuto {
		if auto, err = s.chooseAuto(on.Store, on.Context, on.Query); err != nil {
			return nil, err
		}
	}
	if s.tools != nil {
		ctx = s.tools.WithRun(ctx)
	}
	rec := trace.NewRecorder(trace.WithObserver(on.Observer))
	ctx = trace.WithRecorder(ctx, rec)
	var res *engine.Result
	if auto != nil {
		auto.note(ctx)
	}
	if auto != nil && auto.Chosen == AutoDirect {
		res, err = s.answerDirect(ctx, cfg.Provider, on.Store, on.Context, on.Query, on.Limits)
	} else {
		res, err = eng.Run(ctx, on.Query, on.Context)
	}
	return &Result{Result: res, RunID: s.tools.RunID(), Replayed: s.tools.Replayed(), TraceDropped: rec.Dropped(), Auto: auto}, err
}

// withCallTools adds a call's own tools to cfg: offered beside the
// session's, granted to the root loop and to no child.
func withCallTools(cfg *engine.Config, extra engine.Tools) error {
	caps := cfg.Capabilities
	if caps.Len() == 0 {
		caps = engine.DefaultCapabilities(cfg.Model, cmp.Or(cfg.SubModel, cfg.Model))
	}
	if cfg.ChildCapabilities.Len() == 0 {
		// The children's grant as the engine derives it: the root's
		// without tools, computed before the call's tools join it.
		var child []capability.Cap
		for _, c := range caps.List() {
			if c.Prefix() != capability.PrefixTool {
				child = append(child, c)
			}
		}
		cfg.ChildCapabilities = capability.Of(child...)
	}
	var granted []capability.Cap
	for _, t := range extra.Schemas() {
		if cfg.Tools != nil && slices.ContainsFunc(cfg.Tools.Schemas(), func(o model.Tool) bool { return o.Name == t.Name }) {
			return fault.New(fault.PhaseConfig, fault.KindInvalidConfig, "a call's tool has the name of a session tool").With("tool", t.Name)
		}
		granted = append(granted, capability.Tool(t.Name))
	}
	cfg.Capabilities = caps.Union(capability.Of(granted...))
	if cfg.Tools == nil {
		cfg.Tools = extra
	} else {
		cfg.Tools = joinedTools{cfg.Tools, extra}
	}
	return nil
}

// joinedTools offers the tools of both: the session's, then a call's own.
type joinedTools struct{ session, call engine.Tools }

func (j joinedTools) Schemas() []model.Tool {
	out := append(slices.Clone(j.session.Schemas()), j.call.Schemas()...)
	slices.SortFunc(out, func(a, b model.Tool) int { return strings.Compare(a.Name, b.Name) })
	return out
}

func (j joinedTools) Call(ctx context.Context, caps capability.Set, name string, args json.RawMessage) (json.RawMessage, error) {
	if slices.ContainsFunc(j.call.Schemas(), func(t model.Tool) bool { return t.Name == name }) {
		return j.call.Call(ctx, caps, name, args)
	}
	return j.session.Call(ctx, caps, name, args)
}

// Check passes the session tools' check on (an effectful tool that
// cannot record its effects is refused before the run).
func (j joinedTools) Check(caps capability.Set) error {
	if c, ok := j.session.(interface{ Check(capability.Set) error }); ok {
		return c.Check(caps)
	}
	return nil
}

// rootGrantWithout is cfg's root grant (the engine's defaults when it
// has none) without the capabilities drop names: rlm for On.NoRecursion,
// rlm and every model:NAME for On.NoSubCalls.
func rootGrantWithout(cfg engine.Config, drop func(capability.Cap) bool) capability.Set {
	caps := cfg.Capabilities
	if caps.Len() == 0 {
		caps = engine.DefaultCapabilities(cfg.Model, cmp.Or(cfg.SubModel, cfg.Model))
	}
	var keep []capability.Cap
	for _, c := range caps.List() {
		if !drop(c) {
			keep = append(keep, c)
		}
	}
	return capability.Of(keep...)
}

// isRecursion and isSubCall name what On.NoRecursion and On.NoSubCalls
// withhold.
func isRecursion(c capability.Cap) bool { return c == capability.RLM }

func isSubCall(c capability.Cap) bool {
	return c == capability.RLM || c.Prefix() == capability.PrefixModel
}

// ModelWindows are the entries of the session's model table over the
// shipped one (Spec.ModelWindows, the program's, then Spec.ContextWindow's
// entry for the root model): model.NewWindows(s.ModelWindows()...) is
// the table every call of the session is admitted against.
func (s *Session) ModelWindows() []model.Info { return s.modelWindows() }

// engineConfig is the engine configuration of the session over store, in
// mode ("": Spec.Mode; ModeAuto's engine is code mode).
func (s *Session) engineConfig(store *corpus.Store, mode string) engine.Config {
	sp := s.spec
	if mode != "" {
		sp.Mode = mode
	}
	if sp.Mode == ModeAuto {
		sp.Mode = engine.ModeCode
	}
	cfg := engine.Config{
		Provider: s.provider, Model: sp.Model, SubModel: sp.SubModel, Store: store,
		Limits: sp.Limits, ExperimentalDeepRecursion: sp.DeepRecursion, Mode: sp.Mode, Python: sp.Python,
		Stream: sp.Stream, TraceContent: sp.TraceContent, MaxRepairs: sp.MaxRepairs, Observer: s.opts.engineObs,
		ContextWindow: sp.ContextWindow, Compaction: sp.compaction(),
		ModelWindows: s.modelWindows(), NoAutoSplit: sp.NoAutoSplit,
		AnswerSchema: s.answer, Images: s.images,
	}
	if s.tools != nil {
		s.tools.engineTools(&cfg)
	}
	return cfg
}

// Run answers query with the engine (plan or code mode, Spec.Mode) over
// the Spec's contexts, durably when Spec.Durable names a database; in
// ModeAuto with one direct call when the contexts and query fit in
// Spec.AutoShare of the root model's window (Result.Auto says which
// path was taken, and the trace has a note NoteAuto). The contexts are
// read here, after every configuration check.
func (s *Session) Run(ctx context.Context, query string) (*Result, error) {
	store := corpus.NewStore()
	defer store.Close()
	cfg := s.engineConfig(store, "")
	eng, err := engine.New(cfg)
	if err != nil {
		return nil, err
	}
	// The OTLP endpoint is configuration too: refused before the input is
	// read.
	ot, err := StartOTLP(ctx, s.spec.OTLP, s.opts.log)
	if err != nil {
		return nil, err
	}
	defer ot.Finish()
	if s.tools != nil {
		ctx = s.tools.WithRun(ctx) // effect identity: this run (or the resumed one)
	}
	h, err := s.addContext(ctx, store)
	if err != nil {
		return nil, err
	}
	live, err := trace.OpenLive(s.spec.Trace)
	if err != nil {
		return nil, err
	}
	rec := s.traceRecorder(live, ot)
	out := &Result{RunID: s.tools.RunID()}
	if s.spec.Mode == ModeAuto {
		if out.Auto, err = s.chooseAuto(store, h, query); err != nil {
			return nil, err
		}
		out.Auto.note(trace.WithRecorder(ctx, rec))
	}
	var runErr error
	switch {
	case out.Auto != nil && out.Auto.Chosen == AutoDirect:
		out.Result, runErr = s.answerDirect(trace.WithRecorder(ctx, rec), s.provider, store, h, query, s.spec.Limits)
	case s.spec.Durable.Database != "":
		out.Result, out.Durable, runErr = s.runDurable(ctx, eng.Config(), h, query, rec)
		if out.Durable != nil {
			out.RunID = out.Durable.RunID
		}
	default:
		out.Result, runErr = eng.Run(trace.WithRecorder(ctx, rec), query, h)
	}
	out.Replayed = s.tools.Replayed()
	ot.Finish()
	out.TraceDropped = rec.Dropped()
	if s.spec.Trace != "" {
		out.OutputError = live.WriteFile(s.spec.Trace, "rlm run", out.Result.Trajectory, rec.Dropped())
	}
	return out, runErr
}

// recorder is a trace recorder feeding the session's observers (what the
// trace keeps) and live observers (live attributes and live-only events
// too), the live trace file and the OTLP export (what the trace keeps).
func (s *Session) traceRecorder(live *trace.LiveFile, ot *OTLPExport) *trace.Recorder {
	var opts []trace.Option
	for _, o := range s.opts.observers {
		opts = append(opts, trace.WithObserver(o))
	}
	for _, o := range s.opts.liveObservers {
		opts = append(opts, trace.WithLiveObserver(o))
	}
	opts = append(opts, trace.WithObserver(live.Observe), ot.Option())
	if live != nil {
		// Spans in flight are in the live file too (rlm trace serve shows
		// them), each replaced when it ends.
		opts = append(opts, trace.WithStartObserver(live.ObserveStart))
	}
	return trace.NewRecorder(opts...)
}

// runDurable runs the engine configured by cfg as a durable run over h.
func (s *Session) runDurable(ctx context.Context, cfg engine.Config, h corpus.Handle, query string, rec *trace.Recorder) (*engine.Result, *durable.Outcome, error) {
	spec, _, err := fingerprintRun(cfg, h, query)
	if err != nil {
		return nil, nil, err
	}
	runID := s.spec.Resume
	if runID == "" {
		// The durable run and its tool run share one id.
		runID = s.tools.RunID()
	}
	dc := durable.Config{DatabaseURL: s.spec.Durable.Database, Queue: s.spec.Durable.Queue, RunID: runID, Resume: s.spec.Resume != "",
		Spec: spec, Query: query, OnStart: func(id string) {
			if s.opts.onDurable != nil {
				s.opts.onDurable(id)
			}
		}}
	out, err := durable.Run(ctx, dc, s.durableBody(cfg, h, query, rec, runID))
	if out == nil || out.Result == nil {
		if err == nil {
			err = fault.New(fault.PhaseExecute, fault.KindInternal, "the durable run returned no result")
		}
		return &engine.Result{Status: engine.StatusFailed, Error: fault.As(err)}, out, err
	}
	if err == nil && out.Result.Error != nil {
		err = out.Result.Error
	}
	return out.Result, out, err
}

// durableBody is the body of a durable run: the engine with the run's
// executor, its tool calls in the durable run's tool run.
func (s *Session) durableBody(cfg engine.Config, h corpus.Handle, query string, rec *trace.Recorder, runID string) durable.RunFunc {
	return func(ctx context.Context, x *durable.Executor) (*engine.Result, error) {
		if s.tools != nil {
			if err := s.tools.Adopt(ctx, runID); err != nil {
				return nil, err
			}
			ctx = s.tools.WithRun(ctx)
		}
		c := cfg
		c.Executor = x
		c.SubProvider = x.SubProvider(c.SubProvider)
		eng, err := engine.New(c)
		if err != nil {
			return nil, err
		}
		return eng.Run(trace.WithRecorder(ctx, rec), query, h)
	}
}

// OTLPExport is a started OTLP exporter (nil when export is off).
type OTLPExport struct {
	exp  *otlp.Exporter
	log  io.Writer
	once sync.Once
}

// StartOTLP begins the export o asks for (nil when it asks for none) and
// writes the trace id on log, so the user can find the run in the tracing
// backend.
func StartOTLP(ctx context.Context, o OTLPSpec, log io.Writer) (*OTLPExport, error) {
	if !otlp.Enabled(o.Endpoint) {
		return nil, nil
	}
	exp, err := otlp.Start(ctx, otlp.Config{Endpoint: o.Endpoint, Content: o.Content})
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(log, "rlm: OTLP trace id %s\n", exp.TraceID())
	return &OTLPExport{exp: exp, log: log}, nil
}

// Option returns the recorder option that feeds the exporter.
func (o *OTLPExport) Option() trace.Option {
	if o == nil {
		return trace.WithObserver(nil)
	}
	return trace.WithObserver(o.exp.Observe)
}

// Finish flushes the export (at most 5 s) and logs dropped or failed
// spans; export problems never change the run's outcome. Only the first
// call does anything.
func (o *OTLPExport) Finish() {
	if o == nil {
		return
	}
	o.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		st := o.exp.Shutdown(ctx)
		if st.Dropped > 0 || st.Failed > 0 {
			msg := fmt.Sprintf("rlm: warning: OTLP export of trace %s incomplete: %s", o.exp.TraceID(), st)
			if st.LastError != "" {
				msg += " (last error: " + st.LastError + ")"
			}
			fmt.Fprintln(o.log, msg)
		}
	})
}

// modelWindows are the host's entries of the model table:
// Spec.ModelWindows, then WithModelWindows' (later entries win over
// earlier ones of the same prefix), then Spec.ContextWindow's entry for
// the root model, which is the most specific: every call to the root
// model (its turns, auto's direct call, the direct loop) is admitted
// against it, as the root loop's compaction measures against it.
func (s *Session) modelWindows() []model.Info {
	entries := append(append([]model.Info(nil), s.spec.ModelWindows...), s.opts.windows...)
	if s.spec.ContextWindow > 0 && s.spec.Model != "" {
		entries = append(entries, model.Info{Prefix: s.spec.Model, Window: s.spec.ContextWindow})
	}
	return entries
}
