// Package anthropic is a model.Provider for Anthropic's Messages API
// (POST {BaseURL}/messages), on net/http as model/openai is.
//
// It maps the system prompt, messages, tool calls (tool_use and
// tool_result blocks) and tools, streams (message_start,
// content_block_start / _delta with text_delta, input_json_delta and
// thinking_delta, message_delta usage, message_stop, error events) or
// not, skipping the blocks of other types (server tools and their
// results, redacted thinking, compaction, types added later) without
// failing the reply, carries a refusal's stop_details, and reports the
// final usage (the iterations' sum where usage.iterations is present)
// with the prompt-cache reads and writes, priced with the price table.
// Messages marked model.Message.CacheBreakpoint (model.MarkCachePrefix),
// and those model.Request.CachePrefix stands for, carry cache_control.
// Retries honour
// retry-after; failures are *fault.Error values with the kinds of
// package model and model/openai. The API key (ANTHROPIC_API_KEY) is
// scrubbed from everything returned, with the same scrubber and rule as
// model/openai (model/internal/scrub).
package anthropic

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/internal/httpcall"
	"github.com/rlm-go/rlm/model/internal/msgcache"
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
	call                 httpcall.Caller // name, host, base URL, secrets, timeout, client, retry policy
	model, endpoint      string
	key, keyEnv, version string
	maxCalls             int
	onRetry              func(openai.Retry)
	enc                  *msgcache.Cache // the encodings of recent conversations' messages
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
	host := strings.ToLower(u.Hostname())
	p := &Provider{
		call: httpcall.Caller{
			Name: firstNonEmpty(cfg.Name, DefaultName), Host: host, BaseURL: base, Port: httpcall.Port(u), Secrets: new(scrub.Set),
			Timeout: httpcall.Pick(cfg.Timeout, openai.DefaultTimeout), HTTP: httpcall.Client(cfg.HTTPClient),
			Retry: httpcall.Policy{
				MaxRetries: httpcall.Retries(cfg.MaxRetries, openai.DefaultMaxRetries),
				BaseDelay:  httpcall.Pick(cfg.RetryBaseDelay, openai.DefaultRetryBaseDelay),
				MaxDelay:   httpcall.Pick(cfg.RetryMaxDelay, openai.DefaultRetryMaxDelay),
				MaxAfter:   httpcall.Pick(cfg.MaxRetryAfter, openai.DefaultMaxRetryAfter),
			},
			RedirectRefused: openai.KindRedirectRefused,
			HostNotFound:    openai.KindHostNotFound,
		},
		model: cfg.Model, endpoint: base + "/messages", version: firstNonEmpty(cfg.Version, DefaultVersion), onRetry: cfg.OnRetry,
		enc: &msgcache.Cache{Breakpoints: true},
	}
	switch {
	case cfg.MaxToolCalls == 0:
		p.maxCalls = openai.MaxToolCalls
	case cfg.MaxToolCalls < 0 || cfg.MaxToolCalls > openai.HardMaxToolCalls:
		p.maxCalls = openai.HardMaxToolCalls
	default:
		p.maxCalls = cfg.MaxToolCalls
	}
	p.keyEnv = firstNonEmpty(cfg.APIKeyEnv, DefaultAPIKeyEnv)
	p.key = cfg.APIKey
	if p.key == "" {
		p.key = strings.TrimSpace(os.Getenv(p.keyEnv))
	}
	p.call.Secrets.Add(p.key)
	if p.key == "" && (cfg.APIKeyEnv != "" || host == hostedHost) {
		return nil, fault.Newf(fault.PhaseConfig, model.KindMissingAPIKey, "no API key: set the %s environment variable", p.keyEnv).
			With("env", p.keyEnv).With("host", host).
			WithHint("set " + p.keyEnv + " to your Anthropic API key, or name the variable that holds it with --api-key-env")
	}
	return p, nil
}

// Name returns the provider name reported in Meta.Provider.
func (p *Provider) Name() string { return p.call.Name }

// Scrub removes the key from s as model/openai's Provider.Scrub does (for
// recorders).
func (p *Provider) Scrub(s string) string { return p.call.Secrets.Content(s) }

