package openai

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/model"
)

// ChatCompletion is the JSON body of a non-streaming chat-completions
// response ("object": "chat.completion"). Unknown fields are ignored when
// decoding, so extensions such as OpenRouter's "provider" do not break it.
type ChatCompletion struct {
	ID                string   `json:"id"`
	Object            string   `json:"object"`
	Created           int64    `json:"created"`
	Model             string   `json:"model"`
	Choices           []Choice `json:"choices"`
	Usage             *Usage   `json:"usage,omitempty"`
	SystemFingerprint string   `json:"system_fingerprint,omitempty"`
}

// Choice is one completion choice.
type Choice struct {
	Index        int     `json:"index"`
	Message      Message `json:"message"`
	FinishReason string  `json:"finish_reason,omitempty"`
}

// Message is a chat message on the wire, in requests and responses.
type Message struct {
	Role string `json:"role"`
	// Content is the message text. It decodes from a string, null, or an
	// array of content parts whose "text" fields are concatenated; it
	// encodes as a string, or null when Null is set.
	Content Content `json:"content"`
	Name    string  `json:"name,omitempty"`
	// Reasoning and ReasoningContent carry reasoning text; servers use
	// either name (OpenRouter and vLLM "reasoning", DeepSeek and llama.cpp
	// "reasoning_content").
	Reasoning        string     `json:"reasoning,omitempty"`
	ReasoningContent string     `json:"reasoning_content,omitempty"`
	Refusal          string     `json:"refusal,omitempty"`
	ToolCalls        []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID       string     `json:"tool_call_id,omitempty"`
	// FunctionCall is the legacy single call (Azure OpenAI, old models);
	// it is read as a tool call, never sent.
	FunctionCall *FunctionCall `json:"function_call,omitempty"`
}

// Content is message text that may be absent (JSON null), and the
// images of a user message.
type Content struct {
	Text string
	// Reasoning is the text of "thinking" parts of a content array
	// (Mistral magistral); it is read, never sent.
	Reasoning string
	Null      bool
	// Images are the message's image parts, after its text. With images
	// the content is sent as an array of parts: {"type": "text", "text":
	// ...} (when the text is not empty), then one {"type": "image_url",
	// "image_url": {"url": "data:MEDIA;base64,...", "detail": ...}} per
	// image (platform.openai.com/docs/guides/images-vision, "Passing a
	// Base64 encoded image"; the chat-completions API reference's
	// "content parts").
	Images []ImageURL
}

// ImageURL is an image part's image_url object.
type ImageURL struct {
	URL    string `json:"url"`
	Detail string `json:"detail,omitempty"`
}

// DataURL returns the data URL an image is sent as.
func DataURL(im model.Image) string {
	return "data:" + im.MediaType + ";base64," + base64.StdEncoding.EncodeToString(im.Data)
}

// MarshalJSON encodes c as a JSON string, or null when c.Null is set, or
// an array of parts when it has images.
func (c Content) MarshalJSON() ([]byte, error) {
	if c.Null {
		return []byte("null"), nil
	}
	if len(c.Images) > 0 {
		type textPart struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		type imagePart struct {
			Type     string   `json:"type"`
			ImageURL ImageURL `json:"image_url"`
		}
		parts := make([]any, 0, len(c.Images)+1)
		if c.Text != "" {
			parts = append(parts, textPart{"text", c.Text})
		}
		for _, im := range c.Images {
			parts = append(parts, imagePart{"image_url", im})
		}
		return json.Marshal(parts)
	}
	return json.Marshal(c.Text)
}

// UnmarshalJSON decodes a string, null, or an array of content parts.
func (c *Content) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		*c = Content{Null: true}
		return nil
	case len(b) > 0 && b[0] == '[':
		var parts []contentPart
		if err := json.Unmarshal(b, &parts); err != nil {
			return fmt.Errorf("content parts: %w", err)
		}
		var text, reasoning strings.Builder
		var images []ImageURL
		for _, p := range parts {
			switch p.Type {
			case "thinking", "reasoning":
				p.thinking(&reasoning)
			case "image_url":
				if p.ImageURL != nil {
					images = append(images, *p.ImageURL)
				}
			default:
				text.WriteString(p.Text)
			}
		}
		*c = Content{Text: text.String(), Reasoning: reasoning.String(), Images: images}
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("content: %w", err)
	}
	*c = Content{Text: s}
	return nil
}

