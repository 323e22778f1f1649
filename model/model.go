// Package model defines the provider interface and the chat request and
// response types shared by every model backend.
//
// Implementations live in sub-packages: model/openai speaks the
// OpenAI-compatible chat-completions protocol over HTTP (OpenAI, OpenRouter,
// Ollama, vLLM, llama.cpp servers) and model/replay serves recorded
// cassettes over that same protocol. Nothing above this package knows about
// HTTP.
package model

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/fault"
)

// Role is the author of a message.
type Role string

// Message roles.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// Message is one chat message.
type Message struct {
	Role    Role   `json:"role"`
	Content string `json:"content"`
	// Name optionally names the author.
	Name string `json:"name,omitempty"`
	// ToolCalls are the native tool calls of an assistant message.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// ToolCallID links a tool message to the call it answers.
	ToolCallID string `json:"tool_call_id,omitempty"`
	// CacheBreakpoint marks the end of a stable prefix of the request
	// (every message up to and including this one is sent again,
	// byte-identical, by the next request): a provider with explicit prompt
	// caching (model/anthropic) caches the prefix there. Providers with
	// automatic prefix caching (OpenAI) ignore it. See MarkCachePrefix.
	CacheBreakpoint bool `json:"cache_breakpoint,omitempty"`
	// Images are images sent with the message (a user message, or a tool
	// result), after its text; each is charged by its provider's token
	// rule (ImageTokens) before sending. In JSON each is named by its
	// hash, never inlined (Image).
	Images []Image `json:"images,omitempty"`
}

// MarkCachePrefix returns a copy of msgs with the stable prefix marked for
// prompt caching: the last system message (the system prompt), and the
// last message (the append-only history, which the next turn repeats).
// msgs is not changed. Request.CachePrefix asks a provider for the same
// marks without the copy.
func MarkCachePrefix(msgs []Message) []Message {
	out := make([]Message, len(msgs))
	copy(out, msgs)
	sys, last := CachePrefixAt(out)
	if sys >= 0 {
		out[sys].CacheBreakpoint = true
	}
	if last >= 0 {
		out[last].CacheBreakpoint = true
	}
	return out
}

// CachePrefixAt returns the indexes of the messages MarkCachePrefix
// marks: the last system message's and the last message's, -1 for
// either that msgs does not have.
func CachePrefixAt(msgs []Message) (sys, last int) {
	sys, last = -1, len(msgs)-1
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == RoleSystem {
			sys = i
			break
		}
	}
	return sys, last
}

// ToolCall is one native tool call emitted by a model.
type ToolCall struct {
	// ID is the provider's call id.
	ID string `json:"id"`
	// Type is "function" for function tools.
	Type string `json:"type"`
	// Name is the called function's name, as the model wrote it.
	Name string `json:"name"`
	// Arguments is the raw argument text, as the model wrote it; it is not
	// guaranteed to be valid JSON.
	Arguments string `json:"arguments"`
}

// Tool is a function tool offered to the model.
type Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
	Strict      bool            `json:"strict,omitempty"`
}

// ToolChoice constrains tool use: Mode is "auto", "none" or "required", or
// "function" with Name set to force one tool. The zero value leaves the
// choice to the server.
type ToolChoice struct {
	Mode string `json:"mode,omitempty"`
	Name string `json:"name,omitempty"`
}