// Complete sends req and returns the reassembled response.
func (p *Provider) Complete(ctx context.Context, req model.Request) (*model.Response, error) {
	start := time.Now()
	body, err := encodeRequest(req, p.model, p.enc)
	if err != nil {
		return nil, err
	}
	modelName := firstNonEmpty(req.Model, p.model)
	cp := *p
	cp.call.Secrets = p.call.Secrets.Without(modelName)
	p = &cp
	hr := httpcall.Request{URL: p.endpoint, Header: p.header(req.Stream), Body: body, ErrorBody: p.bodyError}
	resp, attempts, ferr := httpcall.Call(ctx, &p.call, modelName, hr, func(actx context.Context, hres *http.Response) (*model.Response, *fault.Error) {
		return p.read(ctx, actx, hres, req.Stream, req.OnDelta)
	}, func(n int, wait time.Duration, out httpcall.Outcome, kind fault.Kind) {
		if p.onRetry != nil {
			p.onRetry(openai.Retry{Attempt: n, Wait: wait, Status: out.Status, Kind: kind, Model: modelName})
		}
	})
	if resp == nil {
		return nil, ferr
	}
	// A response, or the usage of a stream that failed after it arrived
	// (known counts), or the unknown usage of a refused one (charged its
	// worst case: not estimated from a reply that was dropped).
	resp.Meta.Provider, resp.Meta.Attempts = p.call.Name, attempts
	resp.Meta.ServerAddress, resp.Meta.ServerPort = p.call.Host, p.call.Port
	resp.Meta.LatencyMS = float64(time.Since(start).Microseconds()) / 1000
	if ferr != nil {
		resp.Usage = budget.WithEstimatedCost(resp.Usage, firstNonEmpty(resp.Meta.Model, modelName))
		return resp, ferr
	}
	resp.Usage = budget.WithEstimatedCost(model.EstimateUsage(req, resp, modelName), firstNonEmpty(resp.Meta.Model, modelName))
	return resp, nil
}

// header returns the request headers of one call.
func (p *Provider) header(stream bool) http.Header {
	h := make(http.Header)
	h.Set("Content-Type", "application/json")
	h.Set("anthropic-version", p.version)
	if stream {
		h.Set("Accept", "text/event-stream")
	}
	if p.key != "" {
		h.Set("x-api-key", p.key)
	}
	return h
}

// read decodes a 2xx answer, streamed or not. A stream that failed after
// usage arrived returns that usage with the error.
func (p *Provider) read(ctx, actx context.Context, hres *http.Response, stream bool, onDelta func(string)) (*model.Response, *fault.Error) {
	ct, _, _ := mime.ParseMediaType(hres.Header.Get("Content-Type"))
	br := bufio.NewReader(&wire.BoundedReader{R: hres.Body, Left: maxResponseBytes})
	var (
		resp *model.Response
		ferr *fault.Error
	)
	if ct == "text/event-stream" || (stream && ct != "application/json") {
		resp, ferr = p.call.Stream(onDelta, func(onDelta func(string)) (*model.Response, *fault.Error) {
			return p.readStream(ctx, actx, br, onDelta)
		})
	} else {
		resp, ferr = p.readMessage(ctx, actx, br)
	}
	if resp != nil {
		p.call.Secrets.Response(resp)
		resp.Meta.HTTPStatus = hres.StatusCode
	}
	if ferr != nil {
		if resp != nil && (resp.Usage.TokensKnown || usageRefused(ferr)) {
			return &model.Response{Usage: resp.Usage, Meta: resp.Meta}, ferr.With("status", hres.StatusCode)
		}
		return nil, ferr.With("status", hres.StatusCode)
	}
	return resp, nil
}

