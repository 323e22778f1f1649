// Package anthropic is a model.Provider for Anthropic's Messages API
// (POST {BaseURL}/messages), on net/http as model/openai is.
//
// It maps the system prompt, messages, tool calls (tool_use and
// tool_result blocks) and tools, streams (message_start,
// content_block_start / _delta with text_delta, input_json_delta and
// thinking_delta, message_delta usage, message_stop, error events) or
// not, and reports usage with the prompt-cache reads and writes, priced
// with the price table. Messages marked model.Message.CacheBreakpoint
// (model.MarkCachePrefix) carry cache_control. Retries honour
// retry-after; failures are *fault.Error values with the kinds of
// package model and model/openai. The API key (ANTHROPIC_API_KEY) is
// scrubbed from everything returned, with the same scrubber and rule as
// model/openai (model/internal/scrub).
package anthropic

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"mime"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/internal/scrub"
	"github.com/rlm-go/rlm/model/internal/sse"
	"github.com/rlm-go/rlm/model/internal/wire"
	"github.com/rlm-go/rlm/model/openai"
)

// Defaults used when the corresponding Config field is zero.
const (
	DefaultBaseURL   = "https://api.anthropic.com/v1"
	DefaultAPIKeyEnv = "ANTHROPIC_API_KEY"
	DefaultName      = "anthropic"
	DefaultVersion   = "2023-06-01"
	hostedHost       = "api.anthropic.com"
)

// maxResponseBytes bounds a response body, streamed or not.
const maxResponseBytes = 64 << 20

// maxErrorBody bounds how much of an error body is read.
const maxErrorBody = 64 << 10

// Config configures a Provider.
type Config struct {
	// Name is reported as Meta.Provider; default "anthropic".
	Name string
	// BaseURL is the API root including the version path; requests go to
	// BaseURL + "/messages". Default DefaultBaseURL.
	BaseURL string
	// Model is the default model; Request.Model overrides it.
	Model string
	// APIKey is the key itself (tests, embedding); it takes precedence
	// over APIKeyEnv.
	APIKey string
	// APIKeyEnv names the variable holding the key; default
	// ANTHROPIC_API_KEY. A missing key is an error (Phase config, Kind
	// missing_api_key) for api.anthropic.com and whenever APIKeyEnv is
	// set explicitly.
	APIKeyEnv string
	// Version is the anthropic-version header; default DefaultVersion.
	Version string
	// Timeout bounds each attempt including reading the body; default
	// openai.DefaultTimeout, negative none.
	Timeout time.Duration
	// MaxRetries, RetryBaseDelay, RetryMaxDelay and MaxRetryAfter work as
	// in openai.Config.
	MaxRetries     int
	RetryBaseDelay time.Duration
	RetryMaxDelay  time.Duration
	MaxRetryAfter  time.Duration
	// MaxToolCalls bounds the tool calls of one response, as in
	// openai.Config.
	MaxToolCalls int
	// HTTPClient is the client to use; default http.DefaultClient.
	HTTPClient *http.Client
	// OnRetry is called before the wait of a retry.
	OnRetry func(openai.Retry)
}

// Provider is a Messages API client, safe for concurrent use.
type Provider struct {
	name, model, baseURL, endpoint, host string
	key, keyEnv, version                 string
	secrets                              *scrub.Set
	timeout                              time.Duration
	maxRetries                           int
	baseDelay, maxDelay, maxRetryAft     time.Duration
	maxCalls                             int
	client                               *http.Client
	onRetry                              func(openai.Retry)
}

var _ model.Provider = (*Provider)(nil)

