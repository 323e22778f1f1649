package trace

import (
	"regexp"
	"strings"
	"sync"
)

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

// secretAssignment matches `key = value`, `key: value` and `"key": "value"`
// pairs; the value is redacted when IsSecretKey(key).
var secretAssignment = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`([A-Za-z0-9_\-]{3,64})("?\s*[:=]\s*"?)([^\s"',;}\]]{4,})`)
})

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
	return secretAssignment().ReplaceAllStringFunc(s, func(m string) string {
		sub := secretAssignment().FindStringSubmatch(m)
		if !IsSecretKey(sub[1]) || sub[3] == Redacted {
			return m
		}
		return sub[1] + sub[2] + Redacted
	})
}
