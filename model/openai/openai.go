// Package openai is a model.Provider for servers speaking the
// OpenAI-compatible chat-completions protocol: OpenAI, OpenRouter, and local
// Ollama, vLLM and llama.cpp servers. It uses net/http directly.
//
// The provider sends POST {BaseURL}/chat/completions, streaming (server-sent
// events) or not, and reassembles either form into a model.Response. It
// retries 408, 409, 429 and 5xx answers and connection errors with
// exponential backoff and full jitter, honouring Retry-After, but never
// after a response body started arriving, and never for a host name that
// does not exist (KindHostNotFound). Failures are *fault.Error values
// with Phase provider and the kinds declared in package model (a missing
// key is Phase config), each with a one-line Hint where there is a known
// remedy. No error, detail or log line ever contains the API key or the
// Authorization header.
package openai

import (
	"bufio"
	"context"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/internal/httpcall"
	"github.com/rlm-go/rlm/model/internal/msgcache"
	"github.com/rlm-go/rlm/model/internal/scrub"
	"github.com/rlm-go/rlm/trace"
)

// Defaults used when the corresponding Config field is zero.
const (
	DefaultBaseURL        = "https://api.openai.com/v1"
	DefaultAPIKeyEnv      = "OPENAI_API_KEY"
	OpenRouterAPIKeyEnv   = "OPENROUTER_API_KEY"
	DefaultName           = "openai-compatible"
	DefaultTimeout        = 5 * time.Minute
	DefaultMaxRetries     = 3
	DefaultRetryBaseDelay = 500 * time.Millisecond
	DefaultRetryMaxDelay  = 30 * time.Second
	DefaultMaxRetryAfter  = 60 * time.Second
)

// MaxBodyExcerpt bounds the body excerpt carried by errors, in bytes.
const MaxBodyExcerpt = 512

// maxResponseBytes bounds a response body, streamed or not; a larger body
// fails with Kind malformed_response. It is a variable for tests.
var maxResponseBytes = 64 << 20

// hostedKeyEnv maps hosted endpoints that require a key to the environment
// variable holding it by default.
var hostedKeyEnv = map[string]string{
	"api.openai.com": DefaultAPIKeyEnv,
	"openrouter.ai":  OpenRouterAPIKeyEnv,
}

// Config configures a Provider. The zero value talks to OpenAI with the key
// from OPENAI_API_KEY, but a Model must be set here or per request.
type Config struct {
	// Name is reported as Meta.Provider; default "openai-compatible".
	Name string
	// BaseURL is the API root including the version path, for example
	// "https://openrouter.ai/api/v1" or "http://localhost:11434/v1".
	// Requests go to BaseURL + "/chat/completions". Default
	// DefaultBaseURL; New does not read the environment for it (see
	// BaseURLFromEnv for RLM_BASE_URL and OPENAI_BASE_URL).
	BaseURL string
	// Model is the default model; Request.Model overrides it.
	Model string
	// APIKey is the key itself. It takes precedence over APIKeyEnv and is
	// meant for tests and embedding; prefer APIKeyEnv.
	APIKey string
	// APIKeyEnv names the environment variable holding the key. Default
	// OPENROUTER_API_KEY when the BaseURL host is openrouter.ai, otherwise
	// OPENAI_API_KEY. When APIKeyEnv is set explicitly (and APIKey is
	// not), the variable must be set: an unset or empty one is an error
	// (Phase config, Kind missing_api_key) whatever the server. When it
	// is left empty, a missing key is an error only for the hosted
	// endpoints api.openai.com and openrouter.ai; other servers (local
	// Ollama, vLLM, llama.cpp) are called without an Authorization header.
	APIKeyEnv string
	// Timeout bounds each HTTP attempt, including reading the whole
	// (streamed) body. Default DefaultTimeout; negative means none.
	// A timed-out attempt is not retried.
	Timeout time.Duration
	// Headers are extra request headers (for example OpenRouter's
	// HTTP-Referer and X-Title). They are never logged or reported.
	Headers map[string]string
	// MaxRetries is the number of retries after the first attempt.
	// Default DefaultMaxRetries; negative disables retries.
	MaxRetries int
	// RetryBaseDelay and RetryMaxDelay shape the exponential backoff: the
	// wait before retry n is uniform in [0, min(RetryMaxDelay,
	// RetryBaseDelay*2^(n-1))] ("full jitter").
	RetryBaseDelay time.Duration
	RetryMaxDelay  time.Duration
	// MaxRetryAfter caps a server's Retry-After (or retry-after-ms) wait,
	// which replaces the jittered backoff when present.
	MaxRetryAfter time.Duration
	// MaxToolCalls bounds the tool calls one response may carry (more is
	// too_many_tool_calls). Default MaxToolCalls (the direct runtime's
	// default per-batch cap); a caller with a larger per-batch cap sets
	// it; values above HardMaxToolCalls (or negative) take
	// HardMaxToolCalls, so a hostile server never makes the provider
	// assemble an unbounded number.
	MaxToolCalls int
	// HTTPClient is the client to use; default http.DefaultClient.
	HTTPClient *http.Client
	// OnRetry, when set, is called (synchronously, from the calling
	// goroutine) after a failed attempt that will be retried, before the
	// back-off wait; for progress displays ("retrying in 9s after HTTP
	// 429"). It must return quickly and must not retain the Retry.
	OnRetry func(Retry)
}

