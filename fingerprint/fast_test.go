package fingerprint

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

var fastSeeds = []string{
	`{"b":1,"a":[true,null,"x"]}`,
	` { "z" : 1 , "y" : [ ] , "x" : { } } `,
	`{"type":"object","properties":{"id":{"type":"string","description":"identifier"},"limit":{"type":"integer"}},"required":["id"]}`,
	`{"a":1,"a":2}`, `{"b":{"d":1,"c":2},"a":-7}`, `[1,2,[3,[4]]]`, `"x"`, `-0`, `01`, `1.5`, `1e3`, `"a\"b"`, `"é"`,
	`{"a":1}x`, `{"a":}`, `[1,]`, `{"a" 1}`, `tru`, `nul`, `{"<":"&"}`, `{"a\u0062":1,"ab":2}`, "\"\x7f\"",
	`{"aa":1,"a":2,"a\u0000":3}`, strings.Repeat("[", 300) + strings.Repeat("]", 300), `123456789012345678`, `1234567890123456789`,
	// Strings with escapes and UTF-8, as json.Marshal writes them (HTML
	// escaped) and as other writers do.
	`{"content":"line 1\nline 2\ttab \"q\" \\ \u003ca\u003e \u0026 \u2028 \u0001 é 😀"}`,
	`["\/", "\u00e9", "\u00E9", "\u0041", "\b\f\r", "\u001F", "\u007f", "\ufffd", "\u2029", "\u005c", "\u0022"]`,
	`"\ud83d\ude00"`, `"\ud83d"`, `"\u12"`, `"\u12g4"`, `"\x"`, "\"\xff\"", "\"a\xe2\x80\xa8b\"", "\"\xef\xbf\xbd\"", "\"\x01\"", `"a\`,
	`{"a\n":1}`, `{"b":"\n","a":"\u003c"}`,
}

// TestFastCanonicalAgrees pins that the fast path, where it answers,
// produces exactly the bytes of the generic path.
func TestFastCanonicalAgrees(t *testing.T) {
	for _, s := range fastSeeds {
		checkFast(t, []byte(s))
	}
	// The fast path must answer for the common subset.
	answers := []string{fastSeeds[0], fastSeeds[1], fastSeeds[2], fastSeeds[4]}
	for _, s := range fastSeeds {
		if strings.Contains(s, `"content"`) || strings.HasPrefix(s, `["\/"`) || strings.HasPrefix(s, `{"b":"\n"`) {
			answers = append(answers, s)
		}
	}
	if len(answers) != 7 {
		t.Fatalf("%d seeds the fast path must answer, want 7", len(answers))
	}
	for _, s := range answers {
		if _, ok := fastCanonicalize(nil, []byte(s)); !ok {
			t.Errorf("fast path gave up on %s", s)
		}
	}
}

func checkFast(t *testing.T, in []byte) {
	t.Helper()
	fast, ok := fastCanonicalize([]byte("prefix"), in)
	slow, err := canonicalizeGeneric(in)
	if !ok {
		if string(fast) != "prefix" {
			t.Fatalf("%q: a failed fast path changed dst", in)
		}
		return
	}
	if err != nil {
		t.Fatalf("%q: fast path accepted what the generic path rejects (%v)", in, err)
	}
	if got := string(fast[len("prefix"):]); got != string(slow) {
		t.Fatalf("%q: fast %s, generic %s", in, got, slow)
	}
}

func FuzzFastCanonical(f *testing.F) {
	for _, s := range fastSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) { checkFast(t, in) })
}

func BenchmarkCanonicalRaw(b *testing.B) {
	in := []byte(fastSeeds[2])
	for b.Loop() {
		if _, err := Canonical(json.RawMessage(in)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCanonicalConversation is a request of a 400-turn conversation,
// as json.Marshal writes it (escaped newlines, quotes and HTML), the
// material of the response cache's key each turn.
func BenchmarkCanonicalConversation(b *testing.B) {
	type message struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	}
	var msgs []message
	for i := range 400 {
		msgs = append(msgs, message{"assistant", fmt.Sprintf("{\"steps\":[{\"op\":\"search\",\"pattern\":\"needle %d\"}]}\n", i)},
			message{"user", strings.Repeat(fmt.Sprintf("line %d: <match> & \"quoted\"\tcolumn\n", i), 8)})
	}
	in, err := json.Marshal(map[string]any{"model": "m", "messages": msgs})
	if err != nil {
		b.Fatal(err)
	}
	if _, ok := fastCanonicalize(nil, in); !ok {
		b.Fatal("the fast path gave up")
	}
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		if _, err := Canonical(json.RawMessage(in)); err != nil {
			b.Fatal(err)
		}
	}
}
