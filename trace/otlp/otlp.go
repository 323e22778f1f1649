// Package otlp exports a run's trace events as OpenTelemetry spans over
// OTLP/HTTP, while the run goes: every event becomes one span with the
// event's start and end times, parented as in the recursion tree, in one
// trace whose id is chosen when the exporter starts (so it can be printed
// before the run). Model calls, tool calls and agent runs (runs and
// rlm_child events) follow the OpenTelemetry GenAI semantic conventions
// (chat, execute_tool and invoke_agent spans); depth, plan steps, context
// operations and tools carry rlm.* attributes (docs/trace.md has the
// table).
//
// The exporter never slows or fails a run: Observe only enqueues into a
// bounded queue (a full queue drops the event and counts it), spans are
// built and sent by one background goroutine, export errors are counted and
// reported as a warning, and Shutdown is bounded by its context. Content
// (replies, code, output, search patterns, image thumbnails) is exported only with
// Config.Content; secret-looking attributes never are.
package otlp

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"net/url"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	oteltrace "go.opentelemetry.io/otel/trace"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/trace"
)

// KindBadEndpoint: the --otlp-endpoint URL is not an http(s) URL.
const KindBadEndpoint fault.Kind = "invalid_otlp_endpoint"

// DefaultQueue is the default number of events waiting for export.
const DefaultQueue = 4096

// Config configures an Exporter.
type Config struct {
	// Endpoint is the OTLP/HTTP base URL (like OTEL_EXPORTER_OTLP_ENDPOINT:
	// "/v1/traces" is appended to its path unless the path already ends so).
	// Empty means the standard OTEL_EXPORTER_OTLP_* environment variables.
	Endpoint string
	// Content exports recorded content (reply, code, stdout, pattern, …).
	Content bool
	// Queue bounds the events waiting for export; DefaultQueue when <= 0.
	Queue int
	// ServiceName is the resource's service.name; "rlm" when empty.
	ServiceName string
}

// Enabled reports whether OTLP export is asked for: an endpoint flag, or
// OTEL_EXPORTER_OTLP_ENDPOINT / OTEL_EXPORTER_OTLP_TRACES_ENDPOINT set (and
// OTEL_SDK_DISABLED not "true").
func Enabled(endpoint string) bool {
	if endpoint != "" {
		return true
	}
	if strings.EqualFold(os.Getenv("OTEL_SDK_DISABLED"), "true") {
		return false
	}
	return os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != ""
}

// Stats are an exporter's counters after Shutdown.
type Stats struct {
	Spans     int64  // spans handed to the OTLP exporter
	Dropped   int64  // events dropped because the queue was full (or after Shutdown)
	Failed    int64  // spans whose export failed
	LastError string // the last export error, when Failed > 0
}

// Exporter turns trace events into spans. Use Observe with
// trace.WithObserver.
type Exporter struct {
	traceID oteltrace.TraceID
	content bool
	queue   chan trace.Event
	tp      *sdktrace.TracerProvider
	tracer  oteltrace.Tracer
	done    chan struct{}

	mu      sync.Mutex // guards closed against Observe
	closed  bool
	spans   atomic.Int64
	dropped atomic.Int64
	exp     *countingExporter

	// below holds, per event id not yet exported, what the model calls
	// of its ended descendants reported (used by the loop goroutine only).
	below map[string]calls
}

// calls is what an agent span takes from the model calls beneath it: the
// provider and requested model of the first one (the agent's own loop
// before a nested agent's) and the tokens of all of them.
type calls struct {
	provider, model string
	nested          bool // provider and model came from a nested agent
	input, output   int64
	tokens          bool
}

// merge adds c, reported by a child event, to the parent's calls p; a
// child agent's provider and model count only while the parent has none
// of its own.
func (p calls) merge(c calls, childIsAgent bool) calls {
	if c.provider != "" && (p.provider == "" || (p.nested && !childIsAgent && !c.nested)) {
		p.provider, p.model, p.nested = c.provider, c.model, childIsAgent || c.nested
	}
	if c.tokens {
		p.input, p.output, p.tokens = p.input+c.input, p.output+c.output, true
	}
	return p
}

// isAgent reports whether an event is exported as an invoke_agent span: a
// run (the root run, the direct loop's run, a run an rlm_subagent tool call
// started) or an rlm_child (a child run of rlm_query / a plan's rlm step).
func isAgent(k trace.Kind) bool { return k == trace.KindRun || k == trace.KindChild }

