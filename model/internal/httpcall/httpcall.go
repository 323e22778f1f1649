// Package httpcall is the HTTP exchange the model providers (model/openai,
// model/anthropic) share: one POST with its own time limit, redirect
// refusal, the mapping of connection errors, error statuses and ended
// contexts to provider errors, and the retry loop (exponential backoff
// with full jitter, Retry-After honoured and capped). What differs between
// the providers stays with them: the endpoint and headers, how a body is
// decoded, how an error body is read and which hint a status gets.
//
// Every error is a *fault.Error with Phase provider and the details
// "provider" and "host"; its message and cause text have the secrets of
// Caller.Secrets scrubbed.
package httpcall

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/internal/scrub"
	"github.com/rlm-go/rlm/model/internal/sse"
	"github.com/rlm-go/rlm/model/internal/wire"
)

// Port returns u's port: the one it names, else 443 for https and 80
// for http (0 for another scheme or a port that is not a number).
func Port(u *url.URL) int {
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil {
			return 0
		}
		return n
	}
	switch u.Scheme {
	case "https":
		return 443
	case "http":
		return 80
	}
	return 0
}

// MaxErrorBody bounds how much of an error body is read.
const MaxErrorBody = 64 << 10

// Caller is one provider's side of the exchange. A provider holds one and
// copies it per call (to scrub with a per-model secret set).
type Caller struct {
	// Name and Host are the "provider" and "host" details of every error.
	Name, Host string
	// BaseURL is the API root named in hints.
	BaseURL string
	// Port is the base URL's port (the scheme's default when it names
	// none): with Host, what a response reports as its server.
	Port int
	// Secrets scrubs every message, cause and excerpt.
	Secrets *scrub.Set
	// Timeout bounds each attempt, reading the body included; 0 is none.
	Timeout time.Duration
	// HTTP is the client; make it with Client so redirects are refused.
	HTTP *http.Client
	// Retry shapes the retry loop of Run.
	Retry Policy
	// RedirectRefused is the kind (declared by the provider) of a refused
	// redirect.
	RedirectRefused fault.Kind
	// HostNotFound is the kind (declared by the provider) of a host name
	// that does not resolve (NXDOMAIN): not retried, since a back-off does
	// not make a misspelled host exist.
	HostNotFound fault.Kind
}

// Policy is the retry policy: MaxRetries retries after the first attempt;
// the wait before retry n is uniform in [0, min(MaxDelay,
// BaseDelay*2^(n-1))], or the server's Retry-After capped at MaxAfter.
type Policy struct {
	MaxRetries                    int
	BaseDelay, MaxDelay, MaxAfter time.Duration
}

// Outcome describes a failed attempt for the retry loop.
type Outcome struct {
	// Status is the HTTP status, or 0 without a response.
	Status int
	// Retryable says the attempt may be retried.
	Retryable bool
	// After is the server's Retry-After, when HasAfter.
	After    time.Duration
	HasAfter bool
}

// Pick returns def for a zero d, 0 for a negative one, otherwise d.
func Pick(d, def time.Duration) time.Duration {
	switch {
	case d == 0:
		return def
	case d < 0:
		return 0
	}
	return d
}

// Retries returns def for a zero n, 0 for a negative one, otherwise n.
func Retries(n, def int) int {
	switch {
	case n == 0:
		return def
	case n < 0:
		return 0
	}
	return n
}

// Client returns a copy of c (or of a zero client when c is nil) that
// never follows redirects: a redirect would carry the key and secret
// headers to another origin or over a downgraded scheme. The 3xx answer
// is reported as Kind RedirectRefused instead. A client without a
// Transport gets Transport, which keeps connections to one host for
// reuse.
func Client(c *http.Client) *http.Client {
	cp := http.Client{}
	if c != nil {
		cp = *c
	}
	if cp.Transport == nil {
		cp.Transport = Transport
	}
	cp.CheckRedirect = refuseRedirect
	return &cp
}

// IdleConnsPerHost is how many idle connections to one API host Transport
// keeps. A run sends its sub-calls to one host, many at once (a map's
// --max-concurrency); http.DefaultTransport keeps 2, so every other
// response closed its connection and the next request dialled a new one.
const IdleConnsPerHost = 256

