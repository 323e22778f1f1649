// Package windowtest is an OpenAI-compatible chat server for tests that
// enforces a context window per model: a request whose prompt plus
// max_tokens counts more than the model's window is answered with the
// OpenAI-shaped context-length error (HTTP 400, error.code
// "context_length_exceeded", a message stating the limit), any other with
// a deterministic answer. It counts the requests it answered and refused.
package windowtest

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/rlm-go/rlm/model"
)

// Server is the handler. Its zero value refuses nothing.
type Server struct {
	// Windows are the windows the server enforces, by exact model name;
	// Default is the window of any other model (0: none).
	Windows map[string]int
	Default int
	// Answer, when set, makes the answer of a request from its model and
	// its last message; default: "seen N tokens, digest H".
	Answer func(model, prompt string) string

	// Counters (read them with Stats).
	requests, refused, answered, promptTokens, completionTokens atomic.Int64

	mu      sync.Mutex
	largest int64 // the largest prompt answered, in tokens
}

// Stats is what a server saw.
type Stats struct {
	Requests, Refused, Answered    int64
	PromptTokens, CompletionTokens int64
	LargestAnsweredPromptTokens    int64
}

// Stats returns the counters so far.
func (s *Server) Stats() Stats {
	s.mu.Lock()
	largest := s.largest
	s.mu.Unlock()
	return Stats{Requests: s.requests.Load(), Refused: s.refused.Load(), Answered: s.answered.Load(),
		PromptTokens: s.promptTokens.Load(), CompletionTokens: s.completionTokens.Load(), LargestAnsweredPromptTokens: largest}
}

type request struct {
	Model     string `json:"model"`
	MaxTokens int    `json:"max_tokens"`
	MaxCompl  int    `json:"max_completion_tokens"`
	Stream    bool   `json:"stream"`
	Messages  []struct {
		Role    string `json:"role"`
		Content any    `json:"content"`
	} `json:"messages"`
}

// text returns a message content's text (a string or content parts).
func text(c any) string {
	switch x := c.(type) {
	case string:
		return x
	case []any:
		var b strings.Builder
		for _, p := range x {
			if m, ok := p.(map[string]any); ok {
				if t, ok := m["text"].(string); ok {
					b.WriteString(t)
				}
			}
		}
		return b.String()
	}
	return ""
}

// ServeHTTP answers POST .../chat/completions.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.requests.Add(1)
	var req request
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Messages) == 0 {
		http.Error(w, `{"error":{"message":"bad request","type":"invalid_request_error"}}`, http.StatusBadRequest)
		return
	}
	// The prompt is counted with the model's tokenizer, message by
	// message, with OpenAI's documented framing (3 tokens a message, 3
	// to prime the reply): never above what model.PromptTokens counts.
	var prompt int64 = 3
	for _, m := range req.Messages {
		prompt += 3 + model.TextTokens(text(m.Content), req.Model)
	}
	out := req.MaxTokens
	if req.MaxCompl > 0 {
		out = req.MaxCompl
	}
	window := s.Default
	if n, ok := s.Windows[req.Model]; ok {
		window = n
	}
	w.Header().Set("Content-Type", "application/json")
	if window > 0 && prompt+int64(out) > int64(window) {
		s.refused.Add(1)
		w.WriteHeader(http.StatusBadRequest)
		msg := fmt.Sprintf("This model's maximum context length is %d tokens. However, you requested %d tokens (%d in the messages, %d in the completion). Please reduce the length of the messages or completion.", window, prompt+int64(out), prompt, out)
		_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{
			"message": msg, "type": "invalid_request_error", "param": "messages", "code": "context_length_exceeded"}})
		return
	}
	last := text(req.Messages[len(req.Messages)-1].Content)
	answer := ""
	if s.Answer != nil {
		answer = s.Answer(req.Model, last)
	} else {
		h := fnv.New32a()
		h.Write([]byte(last))
		answer = fmt.Sprintf("seen %d tokens, digest %08x", prompt, h.Sum32())
	}
	completion := model.TextTokens(answer, req.Model)
	s.answered.Add(1)
	s.promptTokens.Add(prompt)
	s.completionTokens.Add(completion)
	s.mu.Lock()
	s.largest = max(s.largest, prompt)
	s.mu.Unlock()
	_ = json.NewEncoder(w).Encode(map[string]any{
		"id": "chatcmpl-window", "object": "chat.completion", "model": req.Model,
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": answer}}},
		"usage": map[string]any{"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion},
	})
}
