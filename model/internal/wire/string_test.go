package wire

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestAppendStringEveryByte compares every single byte and every rune
// below U+3000 (and the two line separators) with encoding/json.
func TestAppendStringEveryByte(t *testing.T) {
	var texts []string
	for b := 0; b < 256; b++ {
		texts = append(texts, string([]byte{byte(b)}), "a"+string([]byte{byte(b)})+"z")
	}
	for r := rune(0); r < 0x3000; r++ {
		texts = append(texts, string(r))
	}
	texts = append(texts, "\u2028\u2029", strings.Repeat("x", 1000)+"\u2029", "\xed\xa0\x80", "\xf4\x90\x80\x80")
	for _, s := range texts {
		want, _ := json.Marshal(s)
		if got := AppendString(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("%q: encoded %s, encoding/json %s", s, got, want)
		}
	}
}
