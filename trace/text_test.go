package trace

import (
	"strings"
	"testing"
)

func TestRedactText(t *testing.T) {
	cases := []struct{ in, secret string }{
		{`here is my key sk-FAKE-rlm-9f8e7d6c5b4a3210 ok`, "9f8e7d6c5b4a3210"},
		{`Authorization: Bearer tok-FAKE-0f9e8d7c6b`, "0f9e8d7c6b"},
		{`{"api_key": "hunter2hunter2"}`, "hunter2"},
		{`password=correcthorse`, "correcthorse"},
		{`ghp_0123456789abcdefABCDEF`, "0123456789abcdef"},
	}
	for _, c := range cases {
		got := RedactText(c.in)
		if strings.Contains(got, c.secret) || !strings.Contains(got, Redacted) {
			t.Errorf("RedactText(%q) = %q", c.in, got)
		}
	}
	for _, keep := range []string{`{"answer": "42", "max_tokens": 4096, "prompt_tokens": 12}`, "the task is done", `{"steps":[{"op":"final","value":1}]}`} {
		if got := RedactText(keep); got != keep {
			t.Errorf("RedactText(%q) = %q", keep, got)
		}
	}
}
