package fingerprint

import (
	"encoding/json"
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
}

// TestFastCanonicalAgrees pins that the fast path, where it answers,
// produces exactly the bytes of the generic path.
func TestFastCanonicalAgrees(t *testing.T) {
	for _, s := range fastSeeds {
		checkFast(t, []byte(s))
	}
	// The fast path must answer for the common subset.
	for _, s := range []string{fastSeeds[0], fastSeeds[1], fastSeeds[2], fastSeeds[4]} {
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