// New returns a Provider for cfg, reading the key from the environment
// once.
func New(cfg Config) (*Provider, error) {
	base := strings.TrimRight(firstNonEmpty(strings.TrimSpace(cfg.BaseURL), DefaultBaseURL), "/")
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fault.New(fault.PhaseProvider, fault.KindInvalidConfig, "base URL must be an absolute http or https URL").
			WithHint("give the API root as an absolute URL, for example https://api.anthropic.com/v1")
	}
	p := &Provider{
		name: firstNonEmpty(cfg.Name, DefaultName), model: cfg.Model, baseURL: base, endpoint: base + "/messages",
		host: strings.ToLower(u.Hostname()), version: firstNonEmpty(cfg.Version, DefaultVersion),
		secrets: new(scrub.Set), timeout: pick(cfg.Timeout, openai.DefaultTimeout), maxRetries: cfg.MaxRetries,
		baseDelay: pick(cfg.RetryBaseDelay, openai.DefaultRetryBaseDelay), maxDelay: pick(cfg.RetryMaxDelay, openai.DefaultRetryMaxDelay),
		maxRetryAft: pick(cfg.MaxRetryAfter, openai.DefaultMaxRetryAfter), onRetry: cfg.OnRetry,
	}
	switch {
	case cfg.MaxToolCalls == 0:
		p.maxCalls = openai.MaxToolCalls
	case cfg.MaxToolCalls < 0 || cfg.MaxToolCalls > openai.HardMaxToolCalls:
		p.maxCalls = openai.HardMaxToolCalls
	default:
		p.maxCalls = cfg.MaxToolCalls
	}
	switch {
	case p.maxRetries == 0:
		p.maxRetries = openai.DefaultMaxRetries
	case p.maxRetries < 0:
		p.maxRetries = 0
	}
	c := http.Client{}
	if cfg.HTTPClient != nil {
		c = *cfg.HTTPClient
	}
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	p.client = &c
	p.keyEnv = firstNonEmpty(cfg.APIKeyEnv, DefaultAPIKeyEnv)
	p.key = cfg.APIKey
	if p.key == "" {
		p.key = strings.TrimSpace(os.Getenv(p.keyEnv))
	}
	p.secrets.Add(p.key)
	if p.key == "" && (cfg.APIKeyEnv != "" || p.host == hostedHost) {
		return nil, fault.Newf(fault.PhaseConfig, model.KindMissingAPIKey, "no API key: set the %s environment variable", p.keyEnv).
			With("env", p.keyEnv).With("host", p.host).
			WithHint("set " + p.keyEnv + " to your Anthropic API key, or name the variable that holds it with --api-key-env")
	}
	return p, nil
}

func pick(d, def time.Duration) time.Duration {
	switch {
	case d == 0:
		return def
	case d < 0:
		return 0
	}
	return d
}

// Name returns the provider name reported in Meta.Provider.
func (p *Provider) Name() string { return p.name }

// Scrub removes the key from s as model/openai's Provider.Scrub does (for
// recorders).
func (p *Provider) Scrub(s string) string { return p.secrets.Content(s) }

var errAttemptTimeout = errors.New("request timeout")

// Complete sends req and returns the reassembled response.
func (p *Provider) Complete(ctx context.Context, req model.Request) (*model.Response, error) {
	start := time.Now()
	body, err := EncodeRequest(req, p.model)
	if err != nil {
		return nil, err
	}
	modelName := firstNonEmpty(req.Model, p.model)
	cp := *p
	cp.secrets = p.secrets.Without(modelName)
	p = &cp
	for attempt := 1; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return nil, p.ctxError(ctx, nil).With("attempts", attempt-1)
		}
		resp, retry, ferr := p.attempt(ctx, body, req.Stream, req.OnDelta)
		if ferr == nil || resp != nil {
			resp.Meta.Provider, resp.Meta.Attempts = p.name, attempt
			resp.Meta.LatencyMS = float64(time.Since(start).Microseconds()) / 1000
			resp.Usage = budget.WithEstimatedCost(model.EstimateUsage(req, resp, modelName), firstNonEmpty(resp.Meta.Model, modelName))
			if ferr != nil {
				return resp, ferr.With("attempts", attempt).With("model", modelName)
			}
			return resp, nil
		}
		ferr.With("attempts", attempt).With("model", modelName)
		if !retry.ok || attempt > p.maxRetries {
			return nil, ferr
		}
		wait := p.backoff(attempt, retry)
		if p.onRetry != nil {
			p.onRetry(openai.Retry{Attempt: attempt, Wait: wait, Status: retry.status, Kind: ferr.Kind, Model: modelName})
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, p.ctxError(ctx, nil).With("attempts", attempt).With("last_error_kind", string(ferr.Kind))
		case <-t.C:
		}
	}
}

