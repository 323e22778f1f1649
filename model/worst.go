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

// PromptTokens returns the most req's prompt can count for modelName: the
// text of every message (role, name, content, tool calls) and every tool
// schema counted with the model's tokenizer (internal/tokens: exact for
// the OpenAI encodings, the conservative estimate for any other model),
// plus the chat framing above. Counting parts separately never lowers a
// BPE count, so the sum is not below what a provider counts for the same
// text.
func PromptTokens(req Request, modelName string) int64 {
	c := tokens.ForModel(modelName)
	n := frameReply
	for _, m := range req.Messages {
		n += framePerMessage + c.Count(string(m.Role)) + c.Count(m.Name) + c.Count(m.Content) + c.Count(m.ToolCallID)
		for _, tc := range m.ToolCalls {
			n += framePerToolCall + c.Count(tc.ID) + c.Count(tc.Name) + c.Count(tc.Arguments)
		}
	}
	for _, t := range req.Tools {
		n += framePerTool + c.Count(t.Name) + c.Count(t.Description) + c.Count(string(t.Parameters))
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
