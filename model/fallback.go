package model

import (
	"context"
	"maps"
	"strconv"
	"strings"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/trace"
)

// FallbackModel is one step of a fallback chain: a model, asked through
// Provider (nil: the chain's primary provider, as --fallback-model does).
type FallbackModel struct {
	Provider Provider
	Model    string
}

// NoteFallback is the trace note of each switch to a fallback model
// (attributes from, to, kind and, for an HTTP failure, status).
const NoteFallback = "model fallback"

// Fallback returns a provider that answers each request with primary and,
// when the call fails in a way another model can help (CanFallBack: a
// server error or rate limit that outlived the provider's retries, a
// connection that failed, a prompt longer than the model's context), asks
// each of fallbacks in order, the request unchanged but for its Model,
// until one answers. A fallback whose model is the request's is skipped.
// Every switch is a trace note (NoteFallback). The usage a failed attempt
// reported (a stream cut after tokens were counted) is added to the usage
// of the response returned, each priced by the model that spent it, so
// budgets and prices follow the models used. When every model failed, the
// last error is returned with detail "models_tried".
//
// A context-length refusal of a call its caller re-splits (WithResplit)
// is returned as it is, for the caller to correct the window and re-split.
//
// A fallback sends the same messages, tools and settings: it never widens
// what the model may call or changes what the answer must be.
func Fallback(primary Provider, fallbacks []FallbackModel) Provider {
	if len(fallbacks) == 0 {
		return primary
	}
	return &fallback{primary: primary, chain: fallbacks}
}

// resplitKey marks a context whose calls their caller re-splits when a
// server refuses a prompt as too long (WithResplit).
type resplitKey struct{}

// WithResplit marks ctx's model calls as re-split by their caller when a
// server refuses a prompt as longer than the model's context (the engine's
// sub-calls: docs/engine.md, "Sub-calls sized to the window"). Fallback
// then leaves such a refusal to the caller instead of switching models:
// smaller prompts to the same model are what the window table can fix,
// and the fallback chain is for what it cannot.
func WithResplit(ctx context.Context) context.Context {
	return context.WithValue(ctx, resplitKey{}, true)
}

// resplits reports whether ctx's caller re-splits a context-length
// refusal (WithResplit).
func resplits(ctx context.Context) bool {
	v, _ := ctx.Value(resplitKey{}).(bool)
	return v
}

type fallback struct {
	primary Provider
	chain   []FallbackModel
}

func (f *fallback) Complete(ctx context.Context, req Request) (*Response, error) {
	resp, err := f.primary.Complete(ctx, req)
	tried := []string{req.Model}
	var spent budget.Usage // the usage of failed attempts
	spentAny := false
	for _, fb := range f.chain {
		if err == nil || !CanFallBack(err) || ctx.Err() != nil || resplits(ctx) && IsContextLength(err) {
			break
		}
		if fb.Model == "" || fb.Model == req.Model {
			continue
		}
		if resp != nil {
			spent, spentAny = spent.Add(resp.Usage), true
		}
		attrs := map[string]any{"from": tried[len(tried)-1], "to": fb.Model, "kind": string(fault.KindOf(err))}
		if s, ok := fault.As(err).Detail["status"]; ok {
			attrs["status"] = s
		}
		trace.Emit(ctx, trace.KindNote, NoteFallback, attrs, nil)
		p := fb.Provider
		if p == nil {
			p = f.primary
		}
		next := req
		next.Model = fb.Model
		tried = append(tried, fb.Model)
		resp, err = p.Complete(ctx, next)
	}
	switch {
	case resp != nil && spentAny:
		resp.Usage = resp.Usage.Add(spent)
	case resp == nil && spentAny:
		resp = &Response{Usage: spent}
	}
	if fe := fault.As(err); fe != nil && len(tried) > 1 {
		c := *fe // never mutate the provider's error
		c.Detail = maps.Clone(fe.Detail)
		err = c.With("models_tried", strings.Join(tried, ","))
	}
	return resp, err
}

// contextLengthCodes are the error types and codes servers use for a
// prompt longer than the model's context.
var contextLengthCodes = map[string]bool{"context_length_exceeded": true, "exceed_context_size_error": true}

// CanFallBack reports whether another model may answer a call that failed
// with err: an HTTP status 429 or 5xx (reported after the provider's own
// retries), a transport failure (connection refused or reset, a timeout),
// a stream the server broke off, or a prompt longer than the model's
// context (HTTP 400 or 413 with an error code naming it). A cancellation,
// a missing key, an unknown host, a refused request of another kind or a
// malformed answer is not a model's to fix: no fallback.
func CanFallBack(err error) bool {
	fe := fault.As(err)
	if fe == nil {
		return false
	}
	switch fe.Kind {
	case KindTransport, KindStreamInterrupted:
		return true
	case KindHTTPStatus:
		status := statusOf(fe.Detail["status"])
		if status == 429 || status >= 500 {
			return true
		}
		return IsContextLength(err)
	}
	return false
}

// statusOf reads an HTTP status from an error detail value.
func statusOf(v any) int {
	switch s := v.(type) {
	case int:
		return s
	case int64:
		return int(s)
	case float64:
		return int(s)
	case string:
		n, _ := strconv.Atoi(s)
		return n
	}
	return 0
}