// collect returns what the model calls beneath ev reported, and hands
// them, with ev's own when it is a model call, to ev's parent.
func (e *Exporter) collect(ev trace.Event) calls {
	c := e.below[ev.ID]
	delete(e.below, ev.ID)
	own := c
	if ev.Kind == trace.KindModelCall {
		own = calls{provider: providerName(ev.Attrs["provider"]), model: requestedModel(ev)}
		if ev.Tokens != nil {
			own.input, own.output, own.tokens = ev.Tokens.Prompt, ev.Tokens.Completion, true
		}
	}
	if ev.Parent != "" && ev.Parent != ev.ID {
		e.below[ev.Parent] = e.below[ev.Parent].merge(own, isAgent(ev.Kind))
	}
	return c
}

// Start begins an exporter. It does not contact the endpoint: the first
// export happens in the background.
func Start(ctx context.Context, cfg Config) (*Exporter, error) {
	opts := []otlptracehttp.Option{otlptracehttp.WithRetry(otlptracehttp.RetryConfig{
		Enabled: true, InitialInterval: 200 * time.Millisecond, MaxInterval: time.Second, MaxElapsedTime: 3 * time.Second,
	})}
	if cfg.Endpoint != "" {
		u, err := url.Parse(cfg.Endpoint)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fault.New(fault.PhaseConfig, KindBadEndpoint, "the OTLP endpoint is not an http(s) URL").
				With("endpoint", redactURL(cfg.Endpoint)).WithHint("pass --otlp-endpoint http://HOST:4318 (the collector's OTLP/HTTP port)")
		}
		// A trailing slash is no path of its own: .../v1/traces/ is the
		// traces path, not a base under which to append it again.
		if u.Path = strings.TrimSuffix(u.Path, "/"); !strings.HasSuffix(u.Path, "/v1/traces") {
			u.Path += "/v1/traces"
		}
		opts = append(opts, otlptracehttp.WithEndpointURL(u.String()))
	}
	client, err := otlptracehttp.New(ctx, opts...)
	if err != nil {
		return nil, fault.Wrap(err, fault.PhaseConfig, KindBadEndpoint, "cannot configure the OTLP exporter")
	}
	n := cfg.Queue
	if n <= 0 {
		n = DefaultQueue
	}
	name := cfg.ServiceName
	if name == "" {
		name = "rlm"
	}
	e := &Exporter{content: cfg.Content, queue: make(chan trace.Event, n), done: make(chan struct{}), exp: &countingExporter{SpanExporter: client}, below: map[string]calls{}}
	if _, err := rand.Read(e.traceID[:]); err != nil {
		return nil, fault.Wrap(err, fault.PhaseConfig, fault.KindInternal, "cannot choose a trace id")
	}
	res := resource.NewSchemaless(attribute.String("service.name", name))
	// Blocking here only blocks the background goroutine; the run only
	// ever meets the bounded queue of Observe.
	batch := []sdktrace.BatchSpanProcessorOption{sdktrace.WithBlocking(), sdktrace.WithMaxQueueSize(n)}
	if n < sdktrace.DefaultMaxExportBatchSize {
		// The SDK clamps its batch to the queue only before applying
		// options: a smaller queue needs a batch no larger, or the batch
		// buffer holds spans beyond the bound.
		batch = append(batch, sdktrace.WithMaxExportBatchSize(n))
	}
	e.tp = sdktrace.NewTracerProvider(
		sdktrace.WithResource(res),
		sdktrace.WithIDGenerator(ids{e.traceID}),
		sdktrace.WithSampler(sdktrace.AlwaysSample()),
		sdktrace.WithBatcher(e.exp, batch...),
	)
	e.tracer = e.tp.Tracer("github.com/rlm-go/rlm/trace/otlp")
	go e.loop()
	return e, nil
}

// TraceID returns the hex trace id every span of the run carries.
func (e *Exporter) TraceID() string { return e.traceID.String() }

// Observe enqueues ev for export without blocking. A nil Exporter does
// nothing.
func (e *Exporter) Observe(ev trace.Event) {
	if e == nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		e.dropped.Add(1)
		return
	}
	select {
	case e.queue <- ev:
	default:
		e.dropped.Add(1)
	}
}

// Shutdown stops accepting events, exports what is queued and flushes,
// waiting at most until ctx ends.
func (e *Exporter) Shutdown(ctx context.Context) Stats {
	e.mu.Lock()
	if !e.closed {
		e.closed = true
		close(e.queue)
	}
	e.mu.Unlock()
	select {
	case <-e.done:
	case <-ctx.Done():
	}
	flushErr := e.tp.Shutdown(ctx)
	st := Stats{Spans: e.spans.Load(), Dropped: e.dropped.Load()}
	var ok int64
	st.Failed, st.LastError, ok = e.exp.failures()
	// Spans handed to the SDK that neither reached the collector nor
	// failed by the deadline were not exported either.
	if unsent := st.Spans - ok - st.Failed; unsent > 0 {
		st.Failed += unsent
		if st.LastError == "" && flushErr != nil {
			st.LastError = "flush: " + flushErr.Error()
		}
	}
	return st
}