// Transport is the providers' default transport: http.DefaultTransport's
// settings (proxy from the environment, time limits, HTTP/2) with
// IdleConnsPerHost idle connections kept per host, and connections that
// write a request Body of several parts as it is (conn).
var Transport = func() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = 2 * IdleConnsPerHost
	t.MaxIdleConnsPerHost = IdleConnsPerHost
	// Connections that write a Body of parts without copying it (conn).
	dial := t.DialContext
	if dial == nil {
		dial = (&net.Dialer{}).DialContext
	}
	t.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return conn{c}, nil
	}
	return t
}()

// refuseRedirect hands back the 3xx response itself, without following it.
func refuseRedirect(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// Backoff returns the wait before retry number n (1-based).
func (p Policy) Backoff(n int, out Outcome) time.Duration {
	if out.HasAfter {
		return min(out.After, p.MaxAfter)
	}
	ceil := p.BaseDelay
	for i := 1; i < n && ceil < p.MaxDelay; i++ {
		ceil *= 2
	}
	ceil = min(ceil, p.MaxDelay)
	if ceil <= 0 {
		return 0
	}
	return time.Duration(rand.Int64N(int64(ceil) + 1))
}

// Retryable reports whether an HTTP status may be retried: 408, 409, 429
// and 5xx.
func Retryable(status int) bool {
	return status == 408 || status == 409 || status == 429 || status >= 500
}

// Run calls attempt until it succeeds, fails for good (an Outcome that is
// not Retryable) or the retries are used up, waiting Backoff between
// attempts; onRetry, when set, is called before each wait. A failure gets
// the details "attempts" and "model"; a context that ends before an
// attempt or during a wait is Kind cancelled or timeout with "attempts"
// and "model" (and "last_error_kind" during a wait). Run returns what the
// last attempt returned and the number of attempts.
func Run[T any](ctx context.Context, c *Caller, modelName string, attempt func() (T, Outcome, *fault.Error), onRetry func(n int, wait time.Duration, out Outcome, kind fault.Kind)) (T, int, *fault.Error) {
	var zero T
	for n := 1; ; n++ {
		if err := ctx.Err(); err != nil {
			// Every provider error carries "model" (docs/model.md), these too.
			return zero, n - 1, c.CtxError(ctx, nil).With("attempts", n-1).With("model", modelName)
		}
		v, out, fe := attempt()
		if fe == nil {
			return v, n, nil
		}
		fe.With("attempts", n).With("model", modelName)
		if !out.Retryable || n > c.Retry.MaxRetries {
			return v, n, fe
		}
		wait := c.Retry.Backoff(n, out)
		if onRetry != nil {
			onRetry(n, wait, out, fe.Kind)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return zero, n, c.CtxError(ctx, nil).With("attempts", n).With("model", modelName).With("last_error_kind", string(fe.Kind))
		case <-t.C:
		}
	}
}

// Call runs Exchange under Run: the whole call with its retries.
func Call[T any](ctx context.Context, c *Caller, modelName string, r Request, read func(actx context.Context, hres *http.Response) (T, *fault.Error), onRetry func(n int, wait time.Duration, out Outcome, kind fault.Kind)) (T, int, *fault.Error) {
	return Run(ctx, c, modelName, func() (T, Outcome, *fault.Error) { return Exchange(ctx, c, r, read) }, onRetry)
}

// Request is one POST.
type Request struct {
	URL    string
	Header http.Header
	Body   Body
	// ErrorBody describes a non-2xx answer from its first MaxErrorBody
	// bytes; msg is "server answered HTTP <status>".
	ErrorBody func(msg string, status int, raw []byte) *fault.Error
}

// errAttemptTimeout is the cancellation cause of an attempt that ran past
// Caller.Timeout.
var errAttemptTimeout = errors.New("request timeout")

// Exchange performs one attempt: it sends r under a context bounded by
// Timeout (actx) and hands a 2xx answer to read, which decodes the body
// while actx lives (the body is closed after). A connection error is Kind
// transport (retryable), timeout (stage connect) or, for a host name the
// resolver says does not exist, Kind HostNotFound (not retried); a
// redirect is Kind RedirectRefused; another non-2xx status is
// r.ErrorBody's error with "retry_after_ms" when the server sent one,
// retryable per Retryable.
func Exchange[T any](ctx context.Context, c *Caller, r Request, read func(actx context.Context, hres *http.Response) (T, *fault.Error)) (T, Outcome, *fault.Error) {
	var zero T
	actx := ctx
	if c.Timeout > 0 {
		var cancel context.CancelFunc
		actx, cancel = context.WithTimeoutCause(ctx, c.Timeout, errAttemptTimeout)
		defer cancel()
	}
	hreq, err := newRequest(actx, r.URL, r.Body)
	if err != nil {
		return zero, Outcome{}, c.Fail(fault.KindInvalidConfig, "build request", err)
	}
	hreq.Header = r.Header.Clone()
	hres, err := c.HTTP.Do(hreq)
	if err != nil {
		if fe := c.CtxError(ctx, actx); fe != nil {
			return zero, Outcome{}, fe.With("stage", "connect")
		}
		if fe := c.hostNotFound(err); fe != nil {
			return zero, Outcome{}, fe
		}
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			return zero, Outcome{}, c.Fail(fault.KindTimeout, "request timed out", err).With("stage", "connect").WithHint(c.TimeoutHint())
		}
		return zero, Outcome{Retryable: true}, c.Fail(model.KindTransport, "request failed", err).WithHint(c.transportHint(err))
	}
	defer hres.Body.Close()
	if fe := c.redirectError(hres); fe != nil {
		return zero, Outcome{}, fe
	}
	if s := hres.StatusCode; s < 200 || s > 299 {
		raw, rerr := io.ReadAll(io.LimitReader(hres.Body, MaxErrorBody))
		if rerr != nil {
			// The attempt ran past its time limit (or the caller gave
			// up) while the error body arrived: not retried.
			if fe := c.CtxError(ctx, actx); fe != nil {
				return zero, Outcome{Status: s}, fe.With("stage", "read_body").With("status", s)
			}
		}
		out := Outcome{Status: s, Retryable: Retryable(s)}
		out.After, out.HasAfter = wire.ParseRetryAfter(hres.Header, time.Now())
		e := r.ErrorBody(fmt.Sprintf("server answered HTTP %d", s), s, raw)
		if out.HasAfter {
			e.With("retry_after_ms", out.After.Milliseconds())
		}
		return zero, out, e
	}
	v, fe := read(actx, hres)
	return v, Outcome{}, fe
}

