package scrub

import (
	"strings"
	"testing"
)

const scrubKey = "sk-FAKE/rlm+9f8e7d6c&5b4a3210"

func testScrubber() *Set {
	var sc Set
	sc.Add(scrubKey)
	sc.Add("tiny") // short: exact, errors only
	return &sc
}

func TestScrubberForms(t *testing.T) {
	sc := testScrubber()
	tests := []struct {
		name, in, content, text string
	}{
		{"plain", "a " + scrubKey + " b", "a [redacted] b", "a [redacted] b"},
		{"upper", "a " + strings.ToUpper(scrubKey) + " b", "a [redacted] b", "a [redacted] b"},
		{"json", `a sk-FAKE\/rlm+9f8e7d6c\u00265b4a3210 b`, "a [redacted] b", "a [redacted] b"},
		{"double-escaped", `a \\u0073k-FAKE\\/rlm+9f8e7d6c\\u00265b4a3210 b`, "a [redacted] b", "a [redacted] b"},
		{"uescaped upper hex", `\u0053K-fake/rlm+9F8E7D6C\u00265B4A3210`, "[redacted]", "[redacted]"},
		{"reversed", "0123a4b5&c6d7e8f9+mlr/EKAF-ks", "[redacted]", "[redacted]"},
		{"twice", scrubKey + scrubKey, "[redacted][redacted]", "[redacted][redacted]"},
		{"prefix only", "sk-FAKE/rlm+9f8e7d6c&5b4a321", "sk-FAKE/rlm+9f8e7d6c&5b4a321", "sk-FAKE/rlm+9f8e7d6c&5b4a321"},
		{"short key", "a tiny TINY b", "a tiny TINY b", "a [redacted] TINY b"},
		{"lone backslashes", `\\\u`, `\\\u`, `\\\u`},
		{"empty", "", "", ""},
	}
	for _, tt := range tests {
		if got := sc.Content(tt.in); got != tt.content {
			t.Errorf("%s: content(%q) = %q, want %q", tt.name, tt.in, got, tt.content)
		}
		if got := sc.Text(tt.in); got != tt.text {
			t.Errorf("%s: text(%q) = %q, want %q", tt.name, tt.in, got, tt.text)
		}
	}
	var zero Set
	if got := zero.Content(scrubKey); got != scrubKey {
		t.Errorf("the zero scrubber changed %q", got)
	}
}

// checkPieces checks that scrubbing s in the pieces cut at every step
// bytes gives exactly what scrubbing it whole gives.
func checkPieces(t *testing.T, sc *Set, s string, step int) {
	t.Helper()
	var got strings.Builder
	d := Delta{Set: sc, Emit: func(p string) {
		if p == "" {
			t.Fatal("empty piece emitted")
		}
		got.WriteString(p)
	}}
	for i := 0; i < len(s); i += step {
		d.Add(s[i:min(i+step, len(s))])
	}
	d.Flush()
	if want := sc.Content(s); got.String() != want {
		t.Fatalf("step %d: pieces give %q, whole gives %q", step, got.String(), want)
	}
}

func TestDeltaScrubberMatchesWhole(t *testing.T) {
	sc := testScrubber()
	inputs := []string{
		"the key " + scrubKey + " and " + strings.ToLower(scrubKey) + ".",
		`esc \u0073\u006b\u002d\u0046\u0041\u004b\u0045/rlm+9f8e7d6c\u00265b4a3210 end \`,
		"sk-FAKE/rlm+9f8e7d6c&5b4a321 (one short) " + scrubKey,
		"0123a4b5&c6d7e8f9+mlr/EKAF-ks é ü \\ \\\\ " + scrubKey[:10],
		"😀 \\ud83d\\ude00 \\ud83d " + scrubKey,
	}
	for _, s := range inputs {
		for step := 1; step <= len(s); step++ {
			checkPieces(t, sc, s, step)
		}
	}
}

// FuzzScrub checks, for any text, that streamed scrubbing equals whole
// scrubbing and that no plain or reversed form of the key survives.
func FuzzScrub(f *testing.F) {
	f.Add("a "+scrubKey+" b", 3)
	f.Add(`\u0073k-FAKE\/rlm+9f8e7d6c\u00265b4a3210`, 1)
	f.Add(`\\\\u00`, 2)
	f.Fuzz(func(t *testing.T, s string, step int) {
		if len(s) > 4096 {
			return
		}
		sc := testScrubber()
		step = 1 + (step&0xff)%16
		checkPieces(t, sc, s, step)
		out := sc.Content(s)
		if strings.Contains(strings.ToLower(out), strings.ToLower(scrubKey)) {
			t.Fatalf("key survived: %q", out)
		}
	})
}

func BenchmarkScrubContent(b *testing.B) {
	sc := testScrubber()
	text := strings.Repeat("some ordinary answer text with sk- and \\n escapes; ", 20000)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		sc.Content(text)
	}
}

// TestShortKeyWholeWordOnly: a short placeholder key is scrubbed from
// errors only as a whole word, and not at all when it is the model name.
func TestShortKeyWholeWordOnly(t *testing.T) {
	var sc Set
	sc.Add("x")
	sc.Add("ollama")
	tests := []struct{ in, want string }{
		{"max_tokens must be positive", "max_tokens must be positive"},
		{"bad key x", "bad key [redacted]"},
		{"key=x;", "key=[redacted];"},
		{`model "ollama" not found`, `model "[redacted]" not found`},
		{"ollamas and ollama-2 and xollama", "ollamas and ollama-2 and xollama"},
	}
	for _, tt := range tests {
		if got := sc.Text(tt.in); got != tt.want {
			t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got := sc.Content(tt.in); got != tt.in {
			t.Errorf("Content(%q) = %q, want it unchanged", tt.in, got)
		}
	}
	if got, want := sc.Without("ollama").Text(`model "ollama" not found, bad key x`), `model "ollama" not found, bad key [redacted]`; got != want {
		t.Errorf("Without: %q, want %q", got, want)
	}
	long := "sk-0123456789abcdef0123"
	sc.Add(long)
	if got := sc.Without(long).Text(long); got != Redacted {
		t.Errorf("Without dropped a long secret: %q", got)
	}
}
