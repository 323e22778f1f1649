package rlm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/rlm-go/rlm/answer"
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/fingerprint"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/anthropic"
	"github.com/rlm-go/rlm/model/cache"
	"github.com/rlm-go/rlm/model/openai"
	"github.com/rlm-go/rlm/model/replay"
	"github.com/rlm-go/rlm/tool"
	"github.com/rlm-go/rlm/trace"
	"github.com/rlm-go/rlm/vision"
)

// Option adds to Open what is not data: where stdin and notes go, hooks
// that watch the run, a provider a program built itself.
type Option func(*options)

type options struct {
	stdin      io.Reader
	log        io.Writer
	provider   model.Provider
	fallbacks  []model.FallbackModel
	wrap       func(model.Provider) model.Provider
	onRetry    func(openai.Retry)
	onCache    func(*cache.Cache)
	onUnpriced func(models []string)
	observers  []func(trace.Event)
	// liveObservers see live attributes and live-only events too.
	liveObservers []func(trace.Event)
	engineObs     func(engine.Event)
	onDurable     func(runID string)
	// onParentCancel is given what cancels rlm_subagent's parent agent.
	onParentCancel func(cancel func()) (stop func())
	// answerSchema, when set, replaces the Spec's (WithAnswerSchema).
	answerSchema json.RawMessage
	windows      []model.Info
	tools        []tool.Spec
}

// WithTools adds Go tools to the session after Spec.Tools, granted as
// those are: a program that opens specs it did not write (a durable
// worker's submitted runs, a command line's) gives them its tools.
func WithTools(ts ...tool.Spec) Option {
	return func(o *options) { o.tools = append(o.tools, ts...) }
}

// WithModelWindows adds entries to the run's model table after
// Spec.ModelWindows (context window, max output and tokenizer by model
// name prefix; docs/model.md, "The model table"): every model call is
// admitted against its model's window and oversized sub-calls re-split
// to fit it.
func WithModelWindows(ws ...model.Info) Option {
	return func(o *options) { o.windows = append(o.windows, ws...) }
}

// WithStdin is the input of a Spec.Context "-" (default: empty).
func WithStdin(r io.Reader) Option { return func(o *options) { o.stdin = r } }

// WithLog receives the notes of a session (an MCP tool that could not be
// imported, the OTLP trace id, the durable run id); default: discarded.
func WithLog(w io.Writer) Option { return func(o *options) { o.log = w } }

// WithProvider answers model calls with p instead of the server the Spec
// names (Provider, BaseURL, Replay are then unused).
func WithProvider(p model.Provider) Option { return func(o *options) { o.provider = p } }

// WithFallbacks adds fallback models, each on its own provider (nil: the
// session's), after Spec.FallbackModels (model.Fallback).
func WithFallbacks(fs ...model.FallbackModel) Option {
	return func(o *options) { o.fallbacks = append(o.fallbacks, fs...) }
}

// WithProviderWrap wraps the provider (after the recorder, before the
// cache): a CLI counts and shows calls there.
func WithProviderWrap(f func(model.Provider) model.Provider) Option {
	return func(o *options) { o.wrap = f }
}

// WithRetryHook is called before each retried HTTP attempt.
func WithRetryHook(f func(openai.Retry)) Option { return func(o *options) { o.onRetry = f } }

// WithCacheHook receives the session's response cache when one is made.
func WithCacheHook(f func(*cache.Cache)) Option { return func(o *options) { o.onCache = f } }

// WithUnpricedHook receives the models without a price (unless
// Spec.StrictCost refuses them).
func WithUnpricedHook(f func(models []string)) Option { return func(o *options) { o.onUnpriced = f } }

// WithObserver receives each trace event of the session's runs (Run and
// Chat) the recorder keeps, as it keeps it (trace.WithObserver): no live
// attributes, no live-only events. Calls may come from several goroutines
// at once.
func WithObserver(f func(trace.Event)) Option {
	return func(o *options) { o.observers = append(o.observers, f) }
}