// redirectError reports a redirect answer (a 3xx status with a Location),
// or nil: detail "status" and "target" (the Location, without userinfo,
// query or fragment).
func (c *Caller) redirectError(hres *http.Response) *fault.Error {
	if hres.StatusCode < 300 || hres.StatusCode > 399 {
		return nil
	}
	loc := hres.Header.Get("Location")
	if loc == "" {
		return nil
	}
	target := loc
	if hres.Request == nil || hres.Request.URL == nil {
		// no base to resolve against
	} else if u, err := hres.Request.URL.Parse(loc); err == nil {
		target = u.String()
	}
	return c.Fail(c.RedirectRefused, "the server redirected the API call; redirects are not followed so credentials stay with the configured endpoint", nil).
		With("status", hres.StatusCode).With("target", c.Secrets.Text(RedactURL(target))).
		WithHint("set the base URL to the endpoint the server redirects to, if you trust it (and use https)")
}

// RedactURL drops user info, the query and the fragment from a URL for
// error details.
func RedactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(unparseable)"
	}
	u.User = nil
	u.RawQuery = ""
	u.Fragment = ""
	return u.String()
}

// CtxError reports why ctx or actx ended: Kind cancelled when the caller
// cancelled, Kind timeout for a caller deadline or the attempt timeout
// (with "timeout_ms" and a hint). It returns nil when neither ended.
func (c *Caller) CtxError(ctx, actx context.Context) *fault.Error {
	if err := ctx.Err(); err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return c.Fail(fault.KindTimeout, "deadline exceeded", err)
		}
		return c.Fail(fault.KindCancelled, "cancelled", err)
	}
	if actx != nil && actx.Err() != nil && errors.Is(context.Cause(actx), errAttemptTimeout) {
		return c.Fail(fault.KindTimeout, "request timed out", context.DeadlineExceeded).With("timeout_ms", c.Timeout.Milliseconds()).
			WithHint(c.TimeoutHint())
	}
	return nil
}

// Fail builds a provider error whose message and cause text are scrubbed.
func (c *Caller) Fail(kind fault.Kind, msg string, cause error) *fault.Error {
	e := fault.New(fault.PhaseProvider, kind, c.Secrets.Text(msg)).With("provider", c.Name).With("host", c.Host)
	if cause != nil {
		e.Cause = &scrubbed{text: c.Secrets.Text(cause.Error()), err: cause}
	}
	return e
}

