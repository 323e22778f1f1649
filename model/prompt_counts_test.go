package model

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rlm-go/rlm/internal/tokens"
)

// allCounts wraps an encoding and counts every Count call.
type allCounts struct {
	tokens.Counter
	calls atomic.Int64
}

func (c *allCounts) Count(s string) int { c.calls.Add(1); return c.Counter.Count(s) }

// referenceTokens counts req as PromptTokens does, every text counted
// again (no promptCounts, no tokens.Memo).
func referenceTokens(req Request, modelName string) int64 {
	c := tokens.ForModel(modelName)
	count := func(s string) int64 { return int64(countLong(c, s)) }
	n := int64(frameReply)
	for _, m := range req.Messages {
		n += framePerMessage + count(string(m.Role)) + count(m.Name) + count(m.Content) + count(m.ToolCallID)
		for _, tc := range m.ToolCalls {
			n += framePerToolCall + count(tc.ID) + count(tc.Name) + count(tc.Arguments)
		}
		for _, im := range m.Images {
			n += int64(ImageTokens(im, modelName))
		}
	}
	for _, t := range req.Tools {
		n += framePerTool + count(t.Name) + count(t.Description) + count(string(t.Parameters))
	}
	return n
}

// A conversation's next request counts only its new messages: nothing at
// all when it is the same request again (its roles included), one
// message's texts when one was added.
func TestPromptTokensRemembersConversations(t *testing.T) {
	orig := tokens.ForModel(tokens.O200kBase)
	c := &allCounts{Counter: orig}
	tokens.Register(c)
	t.Cleanup(func() { tokens.Register(orig) })
	clearCounts()

	req := Request{Messages: []Message{{Role: RoleSystem, Content: t.Name() + " system"}, {Role: RoleUser, Content: "q"}}}
	for i := range 40 {
		req.Messages = append(req.Messages, Message{Role: RoleAssistant, Content: fmt.Sprintf("turn %d of %s", i, t.Name())})
	}
	first := PromptTokens(req, "gpt-4o")
	calls := c.calls.Load()
	if again := PromptTokens(req, "gpt-4o"); again != first || c.calls.Load() != calls {
		t.Fatalf("the same request again: %d tokens (want %d), %d texts counted (want none)", again, first, c.calls.Load()-calls)
	}
	req.Messages = append(req.Messages, Message{Role: RoleTool, Content: "a new observation", ToolCallID: "c1"})
	grown := PromptTokens(req, "gpt-4o")
	if got := c.calls.Load() - calls; got > 4 { // its role, name, content and call id
		t.Errorf("one message added: %d texts counted, want at most 4", got)
	}
	if want := referenceTokens(req, "gpt-4o"); grown != want {
		t.Errorf("grown request: %d tokens, want %d", grown, want)
	}
}

