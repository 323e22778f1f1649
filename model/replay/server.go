package replay

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rlm-go/rlm/internal/textcut"
	"github.com/rlm-go/rlm/model/anthropic"
	"github.com/rlm-go/rlm/model/openai"
)

// The answer to a request that no unused interaction matches: HTTP 404 (a
// status the provider does not retry) with an OpenAI-style error body whose
// code is ExhaustedCode.
const (
	ExhaustedStatus = http.StatusNotFound
	ExhaustedCode   = "cassette_exhausted"
)

// Bounds on what a client may make the server hold (a cassette request is
// small): a request body (any route) over MaxRequestBytes is answered 413
// with code RequestTooLargeCode, without being read further, and a request
// arriving while MaxConcurrentRequests are being handled is answered 503
// with code BusyCode and Retry-After: 1 (a status the provider retries).
const (
	MaxRequestBytes       = 32 << 20
	MaxConcurrentRequests = 8
	RequestTooLargeCode   = "request_too_large"
	BusyCode              = "server_busy"
)

// Stats counts what a Handler did.
type Stats struct {
	// Requests counts completion requests received (chat completions,
	// Messages API and Responses API).
	Requests int `json:"requests"`
	// Served counts requests answered from an interaction (including
	// injected errors).
	Served int `json:"served"`
	// Exhausted counts requests answered with the exhaustion error.
	Exhausted int `json:"exhausted"`
	// Remaining counts unused interactions.
	Remaining int `json:"remaining"`
	// Total is the number of interactions in the cassette.
	Total int `json:"total"`
}

// Handler is an http.Handler speaking the OpenAI chat-completions protocol
// from a cassette. It serves POST /v1/chat/completions (and
// /chat/completions), streaming when the request says "stream": true, the
// same interactions as Anthropic Messages API answers on POST /v1/messages
// and as OpenAI Responses API answers on POST /v1/responses, and GET
// /v1/models (and /models). It is safe for concurrent requests; when
// requests are sequential the answers are deterministic.
type Handler struct {
	mu      sync.Mutex
	entries []entry
	used    []bool
	stats   Stats
	models  []string
	// slots holds one token per request being handled (nil: no limit).
	slots    chan struct{}
	inFlight atomic.Int32
}

type entry struct {
	in         Interaction
	completion *openai.ChatCompletion
	usage      json.RawMessage // raw "usage" of the response, unknown fields kept
	err        error           // the interaction is invalid
}

// NewHandler returns a handler replaying c. The cassette is copied; invalid
// interactions (when c was not built by Parse) are answered with HTTP 500
// and code malformed_cassette when selected.
func NewHandler(c *Cassette) *Handler {
	h := &Handler{slots: make(chan struct{}, MaxConcurrentRequests)}
	models := map[string]bool{}
	if c != nil {
		for _, in := range c.Interactions {
			e := entry{in: in}
			if err := in.validate(); err != nil {
				e.err = err
			} else if in.Status == 0 {
				e.completion, _ = completionOf(in.Response)
				var u struct {
					Usage json.RawMessage `json:"usage"`
				}
				if json.Unmarshal(in.Response, &u) == nil && len(u.Usage) > 0 && string(u.Usage) != "null" {
					e.usage = u.Usage
				}
				if m := e.completion.Model; m != "" {
					models[m] = true
				}
			}
			if in.Match != nil && in.Match.Model != "" {
				models[in.Match.Model] = true
			}
			h.entries = append(h.entries, e)
		}
	}
	h.used = make([]bool, len(h.entries))
	h.stats.Total = len(h.entries)
	h.stats.Remaining = len(h.entries)
	for m := range models {
		h.models = append(h.models, m)
	}
	slices.Sort(h.models)
	return h
}

// Stats returns a snapshot of the counters.
func (h *Handler) Stats() Stats {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.stats
}

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h.slots != nil {
		select {
		case h.slots <- struct{}{}:
			defer func() { <-h.slots }()
		default:
			w.Header().Set("Retry-After", "1")
			writeError(w, http.StatusServiceUnavailable, "server_error", BusyCode,
				fmt.Sprintf("replay server is handling %d requests already; retry later", MaxConcurrentRequests))
			return
		}
	}
	h.inFlight.Add(1)
	defer h.inFlight.Add(-1)
	path := strings.TrimSuffix(r.URL.Path, "/")
	switch path {
	case "/v1/chat/completions", "/chat/completions", "/v1/messages", "/messages", "/v1/responses", "/responses":
		if r.Method != http.MethodPost {
			writeError(w, http.StatusMethodNotAllowed, "invalid_request_error", "method_not_allowed", "use POST")
			return
		}
		d := dialectChat
		switch {
		case strings.HasSuffix(path, "/messages"):
			d = dialectMessages
		case strings.HasSuffix(path, "/responses"):
			d = dialectResponses
		}
		h.serveCompletion(w, r, d)
	case "/v1/models", "/models":
		if r.Method != http.MethodGet {
			writeError(w, http.StatusMethodNotAllowed, "invalid_request_error", "method_not_allowed", "use GET")
			return
		}
		h.serveModels(w)
	default:
		writeError(w, http.StatusNotFound, "invalid_request_error", "unknown_url", "unknown path "+strconv.Quote(r.URL.Path))
	}
}

