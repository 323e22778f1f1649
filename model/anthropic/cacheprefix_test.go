package anthropic_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/anthropic"
)

// A request with CachePrefix encodes byte for byte as the same request
// with its messages marked by model.MarkCachePrefix, over random
// conversations: system messages anywhere, blank messages (left out, their
// mark moving to the turn before), tool calls and results, and messages
// the caller marked itself (more than the API's four marks).
func TestCachePrefixIsMarkCachePrefix(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 43))
	texts := []string{"", " ", "hi", "Query: 2+2", "\n\n", "the answer is 4"}
	for n := range 2000 {
		var msgs []model.Message
		for i := range 1 + rng.IntN(9) {
			m := model.Message{Content: texts[rng.IntN(len(texts))], CacheBreakpoint: rng.IntN(5) == 0}
			switch rng.IntN(5) {
			case 0:
				m.Role = model.RoleSystem
			case 1, 2:
				m.Role = model.RoleUser
			case 3:
				m.Role = model.RoleAssistant
				if rng.IntN(2) == 0 {
					m.ToolCalls = []model.ToolCall{{ID: fmt.Sprintf("toolu_%d", i), Name: "f", Arguments: `{"a":1}`}}
				}
			case 4:
				m.Role, m.ToolCallID = model.RoleTool, fmt.Sprintf("toolu_%d", i)
			}
			msgs = append(msgs, m)
		}
		before := append([]model.Message(nil), msgs...)
		want, wantErr := anthropic.EncodeRequest(model.Request{Messages: model.MarkCachePrefix(msgs)}, "claude-sonnet-4-5")
		got, err := anthropic.EncodeRequest(model.Request{Messages: msgs, CachePrefix: true}, "claude-sonnet-4-5")
		if (err != nil) != (wantErr != nil) || err != nil && err.Error() != wantErr.Error() {
			t.Fatalf("conversation %d: error %v, want %v", n, err, wantErr)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("conversation %d %+v:\n got %s\nwant %s", n, msgs, got, want)
		}
		for i := range msgs {
			if msgs[i].CacheBreakpoint != before[i].CacheBreakpoint {
				t.Fatalf("conversation %d: message %d's mark changed", n, i)
			}
		}
	}
}
