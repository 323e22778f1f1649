package trace

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/fault"
)

// TestRedactTypedCollections: redaction reaches into nested maps and
// slices whatever their Go type (docs/trace.md "Secrets"): a slice of
// maps, a named header map (http.Header), a map of another element type,
// a map of raw JSON.
func TestRedactTypedCollections(t *testing.T) {
	const secret = "sk-FAKE-typed-5678"
	for name, v := range map[string]any{
		"slice of maps":          []map[string]any{{"api_key": secret}},
		"slice of string maps":   []map[string]string{{"X-Api-Key": secret}},
		"http.Header":            http.Header{"Authorization": {"Bearer " + secret}},
		"http.Header secret key": http.Header{"X-Api-Key": {secret}},
		"map of ints":            map[string]int{"password": 123456789},
		"map of raw JSON":        map[string]json.RawMessage{"auth": json.RawMessage(`{"token":"` + secret + `"}`)},
		"nested slices":          [][]any{{map[string]any{"secret": secret}}},
	} {
		t.Run(name, func(t *testing.T) {
			rec := NewRecorder()
			_, sp := Start(WithRecorder(context.Background(), rec), KindNote, "n")
			sp.Set("value", v)
			sp.End(nil)
			js, err := json.Marshal(rec.Events())
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(js), secret) || strings.Contains(string(js), "123456789") {
				t.Fatalf("secret recorded: %s", js)
			}
			if !strings.Contains(string(js), Redacted) {
				t.Fatalf("nothing redacted: %s", js)
			}
		})
	}
	// Plain values keep their type.
	keep := map[string]any{"ids": []int{1, 2}, "raw": []byte("x"), "n": 3}
	got := Redact(keep)
	if _, ok := got["ids"].([]int); !ok {
		t.Errorf("[]int became %T", got["ids"])
	}
	if _, ok := got["raw"].([]byte); !ok {
		t.Errorf("[]byte became %T", got["raw"])
	}
}

// TestReadBadLineNumber: the detail "line" of a JSONL line that is not an
// event counts the file's lines from its first, blank lines included (as
// the viewer counts them).
func TestReadBadLineNumber(t *testing.T) {
	ev := `{"seq":1,"id":"e1","kind":"note","start":"2026-01-01T00:00:00Z","end":"2026-01-01T00:00:00Z","duration_ms":0}`
	for in, want := range map[string]int{
		ev + "\n{bad\n":          2,
		"\n\n" + ev + "\n{bad\n": 4,
		"\n{bad\n":               2,
		ev + "\n\n\n{bad":        4,
	} {
		_, err := Read(strings.NewReader(in))
		fe := fault.As(err)
		if fe == nil || fe.Kind != KindMalformedTrace || fe.Detail["line"] != want {
			t.Errorf("%q: err %v (detail %v), want malformed_trace at line %d", in, err, fe, want)
		}
	}
}

// TestRedactTextPairInsideValue: a key/value pair whose key names a secret
// is redacted wherever it stands, also inside the value of another pair (a
// log line "Error: api_key=…", a URL's query) and when its quoted value
// holds spaces.
func TestRedactTextPairInsideValue(t *testing.T) {
	for _, c := range []struct{ in, secret string }{
		{"Error: api_key=hunter2hunter2 rejected", "hunter2hunter2"},
		{"GET https://api.example/v1/models?api_key=hunter2hunter2&x=1", "hunter2hunter2"},
		{"note=password:hunter2hunter2", "hunter2hunter2"},
		{`{"password": "correct horse battery staple"}`, "battery staple"},
		{`{"client_secret": "abc \"def\" ghi jkl"}`, "ghi jkl"},
	} {
		got := RedactText(c.in)
		if strings.Contains(got, c.secret) || !strings.Contains(got, Redacted) {
			t.Errorf("RedactText(%q) = %q", c.in, got)
		}
	}
	for _, keep := range []string{"url: https://api.example/v1/models?x=1", `{"a": "b c d e", "model": "gpt"}`, "ratio=3:4 done"} {
		if got := RedactText(keep); got != keep {
			t.Errorf("RedactText(%q) = %q", keep, got)
		}
	}
}
