package model

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rlm-go/rlm/internal/tokens"
)

// longCounts wraps an exact encoding and counts the calls it gets for
// texts long enough to be memoized.
type longCounts struct {
	tokens.Counter
	calls atomic.Int64
}

func (c *longCounts) Count(s string) int {
	if len(s) >= tokens.MemoMinBytes {
		c.calls.Add(1)
	}
	return c.Counter.Count(s)
}

// TestPromptTokensCountsEachTextOnce: a conversation only grows, so a
// turn's request counts only the texts the last turn did not.
func TestPromptTokensCountsEachTextOnce(t *testing.T) {
	orig := tokens.ForModel(tokens.O200kBase)
	if orig.Method() != tokens.MethodExact {
		t.Fatal("o200k_base is not linked (long_test.go imports package bpe)")
	}
	c := &longCounts{Counter: orig}
	tokens.Register(c)
	t.Cleanup(func() { tokens.Register(orig) })

	text := func(i int) string {
		return fmt.Sprintf("%s message %d: %s", t.Name(), i, strings.Repeat("observation of the context ", 8))
	}
	req := Request{Messages: []Message{{Role: RoleSystem, Content: text(0)}, {Role: RoleUser, Content: text(1)}}}
	for i := 2; i < 6; i++ {
		req.Messages = append(req.Messages, Message{Role: RoleAssistant, Content: text(i)})
	}
	first := PromptTokens(req, "gpt-4o")
	if got := c.calls.Load(); got != 6 {
		t.Fatalf("first count: %d long texts counted, want 6", got)
	}
	if again := PromptTokens(req, "gpt-4o"); again != first || c.calls.Load() != 6 {
		t.Errorf("the same request again: %d tokens (want %d), %d long texts counted (want still 6)", again, first, c.calls.Load())
	}
	req.Messages = append(req.Messages, Message{Role: RoleTool, Content: text(6)})
	grown := PromptTokens(req, "gpt-4o")
	if c.calls.Load() != 7 {
		t.Errorf("one message added: %d long texts counted, want 7", c.calls.Load())
	}
	if want := first + int64(framePerMessage+orig.Count(string(RoleTool))+orig.Count(text(6))); grown != want {
		t.Errorf("grown request: %d tokens, want %d", grown, want)
	}
}