func (e *Exporter) loop() {
	defer close(e.done)
	for ev := range e.queue {
		e.export(ev)
	}
}

type spanIDKey struct{}

// spanID derives an event's span id from the trace id and the event id, so
// a child's parent span id is known whether or not the parent has ended.
func (e *Exporter) spanID(eventID string) oteltrace.SpanID {
	h := sha256.Sum256(append(e.traceID[:], eventID...))
	var id oteltrace.SpanID
	copy(id[:], h[:8])
	if !id.IsValid() {
		id[7] = 1
	}
	return id
}

func (e *Exporter) export(ev trace.Event) {
	ctx := context.WithValue(context.Background(), spanIDKey{}, e.spanID(ev.ID))
	if ev.Parent != "" && ev.Parent != ev.ID {
		ctx = oteltrace.ContextWithSpanContext(ctx, oteltrace.NewSpanContext(oteltrace.SpanContextConfig{
			TraceID: e.traceID, SpanID: e.spanID(ev.Parent), TraceFlags: oteltrace.FlagsSampled,
		}))
	}
	name, kind, attrs := describe(ev, e.content, e.collect(ev))
	opts := []oteltrace.SpanStartOption{oteltrace.WithSpanKind(kind), oteltrace.WithAttributes(attrs...)}
	if !ev.Start.IsZero() {
		opts = append(opts, oteltrace.WithTimestamp(ev.Start))
	}
	_, sp := e.tracer.Start(ctx, name, opts...)
	switch {
	case ev.Error != nil:
		sp.SetStatus(codes.Error, string(ev.Error.Phase)+"/"+string(ev.Error.Kind))
	case ev.Status == trace.StatusCancelled:
		sp.SetStatus(codes.Error, "cancelled")
	}
	end := ev.End
	if end.IsZero() {
		end = ev.Start
	}
	sp.End(oteltrace.WithTimestamp(end))
	e.spans.Add(1)
}

// ids gives every span the run's trace id and the span id put in the
// context by export.
type ids struct{ traceID oteltrace.TraceID }

func (g ids) NewIDs(ctx context.Context) (oteltrace.TraceID, oteltrace.SpanID) {
	return g.traceID, g.NewSpanID(ctx, g.traceID)
}

func (g ids) NewSpanID(ctx context.Context, _ oteltrace.TraceID) oteltrace.SpanID {
	if id, ok := ctx.Value(spanIDKey{}).(oteltrace.SpanID); ok {
		return id
	}
	var id oteltrace.SpanID
	_, _ = rand.Read(id[:])
	return id
}

// countingExporter counts failed exports and hides their errors from the
// SDK's global handler (which would print them in its own format): the
// command reports them once, as a warning, after the run.
type countingExporter struct {
	sdktrace.SpanExporter
	mu     sync.Mutex
	failed int64
	ok     int64
	last   string
}

func (c *countingExporter) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	if err := c.SpanExporter.ExportSpans(ctx, spans); err != nil {
		c.mu.Lock()
		c.failed += int64(len(spans))
		c.last = err.Error()
		c.mu.Unlock()
		return nil
	}
	c.mu.Lock()
	c.ok += int64(len(spans))
	c.mu.Unlock()
	return nil
}

func (c *countingExporter) failures() (int64, string, int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.failed, c.last, c.ok
}

// redactURL drops a URL's user information (a password in the endpoint),
// also from a string that does not parse as a URL with one (a bad port, a
// missing scheme): whatever precedes an "@" of the authority goes.
func redactURL(s string) string {
	if u, err := url.Parse(s); err == nil && u.User != nil {
		u.User = url.User(trace.Redacted)
		return u.String()
	}
	head, rest := "", s
	if i := strings.Index(s, "://"); i >= 0 {
		head, rest = s[:i+3], s[i+3:]
	}
	auth := rest
	if j := strings.IndexAny(rest, "/?#"); j >= 0 {
		auth = rest[:j]
	}
	if k := strings.LastIndex(auth, "@"); k >= 0 {
		return head + trace.Redacted + rest[k:]
	}
	return s
}