// WithLiveObserver receives every trace event of the session's runs as it
// happens, as a live observer (trace.WithLiveObserver): the events the
// trace keeps, and the live ones -v prints: each turn's reply, outcome
// and observation, code-mode replies, cells as they start, sub-calls and
// streamed deltas, carried as live attributes (trace.Event.Live, never
// kept in the trace). The engine computes that text only when a live
// observer listens. Calls may come from several goroutines at once.
func WithLiveObserver(f func(trace.Event)) Option {
	return func(o *options) { o.liveObservers = append(o.liveObservers, f) }
}

// WithEngineObserver receives the engine's turn events (replies, deltas,
// observations) of Run and Chat, a view of the trace events
// WithLiveObserver receives (engine.EventOf).
//
// Deprecated: use WithLiveObserver.
func WithEngineObserver(f func(engine.Event)) Option { return func(o *options) { o.engineObs = f } }

// WithDurableStart is called with the id of a durable run when it starts.
func WithDurableStart(f func(runID string)) Option { return func(o *options) { o.onDurable = f } }

// WithSubagentCancel is given, when rlm_subagent's host starts, what
// cancels its parent agent only (its children are cancelled and their
// envelopes reach its mailbox), and returns what stops listening: the CLI
// cancels on SIGUSR1.
func WithSubagentCancel(f func(cancel func()) (stop func())) Option {
	return func(o *options) { o.onParentCancel = f }
}

// Session is an opened Spec: the provider, tools, journal and outputs it
// names, ready for Run, Direct or Chat. Close it to write the recording
// and release what it holds.
type Session struct {
	spec     Spec
	opts     options
	answer   *answer.Schema // compiled Spec.AnswerSchema(File)
	provider model.Provider
	cassette *replay.Recorder
	tools    *Tools
	mcp      *mcpServers
	images   *vision.Set // the image files of the Spec's contexts (code mode's load_image)
	closers  []func()
	closed   bool
}

