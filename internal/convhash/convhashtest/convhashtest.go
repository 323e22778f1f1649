// Package convhashtest makes the requests the tests of convhash's users
// hash: conversations as runs grow them, and the ways they should not
// fool a memo.
package convhashtest

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"

	"github.com/rlm-go/rlm/model"
)

// Conversations makes n random requests, given to each in turn, the way
// runs send them and the ways they should not fool a memo: conversations
// that grow by a few messages a turn, forks from one prefix, a message of
// the caller's edited in place after it was hashed (each must copy what
// it keeps), max_tokens shrunk, a system message added late, explicit
// marks, tool calls, images (with data), tools whose schema has a
// property named "messages", Extra, text with escapes.
func Conversations(rng *rand.Rand, n int, each func(model.Request)) {
	texts := []string{"", "hi", "line 1\nline 2", `"quoted" <b> & é`, "\u2028x", "{\"steps\":[]}"}
	msg := func(i int) model.Message {
		m := model.Message{Content: texts[rng.IntN(len(texts))] + fmt.Sprint(i)}
		switch rng.IntN(6) {
		case 0:
			m.Role = model.RoleSystem
		case 1, 2:
			m.Role = model.RoleUser
			if rng.IntN(8) == 0 {
				m.Images = []model.Image{{MediaType: "image/png", SHA256: fmt.Sprint(i), Width: i, Height: 2, Data: []byte{byte(i)}}}
			}
		case 3, 4:
			m.Role = model.RoleAssistant
			if rng.IntN(3) == 0 {
				m.ToolCalls = []model.ToolCall{{ID: fmt.Sprint("c", i), Type: "function", Name: "f", Arguments: `{"a":1}`}}
			}
		case 5:
			m.Role, m.ToolCallID = model.RoleTool, fmt.Sprint("c", i)
		}
		m.CacheBreakpoint = rng.IntN(10) == 0
		return m
	}
	zero := 0.0
	var convs [][]model.Message
	for range n {
		var msgs []model.Message
		if len(convs) == 0 || rng.IntN(6) == 0 {
			msgs = []model.Message{{Role: model.RoleSystem, Content: "You are terse.\n"}}
		} else {
			// One of the latest conversations, as a run's turns and its
			// children's go on.
			msgs = convs[len(convs)-1-rng.IntN(min(len(convs), 8))]
			if rng.IntN(5) == 0 && len(msgs) > 1 {
				msgs = msgs[:1+rng.IntN(len(msgs)-1)] // a fork from an earlier prefix
			}
		}
		for range 1 + rng.IntN(3) {
			msgs = append(msgs, msg(len(msgs)))
		}
		if rng.IntN(12) == 0 && len(msgs) > 2 {
			msgs[rng.IntN(len(msgs)-1)].Content += " edited" // in place, in an array keyed before
		}
		convs = append(convs, msgs)
		req := model.Request{Model: "m", Temperature: &zero, Messages: msgs, CachePrefix: rng.IntN(4) != 0, MaxTokens: 100}
		if rng.IntN(6) == 0 {
			req.MaxTokens = 50 + rng.IntN(3)
		}
		if rng.IntN(5) == 0 {
			req.Tools = []model.Tool{{Name: "f", Description: "d", Parameters: json.RawMessage(`{"type":"object","properties":{"messages":{"type":"null"}}}`)}}
		}
		if rng.IntN(15) == 0 {
			req.Extra = map[string]any{"seed": 7}
		}
		each(req)
	}
}