// contentPart is one part of a content array: {"type": "text", "text":
// ...}, or {"type": "thinking", "thinking": ...} whose thinking is a string
// or itself an array of text parts (Mistral).
type contentPart struct {
	Type     string          `json:"type"`
	Text     string          `json:"text"`
	Thinking json.RawMessage `json:"thinking"`
	ImageURL *ImageURL       `json:"image_url"`
}

// maxPartDepth bounds the nesting of thinking parts read.
const maxPartDepth = 4

func (p *contentPart) thinking(sb *strings.Builder) { p.thinkingAt(sb, 0) }

func (p *contentPart) thinkingAt(sb *strings.Builder, depth int) {
	sb.WriteString(p.Text)
	t := bytes.TrimSpace(p.Thinking)
	if len(t) == 0 || depth >= maxPartDepth {
		return
	}
	var s string
	if t[0] == '"' && json.Unmarshal(t, &s) == nil {
		sb.WriteString(s)
		return
	}
	var sub []contentPart
	if t[0] == '[' && json.Unmarshal(t, &sub) == nil {
		for i := range sub {
			sub[i].thinkingAt(sb, depth+1)
		}
	}
}

// ToolCall is a function call in an assistant message.
type ToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function FunctionCall `json:"function"`
}

// FunctionCall names a function and its raw argument text.
type FunctionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Usage is the token accounting of a response. Cost is OpenRouter's
// "usage.cost" in USD (credits), present only when the server reports it;
// CostInUSDTicks is xAI's cost in units of 1e-10 USD. Cached prompt tokens
// come from "prompt_tokens_details.cached_tokens" (OpenAI, xAI,
// OpenRouter) or DeepSeek's "prompt_cache_hit_tokens"; they are part of
// PromptTokens.
type Usage struct {
	PromptTokens         int64         `json:"prompt_tokens"`
	CompletionTokens     int64         `json:"completion_tokens"`
	TotalTokens          int64         `json:"total_tokens"`
	Cost                 *float64      `json:"cost,omitempty"`
	CostInUSDTicks       *int64        `json:"cost_in_usd_ticks,omitempty"`
	PromptTokensDetails  *TokenDetails `json:"prompt_tokens_details,omitempty"`
	PromptCacheHitTokens int64         `json:"prompt_cache_hit_tokens,omitempty"`
}

// UsageError reports a usage object no server can truthfully send (see
// Usage.Check): Field is its JSON path ("usage.total_tokens"), Value
// the value as sent.
type UsageError struct {
	Field string
	Value string
}

func (e *UsageError) Error() string {
	return fmt.Sprintf("%s is %s: a token count or a cost is never negative", e.Field, e.Value)
}

// Check reports the first field of u that no call can have: a negative
// token count (prompt_tokens, completion_tokens, total_tokens, cached
// and cache-write tokens, DeepSeek's prompt_cache_hit_tokens), or a cost
// (usage.cost, cost_in_usd_ticks) that is negative or not a finite number. The wire
// format defines every one as a count or an amount spent. A total
// different from prompt+completion is possible (reasoning tokens, some
// servers' own counting) and is not refused: the provider charges the
// larger of the two (docs/budget.md, "Usage a server cannot have").
func (u *Usage) Check() error {
	if u == nil {
		return nil
	}
	type count struct {
		field string
		n     int64
	}
	counts := []count{
		{"usage.prompt_tokens", u.PromptTokens},
		{"usage.completion_tokens", u.CompletionTokens},
		{"usage.total_tokens", u.TotalTokens},
		{"usage.prompt_cache_hit_tokens", u.PromptCacheHitTokens},
	}
	if d := u.PromptTokensDetails; d != nil {
		counts = append(counts, count{"usage.prompt_tokens_details.cached_tokens", d.CachedTokens},
			count{"usage.prompt_tokens_details.cache_write_tokens", d.CacheWriteTokens})
	}
	for _, c := range counts {
		if c.n < 0 {
			return &UsageError{Field: c.field, Value: strconv.FormatInt(c.n, 10)}
		}
	}
	if c := u.Cost; c != nil && !(*c >= 0 && !math.IsInf(*c, 1)) {
		return &UsageError{Field: "usage.cost", Value: strconv.FormatFloat(*c, 'g', -1, 64)}
	}
	if t := u.CostInUSDTicks; t != nil && *t < 0 {
		return &UsageError{Field: "usage.cost_in_usd_ticks", Value: strconv.FormatInt(*t, 10)}
	}
	return nil
}

