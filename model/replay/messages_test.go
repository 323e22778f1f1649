package replay

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/openai"
)

// TestMessagesRequestShapes: /v1/messages reads every request shape the
// Messages API accepts, as an Anthropic client pointed at rlm
// serve-cassette sends them: "system" and "content" as plain strings (the
// usual form), and a tool_result whose content is an array of text
// blocks. Each is matched on its text; none is refused as invalid JSON.
func TestMessagesRequestShapes(t *testing.T) {
	for _, tt := range []struct{ name, body string }{
		{"string system and content", `{"model":"claude-haiku-4-5","max_tokens":64,"system":"You are terse.",
			"messages":[{"role":"user","content":"capital of France?"}]}`},
		{"tool_result content blocks", `{"model":"claude-haiku-4-5","max_tokens":64,
			"system":[{"type":"text","text":"You are terse."}],
			"messages":[{"role":"user","content":[{"type":"text","text":"Look it up."}]},
			{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"lookup","input":{}}]},
			{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"text","text":"capital of France?"}]}]}]}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := NewServer(&Cassette{Version: Version, Interactions: []Interaction{
				Reply("nothing sent matches this", model.Response{Text: "wrong"}),
				Reply("capital of France", model.Response{Text: "Paris."}),
			}})
			defer srv.Close()
			res, err := http.Post(srv.BaseURL()+"/messages", "application/json", strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			raw, _ := io.ReadAll(res.Body)
			if res.StatusCode != http.StatusOK {
				t.Fatalf("HTTP %d: %s", res.StatusCode, raw)
			}
			var m struct {
				Content []struct{ Text string } `json:"content"`
			}
			if err := json.Unmarshal(raw, &m); err != nil || len(m.Content) != 1 || m.Content[0].Text != "Paris." {
				t.Fatalf("answer %s (%v)", raw, err)
			}
		})
	}
}

// TestRecordedSnippetCutsNoSecret: the match snippet is the tail of the
// last user message; when that tail starts inside a key the user pasted,
// what is left of the key (all of it but a few characters) must not reach
// the cassette: the message is scrubbed before it is cut.
func TestRecordedSnippetCutsNoSecret(t *testing.T) {
	const key = "sk-live-0123456789abcdefghijklmnopqrstuvwxyz"
	live := NewServer(&Cassette{Version: Version, Interactions: []Interaction{Reply("", model.Response{Text: "ok"})}})
	defer live.Close()
	rec := NewRecorder(provider(t, live.BaseURL(), func(c *openai.Config) { c.APIKey = key }))
	// The snippet's 200 bytes start 4 bytes into the key.
	msg := "my key is " + key + " " + strings.Repeat("x", MaxMatchSnippet-len(key)+4-1)
	if _, err := rec.Complete(context.Background(), ask(msg, false)); err != nil {
		t.Fatal(err)
	}
	c := rec.Cassette()
	raw, err := c.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if part := key[4:]; strings.Contains(string(raw), part) {
		t.Fatalf("%d bytes of the key in the cassette:\n%s", len(part), raw)
	}
}