type retryInfo struct {
	ok       bool
	status   int
	after    time.Duration
	hasAfter bool
}

func (p *Provider) backoff(n int, r retryInfo) time.Duration {
	if r.hasAfter {
		return min(r.after, p.maxRetryAft)
	}
	ceil := p.baseDelay
	for i := 1; i < n && ceil < p.maxDelay; i++ {
		ceil *= 2
	}
	if ceil = min(ceil, p.maxDelay); ceil <= 0 {
		return 0
	}
	return time.Duration(rand.Int64N(int64(ceil) + 1))
}

// attempt performs one HTTP exchange. A stream that failed after usage
// arrived returns that usage with the error.
func (p *Provider) attempt(ctx context.Context, body []byte, stream bool, onDelta func(string)) (*model.Response, retryInfo, *fault.Error) {
	actx := ctx
	if p.timeout > 0 {
		var cancel context.CancelFunc
		actx, cancel = context.WithTimeoutCause(ctx, p.timeout, errAttemptTimeout)
		defer cancel()
	}
	hreq, err := http.NewRequestWithContext(actx, http.MethodPost, p.endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, retryInfo{}, p.fail(fault.KindInvalidConfig, "build request", err)
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("anthropic-version", p.version)
	if stream {
		hreq.Header.Set("Accept", "text/event-stream")
	}
	if p.key != "" {
		hreq.Header.Set("x-api-key", p.key)
	}
	hres, err := p.client.Do(hreq)
	if err != nil {
		if fe := p.ctxError(ctx, actx); fe != nil {
			return nil, retryInfo{}, fe.With("stage", "connect")
		}
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			return nil, retryInfo{}, p.fail(fault.KindTimeout, "request timed out", err).With("stage", "connect")
		}
		return nil, retryInfo{ok: true}, p.fail(model.KindTransport, "request failed", err).
			WithHint(fmt.Sprintf("cannot reach %s: check --base-url and the network", p.baseURL))
	}
	defer hres.Body.Close()
	if s := hres.StatusCode; s >= 300 && s <= 399 && hres.Header.Get("Location") != "" {
		return nil, retryInfo{}, p.fail(openai.KindRedirectRefused, "the server redirected the API call; redirects are not followed so credentials stay with the configured endpoint", nil).
			With("status", s)
	}
	if s := hres.StatusCode; s < 200 || s > 299 {
		raw, _ := io.ReadAll(io.LimitReader(hres.Body, maxErrorBody))
		ri := retryInfo{status: s, ok: s == 408 || s == 409 || s == 429 || s >= 500}
		ri.after, ri.hasAfter = wire.ParseRetryAfter(hres.Header, time.Now())
		e := p.bodyError(fmt.Sprintf("server answered HTTP %d", s), s, raw)
		if ri.hasAfter {
			e.With("retry_after_ms", ri.after.Milliseconds())
		}
		return nil, ri, e
	}
	ct, _, _ := mime.ParseMediaType(hres.Header.Get("Content-Type"))
	br := bufio.NewReader(&wire.BoundedReader{R: hres.Body, Left: maxResponseBytes})
	var (
		resp *model.Response
		ferr *fault.Error
	)
	if ct == "text/event-stream" || (stream && ct != "application/json") {
		var ds *scrub.Delta
		if onDelta != nil {
			ds = &scrub.Delta{Set: p.secrets, Emit: onDelta}
			onDelta = ds.Add
		}
		resp, ferr = p.readStream(ctx, actx, br, onDelta)
		if ferr == nil && ds != nil {
			ds.Flush()
		}
		if resp != nil {
			resp.Meta.Streamed = true
		}
	} else {
		resp, ferr = p.readMessage(ctx, actx, br)
	}
	if resp != nil {
		p.secrets.Response(resp)
		resp.Meta.HTTPStatus = hres.StatusCode
	}
	if ferr != nil {
		if resp != nil && resp.Usage.TokensKnown {
			return &model.Response{Usage: resp.Usage, Meta: resp.Meta}, retryInfo{}, ferr.With("status", hres.StatusCode)
		}
		return nil, retryInfo{}, ferr.With("status", hres.StatusCode)
	}
	return resp, retryInfo{}, nil
}