// TokenDetails is the breakdown of prompt tokens: those read from the
// prompt cache and (OpenRouter's cache_write_tokens; what rlm's cassettes
// record of Anthropic's cache_creation_input_tokens) those written to
// it, both parts of prompt_tokens.
type TokenDetails struct {
	CachedTokens     int64 `json:"cached_tokens"`
	CacheWriteTokens int64 `json:"cache_write_tokens,omitempty"`
}

// USDPerTick is the value of one of xAI's cost_in_usd_ticks.
const USDPerTick = 1e-10

// ChatCompletionChunk is one streamed event ("object":
// "chat.completion.chunk").
type ChatCompletionChunk struct {
	ID      string        `json:"id"`
	Object  string        `json:"object"`
	Created int64         `json:"created"`
	Model   string        `json:"model"`
	Choices []ChunkChoice `json:"choices"`
	Usage   *Usage        `json:"usage,omitempty"`
	// Error is set when a server reports a failure inside the stream
	// (OpenRouter does this after the HTTP status was sent).
	Error *APIError `json:"error,omitempty"`
}

// ChunkChoice is the per-choice part of a chunk.
type ChunkChoice struct {
	Index        int     `json:"index"`
	Delta        Delta   `json:"delta"`
	FinishReason *string `json:"finish_reason"`
}

// Delta is an incremental message fragment.
type Delta struct {
	Role string `json:"role,omitempty"`
	// Content is a string or, from some servers (Mistral), an array of
	// text and thinking parts.
	Content          *Content        `json:"content,omitempty"`
	Refusal          *string         `json:"refusal,omitempty"`
	Reasoning        *string         `json:"reasoning,omitempty"`
	ReasoningContent *string         `json:"reasoning_content,omitempty"`
	ToolCalls        []ToolCallDelta `json:"tool_calls,omitempty"`
}

// ToolCallDelta is a fragment of a tool call; fragments with the same Index
// belong to the same call.
type ToolCallDelta struct {
	Index    *int              `json:"index,omitempty"`
	ID       string            `json:"id,omitempty"`
	Type     string            `json:"type,omitempty"`
	Function FunctionCallDelta `json:"function"`
}

// FunctionCallDelta is a fragment of a function name and arguments.
type FunctionCallDelta struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments,omitempty"`
}

// APIError is the "error" object of an OpenAI-style error body. Code may be
// a string, a number or null, so it is kept raw.
type APIError struct {
	Message string          `json:"message"`
	Type    string          `json:"type,omitempty"`
	Param   json.RawMessage `json:"param,omitempty"`
	Code    json.RawMessage `json:"code,omitempty"`
}

// CodeString returns Code as text: a JSON string unquoted, a number as
// written, and "" for null or absent.
func (e *APIError) CodeString() string {
	c := bytes.TrimSpace(e.Code)
	if len(c) == 0 || bytes.Equal(c, []byte("null")) {
		return ""
	}
	var s string
	if json.Unmarshal(c, &s) == nil {
		return s
	}
	return string(c)
}

// ErrorBody is an OpenAI-style error response body.
type ErrorBody struct {
	Error *APIError `json:"error"`
}

// ParseErrorBody reads the error bodies servers send: OpenAI's
// {"error": {"message": ...}}, a plain string {"error": "..."} (LM Studio,
// Ollama), and vLLM's flat {"object": "error", "message": ...}. It
// reports false for anything else, including a chat completion.
func ParseErrorBody(raw []byte) (*APIError, bool) {
	if !mayHoldError(raw) {
		return nil, false
	}
	return parseErrorBody(raw)
}