// Retry describes a failed attempt that is about to be retried.
type Retry struct {
	// Attempt is the number of the failed attempt, from 1.
	Attempt int
	// Wait is the back-off before the next attempt.
	Wait time.Duration
	// Status is the HTTP status of the failed attempt, or 0 when the
	// request failed before a response (a connection error).
	Status int
	// Kind is the failed attempt's error kind (http_status, transport).
	Kind fault.Kind
	// Model is the requested model.
	Model string
}

// Provider is an OpenAI-compatible chat-completions client. It is safe for
// concurrent use.
type Provider struct {
	call     httpcall.Caller // name, host, base URL, secrets, timeout, client, retry policy
	model    string
	endpoint string
	key      string
	keyEnv   string // the environment variable the key comes from
	headers  http.Header
	onRetry  func(Retry)
	maxCalls int
	enc      *msgcache.Cache // the encodings of recent conversations' messages
}

var _ model.Provider = (*Provider)(nil)

// New returns a Provider for cfg. It reads the API key from the environment
// once, here. Errors have Phase provider and Kind invalid_config or
// missing_api_key.
func New(cfg Config) (*Provider, error) {
	base := strings.TrimRight(firstNonEmpty(strings.TrimSpace(cfg.BaseURL), DefaultBaseURL), "/")
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fault.New(fault.PhaseProvider, fault.KindInvalidConfig, "base URL must be an absolute http or https URL").With("base_url", httpcall.RedactURL(base)).
			WithHint("give the API root as an absolute URL, for example https://api.openai.com/v1 or http://localhost:11434/v1")
	}
	host := strings.ToLower(u.Hostname())
	p := &Provider{
		enc: new(msgcache.Cache),
		call: httpcall.Caller{
			Name:    firstNonEmpty(cfg.Name, DefaultName),
			Host:    host,
			BaseURL: base,
			Port:    httpcall.Port(u),
			Secrets: new(scrub.Set),
			Timeout: httpcall.Pick(cfg.Timeout, DefaultTimeout),
			// API calls never follow redirects (redirect_refused).
			HTTP: httpcall.Client(cfg.HTTPClient),
			Retry: httpcall.Policy{
				MaxRetries: httpcall.Retries(cfg.MaxRetries, DefaultMaxRetries),
				BaseDelay:  httpcall.Pick(cfg.RetryBaseDelay, DefaultRetryBaseDelay),
				MaxDelay:   httpcall.Pick(cfg.RetryMaxDelay, DefaultRetryMaxDelay),
				MaxAfter:   httpcall.Pick(cfg.MaxRetryAfter, DefaultMaxRetryAfter),
			},
			RedirectRefused: KindRedirectRefused,
			HostNotFound:    KindHostNotFound,
		},
		model:    cfg.Model,
		endpoint: base + "/chat/completions",
		headers:  make(http.Header),
		maxCalls: toolCallCap(cfg.MaxToolCalls),
		onRetry:  cfg.OnRetry,
	}
	for k, v := range cfg.Headers {
		p.headers.Set(k, v)
		if trace.IsSecretKey(strings.ReplaceAll(k, "-", "_")) {
			p.call.Secrets.AddHeader(v)
		}
	}
	env := cfg.APIKeyEnv
	if env == "" {
		env = DefaultAPIKeyEnv
		if host == "openrouter.ai" {
			env = OpenRouterAPIKeyEnv
		}
	}
	p.key, p.keyEnv = cfg.APIKey, env
	if p.key == "" {
		p.key = strings.TrimSpace(os.Getenv(env))
	}
	p.call.Secrets.Add(p.key) // whatever its length
	if p.key == "" {
		if cfg.APIKeyEnv != "" {
			// The caller named the variable: it must hold the key, or the
			// request would silently go out without one.
			return nil, fault.Newf(fault.PhaseConfig, model.KindMissingAPIKey,
				"no API key: the environment variable %s is not set", env).With("env", env).With("host", host).
				WithHint("set " + env + " to your API key, or name the variable that holds it with --api-key-env")
		}
		if _, hosted := hostedKeyEnv[host]; hosted {
			return nil, fault.Newf(fault.PhaseConfig, model.KindMissingAPIKey,
				"no API key: set the %s environment variable", env).With("env", env).With("host", host).
				WithHint("set " + env + " to your API key, name another variable with --api-key-env, or point --base-url at a local server")
		}
	}
	return p, nil
}