func (h *Handler) serveModels(w http.ResponseWriter) {
	type modelEntry struct {
		ID      string `json:"id"`
		Object  string `json:"object"`
		Created int64  `json:"created"`
		OwnedBy string `json:"owned_by"`
	}
	list := struct {
		Object string       `json:"object"`
		Data   []modelEntry `json:"data"`
	}{Object: "list", Data: []modelEntry{}}
	for _, m := range h.models {
		list.Data = append(list.Data, modelEntry{ID: m, Object: "model", OwnedBy: "replay"})
	}
	writeJSONBody(w, http.StatusOK, list)
}

// chatRequest is the part of a request the server looks at.
type chatRequest struct {
	Model         string                `json:"model"`
	Messages      []openai.Message      `json:"messages"`
	Stream        bool                  `json:"stream"`
	StreamOptions *openai.StreamOptions `json:"stream_options"`
	// imageHashes are the hex SHA-256 of the request's images.
	imageHashes []string
}

// dialect is the API a completion request speaks.
type dialect int

const (
	dialectChat      dialect = iota // OpenAI chat completions
	dialectMessages                 // Anthropic Messages API
	dialectResponses                // OpenAI Responses API
)

// serveCompletion answers a chat-completions request, an Anthropic Messages
// API request or an OpenAI Responses API request (the same interactions,
// sent in that shape).
func (h *Handler) serveCompletion(w http.ResponseWriter, r *http.Request, d dialect) {
	tooLarge := func() {
		// Do not drain the rest of the body; close the connection instead.
		w.Header().Set("Connection", "close")
		writeError(w, http.StatusRequestEntityTooLarge, "invalid_request_error", RequestTooLargeCode,
			fmt.Sprintf("request body is larger than %d bytes; a cassette request is small", MaxRequestBytes))
	}
	if r.ContentLength > MaxRequestBytes {
		tooLarge()
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxRequestBytes+1))
	if err == nil && len(body) > MaxRequestBytes {
		tooLarge()
		return
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "invalid_body", "cannot read the request body")
		return
	}
	var req chatRequest
	var rreq responsesRequest
	switch d {
	case dialectMessages:
		req, err = fromMessagesRequest(body)
	case dialectResponses:
		rreq, err = fromResponsesRequest(body)
		req = rreq.chatRequest
	default:
		err = json.Unmarshal(body, &req)
	}
	if re, ok := err.(*requestError); ok {
		writeParamError(w, http.StatusBadRequest, re.code, re.param, re.msg)
		return
	}
	if err != nil {
		what := [...]string{dialectChat: "a chat-completions", dialectMessages: "a Messages API", dialectResponses: "a Responses API"}[d]
		writeError(w, http.StatusBadRequest, "invalid_request_error", "invalid_json", "request body is not "+what+" request: "+err.Error())
		return
	}
	text := requestText(req.Messages)
	if d == dialectChat {
		req.imageHashes = chatImageHashes(req.Messages)
	}

	h.mu.Lock()
	h.stats.Requests++
	idx := -1
	for i := range h.entries {
		if !h.used[i] && h.entries[i].in.Match.fits(req.Model, text, req.imageHashes) {
			idx = i
			break
		}
	}
	if idx < 0 {
		h.stats.Exhausted++
		used := h.stats.Total - h.stats.Remaining
		total := h.stats.Total
		h.mu.Unlock()
		writeError(w, ExhaustedStatus, "invalid_request_error", ExhaustedCode, fmt.Sprintf(
			"replay cassette exhausted: no unused interaction matches this request (%d of %d interactions used; last message starts %q)",
			used, total, textcut.Prefix(lastContent(req.Messages), 120)))
		return
	}
	h.used[idx] = true
	h.stats.Served++
	h.stats.Remaining--
	e := h.entries[idx]
	h.mu.Unlock()

	w.Header().Set("X-Replay-Interaction", strconv.Itoa(idx))
	if d := e.in.DelayMS; d > 0 {
		t := time.NewTimer(time.Duration(d) * time.Millisecond)
		select {
		case <-r.Context().Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
	switch {
	case e.err != nil:
		writeError(w, http.StatusInternalServerError, "server_error", string(KindMalformedCassette), e.err.Error())
	case e.in.Status != 0:
		if e.in.RetryAfter != "" {
			w.Header().Set("Retry-After", e.in.RetryAfter)
		}
		body := []byte(e.in.ErrorBody)
		if len(body) == 0 {
			body = errorJSON("server_error", "injected_error", fmt.Sprintf("injected HTTP %d from the cassette", e.in.Status))
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(e.in.Status)
		_, _ = w.Write(body)
	case d == dialectMessages:
		writeMessages(w, e.completion, req.Stream)
	case d == dialectResponses:
		writeResponses(w, &rreq, e.completion, e.usage)
	case req.Stream:
		includeUsage := req.StreamOptions != nil && req.StreamOptions.IncludeUsage
		writeStream(w, e.completion, e.usage, includeUsage)
	default:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(e.in.Response)
	}
}

// fits reports whether a request with the given model and message text
// fits m. A nil Match fits every request.
func (m *Match) fits(model, text string, images []string) bool {
	if m == nil {
		return true
	}
	if m.Model != "" && m.Model != model {
		return false
	}
	for _, h := range m.Images {
		if !slices.Contains(images, h) {
			return false
		}
	}
	return strings.Contains(text, m.Contains)
}

// imageHash returns the hex SHA-256 of an image's base64 data, or ""
// when it is not base64.
func imageHash(b64 string) string {
	b, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// chatImageHashes returns the hashes of the data-URL images of a
// chat-completions request (image_url parts).
func chatImageHashes(msgs []openai.Message) []string {
	var out []string
	for _, m := range msgs {
		for _, im := range m.Content.Images {
			if _, data, ok := strings.Cut(im.URL, ";base64,"); ok && strings.HasPrefix(im.URL, "data:") {
				if h := imageHash(data); h != "" {
					out = append(out, h)
				}
			}
		}
	}
	return out
}

// requestText joins the contents of all messages with newlines.
func requestText(msgs []openai.Message) string {
	parts := make([]string, len(msgs))
	for i, m := range msgs {
		parts[i] = m.Content.Text
	}
	return strings.Join(parts, "\n")
}

func lastContent(msgs []openai.Message) string {
	if len(msgs) == 0 {
		return ""
	}
	return msgs[len(msgs)-1].Content.Text
}

// writeStream sends c as a chat.completion.chunk event stream: a role
// chunk, the reasoning and content split into several chunks, each tool
// call as a header chunk followed by argument fragments, a finish chunk,
// the usage chunk when asked for, and [DONE].
func writeStream(w http.ResponseWriter, c *openai.ChatCompletion, usage json.RawMessage, includeUsage bool) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	send := func(v any) {
		b, _ := json.Marshal(v)
		_, _ = fmt.Fprintf(w, "data: %s\n\n", b)
		_ = rc.Flush()
	}
	chunk := func(choices []map[string]any) map[string]any {
		return map[string]any{"id": c.ID, "object": "chat.completion.chunk", "created": c.Created, "model": c.Model, "choices": choices}
	}
	delta := func(index int, d map[string]any, finish any) map[string]any {
		return chunk([]map[string]any{{"index": index, "delta": d, "finish_reason": finish}})
	}
	for _, ch := range c.Choices {
		msg := ch.Message
		send(delta(ch.Index, map[string]any{"role": "assistant", "content": ""}, nil))
		if rs := firstNonEmpty(msg.Reasoning, msg.ReasoningContent, msg.Content.Reasoning); rs != "" {
			for _, piece := range split(rs, 3) {
				send(delta(ch.Index, map[string]any{"reasoning": piece}, nil))
			}
		}
		for _, piece := range split(msg.Content.Text, 4) {
			send(delta(ch.Index, map[string]any{"content": piece}, nil))
		}
		if msg.Refusal != "" {
			send(delta(ch.Index, map[string]any{"refusal": msg.Refusal}, nil))
		}
		calls := msg.ToolCalls
		if fc := msg.FunctionCall; len(calls) == 0 && fc != nil && fc.Name != "" {
			// The legacy single call, as openai.ResponseFromCompletion reads it.
			calls = []openai.ToolCall{{Type: "function", Function: *fc}}
		}
		for i, tc := range calls {
			send(delta(ch.Index, map[string]any{"tool_calls": []map[string]any{{
				"index": i, "id": tc.ID, "type": firstNonEmpty(tc.Type, "function"),
				"function": map[string]any{"name": tc.Function.Name, "arguments": ""},
			}}}, nil))
			for _, piece := range split(tc.Function.Arguments, 3) {
				send(delta(ch.Index, map[string]any{"tool_calls": []map[string]any{{
					"index": i, "function": map[string]any{"arguments": piece},
				}}}, nil))
			}
		}
		send(delta(ch.Index, map[string]any{}, firstNonEmpty(ch.FinishReason, "stop")))
	}
	if includeUsage && len(usage) > 0 {
		u := chunk([]map[string]any{})
		u["usage"] = usage
		send(u)
	}
	_, _ = io.WriteString(w, "data: [DONE]\n\n")
	_ = rc.Flush()
}

// split cuts s into at most n pieces of about equal rune counts.
func split(s string, n int) []string {
	if s == "" {
		return nil
	}
	runes := []rune(s)
	size := (len(runes) + n - 1) / n
	var out []string
	for i := 0; i < len(runes); i += size {
		out = append(out, string(runes[i:min(i+size, len(runes))]))
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

func writeError(w http.ResponseWriter, status int, typ, code, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(errorJSON(typ, code, msg))
}

// writeParamError sends an invalid_request_error naming the parameter at
// fault, as the OpenAI API does.
func writeParamError(w http.ResponseWriter, status int, code, param, msg string) {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{
		"message": msg, "type": "invalid_request_error", "param": param, "code": code,
	}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

func writeJSONBody(w http.ResponseWriter, status int, v any) {
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// Server is a Handler listening on a loopback port, for tests and
// embedding.
type Server struct {
	*Handler
	ts *httptest.Server
}

// NewServer starts a replay server for c on a loopback port. Close it when
// done.
func NewServer(c *Cassette) *Server {
	h := NewHandler(c)
	return &Server{Handler: h, ts: httptest.NewServer(h)}
}

// URL returns the server root, for example "http://127.0.0.1:39211". The
// server also answers under "/v1", so both URL() and BaseURL() work as an
// OpenAI base URL.
func (s *Server) URL() string { return s.ts.URL }

// BaseURL returns URL() + "/v1", the base URL to give OpenAI clients.
func (s *Server) BaseURL() string { return s.ts.URL + "/v1" }

// Close shuts the server down and closes idle client connections.
func (s *Server) Close() { s.ts.Close() }

// fromMessagesRequest reads the part of a Messages API request the server
// looks at: the model, the stream flag, and the texts (system blocks,
// then each block's text or tool result) as messages to match. "system",
// a message's "content" and a tool_result's "content" may each be a
// string or an array of blocks, as the API accepts.
func fromMessagesRequest(body []byte) (chatRequest, error) {
	var mr struct {
		Model    string         `json:"model"`
		Stream   bool           `json:"stream"`
		System   messagesBlocks `json:"system"`
		Messages []struct {
			Role    string         `json:"role"`
			Content messagesBlocks `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &mr); err != nil {
		return chatRequest{}, err
	}
	req := chatRequest{Model: mr.Model, Stream: mr.Stream}
	add := func(role, text string) {
		req.Messages = append(req.Messages, openai.Message{Role: role, Content: openai.Content{Text: text}})
	}
	for _, b := range mr.System {
		add("system", b.Text)
	}
	for _, m := range mr.Messages {
		for _, b := range m.Content {
			add(m.Role, b.Text+b.Content.text())
			req.imageHashes = append(req.imageHashes, b.images()...)
		}
	}
	return req, nil
}

// images returns the hashes of a block's base64 image, or of the images
// in its content (a tool_result's).
func (b messagesBlock) images() []string {
	var out []string
	if b.Source != nil && b.Source.Type == "base64" {
		if h := imageHash(b.Source.Data); h != "" {
			out = append(out, h)
		}
	}
	if b.Content != nil {
		for _, c := range *b.Content {
			out = append(out, c.images()...)
		}
	}
	return out
}

// messagesBlocks is a Messages API content value: a string (one text
// block) or an array of blocks.
type messagesBlocks []messagesBlock

// messagesBlock is the part of a content block the server reads: its
// text, or a tool_result's content (itself a string or blocks).
type messagesBlock struct {
	Text    string          `json:"text"`
	Content *messagesBlocks `json:"content"`
	Source  *struct {
		Type string `json:"type"`
		Data string `json:"data"`
	} `json:"source"`
}

func (bs *messagesBlocks) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*bs = messagesBlocks{{Text: s}}
		return nil
	}
	var blocks []messagesBlock
	if err := json.Unmarshal(b, &blocks); err != nil {
		return err
	}
	*bs = blocks
	return nil
}

// text joins the texts of the blocks (nil: none).
func (bs *messagesBlocks) text() string {
	if bs == nil {
		return ""
	}
	var out strings.Builder
	for _, b := range *bs {
		out.WriteString(b.Text + b.Content.text())
	}
	return out.String()
}

// writeMessages sends c as a Messages API message, streamed or not.
func writeMessages(w http.ResponseWriter, c *openai.ChatCompletion, stream bool) {
	resp, err := openai.ResponseFromCompletion(c)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "server_error", string(KindMalformedCassette), err.Error())
		return
	}
	m := anthropic.FromResponse(resp, "msg_replay")
	if !stream {
		writeJSONBody(w, http.StatusOK, m)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	anthropic.WriteStream(w, m, func() { _ = rc.Flush() })
}