// mayHoldError reports whether raw may be an error body: whether it holds
// "error" in any ASCII case (encoding/json matches keys without regard to
// case, and no other character folds to these letters) or a \u escape,
// which could spell it. Every successful chat completion was decoded a
// second time to find it was not one.
func mayHoldError(raw []byte) bool {
	for i := 0; i+5 <= len(raw); i++ {
		if raw[i]|0x20 == 'e' && raw[i+1]|0x20 == 'r' && raw[i+2]|0x20 == 'r' && raw[i+3]|0x20 == 'o' && raw[i+4]|0x20 == 'r' {
			return true
		}
	}
	return bytes.Contains(raw, []byte(`\u`))
}

// parseErrorBody is ParseErrorBody without mayHoldError's shortcut.
func parseErrorBody(raw []byte) (*APIError, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, false
	}
	var b struct {
		Error   json.RawMessage `json:"error"`
		Object  string          `json:"object"`
		Message string          `json:"message"`
		Type    string          `json:"type"`
		Code    json.RawMessage `json:"code"`
	}
	if json.Unmarshal(raw, &b) != nil {
		return nil, false
	}
	e := bytes.TrimSpace(b.Error)
	switch {
	case len(e) > 0 && e[0] == '{':
		var ae APIError
		if json.Unmarshal(e, &ae) != nil {
			return nil, false
		}
		return &ae, true
	case len(e) > 0 && e[0] == '"':
		var msg string
		if json.Unmarshal(e, &msg) != nil {
			return nil, false
		}
		return &APIError{Message: msg}, true
	case b.Object == "error":
		return &APIError{Message: b.Message, Type: b.Type, Code: b.Code}, true
	}
	return nil, false
}

// DecodeCompletion decodes a chat.completion JSON object. It fails when the
// text is not a JSON object or has no choices; unknown fields are ignored.
// The value and the error are encoding/json's for every input; the shapes
// servers send are read without reflection (decode.go).
func DecodeCompletion(b []byte) (*ChatCompletion, error) {
	if c, ok := decodeCompletionFast(b); ok {
		return c, nil
	}
	return decodeCompletionJSON(b)
}

// decodeCompletionJSON is DecodeCompletion through encoding/json, for
// what the fast path leaves.
func decodeCompletionJSON(b []byte) (*ChatCompletion, error) {
	var c ChatCompletion
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&c); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("trailing data after the completion object")
	}
	if len(c.Choices) == 0 {
		return nil, fmt.Errorf("completion has no choices")
	}
	return &c, nil
}

// ResponseFromCompletion converts the first choice of c into a Response.
// Token counts are known when c has a usage object, and cost is known when
// the usage carries a cost. It fails when c has no choices, and with a
// *UsageError when its usage is impossible (Usage.Check).
func ResponseFromCompletion(c *ChatCompletion) (*model.Response, error) {
	if c == nil || len(c.Choices) == 0 {
		return nil, fmt.Errorf("completion has no choices")
	}
	if err := c.Usage.Check(); err != nil {
		return nil, err
	}
	ch := c.Choices[0]
	for _, cand := range c.Choices {
		if cand.Index == 0 {
			ch = cand
			break
		}
	}
	think, text := splitThink(ch.Message.Content.Text)
	resp := &model.Response{
		Text:         text,
		Reasoning:    firstNonEmpty(ch.Message.Reasoning, ch.Message.ReasoningContent, ch.Message.Content.Reasoning) + think,
		Refusal:      ch.Message.Refusal,
		FinishReason: ch.FinishReason,
		Usage:        usageFrom(c.Usage),
		Meta:         model.Meta{ID: c.ID, Model: c.Model},
	}
	calls := ch.Message.ToolCalls
	if fc := ch.Message.FunctionCall; len(calls) == 0 && fc != nil && fc.Name != "" {
		calls = []ToolCall{{Type: "function", Function: *fc}}
	}
	for i, tc := range calls {
		resp.ToolCalls = append(resp.ToolCalls, model.ToolCall{
			ID:        firstNonEmpty(tc.ID, CallID(c.ID, i, tc.Function.Name, tc.Function.Arguments)),
			Type:      firstNonEmpty(tc.Type, "function"),
			Name:      tc.Function.Name,
			Arguments: tc.Function.Arguments,
		})
	}
	return resp, nil
}