// readMessage decodes a non-streamed body.
func (p *Provider) readMessage(ctx, actx context.Context, body io.Reader) (*model.Response, *fault.Error) {
	raw, err := io.ReadAll(body)
	if err != nil {
		if fe := p.ctxError(ctx, actx); fe != nil {
			return nil, fe.With("stage", "read_body")
		}
		if errors.Is(err, wire.ErrTooLarge) {
			return nil, p.fail(model.KindMalformedResponse, "response body too large", nil).With("limit_bytes", maxResponseBytes)
		}
		return nil, p.fail(model.KindTransport, "reading the response body failed", err).With("stage", "read_body")
	}
	if _, ok := openai.ParseErrorBody(raw); ok {
		return nil, p.bodyError("server reported an error", http.StatusOK, raw)
	}
	r, err := DecodeResponse(raw)
	if err != nil {
		return nil, p.fail(model.KindMalformedResponse, "response is not a Messages API message", err).With("body_excerpt", p.clip(string(raw), openai.MaxBodyExcerpt)).
			WithHint(p.malformedHint())
	}
	resp := ToResponse(r)
	if len(resp.ToolCalls) > p.maxCalls {
		return nil, p.tooMany(len(resp.ToolCalls))
	}
	return resp, nil
}

// readStream reassembles a Messages API event stream. It must end with
// message_stop; an error event is stream_interrupted with the server's
// message.
func (p *Provider) readStream(ctx, actx context.Context, body io.Reader, onDelta func(string)) (*model.Response, *fault.Error) {
	r := sse.NewReader(body, 0)
	asm := Assembler{Max: p.maxCalls}
	events := 0
	for {
		ev, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			if fe := p.ctxError(ctx, actx); fe != nil {
				return nil, fe.With("stage", "stream").With("events", events)
			}
			if errors.Is(err, sse.ErrLineTooLong) || errors.Is(err, wire.ErrTooLarge) {
				return nil, p.fail(model.KindMalformedResponse, "stream too large", err).With("events", events)
			}
			return nil, p.fail(model.KindStreamInterrupted, "the stream broke before it was complete", err).With("events", events)
		}
		events++
		data := strings.TrimSpace(ev.Data)
		if data == "" {
			continue
		}
		var e Event
		if err := json.Unmarshal([]byte(data), &e); err != nil {
			return nil, p.fail(model.KindMalformedResponse, "stream event is not a Messages API event", err).
				With("events", events).With("body_excerpt", p.clip(data, openai.MaxBodyExcerpt))
		}
		text, apiErr, err := asm.Add(&e)
		if err != nil {
			return nil, p.fail(model.KindMalformedResponse, "stream events out of order", err).With("events", events)
		}
		if apiErr != nil {
			msg := p.clip(apiErr.Message, openai.MaxBodyExcerpt)
			fe := p.fail(model.KindStreamInterrupted, "the server reported an error inside the stream: "+msg, nil).
				With("events", events).With("error_message", msg).With("error_type", p.clip(apiErr.Type, 128))
			return ToResponse(asm.Response()), fe
		}
		if asm.TooManyToolCalls() {
			return nil, p.tooMany(p.maxCalls+1).With("events", events)
		}
		if onDelta != nil && text != "" {
			onDelta(text)
		}
		if asm.Done() {
			break
		}
		if fe := p.ctxError(ctx, actx); fe != nil {
			return nil, fe.With("stage", "stream").With("events", events)
		}
	}
	if !asm.Done() {
		return nil, p.fail(model.KindStreamInterrupted, "the stream ended before message_stop", nil).With("events", events)
	}
	return ToResponse(asm.Response()), nil
}