// Request is one chat-completion request.
type Request struct {
	// Model overrides the provider's default model when set.
	Model    string    `json:"model,omitempty"`
	Messages []Message `json:"messages"`
	Tools    []Tool    `json:"tools,omitempty"`
	// ToolChoice is sent when Mode is set.
	ToolChoice ToolChoice `json:"tool_choice,omitzero"`
	// MaxTokens bounds the completion length when positive.
	MaxTokens int `json:"max_tokens,omitempty"`
	// Temperature is sent when non-nil.
	Temperature *float64 `json:"temperature,omitempty"`
	// ReasoningEffort ("low", "medium", "high") is sent when set.
	ReasoningEffort string `json:"reasoning_effort,omitempty"`
	// Stream asks the provider to stream the response (server-sent events);
	// the provider reassembles it, so the Response has the same shape.
	Stream bool `json:"stream,omitempty"`
	// OnDelta, when set, receives each piece of the reply text as it
	// arrives, in order, from the goroutine calling Complete, when the
	// response is streamed (requested with Stream, or a server that streams
	// anyway). The Response still holds the whole text. A provider that does
	// not stream ignores it. A failed attempt that is retried may have
	// delivered pieces of a reply that is then discarded.
	OnDelta func(text string) `json:"-"`
	// Extra holds provider-specific request fields merged into the request
	// body. They never override the fields above.
	Extra map[string]any `json:"extra,omitempty"`
	// CachePrefix marks the stable prefix for prompt caching as
	// MarkCachePrefix marks messages (the last system message and the
	// last message), without a copy of the conversation: a provider with
	// explicit prompt caching (model/anthropic) treats those two messages
	// as marked CacheBreakpoint, besides any message that is. The meter
	// sets it on every model call. A key or digest of requests written
	// before the field existed is that of CacheMarked.
	CachePrefix bool `json:"cache_prefix,omitempty"`
}

// CacheMarked returns req with the marks of CachePrefix written into a
// copy of its messages (MarkCachePrefix) and CachePrefix false, or req
// itself when CachePrefix is false: the same request, in the form the
// response cache's keys and the durable record's digests take.
func (req Request) CacheMarked() Request {
	if req.CachePrefix {
		req.Messages, req.CachePrefix = MarkCachePrefix(req.Messages), false
	}
	return req
}

// Response is the reassembled result of one chat completion.
type Response struct {
	Text      string `json:"text"`
	Reasoning string `json:"reasoning,omitempty"`
	// Refusal is the text of a refusal the server reported instead of (or
	// besides) an answer ("refusal" in OpenAI's message or delta); the
	// engine and the direct runtime end the run with Kind refused, carrying
	// it, when there is no answer.
	Refusal string `json:"refusal,omitempty"`
	// RefusalCategory and RefusalExplanation are what the server said
	// of a refusal besides its text (Anthropic's stop_details
	// "category" and "explanation"); Refused carries them.
	RefusalCategory    string       `json:"refusal_category,omitempty"`
	RefusalExplanation string       `json:"refusal_explanation,omitempty"`
	ToolCalls          []ToolCall   `json:"tool_calls,omitempty"`
	FinishReason       string       `json:"finish_reason,omitempty"`
	Usage              budget.Usage `json:"usage"`
	Meta               Meta         `json:"meta"`
}

// Meta describes how a response was obtained.
type Meta struct {
	// Provider names the backend ("openai-compatible", "replay", ...).
	Provider string `json:"provider,omitempty"`
	// ID is the server's completion id.
	ID string `json:"id,omitempty"`
	// Model is the model the server says it used.
	Model string `json:"model,omitempty"`
	// HTTPStatus is the status code of the final attempt.
	HTTPStatus int `json:"http_status,omitempty"`
	// Attempts counts HTTP attempts including retries.
	Attempts int `json:"attempts,omitempty"`
	// Streamed reports whether the response arrived as a stream.
	Streamed bool `json:"streamed,omitempty"`
	// LatencyMS is the wall time of the whole call in milliseconds.
	LatencyMS float64 `json:"latency_ms,omitempty"`
	// Cache is set when the response was served by a cache (package
	// model/cache) without a provider call: "memory" (an identical
	// request answered earlier), "in_flight" (an identical request
	// answered while this one waited) or "disk" (the persistent cache).
	// The response's Usage then spends nothing and records the savings.
	Cache string `json:"cache,omitempty"`
	// ServerAddress and ServerPort are the host and port of the base URL
	// the request was sent to (the port the scheme implies when the URL
	// names none): never its path, query or user information. Empty for
	// a provider that contacts no server (replay). Not encoded: a
	// cassette or cache entry does not carry them.
	ServerAddress string `json:"-"`
	ServerPort    int    `json:"-"`
}

// Cache sources (Meta.Cache).
const (
	CacheMemory   = "memory"
	CacheInFlight = "in_flight"
	CacheDisk     = "disk"
)