// Name returns the provider name reported in Meta.Provider.
func (p *Provider) Name() string { return p.call.Name }

// Model returns the default model.
func (p *Provider) Model() string { return p.model }

// BaseURL returns the API root requests are sent under.
func (p *Provider) BaseURL() string { return p.call.BaseURL }

// CloseIdleConnections closes idle connections of the HTTP client.
func (p *Provider) CloseIdleConnections() { p.call.HTTP.CloseIdleConnections() }

// Complete sends req and returns the reassembled response.
func (p *Provider) Complete(ctx context.Context, req model.Request) (*model.Response, error) {
	start := time.Now()
	body, err := encodeRequest(req, p.model, p.enc)
	if err != nil {
		return nil, err
	}
	modelName := firstNonEmpty(req.Model, p.model)
	p = p.forModel(modelName)
	hr := httpcall.Request{URL: p.endpoint, Header: p.header(req.Stream), Body: body, ErrorBody: p.bodyError}
	resp, attempts, ferr := httpcall.Call(ctx, &p.call, modelName, hr, func(actx context.Context, hres *http.Response) (*model.Response, *fault.Error) {
		return p.read(ctx, actx, hres, req.Stream, req.OnDelta)
	}, func(n int, wait time.Duration, out httpcall.Outcome, kind fault.Kind) {
		if p.onRetry != nil {
			p.onRetry(Retry{Attempt: n, Wait: wait, Status: out.Status, Kind: kind, Model: modelName})
		}
	})
	if ferr != nil {
		if resp != nil {
			// Usage reported with the failure: the caller charges it.
			resp.Meta.Provider, resp.Meta.Attempts = p.call.Name, attempts
			resp.Meta.ServerAddress, resp.Meta.ServerPort = p.call.Host, p.call.Port
			resp.Usage = budget.WithEstimatedCost(resp.Usage, firstNonEmpty(resp.Meta.Model, modelName))
			return resp, ferr
		}
		return nil, ferr
	}
	resp.Meta.Provider = p.call.Name
	resp.Meta.Attempts = attempts
	resp.Meta.ServerAddress, resp.Meta.ServerPort = p.call.Host, p.call.Port
	resp.Meta.LatencyMS = float64(time.Since(start).Microseconds()) / 1000
	// A server that sent no usage (no stream_options support, old
	// vLLM, Ollama streams) gets tokenizer counts, marked estimated.
	resp.Usage = model.EstimateUsage(req, resp, modelName)
	resp.Usage = budget.WithEstimatedCost(resp.Usage, firstNonEmpty(resp.Meta.Model, modelName))
	return resp, nil
}