// scrubbed is a cause whose text has the secrets removed.
type scrubbed struct {
	text string
	err  error
}

func (s *scrubbed) Error() string { return s.text }
func (s *scrubbed) Unwrap() error { return s.err }

// Clip is the one way server text enters an error: secrets are scrubbed
// first and the result is then cut to at most n bytes (plus an ellipsis)
// at a UTF-8 boundary. Cutting first would leave the head of a secret
// that straddles the cut unrecognisable, and so unscrubbed.
func (c *Caller) Clip(s string, n int) string {
	return wire.Truncate(c.Secrets.Text(s), n)
}

// TimeoutHint is the remedy for an attempt that ran past its time limit.
func (c *Caller) TimeoutHint() string {
	if c.Timeout > 0 {
		return fmt.Sprintf("no complete answer within %s: raise --request-timeout, or check that the server at %s is responsive", c.Timeout, c.BaseURL)
	}
	return fmt.Sprintf("no complete answer in time: check that the server at %s is responsive", c.BaseURL)
}

// hostNotFound is the error of a request whose host name does not exist
// (a *net.DNSError with IsNotFound), or nil: Kind HostNotFound with detail
// "lookup" (the name looked up) and "stage" resolve. The hint points at
// the base URL, or at the proxy settings when the name that did not
// resolve is not the API host (a proxy from HTTPS_PROXY). A temporary
// resolver failure (no answer, SERVFAIL) is not this error: it stays a
// retryable transport error.
func (c *Caller) hostNotFound(err error) *fault.Error {
	var dns *net.DNSError
	if c.HostNotFound == "" || !errors.As(err, &dns) || !dns.IsNotFound {
		return nil
	}
	name := strings.TrimSuffix(strings.ToLower(dns.Name), ".")
	hint := fmt.Sprintf("the host %s does not exist: check the host name in --base-url (%s), or the environment variable it defaults from", c.Host, c.BaseURL)
	if name != "" && name != c.Host {
		hint = fmt.Sprintf("the host %s does not exist: check the proxy settings (HTTPS_PROXY, HTTP_PROXY) and --base-url (%s)", name, c.BaseURL)
	}
	if name == "" {
		name = c.Host
	}
	return c.Fail(c.HostNotFound, fmt.Sprintf("cannot resolve host %s: no such host", name), err).
		With("lookup", c.Secrets.Text(name)).With("stage", "resolve").WithHint(hint)
}

// transportHint is the remedy for a request that got no response.
func (c *Caller) transportHint(err error) string {
	var dns *net.DNSError
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Sprintf("connection refused: is the server running at %s? (check --base-url)", c.BaseURL)
	case errors.As(err, &dns):
		return fmt.Sprintf("cannot resolve %s: check --base-url and the network", c.Host)
	}
	return fmt.Sprintf("cannot reach %s: check --base-url and the network", c.BaseURL)
}

// Stream calls read, the reader of an event stream, with onDelta (when
// set) behind a scrub.Delta of Secrets, flushed when read succeeded, and
// marks what read returned as streamed.
func (c *Caller) Stream(onDelta func(string), read func(onDelta func(string)) (*model.Response, *fault.Error)) (*model.Response, *fault.Error) {
	var ds *scrub.Delta
	if onDelta != nil {
		ds = &scrub.Delta{Set: c.Secrets, Emit: onDelta}
		onDelta = ds.Add
	}
	resp, ferr := read(onDelta)
	if ferr == nil && ds != nil {
		ds.Flush()
	}
	if resp != nil {
		resp.Meta.Streamed = true
	}
	return resp, ferr
}

// StreamError describes an event stream whose reading failed with err
// after events events: the ended context (detail stage stream), Kind
// malformed_response for a line or a body over its bound (limit bytes),
// Kind stream_interrupted otherwise.
func (c *Caller) StreamError(ctx, actx context.Context, err error, events, limit int) *fault.Error {
	if fe := c.CtxError(ctx, actx); fe != nil {
		return fe.With("stage", "stream").With("events", events)
	}
	if errors.Is(err, sse.ErrLineTooLong) {
		return c.Fail(model.KindMalformedResponse, "stream line too long", err).With("events", events)
	}
	if errors.Is(err, wire.ErrTooLarge) {
		return c.Fail(model.KindMalformedResponse, "stream body too large", nil).
			With("events", events).With("limit_bytes", limit)
	}
	return c.Fail(model.KindStreamInterrupted, "the stream broke before it was complete", err).With("events", events)
}
