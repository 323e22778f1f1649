package model

import (
	"strings"
	"unicode/utf8"

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

// exactPartBytes is the longest piece an exact BPE encoding counts at
// once: a longer text (a large context slice sent to a sub-call) is cut
// into pieces of at most this size, at whitespace where there is some,
// and their counts summed. A piece boundary only ever prevents a merge,
// so the sum is not below the count of the whole. (Before, longer texts
// were counted with the estimate, which a text of spaced single letters
// or random characters could take below a third of the exact count.)
const exactPartBytes = 64 << 10

// countLong counts s with c, in pieces of at most exactPartBytes when c is
// an exact encoding.
func countLong(c tokens.Counter, s string) int {
	if len(s) <= exactPartBytes || c.Method() != tokens.MethodExact {
		return c.Count(s)
	}
	n := 0
	for len(s) > exactPartBytes {
		cut := exactPartBytes
		if i := strings.LastIndexAny(s[exactPartBytes/2:cut], " \n\t"); i >= 0 {
			cut = exactPartBytes/2 + i // the whitespace starts the next piece
		} else {
			for cut > 0 && !utf8.RuneStart(s[cut]) {
				cut--
			}
		}
		n += c.Count(s[:cut])
		s = s[cut:]
	}
	return n + c.Count(s)
}

// PromptTokens returns the most req's prompt can count for modelName: the
// text of every message (role, name, content, tool calls) and every tool
// schema counted with the model's tokenizer (internal/tokens: exact for
// the OpenAI encodings when the program links package bpe, in pieces of
// at most exactPartBytes; the estimate for any other model and without
// bpe),
// plus the chat framing above, plus each image's tokens by its
// provider's published rule (ImageTokens). Counting parts separately never lowers a
// BPE count, so the sum is not below what a provider counts for the same
// text.
//
// Exact counts of texts of tokens.MemoMinBytes or more are remembered
// (tokens.Memo, bounded and keyed by encoding and a 128-bit hash of the
// text): a conversation only grows, so each turn counts only the messages
// it added, not the whole conversation again.
func PromptTokens(req Request, modelName string) int64 {
	c := tokens.ForModel(modelName)
	count := func(s string) int { return tokens.Memo(c, s, countLong) }
	// A conversation has a few roles and many messages: each role is
	// counted once per call (short texts are not memoized).
	var rolesBuf [4]struct {
		role Role
		n    int
	}
	roles := rolesBuf[:0]
	role := func(r Role) int {
		for _, c := range roles {
			if c.role == r {
				return c.n
			}
		}
		n := count(string(r))
		roles = append(roles, struct {
			role Role
			n    int
		}{r, n})
		return n
	}
	n := frameReply
	for _, m := range req.Messages {
		n += framePerMessage + role(m.Role) + count(m.Name) + count(m.Content) + count(m.ToolCallID)
		for _, tc := range m.ToolCalls {
			n += framePerToolCall + count(tc.ID) + count(tc.Name) + count(tc.Arguments)
		}
		for _, im := range m.Images {
			n += ImageTokens(im, modelName)
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
	count := func(s string) int64 { return int64(tokens.Memo(c, s, countLong)) }
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