// contentKeys are event attributes holding recorded content: exported
// only with Config.Content, as rlm.content.<key>.
var contentKeys = map[string]bool{
	"reply": true, "code": true, "stdout": true, "stderr": true, "plan": true, "observation": true,
	"answer": true, "prompt": true, "response": true, "pattern": true, "exception_message": true,
	"arguments":  true, // a direct loop call's argument text (trace.NoteToolContent)
	"thumbnails": true, // images a call sent, as data URLs (--trace-content)
}

// providerName is gen_ai.provider.name for a provider's name
// (model.Meta.Provider): "anthropic" for the Messages API, "openai" for
// every server rlm reaches through the OpenAI-compatible API (the
// convention names the telemetry flavour, and rlm speaks OpenAI's wire
// format to those servers; gen_ai.response.model says which model
// answered), rlm's own name otherwise.
func providerName(v any) string {
	switch p, _ := v.(string); p {
	case "anthropic":
		return "anthropic"
	case "", "openai-compatible", "openai", "replay":
		return "openai"
	default:
		return p
	}
}

// requestedModel is the model a model_call event's request named: the
// event's name, or its "model" attribute in a trace that has no name.
func requestedModel(ev trace.Event) string {
	if ev.Name != "" {
		return ev.Name
	}
	m, _ := ev.Attrs["model"].(string)
	return m
}

// agentName is gen_ai.agent.name of an agent span: "rlm" for rlm's run
// ("direct" for the direct loop's), "rlm_child" for a child run.
func agentName(ev trace.Event) string {
	if ev.Kind == trace.KindChild {
		return "rlm_child"
	}
	if ev.Name == "" {
		return "rlm"
	}
	return ev.Name
}

// otherProvider is gen_ai.provider.name of an agent span under which no
// model call ended (the convention's value when no other applies).
const otherProvider = "_OTHER"