// readMessage decodes a non-streamed body.
func (p *Provider) readMessage(ctx, actx context.Context, body io.Reader) (*model.Response, *fault.Error) {
	raw, err := io.ReadAll(body)
	if err != nil {
		if fe := p.call.CtxError(ctx, actx); fe != nil {
			return nil, fe.With("stage", "read_body")
		}
		if errors.Is(err, wire.ErrTooLarge) {
			return nil, p.call.Fail(model.KindMalformedResponse, "response body too large", nil).With("limit_bytes", maxResponseBytes)
		}
		return nil, p.call.Fail(model.KindTransport, "reading the response body failed", err).With("stage", "read_body")
	}
	if _, ok := openai.ParseErrorBody(raw); ok {
		return nil, p.bodyError("server reported an error", http.StatusOK, raw)
	}
	r, err := DecodeResponse(raw)
	if err != nil {
		return nil, p.call.Fail(model.KindMalformedResponse, "response is not a Messages API message", err).With("body_excerpt", p.call.Clip(string(raw), openai.MaxBodyExcerpt)).
			WithHint(p.malformedHint())
	}
	if err := r.Usage.Check(); err != nil {
		return p.refuseUsage(err, r.ID, r.Model, 0)
	}
	resp := ToResponse(r)
	if len(resp.ToolCalls) > p.maxCalls {
		return resp, p.tooMany(len(resp.ToolCalls)) // usage kept by read
	}
	return resp, nil
}

// readStream reassembles a Messages API event stream. It must end with
// message_stop; an error event is stream_interrupted with the server's
// message. Whatever ends it early (an error event, a broken or cut
// stream, the context, a malformed event, too many tool calls), what was
// assembled goes back with the error, so the usage of message_start (the
// input the server bills) is charged (read keeps only that).
func (p *Provider) readStream(ctx, actx context.Context, body io.Reader, onDelta func(string)) (*model.Response, *fault.Error) {
	r := sse.NewReader(body, 0)
	asm := Assembler{Max: p.maxCalls}
	events := 0
	fail := func(fe *fault.Error) (*model.Response, *fault.Error) { return ToResponse(asm.Response()), fe }
	for {
		ev, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fail(p.call.StreamError(ctx, actx, err, events, maxResponseBytes))
		}
		events++
		data := strings.TrimSpace(ev.Data)
		if data == "" {
			continue
		}
		var e Event
		if err := json.Unmarshal([]byte(data), &e); err != nil {
			if knownEvent(data) {
				// An event the API defines, in a shape it does not.
				return fail(p.call.Fail(model.KindMalformedResponse, "stream event is not a Messages API event", err).
					With("events", events).With("body_excerpt", p.call.Clip(data, openai.MaxBodyExcerpt)))
			}
			continue // an event type added later, in a shape of its own
		}
		if err := e.Usage.Check(); err != nil {
			return p.refuseUsage(err, asm.resp.ID, asm.resp.Model, events)
		}
		if m := e.Message; m != nil {
			if err := m.Usage.Check(); err != nil {
				return p.refuseUsage(err, m.ID, m.Model, events)
			}
		}
		text, apiErr, err := asm.Add(&e)
		if err != nil {
			return fail(p.call.Fail(model.KindMalformedResponse, "stream events out of order", err).With("events", events))
		}
		if apiErr != nil {
			msg := p.call.Clip(apiErr.Message, openai.MaxBodyExcerpt)
			return fail(p.call.Fail(model.KindStreamInterrupted, "the server reported an error inside the stream: "+msg, nil).
				With("events", events).With("error_message", msg).With("error_type", p.call.Clip(apiErr.Type, 128)))
		}
		if asm.TooManyToolCalls() {
			return fail(p.tooMany(p.maxCalls+1).With("events", events))
		}
		if onDelta != nil && text != "" {
			onDelta(text)
		}
		if asm.Done() {
			break
		}
		if fe := p.call.CtxError(ctx, actx); fe != nil {
			return fail(fe.With("stage", "stream").With("events", events))
		}
	}
	if !asm.Done() {
		return fail(p.call.Fail(model.KindStreamInterrupted, "the stream ended before message_stop", nil).With("events", events))
	}
	return ToResponse(asm.Response()), nil
}