// Whatever was counted before, PromptTokens is the count of the request
// itself: random conversations that grow, fork, change a message in
// place (content, role, name, tool calls, images, an image's detail), change tools, and
// switch models, each count compared with a count from scratch.
func TestPromptTokensRememberedIsExact(t *testing.T) {
	clearCounts()
	rng := rand.New(rand.NewPCG(1, 2))
	word := func() string {
		w := []string{"alpha", "needle", "the", " ", "line 42", "日本", "x", "observation: 3 hits"}
		var b strings.Builder
		for range rng.IntN(6) {
			b.WriteString(w[rng.IntN(len(w))])
		}
		return b.String()
	}
	roles := []Role{RoleSystem, RoleUser, RoleAssistant, RoleTool}
	message := func() Message {
		m := Message{Role: roles[rng.IntN(len(roles))], Content: word() + strings.Repeat(" context", rng.IntN(8))}
		if rng.IntN(4) == 0 {
			m.Name = word()
		}
		if rng.IntN(5) == 0 {
			m.ToolCalls = []ToolCall{{ID: word(), Type: "function", Name: word(), Arguments: `{"q":"` + word() + `"}`}}
		}
		if rng.IntN(6) == 0 {
			m.Images = []Image{{MediaType: "image/png", Width: 100 + rng.IntN(2000), Height: 100 + rng.IntN(2000), Detail: []string{"", "low", "high"}[rng.IntN(3)]}}
		}
		return m
	}
	models := []string{"gpt-4o", "gpt-4", "claude-sonnet-4-5", "test-model"}
	var convs [][]Message
	var tools []Tool
	for step := range 3000 {
		var msgs []Message
		switch k := rng.IntN(10); {
		case len(convs) == 0 || k == 0: // a new conversation
			msgs = []Message{message(), message(), message()}
		case k <= 5: // the next turn of one
			msgs = append(slices.Clip(convs[rng.IntN(len(convs))]), message())
		case k <= 7: // one changed in place (a copy, so the others keep theirs)
			msgs = slices.Clone(convs[rng.IntN(len(convs))])
			i := rng.IntN(len(msgs))
			switch rng.IntN(7) {
			case 0:
				msgs[i].Content += "!"
			case 1:
				msgs[i].Role = roles[(slices.Index(roles, msgs[i].Role)+1)%len(roles)]
			case 2:
				msgs[i].Name += "n"
			case 3:
				msgs[i].ToolCalls = append(slices.Clip(msgs[i].ToolCalls), ToolCall{ID: "id", Name: "f", Arguments: "{}"})
			case 4:
				msgs[i].Images = append(slices.Clip(msgs[i].Images), Image{Width: 512, Height: 512})
			case 5:
				msgs[i].CacheBreakpoint = !msgs[i].CacheBreakpoint
			case 6:
				if len(msgs[i].Images) > 0 {
					msgs[i].Images = slices.Clone(msgs[i].Images)
					msgs[i].Images[0].Detail = map[string]string{"": "low", "low": "high", "high": ""}[msgs[i].Images[0].Detail]
				}
			}
		case k == 8: // a prefix of one
			c := convs[rng.IntN(len(convs))]
			msgs = c[:rng.IntN(len(c))+1]
		default: // other tools
			tools = append(slices.Clip(tools), Tool{Name: word(), Description: word(), Parameters: json.RawMessage(`{"type":"object","title":"` + word() + `"}`)})
			if rng.IntN(3) == 0 {
				tools = nil
			}
			msgs = convs[rng.IntN(len(convs))]
		}
		convs = append(convs, msgs)
		if len(convs) > 30 {
			convs = convs[1:]
		}
		req := Request{Messages: msgs, Tools: tools}
		name := models[rng.IntN(len(models))]
		if got, want := PromptTokens(req, name), referenceTokens(req, name); got != want {
			t.Fatalf("step %d, %s, %d messages: PromptTokens = %d, counted from scratch %d", step, name, len(msgs), got, want)
		}
	}
}

// Conversations counted at once, from a shared system prompt, each
// growing turn by turn, count what they count alone (run with -race).
func TestPromptTokensRememberedConcurrently(t *testing.T) {
	clearCounts()
	system := Message{Role: RoleSystem, Content: strings.Repeat("You inspect a large input. ", 20)}
	var wg sync.WaitGroup
	for g := range 12 {
		wg.Go(func() {
			msgs := []Message{system, {Role: RoleUser, Content: fmt.Sprintf("question %d", g)}}
			for turn := range 30 {
				msgs = append(msgs, Message{Role: RoleAssistant, Content: fmt.Sprintf("plan %d of %d", turn, g)}, Message{Role: RoleUser, Content: strings.Repeat("observed ", turn%5)})
				req := Request{Messages: msgs}
				if got, want := PromptTokens(req, "gpt-4o"), referenceTokens(req, "gpt-4o"); got != want {
					t.Errorf("conversation %d, turn %d: PromptTokens = %d, counted from scratch %d", g, turn, got, want)
					return
				}
			}
		})
	}
	wg.Wait()
}
