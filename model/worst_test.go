package model

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/internal/tokens"
)

func TestPromptTokensIsAWorstCase(t *testing.T) {
	sys := "You inspect large inputs through validated plans. " + strings.Repeat("Context line 42: value=17; ", 40)
	req := Request{
		Messages: []Message{
			{Role: RoleSystem, Content: sys},
			{Role: RoleUser, Content: "Find the needle.", Name: "alice"},
			{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "call_1", Name: "search", Arguments: `{"pattern":"needle"}`}}},
			{Role: RoleTool, ToolCallID: "call_1", Content: `[{"offset":42}]`},
		},
		Tools:     []Tool{{Name: "search", Description: "Literal search.", Parameters: json.RawMessage(`{"type":"object"}`)}},
		MaxTokens: 300,
	}
	for _, m := range []string{"gpt-4o-mini", "gpt-4", "llama-3-8b"} {
		n := PromptTokens(req, m)
		var all strings.Builder
		for _, msg := range req.Messages {
			all.WriteString(string(msg.Role) + msg.Name + msg.Content + msg.ToolCallID)
			for _, tc := range msg.ToolCalls {
				all.WriteString(tc.ID + tc.Name + tc.Arguments)
			}
		}
		for _, tl := range req.Tools {
			all.WriteString(tl.Name + tl.Description + string(tl.Parameters))
		}
		for _, enc := range []string{tokens.Cl100kBase, tokens.O200kBase} {
			if exact := int64(tokens.ForModel(enc).Count(all.String())); n < exact {
				t.Errorf("%s: %d below the %s count %d of the same text", m, n, enc, exact)
			}
		}
		// Adding a message or a tool never lowers the count.
		more := req
		more.Messages = append(append([]Message(nil), req.Messages...), Message{Role: RoleUser, Content: "x"})
		if PromptTokens(more, m) <= n {
			t.Errorf("%s: a message added nothing", m)
		}
		w := Worst(req, m, 2)
		if w.PromptTokens != n || w.MaxTokens != 300 || w.Model != m || w.Depth != 2 {
			t.Errorf("%s: worst %+v", m, w)
		}
	}
	if w := Worst(Request{Model: "gpt-4o"}, "fallback", 0); w.Model != "gpt-4o" {
		t.Errorf("the request's model prices the call: %+v", w)
	}
}

// BenchmarkPromptTokens counts a request with one long message: a text
// not counted before (a new prefix each time, as a turn's new message),
// and, "-again", the same request again (tokens.Memo remembers it).
func BenchmarkPromptTokens(b *testing.B) {
	line := "The quick brown fox jumps over the lazy dog 1234. "
	for _, c := range []struct {
		name, model string
		n           int
	}{
		{"exact-60KB", "gpt-4o-mini", 1200},     // counted with o200k_base
		{"estimate-1MB", "gpt-4o-mini", 20_000}, // above exactPartBytes
		{"estimate-60KB", "test-model", 1200},
	} {
		text := strings.Repeat(line, c.n)
		req := func(prefix string) Request {
			return Request{Messages: []Message{{Role: RoleSystem, Content: "sys"}, {Role: RoleUser, Content: prefix + text}}}
		}
		b.Run(c.name, func(b *testing.B) {
			PromptTokens(req(""), c.model) // load the encoding
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				PromptTokens(req(newPrefix()), c.model)
			}
		})
		b.Run(c.name+"-again", func(b *testing.B) {
			r := req("")
			PromptTokens(r, c.model)
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				PromptTokens(r, c.model)
			}
		})
	}
}

// BenchmarkPromptTokensConversation counts the request of a 200-turn
// conversation seen before (its texts memoized, as a run's next turn finds
// them but for the last two): what is left is per message.
func BenchmarkPromptTokensConversation(b *testing.B) {
	req := Request{Messages: []Message{{Role: RoleSystem, Content: strings.Repeat("You inspect a large input. ", 40)}, {Role: RoleUser, Content: "find the needle"}}}
	for i := range 200 {
		req.Messages = append(req.Messages,
			Message{Role: RoleAssistant, Content: fmt.Sprintf(`{"steps":[{"op":"context","handle":{"ref":"input","name":"context"},"action":{"type":"search","pattern":"needle"},"bind":"hits%d"}]}`, i)},
			Message{Role: RoleUser, Content: fmt.Sprintf("Observation %d: 1 hit, line 2001: the needle is here", i)})
	}
	PromptTokens(req, "gpt-4o-mini")
	b.ReportAllocs()
	for b.Loop() {
		PromptTokens(req, "gpt-4o-mini")
	}
}