// describe maps an event to a span name, kind and attributes; below is
// what the model calls beneath it reported (used by agent spans).
func describe(ev trace.Event, content bool, below calls) (string, oteltrace.SpanKind, []attribute.KeyValue) {
	a := []attribute.KeyValue{
		attribute.String("rlm.event.id", ev.ID),
		attribute.String("rlm.event.kind", string(ev.Kind)),
		attribute.Int("rlm.depth", ev.Depth),
	}
	if ev.Status != "" {
		a = append(a, attribute.String("rlm.status", string(ev.Status)))
	}
	if ev.Bytes > 0 {
		a = append(a, attribute.Int64("rlm.bytes", ev.Bytes))
	}
	if ev.Error != nil {
		a = append(a, attribute.String("error.type", string(ev.Error.Kind)), attribute.String("rlm.error.phase", string(ev.Error.Phase)))
	}
	name, kind := string(ev.Kind)+" "+ev.Name, oteltrace.SpanKindInternal
	if ev.Name == "" || strings.HasPrefix(ev.Name, string(ev.Kind)) {
		name = strings.TrimSpace(ev.Name + " ")
		if name == "" {
			name = string(ev.Kind)
		}
	}
	attrs := trace.Redact(ev.Attrs)
	switch ev.Kind {
	case trace.KindModelCall:
		// The span's name is the model the request named; attribute
		// "model" is the one the server says answered.
		requested := requestedModel(ev)
		provider := providerName(attrs["provider"])
		name, kind = "chat "+requested, oteltrace.SpanKindClient
		a = append(a, attribute.String("gen_ai.operation.name", "chat"), attribute.String("gen_ai.provider.name", provider),
			attribute.String("gen_ai.system", provider), attribute.String("gen_ai.request.model", requested))
		if m, ok := attrs["model"].(string); ok && m != "" {
			a = append(a, attribute.String("gen_ai.response.model", m))
		}
		if id, ok := attrs["response_id"].(string); ok && id != "" {
			a = append(a, attribute.String("gen_ai.response.id", id))
		}
		if host, ok := attrs["server_address"].(string); ok && host != "" {
			a = append(a, attribute.String("server.address", host))
			if n, ok := number(attrs["server_port"]); ok && n > 0 {
				a = append(a, attribute.Int64("server.port", n))
			}
		}
		if n, ok := number(attrs["max_tokens"]); ok {
			a = append(a, attribute.Int64("gen_ai.request.max_tokens", n))
		}
		if t, ok := attrs["temperature"].(float64); ok {
			a = append(a, attribute.Float64("gen_ai.request.temperature", t))
		}
		if ev.Tokens != nil {
			a = append(a, attribute.Int64("gen_ai.usage.input_tokens", ev.Tokens.Prompt), attribute.Int64("gen_ai.usage.output_tokens", ev.Tokens.Completion))
		}
		if fr, ok := attrs["finish_reason"].(string); ok && fr != "" {
			a = append(a, attribute.StringSlice("gen_ai.response.finish_reasons", []string{fr}))
		}
		if n, ok := number(attrs["http_status"]); ok {
			a = append(a, attribute.Int64("http.response.status_code", n))
		}
		if ev.CostUSD > 0 {
			a = append(a, attribute.Float64("rlm.cost_usd", ev.CostUSD), attribute.Bool("rlm.cost_known", ev.CostKnown))
		}
	case trace.KindToolCall:
		name, kind = "execute_tool "+ev.Name, oteltrace.SpanKindInternal
		a = append(a, attribute.String("gen_ai.operation.name", "execute_tool"), attribute.String("gen_ai.tool.name", ev.Name),
			attribute.String("gen_ai.tool.type", "function"))
		if id, ok := attrs["call_id"].(string); ok && id != "" {
			a = append(a, attribute.String("gen_ai.tool.call.id", id))
		}
	case trace.KindRun, trace.KindChild:
		// An in-process agent: the internal invoke_agent span.
		agent := agentName(ev)
		name = "invoke_agent " + agent
		provider := below.provider
		if provider == "" {
			provider = otherProvider
		}
		a = append(a, attribute.String("gen_ai.operation.name", "invoke_agent"), attribute.String("gen_ai.provider.name", provider),
			attribute.String("gen_ai.agent.name", agent), attribute.String("gen_ai.agent.id", ev.ID))
		if below.model != "" {
			a = append(a, attribute.String("gen_ai.request.model", below.model))
		}
		if below.tokens {
			a = append(a, attribute.Int64("gen_ai.usage.input_tokens", below.input), attribute.Int64("gen_ai.usage.output_tokens", below.output))
		}
	case trace.KindPlanStep:
		a = append(a, attribute.String("rlm.plan.step", ev.Name))
	case trace.KindContextOp:
		a = append(a, attribute.String("rlm.context.op", ev.Name))
	case trace.KindTurn:
		a = append(a, attribute.String("rlm.turn", ev.Name))
	}
	keys := make([]string, 0, len(attrs))
	for k := range attrs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := attrs[k]
		if trace.IsSecretKey(k) || v == trace.Redacted {
			continue // secrets are never exported, not even redacted
		}
		if ev.Kind == trace.KindModelCall && (k == "server_address" || k == "server_port") {
			continue // exported as server.address / server.port
		}
		if contentKeys[k] {
			switch x := v.(type) {
			case string:
				if content {
					a = append(a, attribute.String("rlm.content."+k, x))
				}
			case []string: // thumbnails
				if content {
					a = append(a, attribute.StringSlice("rlm.content."+k, x))
				}
			}
			continue
		}
		if kv, ok := scalar(ev.Kind, k, v); ok {
			a = append(a, kv)
		}
	}
	return name, kind, a
}

// scalar maps a plain attribute to rlm.<kind-prefix>.<key>: plan steps to
// rlm.plan.*, context operations to rlm.context.*, tools to rlm.tool.*,
// the rest to rlm.attr.*. Maps and lists are not exported.
func scalar(k trace.Kind, key string, v any) (attribute.KeyValue, bool) {
	prefix := "rlm.attr."
	switch k {
	case trace.KindPlanStep:
		prefix = "rlm.plan."
	case trace.KindContextOp:
		prefix = "rlm.context."
	case trace.KindToolCall:
		prefix = "rlm.tool."
	case trace.KindRun, trace.KindChild:
		prefix = "rlm."
	}
	name := attribute.Key(prefix + key)
	switch v := v.(type) {
	case string:
		return name.String(v), true
	case bool:
		return name.Bool(v), true
	case float64:
		if v == float64(int64(v)) {
			return name.Int64(int64(v)), true
		}
		return name.Float64(v), true
	}
	if n, ok := number(v); ok {
		return name.Int64(n), true
	}
	return attribute.KeyValue{}, false
}

func number(v any) (int64, bool) {
	switch v := v.(type) {
	case int:
		return int64(v), true
	case int64:
		return v, true
	case int32:
		return int64(v), true
	case uint64:
		return int64(v), true
	case float64:
		return int64(v), v == float64(int64(v))
	}
	return 0, false
}

// String describes the stats for the warning line.
func (s Stats) String() string {
	return fmt.Sprintf("%d spans exported, %d dropped (queue full), %d failed", s.Spans-s.Failed, s.Dropped, s.Failed)
}