// refuseUsage is the malformed_response of a message whose usage no
// server can truthfully report (Usage.Check), as model/openai's: the
// message is dropped and its usage handed back unknown, so the caller
// charges the call its admitted worst case. events is the number of
// stream events read (0 for a JSON body).
func (p *Provider) refuseUsage(err error, id, modelName string, events int) (*model.Response, *fault.Error) {
	fe := p.call.Fail(model.KindMalformedResponse, "the server reported usage no call can have", err)
	var ue *openai.UsageError
	if errors.As(err, &ue) {
		fe.With("usage_field", ue.Field).With("usage_value", ue.Value)
	}
	if events > 0 {
		fe.With("events", events)
	}
	fe.WithHint("a token count below zero cannot be true; the call was charged its admitted worst case: check the server or the proxy in front of it")
	return &model.Response{Usage: budget.Usage{Calls: 1}, Meta: model.Meta{ID: id, Model: modelName}}, fe
}

// usageRefused reports the error of refuseUsage.
func usageRefused(fe *fault.Error) bool {
	_, ok := fe.Detail["usage_field"]
	return ok && fe.Kind == model.KindMalformedResponse
}

func (p *Provider) tooMany(n int) *fault.Error {
	return p.call.Fail(model.KindTooManyToolCalls, "the response carries more tool calls than one batch may hold", nil).
		With("limit", p.maxCalls).With("calls", n).
		WithHint("the server sent more tool calls than the runtime accepts in one turn; ask for fewer calls or check the server")
}

// bodyError describes an error body ({"type":"error","error":{"type":
// ..., "message": ...}}, or any shape openai.ParseErrorBody reads): Kind
// http_status with the server's message, type and code, bounded and
// scrubbed.
func (p *Provider) bodyError(msg string, status int, raw []byte) *fault.Error {
	e := fault.New(fault.PhaseProvider, model.KindHTTPStatus, msg).With("status", status).With("provider", p.call.Name).With("host", p.call.Host)
	if len(raw) > 0 {
		e.With("body_excerpt", p.call.Clip(string(raw), openai.MaxBodyExcerpt))
	}
	typ, code := "", ""
	if ae, ok := openai.ParseErrorBody(raw); ok {
		m := p.call.Clip(ae.Message, openai.MaxBodyExcerpt)
		e.Message += ": " + m
		e.With("error_message", m)
		if ae.Type != "" {
			typ = p.call.Clip(ae.Type, 128)
			e.With("error_type", typ)
		}
		if c := ae.CodeString(); c != "" {
			code = p.call.Clip(c, 128)
			e.With("error_code", code)
		}
	}
	return e.WithHint(p.statusHint(status, typ, code))
}

// cassetteExhaustedCode is the error code of a replay server
// (model/replay, which imports this package) with no unused interaction
// for the request.
const cassetteExhaustedCode = "cassette_exhausted"

func (p *Provider) statusHint(status int, typ, code string) string {
	switch {
	case code == cassetteExhaustedCode:
		return "the replay cassette has no unused interaction for this request: record it again (--record) or add interactions to the cassette"
	case status == 401 || typ == "authentication_error":
		return fmt.Sprintf("the server rejected the API key from %s: check the key, or name the right variable with --api-key-env", p.keyEnv)
	case status == 403:
		return "the key is not allowed to do this: check its permissions and the --model name"
	case status == 404:
		return fmt.Sprintf("unknown model or route: check --model and that --base-url (%s) ends in /v1", p.call.BaseURL)
	case status == 429:
		return "rate limited: wait and try again, or lower --max-concurrency"
	case status == 529 || typ == "overloaded_error":
		return "the API is overloaded: try again later"
	case status >= 500:
		return "the server failed: try again later"
	case status >= 200 && status <= 299:
		return fmt.Sprintf("the server answered with an error instead of a message: check --model and --base-url (%s)", p.call.BaseURL)
	case status == 400 || status == 413:
		return "the server refused the request: check --model and its limits (context length, max tokens)"
	}
	return ""
}

func (p *Provider) malformedHint() string {
	return fmt.Sprintf("the server at %s did not answer like the Anthropic Messages API: check --base-url and --provider", p.call.BaseURL)
}