func (p *Provider) tooMany(n int) *fault.Error {
	return p.fail(openai.KindTooManyToolCalls, "the response carries more tool calls than one batch may hold", nil).
		With("limit", p.maxCalls).With("calls", n).
		WithHint("the server sent more tool calls than the runtime accepts in one turn; ask for fewer calls or check the server")
}

// bodyError describes an error body ({"type":"error","error":{"type":
// ..., "message": ...}}, or any shape openai.ParseErrorBody reads): Kind
// http_status with the server's message, bounded and scrubbed.
func (p *Provider) bodyError(msg string, status int, raw []byte) *fault.Error {
	e := fault.New(fault.PhaseProvider, model.KindHTTPStatus, msg).With("status", status).With("provider", p.name).With("host", p.host)
	if len(raw) > 0 {
		e.With("body_excerpt", p.clip(string(raw), openai.MaxBodyExcerpt))
	}
	typ := ""
	if ae, ok := openai.ParseErrorBody(raw); ok {
		m := p.clip(ae.Message, openai.MaxBodyExcerpt)
		e.Message += ": " + m
		e.With("error_message", m)
		if ae.Type != "" {
			typ = p.clip(ae.Type, 128)
			e.With("error_type", typ)
		}
	}
	return e.WithHint(p.statusHint(status, typ))
}

func (p *Provider) statusHint(status int, typ string) string {
	switch {
	case status == 401 || typ == "authentication_error":
		return fmt.Sprintf("the server rejected the API key from %s: check the key, or name the right variable with --api-key-env", p.keyEnv)
	case status == 403:
		return "the key is not allowed to do this: check its permissions and the --model name"
	case status == 404:
		return fmt.Sprintf("unknown model or route: check --model and that --base-url (%s) ends in /v1", p.baseURL)
	case status == 429:
		return "rate limited: wait and try again, or lower --max-concurrency"
	case status == 529 || typ == "overloaded_error":
		return "the API is overloaded: try again later"
	case status >= 500:
		return "the server failed: try again later"
	case status >= 200 && status <= 299:
		return fmt.Sprintf("the server answered with an error instead of a message: check --model and --base-url (%s)", p.baseURL)
	case status == 400 || status == 413:
		return "the server refused the request: check --model and its limits (context length, max tokens)"
	}
	return ""
}

func (p *Provider) malformedHint() string {
	return fmt.Sprintf("the server at %s did not answer like the Anthropic Messages API: check --base-url and --provider", p.baseURL)
}

func (p *Provider) ctxError(ctx, actx context.Context) *fault.Error {
	if err := ctx.Err(); err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return p.fail(fault.KindTimeout, "deadline exceeded", err)
		}
		return p.fail(fault.KindCancelled, "cancelled", err)
	}
	if actx != nil && actx.Err() != nil && errors.Is(context.Cause(actx), errAttemptTimeout) {
		return p.fail(fault.KindTimeout, "request timed out", context.DeadlineExceeded).With("timeout_ms", p.timeout.Milliseconds()).
			WithHint(fmt.Sprintf("no complete answer within %s: raise --request-timeout", p.timeout))
	}
	return nil
}

// fail builds a provider error whose message and cause text are scrubbed.
func (p *Provider) fail(kind fault.Kind, msg string, cause error) *fault.Error {
	e := fault.New(fault.PhaseProvider, kind, p.secrets.Text(msg)).With("provider", p.name).With("host", p.host)
	if cause != nil {
		e.Cause = errors.New(p.secrets.Text(cause.Error()))
	}
	return e
}

// clip scrubs s, then cuts it to n bytes.
func (p *Provider) clip(s string, n int) string { return wire.Truncate(p.secrets.Text(s), n) }
