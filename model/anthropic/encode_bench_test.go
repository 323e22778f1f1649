package anthropic_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/anthropic"
)

// BenchmarkEncodeRequest400Turns encodes the request of a 400-turn
// conversation (about 526 KB), which a turn that late writes whole.
func BenchmarkEncodeRequest400Turns(b *testing.B) {
	msgs := []model.Message{{Role: model.RoleSystem, Content: strings.Repeat("system prompt ", 300)}, {Role: model.RoleUser, Content: "q"}}
	for i := range 400 {
		msgs = append(msgs, model.Message{Role: model.RoleAssistant, Content: fmt.Sprintf("{\"steps\":[{\"op\":\"search\",\"pattern\":\"needle %d\"}]}", i)},
			model.Message{Role: model.RoleUser, Content: strings.Repeat(fmt.Sprintf("line %d: routine line of a log file\n", i), 30)})
	}
	req := model.Request{Model: "claude", Messages: msgs, CachePrefix: true}
	n := 0
	for b.Loop() {
		body, _ := anthropic.EncodeRequest(req, "")
		n = len(body)
	}
	b.SetBytes(int64(n))
}
