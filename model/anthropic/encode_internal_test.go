package anthropic

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// hardTexts are strings encoding/json escapes in every way it has.
var hardTexts = []string{"", "plain", "line 1\nline 2\ttab", `"quoted" \ back`, "<b>&amp;</b>", "é 😀 \u2028\u2029",
	"\x00\x1f\x7f", "bad \xff utf-8 \xed\xa0\x80", "  spaced  "}

// checkAppendIsMarshal fails unless appendRequest writes what json.Marshal
// writes for mr, or fails where it fails.
func checkAppendIsMarshal(t *testing.T, mr *MessagesRequest) {
	t.Helper()
	want, wantErr := json.Marshal(mr)
	got, err := appendRequest(mr)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("error %v, encoding/json's %v", err, wantErr)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("appendRequest:\n%s\njson.Marshal:\n%s", got, want)
	}
}

// TestAppendRequestIsMarshal: random requests of every block type and
// field (empty and nil slices, images, marks, tool inputs with spaces and
// HTML, tool results with images, tools, tool choice, temperatures).
func TestAppendRequestIsMarshal(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 6))
	text := func() string { return hardTexts[rng.IntN(len(hardTexts))] }
	var block func(depth int) Block
	block = func(depth int) Block {
		b := Block{Type: []string{"text", "thinking", "tool_use", "tool_result", "image", "other"}[rng.IntN(6)]}
		if rng.IntN(2) == 0 {
			b.Text = text()
		}
		if rng.IntN(4) == 0 {
			b.Thinking, b.Signature = text(), text()
		}
		if rng.IntN(4) == 0 {
			b.ID, b.Name = text(), text()
			b.Input = json.RawMessage([]string{`{}`, `{ "a" : "<x>&" }`, `[1, 2]`, ` {"b":{"c":null}} `}[rng.IntN(4)])
		}
		if rng.IntN(4) == 0 {
			b.ToolUseID, b.Content = text(), text()
		}
		if rng.IntN(5) == 0 && depth == 0 {
			b.ContentBlocks = []Block{block(1), block(1)}
		}
		if rng.IntN(5) == 0 {
			b.Source = &ImageSource{Type: "base64", MediaType: text(), Data: "iVBORw0KGgo+/="}
		}
		if rng.IntN(4) == 0 {
			b.CacheControl = &CacheControl{Type: "ephemeral"}
		}
		return b
	}
	blocks := func() []Block {
		switch rng.IntN(6) {
		case 0:
			return nil
		case 1:
			return []Block{}
		}
		out := make([]Block, 1+rng.IntN(3))
		for i := range out {
			out[i] = block(0)
		}
		return out
	}
	for n := range 3000 {
		mr := MessagesRequest{Model: text(), MaxTokens: rng.IntN(5000) - 10, System: blocks(), Stream: rng.IntN(2) == 0}
		if rng.IntN(10) != 0 {
			mr.Messages = []Message{}
			for range rng.IntN(4) {
				mr.Messages = append(mr.Messages, Message{Role: text(), Content: blocks()})
			}
		}
		if rng.IntN(4) == 0 {
			mr.Tools = []ToolSpec{{Name: text(), Description: text(), InputSchema: json.RawMessage(`{"type": "object"}`)}}
		}
		if rng.IntN(4) == 0 {
			mr.ToolChoice = map[string]string{"type": "tool", "name": text()}
		}
		if rng.IntN(4) == 0 {
			temp := []float64{0, 0.7, 1e-7, 2, math.NaN()}[rng.IntN(5)]
			mr.Temperature = &temp
		}
		t.Run(fmt.Sprint(n), func(t *testing.T) { checkAppendIsMarshal(t, &mr) })
	}
}

func FuzzAppendRequest(f *testing.F) {
	f.Add("claude-sonnet-4-5", "hello\n<b>", "user", `{"a": 1}`, true)
	f.Add("", "", "", "", false)
	f.Fuzz(func(t *testing.T, modelName, text, role, input string, marked bool) {
		b := Block{Type: "text", Text: text, ToolUseID: role, Content: text}
		if json.Valid([]byte(input)) {
			b.Input = json.RawMessage(input)
		}
		if marked {
			b.CacheControl = &CacheControl{Type: text}
			b.Source = &ImageSource{Type: role, MediaType: text, Data: modelName}
		}
		mr := MessagesRequest{Model: modelName, MaxTokens: len(text), System: []Block{{Type: "text", Text: role}},
			Messages: []Message{{Role: role, Content: []Block{b, {Type: text, Thinking: input}}}}}
		checkAppendIsMarshal(t, &mr)
	})
}