// Open checks spec and opens what it names, in the order that makes a
// configuration error come first and cost nothing: the Spec, the
// outputs, the prices under StrictCost, the provider (base URL, API key),
// the tools and the effect journal. It reads no context and calls no
// model.
func Open(ctx context.Context, spec Spec, opts ...Option) (*Session, error) {
	s := &Session{images: &vision.Set{}}
	for _, o := range opts {
		o(&s.opts)
	}
	if len(s.opts.tools) > 0 {
		spec.Tools = append(slices.Clip(spec.Tools), s.opts.tools...)
	}
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	s.spec = spec.withDefaults()
	if s.opts.answerSchema != nil {
		s.spec.AnswerSchema, s.spec.AnswerSchemaFile = s.opts.answerSchema, ""
	}
	var err error
	if s.answer, err = s.spec.answerSchema(); err != nil {
		return nil, err
	}
	if s.opts.stdin == nil {
		s.opts.stdin = strings.NewReader("")
	}
	if s.opts.log == nil {
		s.opts.log = io.Discard
	}
	if err := s.openProvider(); err != nil {
		s.Close()
		return nil, err
	}
	if err := s.openTools(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// Spec returns the session's Spec with its defaults filled in.
func (s *Session) Spec() Spec { return s.spec }

// Provider returns the session's provider (the recorder, hooks and cache
// included).
func (s *Session) Provider() model.Provider { return s.provider }

// Close writes the cassette (Spec.Record) and releases the session's
// resources; it returns the error of an output that could not be written.
// Only the first call does anything.
func (s *Session) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	var err error
	if s.cassette != nil && s.spec.Record != "" {
		err = s.cassette.Save(s.spec.Record)
	}
	for i := len(s.closers) - 1; i >= 0; i-- {
		s.closers[i]()
	}
	s.closers = nil
	return err
}

// openProvider checks prices and outputs and builds the provider.
func (s *Session) openProvider() error {
	sp := s.spec
	if err := s.checkCost(); err != nil {
		return err
	}
	if err := CheckOutputs(Output{"record", sp.Record}, Output{"trace", sp.Trace}); err != nil {
		return err
	}
	if sp.Record != "" && sp.Cache.Dir != "" && !sp.Cache.Off {
		// A response read from Dir is not sent, so not recorded: the
		// cassette would not replay the run.
		return fault.New(fault.PhaseConfig, KindInvalidUsage, "record cannot be combined with a cache directory: responses read from it would be missing from the cassette").
			WithHint("record without --cache (or add --no-cache); identical requests within the run are still answered once, on record and on replay")
	}
	p, scope, err := s.baseProvider()
	if err != nil {
		return err
	}
	p = model.Fallback(p, s.fallbacks())
	if sp.Record != "" {
		s.cassette = replay.NewRecorder(p)
		p = s.cassette
	}
	if s.opts.wrap != nil {
		p = s.opts.wrap(p)
	}
	s.provider, err = s.cached(p, scope)
	return err
}

// fallbacks are the Spec's fallback models (on the base provider), then
// the program's (WithFallbacks).
func (s *Session) fallbacks() []model.FallbackModel {
	var out []model.FallbackModel
	for _, m := range s.spec.FallbackModels {
		out = append(out, model.FallbackModel{Model: m})
	}
	return append(out, s.opts.fallbacks...)
}

// baseProvider is the provider the Spec names (or WithProvider's) and the
// owner of its responses for the cache.
func (s *Session) baseProvider() (model.Provider, string, error) {
	sp := s.spec
	if s.opts.provider != nil {
		return s.opts.provider, "program:" + sp.Model, nil
	}
	cfg := openai.Config{BaseURL: sp.BaseURL, Model: sp.Model, APIKeyEnv: sp.APIKeyEnv, Timeout: sp.RequestTimeout,
		OnRetry: s.opts.onRetry, MaxToolCalls: sp.Direct.MaxNativeCallsPerBatch}
	scope := ""
	if sp.Replay != "" {
		cas, err := replay.Load(sp.Replay)
		if err != nil {
			return nil, "", err
		}
		srv := replay.NewServer(cas)
		s.closers = append(s.closers, srv.Close)
		cfg.BaseURL, cfg.APIKeyEnv, cfg.Name = srv.BaseURL(), "", "replay"
		// The replay server listens on a new port each time: the
		// cassette owns the responses.
		if data, err := os.ReadFile(sp.Replay); err == nil {
			scope = "replay:" + fingerprint.Bytes(data)
		}
	}
	var p interface {
		model.Provider
		CacheScope() string
	}
	var err error
	if sp.Provider == "anthropic" {
		base := cfg.BaseURL
		if base == "" || base == openai.DefaultBaseURL {
			base = anthropic.DefaultBaseURL
		}
		p, err = anthropic.New(anthropic.Config{Name: cfg.Name, BaseURL: base, Model: cfg.Model, APIKeyEnv: cfg.APIKeyEnv,
			Timeout: cfg.Timeout, OnRetry: cfg.OnRetry, MaxToolCalls: cfg.MaxToolCalls})
	} else {
		if cfg.BaseURL == "" {
			cfg.BaseURL = openai.DefaultBaseURL
		}
		p, err = openai.New(cfg)
	}
	if err != nil {
		return nil, "", err
	}
	if scope == "" {
		scope = p.CacheScope()
	}
	return p, scope, nil
}

// checkCost refuses (StrictCost) or reports the models without a price.
func (s *Session) checkCost() error {
	var unpriced []string
	for _, m := range append([]string{s.spec.Model, s.spec.SubModel}, s.spec.FallbackModels...) {
		if m == "" || slices.Contains(unpriced, m) {
			continue
		}
		if _, ok := budget.LookupPrice(m); !ok {
			unpriced = append(unpriced, m)
		}
	}
	if len(unpriced) == 0 {
		return nil
	}
	if s.spec.StrictCost {
		return fault.New(fault.PhaseConfig, KindUnpricedModel, "no price for the model: its cost and --max-cost cannot be accounted").
			With("models", strings.Join(unpriced, ","))
	}
	if s.opts.onUnpriced != nil {
		s.opts.onUnpriced(unpriced)
	}
	return nil
}

// cached applies Cache.Temperature and puts the response cache in front
// of p.
func (s *Session) cached(p model.Provider, scope string) (model.Provider, error) {
	cs := s.spec.Cache
	if cs.Off {
		if cs.Temperature != nil {
			t, next := *cs.Temperature, p
			p = model.ProviderFunc(func(ctx context.Context, req model.Request) (*model.Response, error) {
				if req.Temperature == nil {
					req.Temperature = &t
				}
				return next.Complete(ctx, req)
			})
		}
		return p, nil
	}
	c, err := cache.New(cache.Options{Dir: cs.Dir, AnyTemperature: cs.AnyTemperature})
	if err != nil {
		return nil, err
	}
	if s.opts.onCache != nil {
		s.opts.onCache(c)
	}
	cp := c.Wrap(p, scope)
	if cs.Temperature == nil {
		return cp, nil
	}
	return temperatureSharer{cp, *cs.Temperature}, nil
}

// temperatureSharer sets the default temperature before the cache
// computes its key, so requests at temperature 0 are cacheable.
type temperatureSharer struct {
	*cache.Provider
	t float64
}

func (s temperatureSharer) fill(req model.Request) model.Request {
	if req.Temperature == nil {
		t := s.t
		req.Temperature = &t
	}
	return req
}

func (s temperatureSharer) Complete(ctx context.Context, req model.Request) (*model.Response, error) {
	return s.Provider.Complete(ctx, s.fill(req))
}

func (s temperatureSharer) Share(ctx context.Context, req model.Request) (*model.Response, model.Lead, error) {
	resp, lead, err := s.Provider.Share(ctx, s.fill(req))
	if lead != nil {
		lead = temperatureLead{lead, s}
	}
	return resp, lead, err
}

type temperatureLead struct {
	model.Lead
	s temperatureSharer
}

func (l temperatureLead) Complete(ctx context.Context, req model.Request) (*model.Response, error) {
	return l.Lead.Complete(ctx, l.s.fill(req))
}

// addContext opens the Spec's contexts (MCP resources read through the
// session's MCP host) into store.
func (s *Session) addContext(ctx context.Context, store *corpus.Store) (corpus.Handle, error) {
	paths, err := s.mcp.contexts(ctx, s.spec.Context)
	if err != nil {
		return corpus.Handle{}, err
	}
	rest, err := OpenImages(paths, s.images, vision.Limits{})
	if err != nil {
		return corpus.Handle{}, err
	}
	if len(rest) == 0 {
		// Images only: the context is their listing (metadata), the
		// images themselves values code mode loads by name.
		return store.AddString("images", s.images.Listing())
	}
	return AddContexts(ctx, store, rest, s.opts.stdin)
}

// openTools opens the tool runtime when the Spec grants tools or resumes
// a run (with a database, Resume names the durable run: its tool run has
// the same id, adopted when the run starts).
func (s *Session) openTools(ctx context.Context) error {
	sp := s.spec
	s.mcp = &mcpServers{file: sp.MCP}
	s.closers = append(s.closers, s.mcp.close)
	if sp.Durable.Database != "" {
		sp.Resume = ""
	}
	if len(sp.Allow) == 0 && sp.Resume == "" && len(sp.Tools) == 0 {
		return nil
	}
	t, err := openTools(ctx, sp, nil, s.mcp, s.opts.log)
	if err != nil {
		return err
	}
	s.tools = t
	s.closers = append(s.closers, t.Close)
	return nil
}

// Tools returns the session's tool runtime, or nil when the Spec grants
// no tool.
func (s *Session) Tools() *Tools { return s.tools }

// decodeStrict decodes JSON into v, refusing unknown fields and trailing
// data.
func decodeStrict(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("data after the JSON value")
	}
	return nil
}
