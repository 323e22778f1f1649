package replay

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/model/openai"
)

// recKey has characters JSON escapes ("/" as "\/", "&" as "\u0026").
const recKey = "sk-FAKE/rlm+9f8e7d6c&5b4a3210"

func recForms() map[string]string {
	var u strings.Builder
	for _, r := range recKey {
		fmt.Fprintf(&u, `\u%04x`, r)
	}
	rev := []rune(recKey)
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	js, _ := json.Marshal(recKey)
	return map[string]string{
		"plain":      recKey,
		"json":       strings.ReplaceAll(strings.Trim(string(js), `"`), "/", `\/`),
		"uescaped":   u.String(),
		"reversed":   string(rev),
		"lowercased": strings.ToLower(recKey),
	}
}

// TestRecordedCassetteHasNoSecret (issue 18 item 6): a live server (here a
// replay server on 127.0.0.1) that echoes the configured key inside
// successful completions, in the text and in tool-call arguments, in every
// form, and a user message that quotes the key: the cassette --record
// writes holds no form of it.
func TestRecordedCassetteHasNoSecret(t *testing.T) {
	forms := recForms()
	names := []string{"plain", "json", "uescaped", "reversed", "lowercased"}
	var ins []Interaction
	for _, name := range names {
		f := forms[name]
		text, _ := json.Marshal("the key is " + f)
		args, _ := json.Marshal(map[string]string{"path": f})
		argsJS, _ := json.Marshal(string(args))
		ins = append(ins,
			Interaction{Match: &Match{Contains: "text " + name}, Response: json.RawMessage(
				`{"id":"c","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":` + string(text) + `},"finish_reason":"stop"}]}`)},
			Interaction{Match: &Match{Contains: "tool " + name}, Response: json.RawMessage(
				`{"id":"c","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"fs_read","arguments":` + string(argsJS) + `}}]},"finish_reason":"tool_calls"}]}`)})
	}
	live := NewServer(&Cassette{Version: Version, Interactions: ins})
	defer live.Close()
	rec := NewRecorder(provider(t, live.BaseURL(), func(c *openai.Config) { c.APIKey = recKey }))
	for i, name := range names {
		for _, kind := range []string{"text", "tool"} {
			if _, err := rec.Complete(context.Background(), ask(kind+" "+name+" my key is "+recKey, i%2 == 0)); err != nil {
				t.Fatal(err)
			}
		}
	}
	path := filepath.Join(t.TempDir(), "rec.json")
	if err := rec.Save(path); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Interactions) != 2*len(names) {
		t.Fatalf("recorded %d interactions", len(c.Interactions))
	}
	// The file, and every string in it once decoded.
	texts := []string{string(raw)}
	for _, in := range c.Interactions {
		comp, err := openai.DecodeCompletion(in.Response)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := openai.ResponseFromCompletion(comp)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, resp.Text, in.Match.Contains)
		for _, tc := range resp.ToolCalls {
			texts = append(texts, tc.Arguments)
		}
	}
	for _, s := range texts {
		for name, f := range forms {
			if strings.Contains(strings.ToLower(s), strings.ToLower(f)) {
				t.Errorf("form %s in the cassette: %s", name, s)
			}
		}
	}
	if n := strings.Count(string(raw), "[redacted]"); n < 3*len(names) {
		t.Errorf("%d redactions in the cassette, want at least %d:\n%s", n, 3*len(names), raw)
	}
}
