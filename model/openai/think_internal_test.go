package openai

import (
	"strings"
	"testing"
)

func TestSplitThink(t *testing.T) {
	tests := []struct{ in, reasoning, text string }{
		{"<think>a</think>\n\nb", "a", "b"},
		{"  \n<think>a", "a", ""},
		{"no <think>x</think> here", "", "no <think>x</think> here"},
		{"<thin", "", "<thin"},
		{"", "", ""},
		{"<think></think>", "", ""},
		{"<think>a</thi", "a</thi", ""},
	}
	for _, tt := range tests {
		r, s := splitThink(tt.in)
		if r != tt.reasoning || s != tt.text {
			t.Errorf("splitThink(%q) = %q, %q; want %q, %q", tt.in, r, s, tt.reasoning, tt.text)
		}
	}
}

// FuzzThinkSplit checks that splitting a reply piece by piece gives what
// splitting it whole gives, and that nothing is lost.
func FuzzThinkSplit(f *testing.F) {
	f.Add("<think>a</think>\n\nb", 1)
	f.Add(" <thi", 2)
	f.Add("<think>x</thin</think>y", 3)
	f.Fuzz(func(t *testing.T, s string, step int) {
		step = 1 + (step&0xff)%8
		var ts thinkSplit
		var r, text strings.Builder
		for i := 0; i < len(s); i += step {
			text.WriteString(ts.add(s[i:min(i+step, len(s))], &r))
		}
		text.WriteString(ts.finish(&r))
		wr, wt := splitThink(s)
		if r.String() != wr || text.String() != wt {
			t.Fatalf("pieces %q %q, whole %q %q", r.String(), text.String(), wr, wt)
		}
		if !strings.HasPrefix(strings.TrimLeft(s, space), thinkOpen) && wt != s {
			t.Fatalf("text without a leading <think> changed: %q -> %q", s, wt)
		}
	})
}

// FuzzParseErrorBody: any body either is not an error body or gives an
// APIError; it never panics; and the shortcut for bodies that cannot be
// one (mayHoldError) answers as the whole parse does.
func FuzzParseErrorBody(f *testing.F) {
	for _, s := range errorBodies {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ae, ok := ParseErrorBody([]byte(s))
		if ok && ae == nil {
			t.Fatal("ok without an error")
		}
		if _, whole := parseErrorBody([]byte(s)); whole != ok {
			t.Fatalf("%q: ParseErrorBody says %v, the whole parse %v", s, ok, whole)
		}
	})
}

var errorBodies = []string{
	`{"error":"x"}`,
	`{"object":"error","message":"m","code":400}`,
	`{"error":{"message":"m","code":null}}`,
	`{"id":"c","choices":[]}`,
	`{"ERROR":"x"}`,
	`{"eRrOr":{"message":"m"}}`,
	`{"\u0065rror":"x"}`,
	`{"err\u006Fr":{"message":"m"}}`,
	`{"object":"\u0065rror","message":"m"}`,
	`{"Object":"error","message":"m"}`,
	`{"id":"c","object":"chat.completion","choices":[{"message":{"role":"assistant","content":"no"}}]}`,
}

// TestParseErrorBodyShortcut checks the shortcut on bodies spelling
// "error" in other cases and with escapes.
func TestParseErrorBodyShortcut(t *testing.T) {
	for _, s := range errorBodies {
		_, ok := ParseErrorBody([]byte(s))
		if _, whole := parseErrorBody([]byte(s)); whole != ok {
			t.Errorf("%s: ParseErrorBody says %v, the whole parse %v", s, ok, whole)
		}
	}
}
