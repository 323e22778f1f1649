package trace

import (
	"regexp"
	"strings"
	"sync"

	"github.com/rlm-go/rlm/internal/textcut"
)

// ContentBytes bounds the model text a trace keeps in one attribute
// under trace content (engine.Config.TraceContent,
// direct.Config.TraceContent, rlm run --trace-content).
const ContentBytes = 4 << 10

// Content returns text as a trace keeps it under trace content: cut to
// at most n bytes at a UTF-8 boundary, credentials redacted (RedactText;
// the text is redacted contentMargin bytes past the cut first, so a
// credential the cut splits is still found).
func Content(text string, n int) string {
	return textcut.Prefix(RedactText(textcut.Prefix(text, n+contentMargin)), n)
}

// contentMargin is how far past a cut text is redacted.
const contentMargin = 512

// credentialText matches credentials inside free text: an Authorization
// value (Bearer or Basic and what follows), and API keys by their
// well-known prefixes (OpenAI/Anthropic/OpenRouter "sk-", "pk-", "rk-",
// Stripe-style "sk_live_", GitHub "ghp_"/"github_pat_", Slack "xox?-", AWS
// "AKIA", Google "AIza").
// Compiled on first use, not at start-up.
var credentialText = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:bearer|basic)\s+[A-Za-z0-9._~+/=\-]{6,}` +
		`|\b(?:sk|pk|rk)[-_][A-Za-z0-9_\-]{8,}` +
		`|\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{16,}|\bgithub_pat_[A-Za-z0-9_]{16,}` +
		`|\bxox[abprs]-[A-Za-z0-9\-]{8,}|\bAKIA[0-9A-Z]{16}\b|\bAIza[0-9A-Za-z_\-]{30,}`)
})

// secretKey matches the key and separator of `key = value`, `key: value`
// and `"key": "value"` pairs; the value that follows is redacted when
// IsSecretKey(key). It matches no value, so a pair standing inside the
// value of another ("Error: api_key=…", a URL's query) is found too.
var secretKey = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`([A-Za-z0-9_\-]{3,64})("?\s*[:=]\s*"?)`)
})

// secretValue is a value after a secret key: up to a space or punctuation;
// quotedValue one after an opening quote: up to the closing quote.
var (
	secretValue = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[^\s"',;}\]]{4,}`) })
	quotedValue = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:[^"\\\n]|\\.){4,}`) })
)

// RedactText returns s with credential-looking substrings replaced by
// Redacted: Authorization values, API keys with a well-known prefix, and
// the values of key/value pairs whose key names a secret (see
// IsSecretKey). It is for free text that may be shown or recorded, such as
// a model's reply; attribute maps go through Redact.
func RedactText(s string) string {
	if s == "" {
		return s
	}
	s = credentialText().ReplaceAllStringFunc(s, func(m string) string {
		lower := strings.ToLower(m)
		for _, scheme := range []string{"bearer", "basic"} {
			if strings.HasPrefix(lower, scheme) {
				return m[:len(scheme)] + " " + Redacted
			}
		}
		return Redacted
	})
	var b strings.Builder
	last := 0 // s[:last] is decided
	for _, m := range secretKey().FindAllStringSubmatchIndex(s, -1) {
		if m[0] < last || !IsSecretKey(s[m[2]:m[3]]) {
			continue // inside a value already redacted, or no secret
		}
		val := secretValue()
		if strings.HasSuffix(s[m[4]:m[5]], `"`) {
			val = quotedValue()
		}
		v := val.FindStringIndex(s[m[1]:])
		if v == nil || s[m[1]:m[1]+v[1]] == Redacted {
			continue
		}
		b.WriteString(s[last:m[1]])
		b.WriteString(Redacted)
		last = m[1] + v[1]
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}