// header returns the request headers of one call.
func (p *Provider) header(stream bool) http.Header {
	h := p.headers.Clone()
	h.Set("Content-Type", "application/json")
	if stream {
		h.Set("Accept", "text/event-stream")
	} else {
		h.Set("Accept", "application/json")
	}
	if p.key != "" {
		h.Set("Authorization", "Bearer "+p.key)
	}
	return h
}

// readers are the bufio.Readers of read, each used by one call at a
// time: a response's 4 KiB buffer is not allocated again for every call
// (nothing read keeps refers to it once it returns).
var readers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 4096) }}

// read decodes a 2xx answer, streamed or not.
func (p *Provider) read(ctx, actx context.Context, hres *http.Response, stream bool, onDelta func(string)) (*model.Response, *fault.Error) {
	ct, _, _ := mime.ParseMediaType(hres.Header.Get("Content-Type"))
	var (
		resp *model.Response
		ferr *fault.Error
	)
	// An event stream is read as one whatever was requested: a server
	// that always streams says so in its Content-Type, or at least starts
	// its body like one. A streaming request is read as a stream unless
	// the server plainly answered with JSON (some servers ignore
	// "stream": true).
	br := readers.Get().(*bufio.Reader)
	br.Reset(hres.Body)
	defer func() {
		br.Reset(nil)
		readers.Put(br)
	}()
	streamed := ct == "text/event-stream" || (stream && ct != "application/json") || sniffEventStream(br)
	if streamed {
		resp, ferr = p.call.Stream(onDelta, func(onDelta func(string)) (*model.Response, *fault.Error) {
			return p.readStream(ctx, actx, br, onDelta)
		})
	} else {
		resp, ferr = p.readCompletion(ctx, actx, br)
	}
	if ferr != nil {
		// A stream that failed after the server reported usage (OpenRouter
		// sends it with a mid-stream error) hands back that usage alone,
		// so the failed call is charged.
		var part *model.Response
		if resp != nil && (resp.Usage.TokensKnown || usageRefused(ferr)) {
			part = &model.Response{Usage: resp.Usage, Meta: model.Meta{ID: p.call.Secrets.Content(resp.Meta.ID), Model: p.call.Secrets.Content(resp.Meta.Model), HTTPStatus: hres.StatusCode, Streamed: streamed}}
		}
		return part, ferr.With("status", hres.StatusCode)
	}
	p.call.Secrets.Response(resp)
	resp.Meta.HTTPStatus = hres.StatusCode
	return resp, nil
}

