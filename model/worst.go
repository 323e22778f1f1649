package model

import (
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/internal/tokens"
)

// Chat framing added to the counted text of a request: OpenAI documents
// about 3 tokens per message and 3 to prime the reply; tool schemas are
// rendered with a few words of wrapping each. The values are rounded up so
// the count stays a worst case.
const (
	framePerMessage  = 5
	framePerToolCall = 8
	framePerTool     = 12
	frameReply       = 3
)

// exactPartBytes is the longest text counted with an exact BPE encoding;
// longer texts (large context slices sent to sub-calls) are counted with
// the conservative estimate, which is never below the exact count and
// runs about a hundred times faster (exact BPE counts about 8 MB/s).
const exactPartBytes = 64 << 10

// PromptTokens returns the most req's prompt can count for modelName: the
// text of every message (role, name, content, tool calls) and every tool
// schema counted with the model's tokenizer (internal/tokens: exact for
// the OpenAI encodings up to exactPartBytes per text when the program links
// package bpe, the conservative estimate for longer texts, for any other
// model and without bpe),
// plus the chat framing above. Counting parts separately never lowers a
// BPE count, so the sum is not below what a provider counts for the same
// text.
func PromptTokens(req Request, modelName string) int64 {
	c := tokens.ForModel(modelName)
	count := func(s string) int {
		if len(s) > exactPartBytes {
			return tokens.Estimator{}.Count(s)
		}
		return c.Count(s)
	}
	n := frameReply
	for _, m := range req.Messages {
		n += framePerMessage + count(string(m.Role)) + count(m.Name) + count(m.Content) + count(m.ToolCallID)
		for _, tc := range m.ToolCalls {
			n += framePerToolCall + count(tc.ID) + count(tc.Name) + count(tc.Arguments)
		}
	}
	for _, t := range req.Tools {
		n += framePerTool + count(t.Name) + count(t.Description) + count(string(t.Parameters))
	}
	return int64(n)
}

// Worst returns req's worst case for budget admission
// (budget.Tracker.Reserve): its prompt tokens (PromptTokens) and its
// max_tokens, priced as modelName, charged at depth.
func Worst(req Request, modelName string, depth int) budget.Worst {
	if req.Model != "" {
		modelName = req.Model
	}
	return budget.Worst{Model: modelName, Depth: depth, PromptTokens: PromptTokens(req, modelName), MaxTokens: int64(req.MaxTokens)}
}

// EstimateUsage returns the usage of a call whose provider reported no
// token counts: the prompt counted as PromptTokens does and the reply
// (text, reasoning, refusal, tool calls) with the model's tokenizer,
// marked TokensEstimated (TokensKnown stays false). The budget tracker
// charges these counts like reported ones. A usage with known tokens is
// returned as it is.
func EstimateUsage(req Request, resp *Response, modelName string) budget.Usage {
	u := resp.Usage
	if u.TokensKnown {
		return u
	}
	if req.Model != "" {
		modelName = req.Model
	}
	c := tokens.ForModel(modelName)
	count := func(s string) int64 {
		if len(s) > exactPartBytes {
			return int64(tokens.Estimator{}.Count(s))
		}
		return int64(c.Count(s))
	}
	out := count(resp.Text) + count(resp.Reasoning) + count(resp.Refusal)
	for _, tc := range resp.ToolCalls {
		out += framePerToolCall + count(tc.Name) + count(tc.Arguments)
	}
	u.PromptTokens = PromptTokens(req, modelName)
	u.CompletionTokens = out
	u.TotalTokens = u.PromptTokens + out
	u.TokensEstimated = true
	if u.Calls == 0 {
		u.Calls = 1
	}
	return u
}
