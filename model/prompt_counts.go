package model

import (
	"bytes"
	"slices"
	"sync"

	"github.com/rlm-go/rlm/internal/lru"
	"github.com/rlm-go/rlm/internal/tokens"
)

// promptCounts remembers the token counts of the last conversations
// PromptTokens counted (countEntries of them), message by message, so that
// a conversation's next request, which repeats its messages and adds one
// or two, counts only the new ones and looks the others up in time that
// does not depend on their length: tokens.Memo alone hashed every text of
// the conversation on every count, so an n-turn run spent time quadratic
// in n hashing. A message's count is reused only when the message equals
// the one counted, field by field (strings compared whole, unless they
// are the same string), for the same model and encoding, so a count is
// always the count itself. Requests of fewer than minCounted messages (a
// sub-call, a conversation's first turn) are not remembered, so a fan-out
// does not push its root's conversation out. Entries keep copies of their
// messages (the texts stay alive, at most countEntries conversations).
var promptCounts struct {
	mu      sync.Mutex
	entries [countEntries]*countedPrompt
	tick    uint64
}

const (
	// countEntries is how many conversations promptCounts remembers.
	countEntries = 8
	// minCounted is the fewest messages of a request promptCounts
	// remembers.
	minCounted = 3
)

// countedPrompt is one counted request: the first n messages of a log,
// its tools and their count. It does not change once stored.
type countedPrompt struct {
	model, enc string
	method     string
	log        *countLog
	n          int
	tools      []Tool
	toolTokens int64 // the tokens of tools, framing included
	used       uint64
}

// countLog holds the messages of one conversation and their counts,
// appended to (never changed) by the conversation's next requests: the
// entries of a conversation's turns share it, so remembering a turn
// copies only its new messages.
type countLog struct {
	msgs []Message // copies of the messages
	sums []int64   // sums[i]: the tokens of msgs[:i+1], framing included
}

// remembered is what lookupCounts found: the entry (nil for none), how
// many leading messages it shares with the request and their tokens,
// and its tools' tokens when the tools are the same.
type remembered struct {
	prev       *countedPrompt
	same       int
	tokens     int64
	sameTools  bool
	toolTokens int64
}

// lookupCounts returns the remembered request of modelName and counter c
// sharing the longest run of leading messages with msgs.
func lookupCounts(modelName string, c tokens.Counter, msgs []Message, tools []Tool) remembered {
	enc, method := c.Encoding(), c.Method()
	promptCounts.mu.Lock()
	defer promptCounts.mu.Unlock()
	var r remembered
	for _, e := range promptCounts.entries {
		if e == nil || e.model != modelName || e.enc != enc || e.method != method {
			continue
		}
		n := 0
		for n < e.n && n < len(msgs) && sameCounted(&e.log.msgs[n], &msgs[n]) {
			n++
		}
		if r.prev == nil || n > r.same {
			r.prev, r.same = e, n
		}
	}
	if r.prev == nil {
		return r
	}
	promptCounts.tick++
	r.prev.used = promptCounts.tick
	if r.same > 0 {
		r.tokens = r.prev.log.sums[r.same-1]
	}
	if r.sameTools = slices.EqualFunc(r.prev.tools, tools, sameTool); r.sameTools {
		r.toolTokens = r.prev.toolTokens
	}
	return r
}

// storeCounts remembers a request of modelName and counter c: its
// messages msgs, the first r.same of which it shares with r.prev, the
// counts sums of the others (sums[i] for msgs[r.same+i]), and its tools
// and their count. It takes prev's place when it extends prev, else the
// place of the least recently used entry.
func storeCounts(modelName string, c tokens.Counter, r remembered, msgs []Message, sums []int64, tools []Tool, toolTokens int64) {
	e := &countedPrompt{model: modelName, enc: c.Encoding(), method: c.Method(), n: len(msgs), tools: slices.Clone(tools), toolTokens: toolTokens}
	promptCounts.mu.Lock()
	defer promptCounts.mu.Unlock()
	if p := r.prev; p != nil && r.same == p.n && p.n == len(p.log.msgs) {
		// The request extends the end of p's log: its new messages are
		// appended there (the entries before see only their own).
		e.log = p.log
		e.log.msgs = append(e.log.msgs, msgs[r.same:]...)
		e.log.sums = append(e.log.sums, sums...)
	} else {
		e.log = &countLog{msgs: slices.Clone(msgs), sums: make([]int64, 0, len(msgs))}
		if r.same > 0 {
			e.log.sums = append(e.log.sums, r.prev.log.sums[:r.same]...)
		}
		e.log.sums = append(e.log.sums, sums...)
	}
	promptCounts.tick++
	e.used = promptCounts.tick
	promptCounts.entries[lru.Slot(promptCounts.entries[:], r.prev, r.same > 0, func(e *countedPrompt) uint64 { return e.used })] = e
}

// sameCounted reports whether a and b count the same: every field
// PromptTokens counts is equal (CacheBreakpoint is not counted).
func sameCounted(a, b *Message) bool {
	return a.Role == b.Role && a.Content == b.Content && a.Name == b.Name && a.ToolCallID == b.ToolCallID &&
		slices.Equal(a.ToolCalls, b.ToolCalls) && slices.EqualFunc(a.Images, b.Images, sameImageCount)
}

// sameImageCount reports whether a and b are charged the same by
// ImageTokens (for the same model).
func sameImageCount(a, b Image) bool {
	return a.Width == b.Width && a.Height == b.Height && a.Detail == b.Detail
}

// sameTool reports whether a and b count the same.
func sameTool(a, b Tool) bool {
	return a.Name == b.Name && a.Description == b.Description && bytes.Equal(a.Parameters, b.Parameters)
}

// clearCounts forgets every remembered count (for tests).
func clearCounts() {
	promptCounts.mu.Lock()
	defer promptCounts.mu.Unlock()
	promptCounts.entries = [countEntries]*countedPrompt{}
}