// bodyError describes an error body of any shape ParseErrorBody reads, or
// one it does not (then only the excerpt is kept): Kind http_status, the
// server's message (bounded, scrubbed) in the message and in detail
// error_message, its type and code, and a hint.
func (p *Provider) bodyError(msg string, status int, raw []byte) *fault.Error {
	e := fault.New(fault.PhaseProvider, model.KindHTTPStatus, msg).
		With("status", status).
		With("provider", p.call.Name).
		With("host", p.call.Host)
	if len(raw) > 0 {
		e.With("body_excerpt", p.excerpt(raw))
	}
	code, typ := "", ""
	if ae, ok := ParseErrorBody(raw); ok {
		m := p.call.Clip(ae.Message, MaxBodyExcerpt)
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
	hint := p.statusHint(status, code)
	switch {
	case contextSizeTypes[typ] || contextSizeTypes[code]:
		hint = contextSizeHint
	case status >= 200 && status <= 299:
		hint = p.okErrorHint()
	}
	return e.WithHint(hint)
}

// readCompletion decodes a non-streamed body.
func (p *Provider) readCompletion(ctx, actx context.Context, body io.Reader) (*model.Response, *fault.Error) {
	raw, err := io.ReadAll(io.LimitReader(body, int64(maxResponseBytes)+1))
	if err != nil {
		if fe := p.call.CtxError(ctx, actx); fe != nil {
			return nil, fe.With("stage", "read_body")
		}
		return nil, p.call.Fail(model.KindTransport, "reading the response body failed", err).With("stage", "read_body")
	}
	if len(raw) > maxResponseBytes {
		return nil, p.call.Fail(model.KindMalformedResponse, "response body too large", nil).With("limit_bytes", maxResponseBytes)
	}
	c, apiError, err := decodeBody(raw)
	if apiError {
		// Some servers (OpenRouter, LM Studio) report failures with a 2xx
		// status.
		return nil, p.bodyError("server reported an error", http.StatusOK, raw)
	}
	if err != nil {
		return nil, p.call.Fail(model.KindMalformedResponse, "response is not a chat completion", err).With("body_excerpt", p.excerpt(raw)).
			WithHint(p.malformedHint())
	}
	if err := c.Usage.Check(); err != nil {
		return p.refuseUsage(err, &model.Response{Meta: model.Meta{ID: c.ID, Model: c.Model}}, 0)
	}
	resp, err := ResponseFromCompletion(c)
	if err != nil {
		return nil, p.call.Fail(model.KindMalformedResponse, "response is not a chat completion", err).With("body_excerpt", p.excerpt(raw)).
			WithHint(p.malformedHint())
	}
	if len(resp.ToolCalls) > p.maxCalls {
		// The usage the server billed goes back with the error (read
		// keeps only that).
		return resp, p.call.Fail(model.KindTooManyToolCalls, "the response carries more tool calls than one batch may hold", nil).
			With("limit", p.maxCalls).With("calls", len(resp.ToolCalls)).
			WithHint("the server sent more tool calls than the runtime accepts in one turn; ask for fewer calls or check the server")
	}
	return resp, nil
}

// refuseUsage is the malformed_response of an answer whose usage no
// server can truthfully report (Usage.Check): the answer is dropped and
// its usage handed back unknown, with resp's id and model, so the caller
// charges the call its admitted worst case (budget.Reservation.Settle),
// never the impossible report and never nothing. events is the number
// of stream events read (0 for a JSON body).
func (p *Provider) refuseUsage(err error, resp *model.Response, events int) (*model.Response, *fault.Error) {
	fe := p.call.Fail(model.KindMalformedResponse, "the server reported usage no call can have", err)
	var ue *UsageError
	if errors.As(err, &ue) {
		fe.With("usage_field", ue.Field).With("usage_value", ue.Value)
	}
	if events > 0 {
		fe.With("events", events)
	}
	fe.WithHint("a token count or cost below zero (or not a number) cannot be true; the call was charged its admitted worst case: check the server or the proxy in front of it")
	return &model.Response{Usage: budget.Usage{Calls: 1}, Meta: model.Meta{ID: resp.Meta.ID, Model: resp.Meta.Model}}, fe
}

// usageRefused reports the error of refuseUsage.
func usageRefused(fe *fault.Error) bool {
	_, ok := fe.Detail["usage_field"]
	return ok && fe.Kind == model.KindMalformedResponse
}

// forModel returns a shallow copy of p for one call to modelName whose
// errors leave a short placeholder key spelled like the model name alone
// (see model/internal/scrub).
func (p *Provider) forModel(modelName string) *Provider {
	cp := *p
	cp.call.Secrets = p.call.Secrets.Without(modelName)
	return &cp
}

// excerpt returns at most MaxBodyExcerpt bytes of b, cut at a UTF-8
// boundary, with secrets scrubbed (see clip).
func (p *Provider) excerpt(b []byte) string {
	return p.call.Clip(string(b), MaxBodyExcerpt)
}

// KindRedirectRefused: the server answered an API call with a redirect,
// which the provider never follows (it would resend the credentials);
// detail "status" and "target" (the Location, without userinfo, query or
// fragment).
const KindRedirectRefused fault.Kind = "redirect_refused"

// KindHostNotFound: the host of the base URL (or of the proxy) does not
// exist: the resolver answered that the name is unknown. It is not
// retried; detail "host", "lookup" (the name that did not resolve) and a
// hint naming the base URL.
const KindHostNotFound fault.Kind = "host_not_found"
