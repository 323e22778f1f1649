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
// A conversation only grows, so each turn counts only the messages it
// added: the counts of the last conversations counted are remembered
// message by message (promptCounts: a message's count is reused when it
// equals the message counted), and exact counts of texts of
// tokens.MemoMinBytes or more are remembered too (tokens.Memo, bounded
// and keyed by encoding and a 128-bit hash of the text), for the
// conversations promptCounts has forgotten.
func PromptTokens(req Request, modelName string) int64 {
	c := tokens.ForModel(modelName)
	r := lookupCounts(modelName, c, req.Messages, req.Tools)
	mc := messageCounter{c: c, model: modelName}
	prompt := r.tokens
	var sums []int64
	keep := len(req.Messages) >= minCounted
	if keep && r.same < len(req.Messages) {
		sums = make([]int64, 0, len(req.Messages)-r.same)
	}
	for i := r.same; i < len(req.Messages); i++ {
		prompt += mc.message(&req.Messages[i])
		if keep {
			sums = append(sums, prompt)
		}
	}
	toolTokens := r.toolTokens
	if !r.sameTools {
		for _, t := range req.Tools {
			toolTokens += framePerTool + mc.count(t.Name) + mc.count(t.Description) + mc.count(string(t.Parameters))
		}
	}
	if keep && (len(sums) > 0 || !r.sameTools) {
		storeCounts(modelName, c, r, req.Messages, sums, req.Tools, toolTokens)
	}
	return frameReply + prompt + toolTokens
}

// messageCounter counts messages as PromptTokens does for one model; a
// conversation has a few roles and many messages, so each role is
// counted once per counter (short texts are not memoized).
type messageCounter struct {
	c     tokens.Counter
	model string
	roles [4]struct {
		role Role
		n    int64
	}
	nroles int
}

// count counts s (tokens.Memo remembers long texts).
func (mc *messageCounter) count(s string) int64 { return int64(tokens.Memo(mc.c, s, countLong)) }

// role counts r once.
func (mc *messageCounter) role(r Role) int64 {
	for _, c := range mc.roles[:mc.nroles] {
		if c.role == r {
			return c.n
		}
	}
	n := mc.count(string(r))
	if mc.nroles < len(mc.roles) {
		mc.roles[mc.nroles].role, mc.roles[mc.nroles].n = r, n
		mc.nroles++
	}
	return n
}

// message returns m's tokens, framing included.
func (mc *messageCounter) message(m *Message) int64 {
	n := framePerMessage + mc.role(m.Role) + mc.count(m.Name) + mc.count(m.Content) + mc.count(m.ToolCallID)
	for _, tc := range m.ToolCalls {
		n += framePerToolCall + mc.count(tc.ID) + mc.count(tc.Name) + mc.count(tc.Arguments)
	}
	for _, im := range m.Images {
		n += int64(ImageTokens(im, mc.model))
	}
	return n
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