// CompletionFromResponse builds the chat.completion object that a server
// would have sent for resp. Usage is included when its tokens are known, and
// the cost when it is known (not when it was estimated). When resp has no
// id, fallbackID is used.
func CompletionFromResponse(resp *model.Response, fallbackID string) *ChatCompletion {
	msg := Message{Role: "assistant", Content: Content{Text: resp.Text}, Reasoning: resp.Reasoning, Refusal: resp.Refusal}
	if resp.Text == "" && (len(resp.ToolCalls) > 0 || resp.Refusal != "") {
		msg.Content.Null = true
	}
	for _, tc := range resp.ToolCalls {
		msg.ToolCalls = append(msg.ToolCalls, ToolCall{
			ID:       tc.ID,
			Type:     firstNonEmpty(tc.Type, "function"),
			Function: FunctionCall{Name: tc.Name, Arguments: tc.Arguments},
		})
	}
	c := &ChatCompletion{
		ID:      firstNonEmpty(resp.Meta.ID, fallbackID),
		Object:  "chat.completion",
		Model:   resp.Meta.Model,
		Choices: []Choice{{Index: 0, Message: msg, FinishReason: resp.FinishReason}},
	}
	if u := resp.Usage; u.TokensKnown || u.CostKnown {
		c.Usage = &Usage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, TotalTokens: u.TotalTokens}
		if u.CachedTokens > 0 || u.CacheWriteTokens > 0 {
			c.Usage.PromptTokensDetails = &TokenDetails{CachedTokens: u.CachedTokens, CacheWriteTokens: u.CacheWriteTokens}
		}
		if u.CostKnown {
			cost := u.CostUSD
			c.Usage.Cost = &cost
		}
	}
	return c
}

// usageFrom converts a usage object the provider has checked (Usage.Check):
// the total is the server's, or prompt+completion when that is larger
// (a server may count reasoning in the total only, never fewer tokens
// than the parts), the sum saturating instead of wrapping. What Check
// refuses is never passed on: a negative count reads as 0, an
// impossible cost as no cost.
func usageFrom(u *Usage) budget.Usage {
	out := budget.Usage{Calls: 1}
	if u == nil {
		return out
	}
	out.PromptTokens = max(u.PromptTokens, 0)
	out.CompletionTokens = max(u.CompletionTokens, 0)
	out.TotalTokens = max(u.TotalTokens, budget.AddTokens(out.PromptTokens, out.CompletionTokens))
	out.TokensKnown = true
	out.CachedTokens = u.PromptCacheHitTokens
	if d := u.PromptTokensDetails; d != nil && d.CachedTokens > 0 {
		out.CachedTokens = d.CachedTokens
	}
	out.CachedTokens = min(max(out.CachedTokens, 0), out.PromptTokens)
	if d := u.PromptTokensDetails; d != nil {
		out.CacheWriteTokens = min(max(d.CacheWriteTokens, 0), out.PromptTokens-out.CachedTokens)
	}
	switch {
	case u.Cost != nil:
		if c := *u.Cost; c >= 0 && !math.IsInf(c, 1) {
			out.CostUSD, out.CostKnown = c, true
		}
	case u.CostInUSDTicks != nil:
		if t := *u.CostInUSDTicks; t >= 0 {
			out.CostUSD, out.CostKnown = float64(t)*USDPerTick, true
		}
	}
	return out
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// CallID is the id given to a tool call that arrived without one (Gemini's
// OpenAI-compatible endpoint sends "id": ""): "call_" and the first 24 hex
// digits of the SHA-256 of the response's id, the call's position in the
// response, its name and its arguments, so the same response always gets
// the same ids, different calls of one response get different ones, and
// the same call in a later response (with its own id) another one.
func CallID(responseID string, index int, name, arguments string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d\x00%s\x00%s", responseID, index, name, arguments)
	return "call_" + hex.EncodeToString(h.Sum(nil))[:24]
}