// Sharer is a provider that answers identical requests once (package
// model/cache). Share either returns a response already paid for (a hit:
// Meta.Cache set, Usage spending nothing and recording the savings), or a
// Lead through which the caller makes the one real call; identical
// requests wait for that call and share its response. A caller that
// charges budgets for real calls (the engine) checks Share first, so hits
// are never charged. Share fails only when ctx ends while it waits.
type Sharer interface {
	Provider
	Share(ctx context.Context, req Request) (*Response, Lead, error)
}

// Lead is the claim on one real call returned by Sharer.Share. Complete
// makes it (at most once, with the request given to Share; a different
// request is sent without sharing); Release gives the claim up when the
// caller will not call (for example the budget refused it), so a waiting
// identical request makes the call instead. Release after Complete does
// nothing; every Lead must be completed or released.
type Lead interface {
	Provider
	Release()
}

// Provider completes chat requests. Implementations are safe for concurrent
// use, honour ctx cancellation promptly, and report failures as
// *fault.Error values with Phase provider.
type Provider interface {
	Complete(ctx context.Context, req Request) (*Response, error)
}

// ProviderFunc adapts a function to the Provider interface.
type ProviderFunc func(ctx context.Context, req Request) (*Response, error)

// Complete calls f.
func (f ProviderFunc) Complete(ctx context.Context, req Request) (*Response, error) {
	return f(ctx, req)
}

// Error kinds reported by providers (Phase provider).
const (
	KindHTTPStatus        fault.Kind = "http_status"        // the provider answered with an error status; detail "status"
	KindMalformedResponse fault.Kind = "malformed_response" // the answer is not a response of the protocol (undecodable, too large, out of order, or none at all)
	KindTransport         fault.Kind = "transport"
	KindStreamInterrupted fault.Kind = "stream_interrupted"
	KindMissingAPIKey     fault.Kind = "missing_api_key"
	KindInvalidRequest    fault.Kind = "invalid_request"
	// KindTooManyToolCalls: a response carries more tool calls than the
	// provider's MaxToolCalls (detail "limit"); its usage is handed back.
	KindTooManyToolCalls fault.Kind = "too_many_tool_calls"
	// KindRefused: the model refused to answer (an OpenAI "refusal", an
	// Anthropic stop_reason "refusal"); detail "refusal" holds its text,
	// "category" and "explanation" what the server said of it
	// (Anthropic's stop_details), when it did.
	KindRefused fault.Kind = "refused"
	// KindMissingFinalOutput: the model's reply holds neither a final
	// answer nor a call to make. Both runtimes (engine, direct) report it
	// about a reply, so it is declared with the reply's types.
	KindMissingFinalOutput fault.Kind = "missing_final_output"
)

// MaxRefusalBytes bounds the refusal text carried by a KindRefused error.
const MaxRefusalBytes = 4096

// Refused returns the error the engine and the direct runtime end a run
// with when resp carries a refusal and no answer (Phase provider, Kind
// refused, the text in the message and in detail "refusal"; the
// server's RefusalCategory and RefusalExplanation, when set, in details
// "category" and "explanation"), or nil. Each text is cut at
// MaxRefusalBytes.
func Refused(resp *Response) *fault.Error {
	if resp == nil || resp.Refusal == "" || strings.TrimSpace(resp.Text) != "" || len(resp.ToolCalls) > 0 {
		return nil
	}
	text := clipRefusal(resp.Refusal)
	e := fault.New(fault.PhaseProvider, KindRefused, "the model refused: "+text).
		With("refusal", text).With("model", resp.Meta.Model)
	if c := resp.RefusalCategory; c != "" {
		e.With("category", clipRefusal(c))
	}
	if x := resp.RefusalExplanation; x != "" {
		e.With("explanation", clipRefusal(x))
	}
	return e.WithHint("the model declined the request; rephrase the query, or try another --model")
}

// clipRefusal cuts text at MaxRefusalBytes, on a UTF-8 boundary.
func clipRefusal(text string) string {
	if len(text) <= MaxRefusalBytes {
		return text
	}
	cut := MaxRefusalBytes
	for cut > 0 && text[cut]&0xC0 == 0x80 {
		cut--
	}
	return text[:cut] + "…"
}
