// Package compacttest is the scripted long code-mode session that proves
// the root loop's history compaction (issue 31, item 2): a root model
// whose context window is Window tokens, answering a context-length error
// in the OpenAI shape for any request whose prompt (as model.PromptTokens
// counts it) and max_tokens exceed it, and otherwise replying, turn after
// turn, with a cell that prints about 3.6 KB and adds the turn's number to
// a REPL variable, until turn Turns answers FINAL(total). Summary calls
// (engine.CompactionPrompt) are answered with a short summary. It
// serves as a model.Provider (the library) and as an OpenAI-compatible
// HTTP handler (the binary). Tests only.
package compacttest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/openai"
)

// Session is one scripted session. Its zero value is not usable: set
// Window and Turns.
type Session struct {
	// Window is the model's context window in tokens.
	Window int
	// Turns is the turn that answers; the answer is the sum of 1..Turns-1.
	Turns int

	mu sync.Mutex
	st Stats
}

// Stats is what the session saw.
type Stats struct {
	// RootCalls and SummaryCalls count the requests answered.
	RootCalls, SummaryCalls int
	// Over counts the requests refused as over the window.
	Over int
	// MaxRequest is the largest prompt plus max_tokens of a request.
	MaxRequest int64
	// SawVars reports that a root request held a summary message that
	// listed the REPL variable total.
	SawVars bool
}

// Answer is what the session's last turn answers: the sum of 1..Turns-1.
func (s *Session) Answer() int { return s.Turns * (s.Turns - 1) / 2 }

// Stats returns what the session saw so far.
func (s *Session) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st
}

// SummaryMark opens the system message of a summary call (the engine's
// CompactionPrompt, whose test checks it).
const SummaryMark = "You compact the history of a Recursive Language Model session."

// reply answers one request: its text, or over for a request over the
// window.
func (s *Session) reply(req model.Request) (text string, prompt int64, over bool) {
	prompt = model.PromptTokens(req, req.Model)
	s.mu.Lock()
	defer s.mu.Unlock()
	size := prompt + int64(req.MaxTokens)
	s.st.MaxRequest = max(s.st.MaxRequest, size)
	if size > int64(s.Window) {
		s.st.Over++
		return "", prompt, true
	}
	if len(req.Messages) > 0 && strings.HasPrefix(req.Messages[0].Content, SummaryMark) {
		s.st.SummaryCalls++
		return fmt.Sprintf("Summary %d: every turn printed a block of numbers; the REPL variable total holds the sum of the turn numbers so far.", s.st.SummaryCalls), prompt, false
	}
	for _, m := range req.Messages {
		if m.Role == model.RoleUser && strings.Contains(m.Content, "[History compacted") && strings.Contains(m.Content, "\ntotal: int = ") {
			s.st.SawVars = true
		}
	}
	s.st.RootCalls++
	t := s.st.RootCalls
	if t >= s.Turns {
		return "```python\nFINAL(total)\n```", prompt, false
	}
	return fmt.Sprintf("```python\ntotal = globals().get(\"total\", 0) + %d\nprint(\"turn %d:\", \" \".join(str(%d * 1000 + i) for i in range(600)))\n```", t, t, t), prompt, false
}

// Complete answers req as the model (model.Provider).
func (s *Session) Complete(_ context.Context, req model.Request) (*model.Response, error) {
	text, prompt, over := s.reply(req)
	if over {
		// As the OpenAI provider reports the HTTP handler's answer.
		return nil, fault.New(fault.PhaseProvider, model.KindHTTPStatus, fmt.Sprintf("This model's maximum context length is %d tokens", s.Window)).
			With("status", 400).With("code", "context_length_exceeded")
	}
	completion := model.TextTokens(text, req.Model)
	return &model.Response{Text: text, Meta: model.Meta{Model: req.Model},
		Usage: budget.Usage{PromptTokens: prompt, CompletionTokens: completion, TotalTokens: prompt + completion, TokensKnown: true}}, nil
}

// ServeHTTP answers OpenAI chat-completion requests (not streamed).
func (s *Session) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var cr openai.ChatRequest
	if err := json.Unmarshal(body, &cr); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	req := model.Request{Model: cr.Model, MaxTokens: cr.MaxTokens}
	for _, m := range cr.Messages {
		req.Messages = append(req.Messages, model.Message{Role: model.Role(m.Role), Content: m.Content.Text, Name: m.Name})
	}
	text, prompt, over := s.reply(req)
	w.Header().Set("Content-Type", "application/json")
	if over {
		w.WriteHeader(http.StatusBadRequest)
		msg := fmt.Sprintf("This model's maximum context length is %d tokens. However, you requested %d tokens (%d in the messages, %d in the completion).",
			s.Window, prompt+int64(req.MaxTokens), prompt, req.MaxTokens)
		_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{
			"message": msg, "type": "invalid_request_error", "param": "messages", "code": "context_length_exceeded"}})
		return
	}
	completion := model.TextTokens(text, req.Model)
	_ = json.NewEncoder(w).Encode(openai.ChatCompletion{ID: "chatcmpl-compact", Object: "chat.completion", Model: cr.Model,
		Choices: []openai.Choice{{Message: openai.Message{Role: "assistant", Content: openai.Content{Text: text}}, FinishReason: "stop"}},
		Usage:   &openai.Usage{PromptTokens: prompt, CompletionTokens: completion, TotalTokens: prompt + completion}})
}
